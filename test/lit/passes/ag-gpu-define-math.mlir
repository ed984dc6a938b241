// RUN: ag-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(gpu.module(ag-gpu-define-math))' | FileCheck %s
// -ag-gpu-define-math: the libdevice functions a kernel calls that are one instruction
// get an internal body, LLVM's intrinsic; any other libdevice function is an error.

// CHECK-LABEL: gpu.module @kernels
// CHECK:       llvm.func internal @__nv_fmaf(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32) -> f32
// CHECK-NEXT:    %[[R:.*]] = llvm.intr.fma(%[[A]], %[[B]], %[[C]]) : (f32, f32, f32) -> f32
// CHECK-NEXT:    llvm.return %[[R]] : f32
// CHECK:       llvm.func internal @__nv_floorf(
// CHECK-NEXT:    llvm.intr.floor
// CHECK:       llvm.func internal @__nv_fabs(%{{.*}}: f64) -> f64
// CHECK-NEXT:    llvm.intr.fabs
// CHECK:       llvm.func internal @__nv_copysignf(
// CHECK-NEXT:    llvm.intr.copysign
// CHECK:       llvm.func internal @__nv_sqrtf(
// CHECK-NEXT:    llvm.intr.sqrt
// The kernel itself is untouched.
// CHECK:       llvm.func @kernel(
// CHECK:         llvm.call @__nv_fmaf
gpu.module @kernels {
  llvm.func @__nv_fmaf(f32, f32, f32) -> f32
  llvm.func @__nv_floorf(f32) -> f32
  llvm.func @__nv_fabs(f64) -> f64
  llvm.func @__nv_copysignf(f32, f32) -> f32
  llvm.func @__nv_sqrtf(f32) -> f32
  llvm.func @kernel(%x: f32) -> f32 {
    %r = llvm.call @__nv_fmaf(%x, %x, %x) : (f32, f32, f32) -> f32
    llvm.return %r : f32
  }
}

// -----

gpu.module @needs_libdevice {
  // expected-error @+1 {{a kernel calls libdevice's __nv_sinf, which agc does not define}}
  llvm.func @__nv_sinf(f32) -> f32
}
