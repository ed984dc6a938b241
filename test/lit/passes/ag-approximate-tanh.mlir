// RUN: ag-opt %s -ag-approximate-tanh -canonicalize | FileCheck %s
// -ag-approximate-tanh: float32 tanh (scalars and vectors) becomes arith and math.fma, the
// rational function TensorFlow's Eigen kernels use; float64 tanh is left to libm.

// CHECK-LABEL: func.func @scalar
// CHECK-NOT: math.tanh
// The clamp, the tiny inputs that are their own tanh, and the ratio of two polynomials.
// CHECK-DAG: arith.constant 4.000000e-04 : f32
// CHECK: math.fma
// CHECK: arith.divf
// CHECK: arith.select
// CHECK-NOT: math.tanh
func.func @scalar(%x: f32) -> f32 {
  %y = math.tanh %x : f32
  return %y : f32
}

// CHECK-LABEL: func.func @vector
// CHECK-NOT: math.tanh
// CHECK: math.fma {{.*}} : vector<8xf32>
// CHECK: arith.divf {{.*}} : vector<8xf32>
func.func @vector(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.tanh %x : vector<8xf32>
  return %y : vector<8xf32>
}

// CHECK-LABEL: func.func @double
// CHECK: math.tanh %{{.*}} : f64
func.func @double(%x: f64) -> f64 {
  %y = math.tanh %x : f64
  return %y : f64
}
