// RUN: ag-opt %s -ag-scalarize-carried | FileCheck %s
// RUN: ag-opt %s -ag-scalarize-carried -canonicalize | FileCheck %s --check-prefix=CANON
// -ag-scalarize-carried: 0-d tensors carried by scf.while and scf.if become their
// elements; canonicalize then removes the extract/from_elements pairs, so that no
// buffer is left for bufferization to allocate in each iteration.

// CHECK-LABEL: func.func @if_scalar
// CHECK: %[[R:.*]] = scf.if %arg0 -> (i64) {
// CHECK-NEXT: %[[A:.*]] = tensor.extract %arg1[] : tensor<i64>
// CHECK-NEXT: scf.yield %[[A]] : i64
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[B:.*]] = tensor.extract %arg2[] : tensor<i64>
// CHECK-NEXT: scf.yield %[[B]] : i64
// CHECK: %[[T:.*]] = tensor.from_elements %[[R]] : tensor<i64>
// CHECK: return %[[T]]
func.func @if_scalar(%c: i1, %a: tensor<i64>, %b: tensor<i64>) -> tensor<i64> {
  %r = scf.if %c -> (tensor<i64>) {
    scf.yield %a : tensor<i64>
  } else {
    scf.yield %b : tensor<i64>
  }
  return %r : tensor<i64>
}

// Only 0-d tensors: a tensor<3xf32> result stays a tensor.
// CHECK-LABEL: func.func @if_mixed
// CHECK: scf.if %arg0 -> (tensor<3xf32>, f32)
func.func @if_mixed(%c: i1, %v: tensor<3xf32>, %s: tensor<f32>) -> (tensor<3xf32>, tensor<f32>) {
  %r:2 = scf.if %c -> (tensor<3xf32>, tensor<f32>) {
    scf.yield %v, %s : tensor<3xf32>, tensor<f32>
  } else {
    scf.yield %v, %s : tensor<3xf32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<3xf32>, tensor<f32>
}

// A counting loop: while k > 1 { k = k - 1; n = n + 1 }.
// CHECK-LABEL: func.func @while_scalar
// CHECK: %[[K0:.*]] = tensor.extract %arg0[] : tensor<i64>
// CHECK: scf.while (%[[K:.*]] = %[[K0]], %{{.*}} = %{{.*}}) : (i64, i64) -> (i64, i64)
// CHECK: tensor.from_elements %[[K]] : tensor<i64>
// CHECK: scf.condition
// CHECK: ^bb0(%{{.*}}: i64, %{{.*}}: i64):
// CHECK: scf.yield %{{.*}}, %{{.*}} : i64, i64
// CHECK: tensor.from_elements

// After canonicalize: the loop is scalar code.
// CANON-LABEL: func.func @while_scalar
// CANON: scf.while (%[[K:.*]] = %{{.*}}, %[[N:.*]] = %c0_i64) : (i64, i64) -> (i64, i64) {
// CANON-NEXT: %[[T:.*]] = arith.cmpi sgt, %[[K]], %c1_i64 : i64
// CANON-NEXT: scf.condition(%[[T]]) %[[K]], %[[N]] : i64, i64
// CANON-NEXT: } do {
// CANON-NEXT: ^bb0(%[[K2:.*]]: i64, %[[N2:.*]]: i64):
// CANON-NEXT: %[[K3:.*]] = arith.subi %[[K2]], %c1_i64 : i64
// CANON-NEXT: %[[N3:.*]] = arith.addi %[[N2]], %c1_i64 : i64
// CANON-NEXT: scf.yield %[[K3]], %[[N3]] : i64, i64
// CANON: %[[R:.*]] = tensor.from_elements %{{.*}}#1 : tensor<i64>
// CANON: return %[[R]]
func.func @while_scalar(%k0: tensor<i64>) -> tensor<i64> {
  %zero = arith.constant dense<0> : tensor<i64>
  %one = arith.constant 1 : i64
  %r:2 = scf.while (%k = %k0, %n = %zero) : (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>) {
    %kv = tensor.extract %k[] : tensor<i64>
    %more = arith.cmpi sgt, %kv, %one : i64
    scf.condition(%more) %k, %n : tensor<i64>, tensor<i64>
  } do {
  ^bb0(%k: tensor<i64>, %n: tensor<i64>):
    %kv = tensor.extract %k[] : tensor<i64>
    %nv = tensor.extract %n[] : tensor<i64>
    %k1 = arith.subi %kv, %one : i64
    %n1 = arith.addi %nv, %one : i64
    %kt = tensor.from_elements %k1 : tensor<i64>
    %nt = tensor.from_elements %n1 : tensor<i64>
    scf.yield %kt, %nt : tensor<i64>, tensor<i64>
  }
  return %r#1 : tensor<i64>
}
