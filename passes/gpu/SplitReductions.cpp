//===- SplitReductions.cpp - reductions as a kernel of partial results ------===//
//
// A reduction of a whole tensor to one value (tf.reduce_sum(x), reduce_max, reduce_all,
// ...) has no parallel loop: lowered as it is, it is a sequential loop on the host, over
// the GPU's managed memory. This pass splits it in two. T threads in blocks of 256, a
// block for each 4096 elements (N the element count) up to 1024 blocks, thread t
// combining elements t, t + T, t + 2T, ... in order, each round of the threads reading
// consecutive elements (coalesced); each block's 256 partials combined into one result
// of the block (an scf.for over its lanes, marked ag.block_lanes:
// -ag-gpu-block-reductions makes it a block of threads and a gpu.all_reduce); then the
// host combines the blocks' results (at most 1024) into the original init. Point i of the iteration space (numbered
// row-major) is at position (i / s1, i % s1) of a [s0, s1] space; each input is read at
// its map's dimensions of that position (a broadcast operand, indexed by fewer, again
// and again).
//
//   %r = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
//          (%in, %acc) { %s = arith.addf %in, %acc ... }
//     => %p = linalg.generic (T / 256 parallel) outs(tensor.empty : tensor<?xf32>) {
//          %g = linalg.index 0
//          scf.for %lane = 0 to 256 iter_args(%b = identity) {
//            %t = %g * 256 + %lane
//            %q = scf.for %k = 0 to ceildiv(N, T) iter_args(%acc = identity) {
//              %i = %k * T + %t;  %j = %i < N ? %i : 0
//              %v = tensor.extract %x[%j / s1, %j % s1]
//              scf.yield %i < N ? (payload of %v, %acc) : %acc }
//            scf.yield (the combiner of %q, %b) } {ag.block_lanes = 256} }
//        %r = linalg.reduce ins(%p) outs(%init) dimensions = [0] { the combiner alone }
//
// A reduction along the last axes (tf.reduce_sum(m, axis=-1), a softmax's max and sum),
// lowered as it is, is a kernel of one thread per row, each thread reading its own row:
// the 32 threads of a warp read 32 rows, 32 memory transactions for each step, and
// accumulate through memory. Split the same way within each row: a block of T threads
// for each row (T a multiple of 32, from 32 to 1024, about 16384 threads in all), a
// warp's 32 threads reading 32 consecutive elements of one row, the block's partials
// combined into the row's result (its init is the identity: neither read nor filled):
//
//   %r = linalg.reduce ins(%m : tensor<?x?xf32>) outs(%init : tensor<?xf32>) dimensions = [1]
//     => %r = linalg.generic (rows parallel) outs(tensor.empty) { row = linalg.index 0,
//          scf.for %lane = 0 to T { the lane's points of the row as above, combined }
//            {ag.block_lanes = 1024} }
//
// A reduction along leading axes (tf.reduce_sum(m, axis=0), a batch's mean), lowered as
// it is (-ag-gpu-parallel-loops-first), is a kernel of one thread per output, coalesced
// but with as few threads as there are outputs (512 columns: 512 threads, each walking
// its whole column). Split within each column: [T, outputs] partials, T = ceil(16384 /
// outputs), thread (t, c) combining the points t, t + T, ... of output c (32
// consecutive threads on 32 consecutive columns of a row), then a kernel of one thread
// per output combining its T partials (consecutive threads, consecutive partials).
// A float sum's combine of columns is compensated (Kahan), with no reassociation: up
// to 16,384 partials in order in one thread lose digits (a column's variance over
// 70,000 rows was 6e-6 relative off on an H200), and the CPU, emulating the kernel,
// would sum them in vector lanes instead.
// Outputs of static count 16384 or more are left to one thread each.
//
// Applies to a linalg.reduce or linalg.generic (elementwise producers fused in) with one
// init, its loops parallel (none to two, the init indexed by them in order) or
// reduction ones (at least one), inputs read by projected permutations (with parallel
// loops: each input that reads the last loop reads it as its last dimension), a
// payload without
// linalg.index whose last op combines the accumulator (addf, mulf, maximumf, minimumf,
// addi, muli, max/min signed and unsigned, andi, ori, xori) and an init filled with that
// combiner's identity, so that the partials start from it. Float sums and products are
// reassociated as on the CPU and by TensorFlow's GPU kernels.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/KernelMath.h"
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

