//===- Pipeline.cpp - From the ag dialect to scf ---------------------------===//
//
// See Pipelines.h. Target-independent: every target's pipeline starts from its output.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Pipelines.h"

#include "ag/passes/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

void ag::buildAgToSCFPipeline(mlir::OpPassManager &pm) {
  pm.addPass(createPruneDead());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(createLowerAgToSCF());
  pm.addPass(createScalarizeCarried());
  pm.addPass(SharedCanonicalizer().create());
  pm.addPass(mlir::createCSEPass());
}
