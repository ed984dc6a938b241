// RUN: ag-opt %s -ag-approximate-exp -canonicalize | FileCheck %s
// -ag-approximate-exp: float32 exp becomes arith and math.fma (a polynomial LLVM
// vectorizes), guarded so that small inputs give subnormal results or exactly 0; float64
// exp and other functions are left to libm. (-canonicalize gathers the constants first.)

// CHECK-LABEL: func.func @scalar
// CHECK-NOT: math.exp
// The guard: below -87 the input is shifted up by 32 ln2 and the result scaled by 2^-32.
// CHECK-DAG: %[[SMALL_BOUND:.*]] = arith.constant -8.700000e+01 : f32
// CHECK-DAG: %[[ZERO_BOUND:.*]] = arith.constant -1.040000e+02 : f32
// CHECK-DAG: %[[SHIFT:.*]] = arith.constant 22.1807098 : f32
// CHECK-DAG: %[[SCALE:.*]] = arith.constant 2.32830644E-10 : f32
// CHECK-DAG: %[[ZERO_VALUE:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[SMALL:.*]] = arith.cmpf olt, %arg0, %[[SMALL_BOUND]] : f32
// CHECK: %[[SHIFTED:.*]] = arith.addf %arg0, %[[SHIFT]] : f32
// CHECK: %[[IN:.*]] = arith.select %[[SMALL]], %[[SHIFTED]], %arg0 : f32
// The polynomial, on the guarded input.
// CHECK: math.floor
// CHECK: math.fma
// CHECK: arith.shli
// CHECK: %[[POLY:.*]] = arith.mulf
// CHECK: %[[S:.*]] = arith.select %[[SMALL]], %[[SCALE]], %{{.*}} : f32
// CHECK: %[[SCALED:.*]] = arith.mulf %[[POLY]], %[[S]] : f32
// CHECK: %[[ZERO:.*]] = arith.cmpf olt, %arg0, %[[ZERO_BOUND]] : f32
// CHECK: %[[R:.*]] = arith.select %[[ZERO]], %[[ZERO_VALUE]], %[[SCALED]] : f32
// CHECK: return %[[R]] : f32
func.func @scalar(%x: f32) -> f32 {
  %y = math.exp %x : f32
  return %y : f32
}

// Vectors of f32 too, with splat constants.
// CHECK-LABEL: func.func @vector
// CHECK-NOT: math.exp
// CHECK: arith.constant dense<-8.700000e+01> : vector<16xf32>
// CHECK: math.fma {{.*}} : vector<16xf32>
func.func @vector(%x: vector<16xf32>) -> vector<16xf32> {
  %y = math.exp %x : vector<16xf32>
  return %y : vector<16xf32>
}

// CHECK-LABEL: func.func @others
// CHECK: math.exp %arg0 : f64
// CHECK: math.tanh %arg1 : f32
// CHECK: math.exp %arg2 : tensor<4xf32>
func.func @others(%d: f64, %t: f32, %u: tensor<4xf32>) -> (f64, f32, tensor<4xf32>) {
  %a = math.exp %d : f64
  %b = math.tanh %t : f32
  %c = math.exp %u : tensor<4xf32>
  return %a, %b, %c : f64, f32, tensor<4xf32>
}