#include <optional>

namespace ag {
#define GEN_PASS_DEF_GPUSPLITREDUCTIONS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// The threads a per-row or per-column reduction's partials aim at in all; a reduction
/// to one value of a static size below twice this stays on the host.
constexpr int64_t kPartials = 16384;
/// The fewest and the most partial results of each row.
constexpr int64_t kRowPartials = 32;
constexpr int64_t kRowPartialsMax = 1024;
/// A reduction to one value: the threads of a block, the fewest points of each thread
/// (where there are enough points), the most blocks.
constexpr int64_t kBlockThreads = 256;
constexpr int64_t kPointsPerThread = 16;
constexpr int64_t kBlocksMax = 1024;

/// The op of `op`'s payload that combines the accumulator (the init's block argument)
/// into the yielded value, if it is one of the combiners this pass knows and the
/// accumulator has no other use.
Operation *combiner(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  BlockArgument acc = body->getArguments().back();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1 || !acc.hasOneUse())
    return nullptr;
  Operation *c = yield.getOperand(0).getDefiningOp();
  if (!c || c->getBlock() != body || c->getNumOperands() != 2 || c->getNumResults() != 1 ||
      (c->getOperand(0) != acc && c->getOperand(1) != acc))
    return nullptr;
  // The combiners a block's threads combine with (gpu.all_reduce's).
  if (!ag::allReduceOperation(c))
    return nullptr;
  return c;
}

/// Whether `value` is the identity of combiner `c` (x combined with it is x).
bool isIdentity(Operation *c, Attribute value) {
  if (auto f = dyn_cast<FloatAttr>(value)) {
    APFloat v = f.getValue();
    if (isa<arith::AddFOp>(c))
      return v.isZero(); // +0.0 or -0.0: TensorFlow's sums start from +0.0 too
    if (isa<arith::MulFOp>(c))
      return v.isExactlyValue(1.0);
    if (isa<arith::MaximumFOp>(c))
      return v.isInfinity() && v.isNegative();
    if (isa<arith::MinimumFOp>(c))
      return v.isInfinity() && !v.isNegative();
    return false;
  }
  auto i = dyn_cast<IntegerAttr>(value);
  if (!i)
    return false;
  APInt v = i.getValue();
  if (isa<arith::AddIOp, arith::OrIOp, arith::XOrIOp, arith::MaxUIOp>(c))
    return v.isZero();
  if (isa<arith::MulIOp>(c))
    return v.isOne();
  if (isa<arith::AndIOp, arith::MinUIOp>(c))
    return v.isAllOnes();
  if (isa<arith::MaxSIOp>(c))
    return v.isMinSignedValue();
  if (isa<arith::MinSIOp>(c))
    return v.isMaxSignedValue();
  return false;
}

/// The constant `op`'s init is filled with, if it is filled with one.
std::optional<Attribute> fillConstant(linalg::LinalgOp op) {
  auto fill = op.getDpsInits().front().getDefiningOp<linalg::FillOp>();
  Attribute value;
  if (!fill || !matchPattern(fill.getInputs().front(), m_Constant(&value)))
    return std::nullopt;
  return value;
}

/// How `op` is split: its parallel loops (the init's dimensions, in order) and its
/// reduction loops, in loop order; whether the partials of each output element lie
/// along the last dimension of the partials (`rows`: the last loop is reduced, each
/// output's points are consecutive in memory, and 32 consecutive threads take 32 of
/// them) or along the first (`columns`: the last loop is parallel, 32 consecutive
/// threads take 32 consecutive outputs, each its own points).
struct Plan {
  SmallVector<unsigned> parallel, reduced;
  bool columns = false;
};

