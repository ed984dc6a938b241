//===- ag-opt.cpp - MlirOptMain with the ag dialect and agc's passes -------===//
//
// Runs any pass, agc's or upstream's, and agc's pipelines (--agc-to-scf, --agc-cpu) on
// IR that mixes the ag dialect with every upstream dialect, so that each pass and each
// canonicalization can be tested alone with lit, and the pipeline `agc --emit=` runs can
// be replayed stage by stage.
//
//===----------------------------------------------------------------------------------===//
#include "ag/dialect/AgDialect.h"
#include "ag/passes/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  ag::registerAgcPasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR (agc-gpu-binary).
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<ag::AgDialect>();
  ag::registerGPULaunchEffects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "ag-opt: agc's MLIR optimizer driver\n", registry));
}
