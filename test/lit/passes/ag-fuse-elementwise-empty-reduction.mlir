// RUN: ag-opt %s -ag-fuse-elementwise | FileCheck %s
// -ag-fuse-elementwise and reductions that may have no iterations. Fusing a constant
// input (a fill) into a reduction leaves a payload that ignores its accumulator (`false
// and acc` is `false`), and upstream's fusion patterns then give the op a tensor.empty
// init: for zero elements the result would be read from uninitialized memory, where it is
// the init (TensorFlow: reduce_all of nothing is True). The pass keeps the init there.

#in = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>
#in2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A dynamic size: the init where the reduction loop has no iterations, else the fused op
// on a tensor.empty init.
// CHECK-LABEL: func.func @all_of_falses
// CHECK-SAME:  (%[[N:.*]]: index)
// CHECK:       %[[TRUE:.*]] = linalg.fill ins(%true{{.*}}) outs(%{{.*}} : tensor<i1>)
// CHECK:       %[[EMPTY:.*]] = arith.cmpi eq, %{{.*}}, %c0
// CHECK:       %[[R:.*]] = scf.if %[[EMPTY]] -> (tensor<i1>) {
// CHECK-NEXT:    scf.yield %[[TRUE]]
// CHECK-NEXT:  } else {
// CHECK:         %[[NONE:.*]] = tensor.empty() : tensor<i1>
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} outs(%[[NONE]] : tensor<i1>)
// CHECK:           linalg.yield %false
// CHECK:         scf.yield %[[G]]
// CHECK:       return %[[R]]
func.func @all_of_falses(%n: index) -> tensor<i1> {
  %false = arith.constant false
  %true = arith.constant true
  %e = tensor.empty(%n) : tensor<?xi1>
  %x = linalg.fill ins(%false : i1) outs(%e : tensor<?xi1>) -> tensor<?xi1>
  %e0 = tensor.empty() : tensor<i1>
  %init = linalg.fill ins(%true : i1) outs(%e0 : tensor<i1>) -> tensor<i1>
  %r = linalg.reduce ins(%x : tensor<?xi1>) outs(%init : tensor<i1>) dimensions = [0]
    (%in: i1, %acc: i1) {
      %a = arith.andi %in, %acc : i1
      linalg.yield %a : i1
    }
  return %r : tensor<i1>
}

// A reduction dimension of size 0 known while compiling: the result is the init.
// CHECK-LABEL: func.func @rows_of_nothing
// CHECK:       %[[INIT:.*]] = linalg.fill ins(%true{{.*}}) outs(%{{.*}} : tensor<3xi1>)
// CHECK-NOT:   linalg.generic
// CHECK:       return %[[INIT]]
func.func @rows_of_nothing() -> tensor<3xi1> {
  %false = arith.constant false
  %true = arith.constant true
  %e = tensor.empty() : tensor<3x0xi1>
  %x = linalg.fill ins(%false : i1) outs(%e : tensor<3x0xi1>) -> tensor<3x0xi1>
  %e0 = tensor.empty() : tensor<3xi1>
  %init = linalg.fill ins(%true : i1) outs(%e0 : tensor<3xi1>) -> tensor<3xi1>
  %r = linalg.reduce ins(%x : tensor<3x0xi1>) outs(%init : tensor<3xi1>) dimensions = [1]
    (%in: i1, %acc: i1) {
      %a = arith.andi %in, %acc : i1
      linalg.yield %a : i1
    }
  return %r : tensor<3xi1>
}

// A static, nonempty reduction iterates: upstream's tensor.empty init stands.
// CHECK-LABEL: func.func @all_of_four_falses
// CHECK-NOT:   scf.if
// CHECK:       linalg.generic {{.*}} outs(%{{.*}} : tensor<i1>)
// CHECK:       linalg.yield %false
func.func @all_of_four_falses() -> tensor<i1> {
  %false = arith.constant false
  %true = arith.constant true
  %e = tensor.empty() : tensor<4xi1>
  %x = linalg.fill ins(%false : i1) outs(%e : tensor<4xi1>) -> tensor<4xi1>
  %e0 = tensor.empty() : tensor<i1>
  %init = linalg.fill ins(%true : i1) outs(%e0 : tensor<i1>) -> tensor<i1>
  %r = linalg.reduce ins(%x : tensor<4xi1>) outs(%init : tensor<i1>) dimensions = [0]
    (%in: i1, %acc: i1) {
      %a = arith.andi %in, %acc : i1
      linalg.yield %a : i1
    }
  return %r : tensor<i1>
}
