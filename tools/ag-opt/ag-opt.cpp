//===- ag-opt.cpp - MlirOptMain with the ag dialect ------------------------===//
//
// Runs any registered pass on IR that mixes the ag dialect with the upstream dialects agc
// lowers through, so that every pass and canonicalization can be tested alone with lit.
//
//===----------------------------------------------------------------------------------===//
#include "ag/compiler/AgDialect.h"
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  ag::registerAgPasses();
  mlir::DialectRegistry registry;
  registry.insert<ag::AgDialect, mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::scf::SCFDialect, mlir::tensor::TensorDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "ag-opt: agc's MLIR optimizer driver\n", registry));
}