/// `op`'s plan where its loops are parallel or reduction ones (at least one reduced, at
/// most two parallel: the partials' loops must be at most three for a kernel) and its
/// init is indexed by the parallel loops in order; nullopt otherwise.
std::optional<Plan> plan(linalg::LinalgOp op) {
  Plan p;
  for (auto [d, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (iterator == utils::IteratorType::parallel)
      p.parallel.push_back(d);
    else if (iterator == utils::IteratorType::reduction)
      p.reduced.push_back(d);
    else
      return std::nullopt;
  }
  if (p.reduced.empty() || p.parallel.size() > 2)
    return std::nullopt;
  AffineMap init = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (init.getNumResults() != p.parallel.size())
    return std::nullopt;
  for (auto [result, d] : llvm::zip(init.getResults(), p.parallel))
    if (result != getAffineDimExpr(d, op.getContext()))
      return std::nullopt;
  p.columns = !p.parallel.empty() && p.parallel.back() == op.getNumLoops() - 1;
  return p;
}

/// `op`'s combiner where `op` is a reduction this pass splits; null otherwise.
Operation *splittable(linalg::LinalgOp op) {
  if (!isa<linalg::ReduceOp, linalg::GenericOp>(op) || !op.hasPureTensorSemantics() ||
      op.getNumDpsInits() != 1 || op.getNumLoops() == 0)
    return nullptr;
  std::optional<Plan> p = plan(op);
  if (!p)
    return nullptr;
  auto init = dyn_cast<RankedTensorType>(op.getDpsInits().front().getType());
  if (!init || !init.getElementType().isIntOrFloat())
    return nullptr;
  if (op.getNumDpsInputs() == 0)
    return nullptr;
  unsigned last = op.getNumLoops() - 1;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!type || !map.isProjectedPermutation(/*allowZeroInResults=*/false) ||
        type.getRank() != map.getNumResults())
      return nullptr;
    // Consecutive threads differ in the last loop (a row's points, or outputs): it must
    // be each input's contiguous dimension where the input reads it.
    if (!p->parallel.empty() && map.isFunctionOfDim(last) &&
        map.getResults().back() != getAffineDimExpr(last, op.getContext()))
      return nullptr;
  }
  // A payload that reads its position (linalg.index) is left as it is.
  if (op.getBlock()->walk([](linalg::IndexOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return nullptr;
  Operation *c = combiner(op);
  std::optional<Attribute> value = fillConstant(op);
  if (!c || !value || !isIdentity(c, *value))
    return nullptr;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  // Columns: enough outputs for the GPU already, one thread each.
  if (p->columns) {
    int64_t outputs = 1;
    for (unsigned d : p->parallel)
      outputs = ShapedType::isDynamic(ranges[d]) || ShapedType::isDynamic(outputs)
                    ? ShapedType::kDynamic
                    : outputs * ranges[d];
    if (!ShapedType::isDynamic(outputs) && outputs >= kPartials)
      return nullptr;
  }
  // Statically small: the host's loop (to one value), one thread per output (the rest).
  int64_t points = 1;
  int64_t enough = p->parallel.empty() ? 2 * kPartials : 2 * kRowPartials;
  for (unsigned d : p->reduced) {
    if (ShapedType::isDynamic(ranges[d]))
      return c;
    points *= ranges[d];
    if (points >= enough)
      return c;
  }
  return nullptr;
}

/// One step of Kahan's compensated sum: `sum` + `value`, `lost` the low-order part
/// the sum so far has dropped; returns the new sum and lost part. Where the sum is
/// infinite or NaN nothing is carried (inf - inf would make the next sum NaN).
SmallVector<Value> kahanStep(OpBuilder &b, Location loc, Value sum, Value lost, Value value) {
  Value y = arith::SubFOp::create(b, loc, value, lost);
  Value t = arith::AddFOp::create(b, loc, sum, y);
  Value dropped =
      arith::SubFOp::create(b, loc, arith::SubFOp::create(b, loc, t, sum), y);
  const llvm::fltSemantics &semantics = cast<FloatType>(t.getType()).getFloatSemantics();
  auto constant = [&](const APFloat &v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(t.getType(), v));
  };
  Value finite = arith::AndIOp::create(
      b, loc,
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, t,
                            constant(APFloat::getInf(semantics))),
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, t,
                            constant(APFloat::getInf(semantics, /*Negative=*/true))));
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(t.getType()));
  return {t, arith::SelectOp::create(b, loc, finite, dropped, zero)};
}

