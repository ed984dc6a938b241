// RUN: ag-opt %s -ag-approximate-log -canonicalize | FileCheck %s
// -ag-approximate-log: float32 log (scalars and vectors) becomes arith and math.fma, the
// polynomial TensorFlow's Eigen kernels use; float64 log is left to libm.

// CHECK-LABEL: func.func @scalar
// CHECK-NOT: math.log
// The exponent from the bits, a polynomial on the mantissa, and the special cases.
// CHECK: arith.bitcast
// CHECK: math.fma
// CHECK: arith.select
// CHECK-NOT: math.log
func.func @scalar(%x: f32) -> f32 {
  %y = math.log %x : f32
  return %y : f32
}

// CHECK-LABEL: func.func @vector
// CHECK-NOT: math.log
// CHECK: math.fma {{.*}} : vector<8xf32>
func.func @vector(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.log %x : vector<8xf32>
  return %y : vector<8xf32>
}

// CHECK-LABEL: func.func @double
// CHECK: math.log %{{.*}} : f64
func.func @double(%x: f64) -> f64 {
  %y = math.log %x : f64
  return %y : f64
}
