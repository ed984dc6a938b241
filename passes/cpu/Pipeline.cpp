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

#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

/// The matmul kernel's block for `options`' registers: half of them accumulators, two a
/// row (the rest hold B's row and the broadcast elements of A): 8 x 32 floats on AVX-512
/// (16 of 32 zmm registers), 4 x 16 on AVX2 (8 of 16 ymm), 4 x 8 on SSE; the columns
/// those blocks leave over go through blocks one register wide. (Measured on an AVX-512
/// Xeon, 1024^2 on one thread: 8 x 32 14.2 ms, 4 x 64 15.0, 12 x 32 22.7, 6 x 64 22.3
/// with a 4-row edge in each 64-row chunk; widths that are not a power of two, 8 x 48,
/// are split by LLVM into pieces and were 30 times slower.) The k loop is unrolled by 4:
/// 1024^2 on two threads of an AVX-512 Xeon, 9.2-10.4 -> 8.4-9.3 ms with sizes known only
/// at run time, 8.5-10.0 -> 8.4-9.6 ms static (three interleaved runs of each).
static ag::MatmulMicrokernelOptions matmulBlock(const ag::CPUPipelineOptions &options) {
  int64_t lanes = std::max(1u, options.vectorBits / 32);
  int64_t accumulators = std::max(4u, options.vectorRegisters / 2);
  ag::MatmulMicrokernelOptions block;
  block.rows = accumulators / 2;
  block.cols = 2 * lanes;
  block.narrowCols = lanes;
  block.depthUnroll = 4;
  return block;
}

void ag::buildCPUPipeline(mlir::OpPassManager &pm, const CPUPipelineOptions &options) {
  SharedCanonicalizer canonicalize;
  // Run-time broadcasts tested once per block, and a version of the code where none
  // happens, whose elementwise chains fusion then makes one loop.
  pm.addPass(createVersionBroadcasts());
  pm.addPass(createLowerAgEffects());
  pm.addPass(canonicalize.create());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(createFuseElementwise());
  // x ** 2 as x * x (its exponent folded into the payload by fusion).
  pm.addPass(createExactPowers());
  // Large work in chunks the cores share (scf.forall on tensors), before the matmul
  // kernel, which then applies to each chunk's matmul (whose rows the chunks split in
  // whole blocks of the kernel's).
  ag::MatmulMicrokernelOptions block = matmulBlock(options);
  ag::TileForThreadsOptions threads;
  threads.matmulRows = block.rows;
  block.packChunks = threads.chunks;
  pm.addPass(createTileForThreads(threads));
  pm.addPass(createMatmulMicrokernel(block));
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
  if (options.debugInfo)
    pm.addPass(mlir::LLVM::createDIScopeForLLVMFuncOpPass());
}
