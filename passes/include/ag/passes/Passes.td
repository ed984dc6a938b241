//===- Passes.td - agc's passes --------------------------------------------===//
#ifndef AG_PASSES_PASSES_TD
#define AG_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerAgToSCF : Pass<"ag-to-scf"> {
  let summary = "Lower ag.cond and ag.while_loop to scf.if and scf.while";
  let description = [{
    Staged control flow, once its carried values are fixed, is structured control flow:
    `ag.cond` becomes `scf.if`, `ag.while_loop` becomes `scf.while`, `ag.condition` and
    `ag.yield` become `scf.condition` and `scf.yield`. A 0-d `tensor<i1>` test is read
    with `tensor.extract` first.

    Before:
    ```mlir
    %r = ag.cond %c : tensor<i1> -> (tensor<i32>) {
      ag.yield %a : tensor<i32>
    } else {
      ag.yield %b : tensor<i32>
    }
    ```
    After:
    ```mlir
    %t = tensor.extract %c[] : tensor<i1>
    %r = scf.if %t -> (tensor<i32>) {
      scf.yield %a : tensor<i32>
    } else {
      scf.yield %b : tensor<i32>
    }
    ```
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::tensor::TensorDialect"];
}

#endif // AG_PASSES_PASSES_TD
