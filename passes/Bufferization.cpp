//===- Bufferization.cpp - tensors to buffers, and their frees, for every target -===//
//
// See Pipelines.h: one-shot bufferization with agc's options, then the constant globals
// it shares between functions put in program order, then canonicalization; and
// upstream's buffer deallocation pipeline.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Pipelines.h"

#include "ag/passes/Passes.h"

#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

void ag::addBufferization(mlir::OpPassManager &pm, const SharedCanonicalizer &canonicalize) {
  // Whole functions, their arguments and results as identity-layout memrefs (what the
  // C entry points pass); a loop may yield a buffer it allocated.
  mlir::bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      mlir::bufferization::LayoutMapOption::IdentityLayoutMap;
  // A value whose layout bufferization cannot infer (what a staged if yields, computed in
  // its branches) has the identity layout too: a fully dynamic one made the function
  // copy the if's buffer into one of the identity layout its result needs.
  bufferize.unknownTypeConversion = mlir::bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(mlir::bufferization::createOneShotBufferizePass(bufferize));
  // Its constant globals named and placed by the program, not by heap addresses.
  pm.addPass(createOrderConstantGlobals());
  pm.addPass(canonicalize.create());
}

void ag::addBufferDeallocation(mlir::OpPassManager &pm, const SharedCanonicalizer &canonicalize) {
  // Upstream's buffer deallocation pipeline (buildBufferDeallocationPipeline, default
  // options), with the shared canonicalizer.
  pm.addPass(mlir::memref::createExpandReallocPass({/*emitDeallocs=*/false}));
  pm.addPass(canonicalize.create());
  pm.addPass(mlir::bufferization::createOwnershipBasedBufferDeallocationPass());
  pm.addPass(canonicalize.create());
  pm.addPass(mlir::bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(mlir::bufferization::createLowerDeallocationsPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(canonicalize.create());
  pm.addPass(mlir::createConvertBufferizationToMemRefPass());
}
