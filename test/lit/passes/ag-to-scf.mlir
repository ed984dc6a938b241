// RUN: ag-opt %s -ag-to-scf | FileCheck %s
// RUN: ag-opt %s -ag-to-scf | FileCheck %s --check-prefix=NOAG
// -ag-to-scf: ag.cond => scf.if, ag.while_loop => scf.while; nothing of ag remains.
// NOAG-NOT: ag.

// CHECK-LABEL: func.func @cond
// CHECK: %[[T:.*]] = tensor.extract %arg0[] : tensor<i1>
// CHECK: %[[R:.*]] = scf.if %[[T]] -> (tensor<i32>) {
// CHECK-NEXT: scf.yield %arg1 : tensor<i32>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg2 : tensor<i32>
// CHECK: return %[[R]]
func.func @cond(%c: tensor<i1>, %a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %r = ag.cond %c : tensor<i1> -> (tensor<i32>) {
    ag.yield %a : tensor<i32>
  } else {
    ag.yield %b : tensor<i32>
  }
  return %r : tensor<i32>
}

// An i1 test is used as it is.
// CHECK-LABEL: func.func @cond_i1
// CHECK-NOT: tensor.extract
// CHECK: scf.if %arg0 {
func.func @cond_i1(%c: i1) {
  ag.cond %c : i1 {
    ag.yield
  } else {
    ag.yield
  }
  return
}

// CHECK-LABEL: func.func @while_loop
// CHECK: %[[R:.*]] = scf.while (%[[A:.*]] = %arg0) : (tensor<f32>) -> tensor<f32> {
// CHECK: %[[T:.*]] = tensor.extract %{{.*}}[] : tensor<i1>
// CHECK: scf.condition(%[[T]]) %[[A]] : tensor<f32>
// CHECK: } do {
// CHECK: ^bb0(%[[B:.*]]: tensor<f32>):
// CHECK: scf.yield %[[B]] : tensor<f32>
func.func @while_loop(%x: tensor<f32>, %keep: tensor<i1>) -> tensor<f32> {
  %r = ag.while_loop (%x) : (tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    ag.condition(%keep : tensor<i1>) %a : tensor<f32>
  } do {
  ^bb0(%a: tensor<f32>):
    ag.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// Nested: a cond inside a loop body, both lowered.
// CHECK-LABEL: func.func @nested
// CHECK: scf.while
// CHECK: scf.if
func.func @nested(%x: tensor<f32>, %c: i1, %d: i1) -> tensor<f32> {
  %r = ag.while_loop (%x) : (tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    ag.condition(%c : i1) %a : tensor<f32>
  } do {
  ^bb0(%a: tensor<f32>):
    %n = ag.cond %d : i1 -> (tensor<f32>) {
      ag.yield %a : tensor<f32>
    } else {
      ag.yield %x : tensor<f32>
    }
    ag.yield %n : tensor<f32>
  }
  return %r : tensor<f32>
}
