// RUN: ag-opt %s -canonicalize | FileCheck %s
// The canonicalizations of ag.cond: a constant test picks its branch; unused results go.

// ag.cond(true) {a} else {b} => a
// CHECK-LABEL: func.func @constant_true
// CHECK-NOT: ag.cond
// CHECK: return %arg0
func.func @constant_true(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %true = arith.constant true
  %r = ag.cond %true : i1 -> (tensor<i32>) {
    ag.yield %a : tensor<i32>
  } else {
    ag.yield %b : tensor<i32>
  }
  return %r : tensor<i32>
}

// A 0-d tensor constant works too, and false picks the else branch.
// CHECK-LABEL: func.func @constant_false_tensor
// CHECK-NOT: ag.cond
// CHECK: return %arg1
func.func @constant_false_tensor(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %false = arith.constant dense<false> : tensor<i1>
  %r = ag.cond %false : tensor<i1> -> (tensor<i32>) {
    ag.yield %a : tensor<i32>
  } else {
    ag.yield %b : tensor<i32>
  }
  return %r : tensor<i32>
}

// The second result is never used: it and its yielded values are dropped.
// CHECK-LABEL: func.func @unused_result
// CHECK: %[[R:.*]] = ag.cond %arg0 : i1 -> (tensor<i32>) {
// CHECK-NEXT: ag.yield %arg1 : tensor<i32>
// CHECK-NEXT: } else {
// CHECK-NEXT: ag.yield %arg2 : tensor<i32>
// CHECK: return %[[R]]
func.func @unused_result(%c: i1, %a: tensor<i32>, %b: tensor<i32>, %x: tensor<f32>) -> tensor<i32> {
  %r:2 = ag.cond %c : i1 -> (tensor<i32>, tensor<f32>) {
    ag.yield %a, %x : tensor<i32>, tensor<f32>
  } else {
    ag.yield %b, %x : tensor<i32>, tensor<f32>
  }
  return %r#0 : tensor<i32>
}

// A check that guards values is erased with the op that uses them, as TensorFlow prunes
// an op whose result nothing uses (and never raises its error); one that guards nothing
// (tf.debugging.assert_*) and one whose results are used stay.
// CHECK-LABEL: func.func @guarded_checks
// CHECK-NOT: "m.py:1:1
// CHECK: ag.assert %arg0, "m.py:2:1: kept"
// CHECK: %[[G:.*]] = ag.assert %arg0, "m.py:3:1: used" guards %arg1 : index
// CHECK: tensor.extract %arg2[%[[G]]]
func.func @guarded_checks(%ok: i1, %i: index, %t: tensor<?xf32>) -> f32 {
  %dead = ag.assert %ok, "m.py:1:1: dead" guards %i : index
  %unused = tensor.extract %t[%dead] : tensor<?xf32>
  ag.assert %ok, "m.py:2:1: kept"
  %g = ag.assert %ok, "m.py:3:1: used" guards %i : index
  %e = tensor.extract %t[%g] : tensor<?xf32>
  return %e : f32
}
