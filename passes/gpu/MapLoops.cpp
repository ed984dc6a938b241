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
// loads); a nest of at most three dimensions, 256 threads a block, each dimension's
// threads no more than its iterations where they are known (rows of 4 elements: blocks
// of 4 x 64 threads). The blocks go to the grid's x, y and z, or, where y or z might
// take more than the 65,535 blocks a grid takes there, all to x, numbered row-major,
// each block's indices computed from its number. The threads' bounds, min(256, n - i),
// are folded here into the form convert-parallel-loops-to-gpu reads the block size
// from: canonicalize would fold them too, but where n is a static multiple of 256 it
// would then merge the thread loop into the block loop (MergeNestedParallelLoops), and
// the merged loop, unmapped, would run on the host.
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
constexpr int64_t kWarp = 32;
/// The most threads a block takes along z.
constexpr int64_t kMaxBlockZ = 64;

/// The iterations of dimension `d` of `loop`, where its bounds and step are constants.
std::optional<int64_t> tripCount(scf::ParallelOp loop, unsigned d) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound()[d]);
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound()[d]);
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[d]);
  if (!lower || !upper || !step || *step <= 0)
    return std::nullopt;
  return *upper > *lower ? (*upper - *lower + *step - 1) / *step : 0;
}

/// The tile of threads of a block for `loop`: 256 threads, from the innermost dimension
/// out, each dimension taking what the ones inside it left (the innermost at most a
/// warp's 32 where there are several, the third at most 64), no more than a dimension of
/// fewer iterations known while compiling: 256 for one dimension, 32 x 8 for two, 4 x 64
/// for rows of 4 elements (where a warp of 32 x 8 would have been 4 x 8, its other 24
/// lanes idle), 3 x 7 x 12 for [n, 7, 3].
SmallVector<int64_t> blockShape(scf::ParallelOp loop) {
  unsigned n = loop.getNumLoops();
  SmallVector<int64_t> shape(n, 1);
  int64_t budget = kThreadsPerBlock;
  for (unsigned outward = 0; outward < n; ++outward) {
    unsigned d = n - 1 - outward;
    int64_t cap = budget;
    if (outward == 0 && n > 1)
      cap = std::min(cap, kWarp);
    if (outward == 2)
      cap = std::min(cap, kMaxBlockZ);
    std::optional<int64_t> count = tripCount(loop, d);
    shape[d] = count && *count > 0 ? std::min(cap, *count) : cap;
    budget = std::max<int64_t>(1, budget / shape[d]);
  }
  return shape;
}

/// Whether the blocks of `blocks` along y or z (its dimensions but the innermost) may
/// be more than a grid takes there: a count not known while compiling, or above 65,535.
bool mayExceedGrid(scf::ParallelOp blocks) {
  for (unsigned d = 0; d + 1 < blocks.getNumLoops(); ++d) {
    std::optional<int64_t> count = tripCount(blocks, d);
    if (!count || *count > ag::kMaxGridYZ)
      return true;
  }
  return false;
}

/// `blocks` (a loop of several dimensions) as a loop of one, its iterations numbered
/// row-major, the innermost dimension's fastest: the grid's x, which takes 2^31 - 1
/// blocks. Each block's indices are its number's digits in the dimensions' counts.
scf::ParallelOp linearize(scf::ParallelOp blocks) {
  OpBuilder b(blocks);
  Location loc = blocks.getLoc();
  unsigned n = blocks.getNumLoops();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> counts;
  Value total = one;
  for (unsigned d = 0; d < n; ++d) {
    Value extent = arith::SubIOp::create(b, loc, blocks.getUpperBound()[d],
                                         blocks.getLowerBound()[d]);
    Value count = arith::CeilDivSIOp::create(b, loc, extent, blocks.getStep()[d]);
    // (No iterations where the upper bound is below the lower one: a count of 0, so
    // that two negative counts make no positive total.)
    count = arith::MaxSIOp::create(b, loc, count, zero);
    counts.push_back(count);
    total = arith::MulIOp::create(b, loc, total, count);
  }
  auto flat = scf::ParallelOp::create(b, loc, ValueRange{zero}, ValueRange{total},
                                      ValueRange{one});
  Block &body = flat.getRegion().front();
  b.setInsertionPointToStart(&body);
  Value rest = flat.getInductionVars()[0];
  SmallVector<Value> indices(n);
  for (unsigned d = n; d-- > 0;) {
    Value digit = rest;
    if (d > 0) {
      digit = arith::RemUIOp::create(b, loc, rest, counts[d]);
      rest = arith::DivUIOp::create(b, loc, rest, counts[d]);
    }
    Value offset = arith::MulIOp::create(b, loc, digit, blocks.getStep()[d]);
    indices[d] = arith::AddIOp::create(b, loc, blocks.getLowerBound()[d], offset);
  }
  Block &old = blocks.getRegion().front();
  for (unsigned d = 0; d < n; ++d)
    blocks.getInductionVars()[d].replaceAllUsesWith(indices[d]);
  body.getOperations().splice(Block::iterator(body.getTerminator()), old.getOperations(),
                              old.begin(), std::prev(old.end()));
  blocks.erase();
  return flat;
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
    SmallVector<std::pair<scf::ParallelOp, scf::ParallelOp>> tiled;
    for (scf::ParallelOp loop : outermost) {
      auto [blocks, threads] =
          scf::tileParallelLoop(loop, blockShape(loop), /*noMinMaxBounds=*/false);
      tiled.push_back({blocks, threads});
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
    // The blocks on the grid: x, y and z, or all on x where y or z might take more than
    // 65,535 blocks (a [1000000, 4] tensor's 15,625 rows of blocks of 64 x 4 threads are
    // within, a [?, 3] tensor's are not known to be: the driver refuses a launch past).
    for (auto [blocks, threads] : tiled) {
      if (mayExceedGrid(blocks))
        blocks = linearize(blocks);
      mapTo(blocks, /*threads=*/false);
      mapTo(threads, /*threads=*/true);
    }
  }
};

} // namespace
