//===- Pipeline.cpp - The CPU pipeline, from scf to the LLVM dialect -------===//
//
// See Pipelines.h. On tensors: the ag effects lowered, elementwise fusion, the matmul and
// reduction passes; then one-shot bufferization, the chunk loops made parallel, buffer
// deallocation, and the lowering of host code every target shares (LowerToLLVM.cpp:
// linalg to loops, OpenMP regions, the math passes, conversion to the LLVM dialect,
// buffers allocated through the runtime's allocator, runtime/lib/alloc.c).
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Pipelines.h"

#include "ag/passes/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

void ag::buildCPUPipeline(mlir::OpPassManager &pm) {
  SharedCanonicalizer canonicalize;
  pm.addPass(createLowerAgEffects());
  pm.addPass(canonicalize.create());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(createFuseElementwise());
  // Large work in chunks the cores share (scf.forall on tensors), before the matmul
  // kernel, which then applies to each chunk's matmul.
  pm.addPass(createTileForThreads());
  pm.addPass(createMatmulMicrokernel());
  pm.addPass(createMatmulLoopOrder());
  pm.addPass(createReassociateReductions());
  pm.addPass(canonicalize.create());
  // An elementwise result over an input nothing else reads (a loop's carried tensor
  // updated in place); the caller's tensors marked read-only.
  pm.addPass(createReuseInputBuffers());

  addBufferization(pm, canonicalize);
  // The chunk loops parallel where no run-time error can be raised in them (after CSE,
  // which merges the equal slices a chunk writes and inserts, so that their copy folds).
  pm.addPass(mlir::createCSEPass());
  pm.addPass(canonicalize.create());
  pm.addPass(createParallelLoops());
  addBufferDeallocation(pm, canonicalize);
  LowerToLLVMOptions lowering;
  lowering.threads = true;
  addLowerToLLVM(pm, canonicalize, lowering);
}
