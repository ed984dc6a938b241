// RUN: ag-opt %s -ag-exact-powers | FileCheck %s
// -ag-exact-powers: powf with a constant exponent of 2, 1, 0 or -1 is x * x, x, 1 or
// 1 / x (one correctly rounded operation, powf's special values); any other exponent,
// or one known only at run time, keeps powf.

// CHECK-LABEL: func.func @exact
// CHECK-SAME:  (%[[X:.*]]: f32)
// CHECK-DAG:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:   %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-DAG:   %[[INV:.*]] = arith.divf %[[ONE]], %[[X]] : f32
// CHECK-NOT:   math.powf
// CHECK:       return %[[SQ]], %[[X]], %[[ONE]], %[[INV]]
func.func @exact(%x: f32) -> (f32, f32, f32, f32) {
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %zero = arith.constant -0.0 : f32
  %minus_one = arith.constant -1.0 : f32
  %a = math.powf %x, %two : f32
  %b = math.powf %x, %one : f32
  %c = math.powf %x, %zero : f32
  %d = math.powf %x, %minus_one : f32
  return %a, %b, %c, %d : f32, f32, f32, f32
}

// CHECK-LABEL: func.func @kept
// CHECK-COUNT-3: math.powf
func.func @kept(%x: f64, %y: f64) -> (f64, f64, f64) {
  %half = arith.constant 0.5 : f64
  %three = arith.constant 3.0 : f64
  %a = math.powf %x, %half : f64
  %b = math.powf %x, %three : f64
  %c = math.powf %x, %y : f64
  return %a, %b, %c : f64, f64, f64
}
