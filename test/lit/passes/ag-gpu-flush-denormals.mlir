// RUN: ag-opt %s -pass-pipeline='builtin.module(gpu.module(ag-gpu-flush-denormals))' | FileCheck %s
// -ag-gpu-flush-denormals: every function defined in a kernel module flushes float32
// denormals (the NVPTX back end then writes .ftz), as the host's calls do; a declaration
// is left as it is, and so is a function outside the kernel modules. A bfloat16
// comparison compares the float32 extensions (ptxas has no setp.ftz.bf16).

// CHECK-LABEL: gpu.module @kernels
// CHECK:       llvm.func internal @__nv_sqrtf(%{{.*}}: f32) -> f32 attributes {denormal_fp_math_f32 = "preserve-sign,preserve-sign"}
// CHECK:       llvm.func @__nv_other(f32) -> f32{{$}}
// CHECK:       llvm.func @kernel(%{{.*}}: f32) -> f32 attributes {denormal_fp_math_f32 = "preserve-sign,preserve-sign", gpu.kernel, nvvm.kernel}
// CHECK:       llvm.func @compare_bf16(%[[A:.*]]: bf16, %[[B:.*]]: bf16, %[[C:.*]]: f16)
// CHECK-NEXT:    %[[IA:.*]] = llvm.bitcast %[[A]] : bf16 to i16
// CHECK-NEXT:    %[[ZA:.*]] = llvm.zext %[[IA]] : i16 to i32
// CHECK-NEXT:    %[[S:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT:    %[[HA:.*]] = llvm.shl %[[ZA]], %[[S]] : i32
// CHECK-NEXT:    %[[EA:.*]] = llvm.bitcast %[[HA]] : i32 to f32
// CHECK:         %[[EB:.*]] = llvm.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT:    llvm.fcmp "une" %[[EA]], %[[EB]] : f32
// CHECK-NEXT:    llvm.fcmp "olt" %[[C]], %[[C]] : f16
// CHECK:       llvm.func @host(%{{.*}}: f32) -> f32 {
gpu.module @kernels {
  llvm.func internal @__nv_sqrtf(%x: f32) -> f32 {
    %r = llvm.intr.sqrt(%x) : (f32) -> f32
    llvm.return %r : f32
  }
  llvm.func @__nv_other(f32) -> f32
  llvm.func @kernel(%x: f32) -> f32 attributes {gpu.kernel, nvvm.kernel} {
    %r = llvm.call @__nv_sqrtf(%x) : (f32) -> f32
    llvm.return %r : f32
  }
  llvm.func @compare_bf16(%a: bf16, %b: bf16, %c: f16) -> i1 {
    %r = llvm.fcmp "une" %a, %b : bf16
    %s = llvm.fcmp "olt" %c, %c : f16
    %t = llvm.and %r, %s : i1
    llvm.return %t : i1
  }
}
llvm.func @host(%x: f32) -> f32 {
  llvm.return %x : f32
}
