//===- MapLoops.cpp - parallel loops a GPU can run, as blocks of threads ---===//
//
// Each outermost scf.parallel of a host function (linalg's parallel loops, after
// bufferization) whose body a GPU kernel can compute is tiled into blocks of threads and
// mapped to them (the gpu dialect's mapping attribute), for convert-parallel-loops-to-gpu
// and gpu-kernel-outlining to make a kernel of it:
//
//   scf.parallel (%i) = (%c0) to (%n) step (%c1) { load, arith, store }
//     => scf.parallel (%b) = (%c0) to (%n) step (%c256) {      // block_x
//          scf.parallel (%t) = (%c0) to (min(256, %n - %b)) ... // thread_x
//        }
//
// The innermost dimension goes to x (consecutive threads, consecutive elements: coalesced
// loads); a nest of at most three dimensions, 256 threads a block, narrower where a
// static dimension is. The threads' bounds, min(256, n - i), are folded here into the
// form convert-parallel-loops-to-gpu reads the block size from: canonicalize would fold
// them too, but where n is a static multiple of 256 it would then merge the thread loop
// into the block loop (MergeNestedParallelLoops), and the merged loop, unmapped, would
// run on the host.
//
// A body the GPU cannot compute stays on the host: a call (agc's runtime, a run-time
// check's error: -ag-gpu-kernel-checks, before, makes the checks of most loops record
// into a flag instead), a heap or stack allocation, a reduction across iterations
// (scf.reduce), an op of a dialect outside arithmetic, index and buffer loads and
// stores, or math a kernel does not compute (ag/passes/KernelMath.h: float32 exp, tanh,
// log, erf, expm1 and log1p become arithmetic, and sin and cos whose arguments
// -ag-gpu-kernel-checks bounded, rsqrt 1 / sqrt, and -ag-gpu-define-math defines the
// one-instruction rest without CUDA's libdevice).
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/KernelMath.h"
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ag {
#define GEN_PASS_DEF_GPUMAPLOOPS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

constexpr int64_t kThreadsPerBlock = 256;

/// The tile of threads of a block for `loop`: 256 threads, the innermost dimension
/// widest; no wider than a dimension of fewer iterations known while compiling.
SmallVector<int64_t> blockShape(scf::ParallelOp loop) {
  unsigned n = loop.getNumLoops();
  SmallVector<int64_t> shape(n, 1);
  if (n == 1) {
    shape[0] = kThreadsPerBlock;
  } else {
    shape[n - 1] = 32;
    shape[n - 2] = kThreadsPerBlock / 32;
  }
  for (unsigned d = 0; d < n; ++d) {
    std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound()[d]);
    std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound()[d]);
    std::optional<int64_t> step = getConstantIntValue(loop.getStep()[d]);
    if (lower && upper && step && *step > 0 && *upper > *lower)
      shape[d] = std::min(shape[d], (*upper - *lower + *step - 1) / *step);
  }
  return shape;
}

/// Maps dimension d of an `n`-dimensional loop to x for the innermost, then y, then z.
void mapTo(scf::ParallelOp loop, bool threads) {
  MLIRContext *ctx = loop.getContext();
  unsigned n = loop.getNumLoops();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, ctx);
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping;
  for (unsigned d = 0; d < n; ++d) {
    unsigned axis = n - 1 - d; // 0: x
    auto processor = static_cast<gpu::Processor>((threads ? 3 : 0) + axis);
    mapping.push_back(gpu::ParallelLoopDimMappingAttr::get(ctx, processor, identity, identity));
  }
  (void)gpu::setMappingAttr(loop, mapping);
}

struct GPUMapLoops : ag::impl::GPUMapLoopsBase<GPUMapLoops> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> outermost;
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (ag::isGridLoop(loop) && ag::isKernelBody(loop))
        outermost.push_back(loop);
    });
    SmallVector<Operation *> bounds;
    for (scf::ParallelOp loop : outermost) {
      auto [blocks, threads] =
          scf::tileParallelLoop(loop, blockShape(loop), /*noMinMaxBounds=*/false);
      mapTo(blocks, /*threads=*/false);
      mapTo(threads, /*threads=*/true);
      // (The blocks' steps are the tile sizes, 1 * 256, ...: folded first.)
      for (Value step : blocks.getStep())
        if (Operation *op = step.getDefiningOp())
          bounds.push_back(op);
      for (Value bound : threads.getUpperBound())
        if (Operation *op = bound.getDefiningOp())
          bounds.push_back(op);
    }
    // The threads' bounds, min(256, n - i), with their constants folded in, where
    // convert-parallel-loops-to-gpu finds the block size (256 itself where n is a
    // multiple of it). Not by canonicalize: it would merge a thread loop whose bounds are
    // then constant into its block loop, and neither would be mapped any more.
    RewritePatternSet patterns(&getContext());
    affine::AffineMinOp::getCanonicalizationPatterns(patterns, &getContext());
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, &getContext());
    (void)applyOpPatternsGreedily(bounds, std::move(patterns));
  }
};

} // namespace