/// Splits `op`, whose combiner is `c` (see splittable).
void split(linalg::LinalgOp op, Operation *c) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Plan p = *plan(op);
  unsigned k = p.parallel.size();
  Value identity = op.getDpsInits().front().getDefiningOp<linalg::FillOp>().getInputs().front();
  Type element = cast<RankedTensorType>(op.getDpsInits().front().getType()).getElementType();

  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> sizes;
  for (Range range : op.createLoopRanges(b, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
  // The N points of the reduced loops (of each output), numbered in row-major order.
  Value n = sizes[p.reduced.front()];
  for (unsigned d : ArrayRef<unsigned>(p.reduced).drop_front())
    n = b.createOrFold<arith::MulIOp>(loc, n, sizes[d]);
  Value cap;
  if (k > 0) {
    Value rows = sizes[p.parallel.front()];
    for (unsigned d : ArrayRef<unsigned>(p.parallel).drop_front())
      rows = b.createOrFold<arith::MulIOp>(loc, rows, sizes[d]);
    Value all = arith::ConstantIndexOp::create(b, loc, kPartials);
    Value someRows = b.createOrFold<arith::MaxUIOp>(loc, rows, one);
    Value perRow = b.createOrFold<arith::CeilDivUIOp>(loc, all, someRows);
    if (p.columns) {
      // Per output, enough partials for about 16384 threads in all.
      cap = perRow;
    } else {
      // Per row, a multiple of 32 partials (a warp's coalesced reads) from 32 to 1024,
      // enough for about 16384 threads in all.
      Value warp = arith::ConstantIndexOp::create(b, loc, 32);
      Value warps = b.createOrFold<arith::CeilDivUIOp>(loc, perRow, warp);
      Value rounded = b.createOrFold<arith::MulIOp>(loc, warps, warp);
      Value atLeastOne = b.createOrFold<arith::MaxUIOp>(loc, rounded, warp);
      Value most = arith::ConstantIndexOp::create(b, loc, kRowPartialsMax);
      cap = b.createOrFold<arith::MinUIOp>(loc, atLeastOne, most);
    }
  }
  Value threads;
  if (k == 0) {
    // Whole blocks of threads, each thread at least 16 points (a block 4096), at most
    // 1024 blocks: enough loads in flight to keep a GPU's memory busy (64 blocks of 256
    // threads, what 16384 partials made, would leave half of an H100's 132
    // multiprocessors idle and the others one block each), few results for the host.
    Value block = arith::ConstantIndexOp::create(b, loc, kBlockThreads);
    Value perBlock = arith::ConstantIndexOp::create(b, loc, kBlockThreads * kPointsPerThread);
    Value blocks = b.createOrFold<arith::MinUIOp>(
        loc, b.createOrFold<arith::CeilDivUIOp>(loc, n, perBlock),
        arith::ConstantIndexOp::create(b, loc, kBlocksMax));
    threads = b.createOrFold<arith::MulIOp>(loc, blocks, block);
  } else {
    threads = b.createOrFold<arith::MinUIOp>(loc, n, cap);
  }
  // (No rounds where N is 0: then no point is divided by a size of 0 either.)
  Value someThreads = b.createOrFold<arith::MaxUIOp>(loc, threads, one);
  Value rounds = b.createOrFold<arith::CeilDivUIOp>(loc, n, someThreads);
  // The threads of a block: 256 to one value, a row's T (at least one) per row.
  Value lanes = k == 0 ? arith::ConstantIndexOp::create(b, loc, kBlockThreads).getResult()
                       : someThreads;

  Value acc = op.getBlock()->getArguments().back();
  Value other = c->getOperand(0) == acc ? c->getOperand(1) : c->getOperand(0);
  // `value` combined into `into` by the payload's combiner alone.
  auto combine = [&](OpBuilder &cb, Value value, Value into) -> Value {
    IRMapping mapping;
    mapping.map(other, value);
    mapping.map(acc, into);
    return cb.clone(*c, mapping)->getResult(0);
  };
  // Thread t's partial result: points t, t + T, ... of the reduced loops of the output at
  // `position` (its parallel loops' entries set), each round's threads reading
  // consecutive points, combined in order from the identity.
  auto partialOf = [&](OpBuilder &nb, Location nl, Value t,
                       SmallVector<Value> position) -> Value {
    auto loop = scf::ForOp::create(
        nb, nl, zero, rounds, one, ValueRange{identity},
        [&](OpBuilder &fb, Location fl, Value r, ValueRange iter) {
          Value i = arith::AddIOp::create(fb, fl, arith::MulIOp::create(fb, fl, r, threads), t);
          Value inside = arith::CmpIOp::create(fb, fl, arith::CmpIPredicate::ult, i, n);
          Value at = arith::SelectOp::create(fb, fl, inside, i, zero);
          // Point `at`'s position in each reduced loop, the last fastest.
          for (unsigned d : llvm::reverse(ArrayRef<unsigned>(p.reduced).drop_front())) {
            position[d] = arith::RemUIOp::create(fb, fl, at, sizes[d]);
            at = arith::DivUIOp::create(fb, fl, at, sizes[d]);
          }
          position[p.reduced.front()] = at;
          IRMapping mapping;
          Block *body = op.getBlock();
          for (OpOperand *input : op.getDpsInputOperands()) {
            SmallVector<Value> indices;
            for (AffineExpr e : op.getMatchingIndexingMap(input).getResults())
              indices.push_back(position[cast<AffineDimExpr>(e).getPosition()]);
            mapping.map(body->getArgument(input->getOperandNumber()),
                        tensor::ExtractOp::create(fb, fl, input->get(), indices));
          }
          mapping.map(body->getArguments().back(), iter[0]);
          for (Operation &payload : body->without_terminator())
            fb.clone(payload, mapping);
          Value combined = mapping.lookup(body->getTerminator()->getOperand(0));
          scf::YieldOp::create(
              fb, fl, ValueRange{arith::SelectOp::create(fb, fl, inside, combined, iter[0])});
        });
    return loop.getResult(0);
  };
  // A block's result: the partials of its lanes, threads `first` + 0, 1, ..., combined
  // in order from the identity, in a loop -ag-gpu-block-reductions makes the block's
  // threads and their gpu.all_reduce (on the host, where the loop stays there, in order).
  auto blockOf = [&](OpBuilder &nb, Location nl, Value first,
                     const SmallVector<Value> &position) -> Value {
    auto loop = scf::ForOp::create(
        nb, nl, zero, lanes, one, ValueRange{identity},
        [&](OpBuilder &fb, Location fl, Value lane, ValueRange iter) {
          Value t = first ? arith::AddIOp::create(fb, fl, first, lane).getResult() : lane;
          scf::YieldOp::create(fb, fl, combine(fb, partialOf(fb, fl, t, position), iter[0]));
        });
    loop->setAttr(ag::kBlockLanes,
                  nb.getI64IntegerAttr(k == 0 ? kBlockThreads : kRowPartialsMax));
    return loop.getResult(0);
  };

  MLIRContext *ctx = b.getContext();
  Value init = op.getDpsInits().front();
  Operation *total;
  if (k == 0) {
    // A result of each block of 256 threads, then their combine into the original init
    // on the host.
    Value blocks = b.createOrFold<arith::DivUIOp>(loc, threads, lanes);
    Value empty = tensor::EmptyOp::create(b, loc, ArrayRef<OpFoldResult>{blocks}, element);
    auto partials = linalg::GenericOp::create(
        b, loc, TypeRange{empty.getType()}, ValueRange{}, ValueRange{empty},
        ArrayRef<AffineMap>{AffineMap::getMultiDimIdentityMap(1, ctx)},
        SmallVector<utils::IteratorType>(1, utils::IteratorType::parallel),
        [&](OpBuilder &nb, Location l, ValueRange) {
          Value g = linalg::IndexOp::create(nb, l, 0);
          Value first = arith::MulIOp::create(nb, l, g, lanes);
          linalg::YieldOp::create(nb, l, blockOf(nb, l, first, SmallVector<Value>(sizes.size())));
        });
    total = linalg::ReduceOp::create(
        b, loc, ValueRange{partials.getResult(0)}, ValueRange{init}, ArrayRef<int64_t>{0},
        [&](OpBuilder &rb, Location l, ValueRange args) {
          linalg::YieldOp::create(rb, l, combine(rb, args[0], args[1]));
        });
  } else if (!p.columns) {
    // A block of T threads for each row, its result the row's (the init is the
    // combiner's identity, which leaves any value as it is: not read, nor filled).
    SmallVector<OpFoldResult> shape;
    for (unsigned d : p.parallel)
      shape.push_back(getAsOpFoldResult(sizes[d]));
    Value empty = tensor::EmptyOp::create(b, loc, shape, element);
    AffineMap rowMap = AffineMap::getMultiDimIdentityMap(k, ctx);
    total = linalg::GenericOp::create(
        b, loc, TypeRange{init.getType()}, ValueRange{}, ValueRange{empty},
        ArrayRef<AffineMap>{rowMap},
        SmallVector<utils::IteratorType>(k, utils::IteratorType::parallel),
        [&](OpBuilder &nb, Location l, ValueRange) {
          SmallVector<Value> position(sizes.size());
          for (auto [d, loopDim] : llvm::enumerate(p.parallel))
            position[loopDim] = linalg::IndexOp::create(nb, l, d);
          linalg::YieldOp::create(nb, l, blockOf(nb, l, Value(), position));
        });
  } else {
    // Columns: [T, outputs...] partials, output c's own down the first dimension, then a
    // kernel of one thread per output combining its T partials into the init.
    SmallVector<OpFoldResult> shape{getAsOpFoldResult(threads)};
    for (unsigned d : p.parallel)
      shape.push_back(getAsOpFoldResult(sizes[d]));
    Value empty = tensor::EmptyOp::create(b, loc, shape, element);
    AffineMap map = AffineMap::getMultiDimIdentityMap(k + 1, ctx);
    auto partials = linalg::GenericOp::create(
        b, loc, TypeRange{empty.getType()}, ValueRange{}, ValueRange{empty},
        ArrayRef<AffineMap>{map},
        SmallVector<utils::IteratorType>(k + 1, utils::IteratorType::parallel),
        [&](OpBuilder &nb, Location l, ValueRange) {
          SmallVector<Value> position(sizes.size());
          Value t = linalg::IndexOp::create(nb, l, 0);
          for (auto [d, loopDim] : llvm::enumerate(p.parallel))
            position[loopDim] = linalg::IndexOp::create(nb, l, d + 1);
          linalg::YieldOp::create(nb, l, partialOf(nb, l, t, position));
        });
    AffineMap outputMap = AffineMap::getMultiDimIdentityMap(k, ctx);
    total = linalg::GenericOp::create(
        b, loc, TypeRange{init.getType()}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{outputMap},
        SmallVector<utils::IteratorType>(k, utils::IteratorType::parallel),
        [&](OpBuilder &nb, Location l, ValueRange args) {
          SmallVector<Value> at{Value()};
          for (unsigned d = 0; d < k; ++d)
            at.push_back(linalg::IndexOp::create(nb, l, d));
          // A float sum's partials (up to 16,384, in one thread) summed with Kahan's
          // compensation, without reassociation (which would let LLVM drop it, and sum
          // in vector lanes where the kernel is emulated on the CPU but in order on a
          // GPU): in order, a column's variance over 70,000 rows was 6e-6 relative
          // off on an H200.
          bool compensated = isa<arith::AddFOp>(c);
          SmallVector<Value> inits{args[0]};
          if (compensated)
            inits.push_back(arith::ConstantOp::create(nb, l, nb.getZeroAttr(args[0].getType())));
          auto loop = scf::ForOp::create(
              nb, l, zero, threads, one, inits,
              [&](OpBuilder &fb, Location fl, Value q, ValueRange iter) {
                at[0] = q;
                Value partial = tensor::ExtractOp::create(fb, fl, partials.getResult(0), at);
                if (compensated)
                  scf::YieldOp::create(fb, fl, kahanStep(fb, fl, iter[0], iter[1], partial));
                else
                  scf::YieldOp::create(fb, fl, combine(fb, partial, iter[0]));
              });
          linalg::YieldOp::create(nb, l, loop.getResult(0));
        });
  }
  op->replaceAllUsesWith(total->getResults());
  op->erase();
}

struct GPUSplitReductions : ag::impl::GPUSplitReductionsBase<GPUSplitReductions> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, Operation *>> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (Operation *c = splittable(op))
        candidates.emplace_back(op, c);
    });
    for (auto [op, c] : candidates)
      split(op, c);
  }
};

} // namespace
