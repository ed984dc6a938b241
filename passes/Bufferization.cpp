//===- Bufferization.cpp - tensors to buffers, as every target's pipeline does -===//
//
// See Pipelines.h: one-shot bufferization with agc's options, then the constant globals
// it shares between functions put in program order, then canonicalization.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Pipelines.h"

#include "ag/passes/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

void ag::addBufferization(mlir::OpPassManager &pm, const SharedCanonicalizer &canonicalize) {
  // Whole functions, their arguments and results as identity-layout memrefs (what the
  // C entry points pass); a loop may yield a buffer it allocated.
  mlir::bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      mlir::bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(mlir::bufferization::createOneShotBufferizePass(bufferize));
  // Its constant globals named and placed by the program, not by heap addresses.
  pm.addPass(createOrderConstantGlobals());
  pm.addPass(canonicalize.create());
}
