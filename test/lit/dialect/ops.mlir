// RUN: ag-opt %s | FileCheck %s
// RUN: ag-opt %s | ag-opt | FileCheck %s
// The ag operations print and parse back.

// CHECK-LABEL: func.func @cond
func.func @cond(%c: tensor<i1>, %a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  // CHECK: %[[R:.*]] = ag.cond %{{.*}} : tensor<i1> -> (tensor<i32>) {
  // CHECK-NEXT: ag.yield %{{.*}} : tensor<i32>
  // CHECK-NEXT: } else {
  // CHECK-NEXT: ag.yield %{{.*}} : tensor<i32>
  // CHECK-NEXT: }
  %r = ag.cond %c : tensor<i1> -> (tensor<i32>) {
    ag.yield %a : tensor<i32>
  } else {
    ag.yield %b : tensor<i32>
  }
  return %r : tensor<i32>
}

// CHECK-LABEL: func.func @cond_no_results
func.func @cond_no_results(%c: i1) {
  // CHECK: ag.cond %{{.*}} : i1 {
  ag.cond %c : i1 {
    ag.yield
  } else {
    ag.yield
  }
  return
}

// CHECK-LABEL: func.func @while_loop
func.func @while_loop(%x: tensor<f32>, %limit: tensor<f32>) -> tensor<f32> {
  // CHECK: ag.while_loop(%{{.*}}) : (tensor<f32>) -> tensor<f32> {
  // CHECK: ag.condition(%{{.*}} : i1) %{{.*}} : tensor<f32>
  // CHECK: } do {
  // CHECK: ag.yield %{{.*}} : tensor<f32>
  %r = ag.while_loop (%x) : (tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    %s = tensor.extract %a[] : tensor<f32>
    %l = tensor.extract %limit[] : tensor<f32>
    %c = arith.cmpf olt, %s, %l : f32
    ag.condition(%c : i1) %a : tensor<f32>
  } do {
  ^bb0(%a: tensor<f32>):
    ag.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// tf.print and tf.Variable state: the ops that no upstream dialect has.
memref.global "private" @v : memref<i32> = dense<5>

// CHECK-LABEL: func.func @effects
func.func @effects(%x: tensor<3xf32>) -> tensor<i32> {
  // CHECK: ag.print %{{.*}} : tensor<3xf32> {end = "\0A", items = ["x =", 0], sep = " ", stream = "stderr", summarize = 3 : i64}
  ag.print %x : tensor<3xf32> {items = ["x =", 0], sep = " ", end = "\n", stream = "stderr", summarize = 3}
  // CHECK: ag.print {end = "", items = ["no tensors"], sep = ",", stream = "stdout", summarize = -1 : i64}
  ag.print {items = ["no tensors"], sep = ",", end = "", stream = "stdout", summarize = -1}
  // CHECK: %[[V:.*]] = ag.variable_read @v : tensor<i32>
  %v = ag.variable_read @v : tensor<i32>
  // CHECK: ag.variable_write @v, %[[V]] : tensor<i32>
  ag.variable_write @v, %v : tensor<i32>
  return %v : tensor<i32>
}

// A check, one with values for its message, and one that guards an op's operands.
// CHECK-LABEL: func.func @checks
// CHECK: ag.assert %arg0, "m.py:1:1: failed"
// CHECK: ag.assert %arg0, "m.py:2:1: {0} of {1}"(%arg1, %arg1) : i64, i64
// CHECK: %[[G:.*]]:2 = ag.assert %arg0, "m.py:3:1: {0}"(%arg1) : i64 guards %arg2, %arg3 : index, tensor<?xf32>
// CHECK: tensor.extract %[[G]]#1[%[[G]]#0]
func.func @checks(%ok: i1, %v: i64, %i: index, %t: tensor<?xf32>) -> f32 {
  ag.assert %ok, "m.py:1:1: failed"
  ag.assert %ok, "m.py:2:1: {0} of {1}"(%v, %v) : i64, i64
  %g:2 = ag.assert %ok, "m.py:3:1: {0}"(%v) : i64 guards %i, %t : index, tensor<?xf32>
  %e = tensor.extract %g#1[%g#0] : tensor<?xf32>
  return %e : f32
}
