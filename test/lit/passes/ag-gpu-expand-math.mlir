// RUN: ag-opt %s -pass-pipeline='builtin.module(gpu.module(ag-gpu-expand-math))' | FileCheck %s
// -ag-gpu-expand-math: in a kernel module, rsqrt becomes 1 / sqrt (any float type); float32
// erf a polynomial (fmas, no math.erf), expm1 and log1p the exp and log they are computed
// from (approximated later); float32 sin and cos marked by -ag-gpu-kernel-checks a range
// reduction and polynomials; float64 erf, expm1 and log1p, float32 erfc and unmarked sin
// and cos are left (the loops that use them stay on the host).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @f32_math
    // CHECK-NOT:   math.rsqrt
    // CHECK:       math.sqrt %{{.*}} : f32
    // CHECK:       arith.divf
    // CHECK-NOT:   math.erf %
    // CHECK:       math.fma
    // CHECK-NOT:   math.expm1
    // CHECK:       math.exp %{{.*}} : f32
    // CHECK-NOT:   math.log1p
    // CHECK:       math.log %{{.*}} : f32
    // CHECK:       gpu.return
    gpu.func @f32_math(%x: f32, %out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %a = math.rsqrt %x : f32
      %b = math.erf %x : f32
      %c = math.expm1 %x : f32
      %d = math.log1p %x : f32
      memref.store %a, %out[%c0] : memref<4xf32>
      memref.store %b, %out[%c1] : memref<4xf32>
      memref.store %c, %out[%c2] : memref<4xf32>
      memref.store %d, %out[%c3] : memref<4xf32>
      gpu.return
    }

    // CHECK-LABEL: gpu.func @left_alone
    // CHECK:       math.sqrt %{{.*}} : f64
    // CHECK:       math.erf %{{.*}} : f64
    // CHECK:       math.expm1 %{{.*}} : f64
    // CHECK:       math.log1p %{{.*}} : f64
    // CHECK:       math.erfc %{{.*}} : f32
    gpu.func @left_alone(%x: f64, %y: f32, %out: memref<4xf64>, %o32: memref<f32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %a = math.rsqrt %x : f64
      %b = math.erf %x : f64
      %c = math.expm1 %x : f64
      %d = math.log1p %x : f64
      %e = math.erfc %y : f32
      memref.store %a, %out[%c0] : memref<4xf64>
      memref.store %b, %out[%c1] : memref<4xf64>
      memref.store %c, %out[%c2] : memref<4xf64>
      memref.store %d, %out[%c3] : memref<4xf64>
      memref.store %e, %o32[] : memref<f32>
      gpu.return
    }

    // sin and cos marked by -ag-gpu-kernel-checks (arguments within 105615): range
    // reduction by three parts of pi / 2 and polynomials; unmarked ones are left.
    // CHECK-LABEL: gpu.func @trig
    // CHECK:       math.roundeven
    // CHECK-COUNT-3: math.fma %{{.*}}, %cst{{.*}}, %{{.*}} : f32
    // CHECK-NOT:   math.sin %{{.*}} {ag.kernel_trig}
    // CHECK-NOT:   math.cos %{{.*}} {ag.kernel_trig}
    // CHECK:       math.sin %{{.*}} : f32
    // CHECK-NEXT:  math.cos %{{.*}} : f64
    // CHECK:       gpu.return
    gpu.func @trig(%x: f32, %y: f64, %out: memref<3xf32>, %out64: memref<1xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %a = math.sin %x {ag.kernel_trig} : f32
      %b = math.cos %x {ag.kernel_trig} : f32
      %c = math.sin %x : f32
      %d = math.cos %y : f64
      memref.store %a, %out[%c0] : memref<3xf32>
      memref.store %b, %out[%c1] : memref<3xf32>
      memref.store %c, %out[%c2] : memref<3xf32>
      memref.store %d, %out64[%c0] : memref<1xf64>
      gpu.return
    }
  }
}
