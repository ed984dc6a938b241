// RUN: ag-opt %s -ag-to-scf | mlir-opt '-one-shot-bufferize=bufferize-function-boundaries allow-return-allocs-from-loops' -buffer-deallocation-pipeline -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts | FileCheck %s
// The CPU path of DESIGN.md §5 from the ag dialect: after -ag-to-scf, upstream passes
// bufferize and lower a staged loop around a staged if all the way to the LLVM dialect,
// and nothing else remains (mlir-opt exits 0 even when ops are left, hence the checks).
// RUN: ag-opt %s -ag-to-scf | mlir-opt '-one-shot-bufferize=bufferize-function-boundaries allow-return-allocs-from-loops' -buffer-deallocation-pipeline -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts | not grep -E '[^.a-z_](ag|scf|tensor|arith|memref|cf|func|bufferization)\.[a-z_]+'
// CHECK: llvm.func @step
// CHECK: llvm.cond_br
func.func @step(%x: tensor<f32>, %limit: tensor<f32>) -> tensor<f32> {
  %r = ag.while_loop (%x) : (tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    %s = tensor.extract %a[] : tensor<f32>
    %l = tensor.extract %limit[] : tensor<f32>
    %c = arith.cmpf olt, %s, %l : f32
    ag.condition(%c : i1) %a : tensor<f32>
  } do {
  ^bb0(%a: tensor<f32>):
    %s = tensor.extract %a[] : tensor<f32>
    %two = arith.constant 2.0 : f32
    %big = arith.cmpf ogt, %s, %two : f32
    %n = ag.cond %big : i1 -> (tensor<f32>) {
      %one = arith.constant 1.0 : f32
      %t = arith.addf %s, %one : f32
      %tt = tensor.from_elements %t : tensor<f32>
      ag.yield %tt : tensor<f32>
    } else {
      %t = arith.addf %s, %two : f32
      %tt = tensor.from_elements %t : tensor<f32>
      ag.yield %tt : tensor<f32>
    }
    ag.yield %n : tensor<f32>
  }
  return %r : tensor<f32>
}
