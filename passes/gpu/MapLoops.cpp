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
// of 4 x 64 threads). The blocks go to the grid's x, y and z; where y or z might take
// more than the 65,535 blocks a grid takes there (a count bounded neither by constants
// nor by the integer ranges of its bounds, or past it), the launch is in host loops,
// each launch at most 65,535 blocks along them: the kernel is the one of no such limit,
// its address arithmetic strength-reduced by LLVM to pointer increments, where blocks
// numbered on x alone, their indices divided out, made it a 64-bit multiply a step of a
// matmul's k loop. The threads' bounds, min(256, n - i), are folded here into the form
// convert-parallel-loops-to-gpu reads the block size from: canonicalize would fold them
// too, but where n is a static multiple of 256 it would then merge the thread loop into
// the block loop (MergeNestedParallelLoops), and the merged loop, unmapped, would run on
// the host.
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

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
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

/// The range of `v` that upstream's integer range analysis found (`solver`), if any.
std::optional<ConstantIntRanges> rangeOf(Value v, DataFlowSolver &solver) {
  auto *state = solver.lookupState<dataflow::IntegerValueRangeLattice>(v);
  if (!state || state->getValue().isUninitialized())
    return std::nullopt;
  return state->getValue().getValue();
}

/// The most iterations dimension `d` of `loop` takes: its count where its bounds are
/// constants, else where the ranges of its bounds bound it (a count of rows
/// min(n, 32): at most 32).
std::optional<int64_t> mostTrips(scf::ParallelOp loop, unsigned d, DataFlowSolver *solver) {
  if (std::optional<int64_t> count = tripCount(loop, d))
    return count;
  if (!solver)
    return std::nullopt;
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[d]);
  std::optional<ConstantIntRanges> lower = rangeOf(loop.getLowerBound()[d], *solver);
  std::optional<ConstantIntRanges> upper = rangeOf(loop.getUpperBound()[d], *solver);
  if (!step || *step <= 0 || !lower || !upper)
    return std::nullopt;
  // (Bounds of magnitude 2^62 and more: no bound worth the name, and no overflow below.)
  constexpr int64_t kFar = int64_t(1) << 62;
  int64_t least = lower->smin().getSExtValue();
  int64_t most = upper->smax().getSExtValue();
  if (least <= -kFar || most >= kFar)
    return std::nullopt;
  return most > least ? (most - least + *step - 1) / *step : 0;
}

/// The dimensions of `blocks` whose blocks (along y or z: all but the innermost) may be
/// more than a grid takes there: a count not bounded while compiling, or above 65,535.
SmallVector<unsigned> pastGrid(scf::ParallelOp blocks, DataFlowSolver *solver) {
  SmallVector<unsigned> past;
  for (unsigned d = 0; d + 1 < blocks.getNumLoops(); ++d) {
    std::optional<int64_t> count = mostTrips(blocks, d, solver);
    if (!count || *count > ag::kMaxGridYZ)
      past.push_back(d);
  }
  return past;
}

/// `blocks` in host loops of launches, one loop for each dimension of `past` (those whose
/// blocks might be more than the grid's y or z takes: `pastGrid`), each launch at most
/// 65,535 blocks along it: iteration c of the loop of dimension d launches the blocks
/// from c to c + 65,535 (or the last). Where they are within (a [m, n] tensor's rows in
/// blocks of 8, m < 524,280), one launch, of the kernel the loop would have been with no
/// such limit.
void chunkGrid(scf::ParallelOp blocks, ArrayRef<unsigned> past) {
  OpBuilder b(blocks);
  Location loc = blocks.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value chunk = arith::ConstantIndexOp::create(b, loc, ag::kMaxGridYZ);
  for (unsigned d : past) {
    b.setInsertionPoint(blocks);
    Value lower = blocks.getLowerBound()[d];
    Value upper = blocks.getUpperBound()[d];
    Value step = blocks.getStep()[d];
    Value extent = arith::SubIOp::create(b, loc, upper, lower);
    // (No iterations where the upper bound is below the lower one: no launch.)
    Value count = arith::MaxSIOp::create(
        b, loc, arith::CeilDivSIOp::create(b, loc, extent, step), zero);
    auto launches = scf::ForOp::create(b, loc, zero, count, chunk);
    launches->setAttr(ag::kGridLaunchesAttr,
                      b.getStringAttr(d + 2 == blocks.getNumLoops() ? "y" : "z"));
    b.setInsertionPointToStart(launches.getBody());
    Value first = arith::AddIOp::create(
        b, loc, lower, arith::MulIOp::create(b, loc, launches.getInductionVar(), step));
    Value span = arith::MulIOp::create(b, loc, chunk, step);
    Value last = arith::MinSIOp::create(b, loc, upper,
                                        arith::AddIOp::create(b, loc, first, span));
    blocks->moveBefore(launches.getBody()->getTerminator());
    blocks.getLowerBoundMutable()[d].set(first);
    blocks.getUpperBoundMutable()[d].set(last);
  }
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
    // The blocks on the grid: x, y and z, in launches of at most 65,535 blocks along y
    // and z where they might take more (a [1000000, 4] tensor's 15,625 rows of blocks
    // of 64 x 4 threads are within, a [?, 3] tensor's are not known to be: the driver
    // refuses a launch past).
    // The blocks' counts bounded where their bounds' ranges are (upstream's integer
    // range analysis), and the host loops of launches made after every query: the
    // solver's states are of the IR it analysed.
    DataFlowSolver solver;
    solver.load<dataflow::DeadCodeAnalysis>();
    solver.load<dataflow::SparseConstantPropagation>();
    solver.load<dataflow::IntegerRangeAnalysis>();
    DataFlowSolver *ranges =
        succeeded(solver.initializeAndRun(getOperation())) ? &solver : nullptr;
    SmallVector<std::pair<scf::ParallelOp, SmallVector<unsigned>>> past;
    for (auto [blocks, threads] : tiled) {
      past.push_back({blocks, pastGrid(blocks, ranges)});
      mapTo(blocks, /*threads=*/false);
      mapTo(threads, /*threads=*/true);
    }
    for (auto &[blocks, dimensions] : past)
      if (!dimensions.empty())
        chunkGrid(blocks, dimensions);
  }
};

} // namespace
