// RUN: ag-opt %s --agc-to-scf --agc-cpu | FileCheck %s
// RUN: ag-opt %s --agc-to-scf --agc-cpu | not grep -E '[^.a-z_](ag|scf|tensor|arith|memref|cf|func|bufferization|linalg|math)\.[a-z_]+'
// RUN: not ag-opt %S/Inputs/unlowered.mlir --agc-cpu 2>&1 | FileCheck %s --check-prefix=WRONG
// The pipelines `agc --emit=llvm-dialect` runs, by name: --agc-to-scf, then --agc-cpu,
// which bufferizes and lowers a staged loop around a staged if all the way to the LLVM
// dialect, and nothing else remains (mlir-opt exits 0 even when ops are left, hence the
// last pass, -ag-check-llvm-lowered, and the grep).
// An op the CPU pipeline cannot lower (here an ag.cond, without --agc-to-scf first) is a
// located error, not a crash or a silent success:
// WRONG: model.py:7:3: error: op was not bufferized
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
