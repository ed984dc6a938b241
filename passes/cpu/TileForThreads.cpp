//===- TileForThreads.cpp - tensor work split into chunks the cores share --===//
//
// Every large linalg op becomes an scf.forall over a fixed number of chunks of one of its
// loops, on tensors, so that bufferization writes each chunk in place and the forall then
// runs on all cores (ag-parallel-loops, upstream's convert-scf-to-openmp, LLVM's libomp):
//
//   - an op with a parallel loop (elementwise work, a reduction along some axes, a
//     matmul) is tiled along its first parallel loop of more than one iteration: each
//     chunk writes its own slice of the result;
//   - an op whose loops all reduce (a sum of a whole tensor) computes `chunks` partial
//     results, one per chunk of its first reduction loop, each starting from the
//     combiner's neutral element, and then combines them in order into its init
//     (upstream's partial-reduction tiling).
//
// The number of chunks is fixed, not the number of threads: the chunks, and so the order
// in which a float sum is combined, depend on the sizes alone, and the result is the same
// for any thread count. An op whose iteration space has fewer than `min-work` points stays
// as it is (a fork costs microseconds); when the sizes are known only at run time, the op
// is kept twice, chunked and whole, under an scf.if on the number of points:
//
//   %r = linalg.generic ... ins(%x : tensor<?xf32>) ...
//     => %r = scf.if (%points >= min-work) {
//          %t = scf.forall (%c) in (chunks) shared_outs(%o = %init) { ...slices... }
//          scf.yield %t
//        } else { %t = linalg.generic ... (as before); scf.yield %t }
//
// Only ops whose body is pure arithmetic are chunked: nothing that runs on a worker
// thread can call agc's runtime, so no run-time error (which unwinds to the caller with
// longjmp) is ever raised on one.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace ag {
#define GEN_PASS_DEF_TILEFORTHREADS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// Whether every op of `op`'s body computes without effects (reads of a captured tensor
/// aside): what a worker thread may run.
bool pureBody(linalg::LinalgOp op) {
  if (op->getNumRegions() != 1)
    return false;
  WalkResult walk = op->getRegion(0).walk([](Operation *inner) {
    if (isa<linalg::YieldOp, tensor::ExtractOp>(inner) || isPure(inner))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

/// Whether `op`'s one result is combined by one arith operation with a neutral element
/// (a sum, product, maximum, ...; not a complex sum, nor an argmax), from which each
/// chunk's partial result can start.
bool combinesWithNeutral(linalg::LinalgOp op) {
  if (op->getNumResults() != 1 || !isa<PartialReductionOpInterface>(op.getOperation()))
    return false;
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  Operation *combine = yield.getOperand(0).getDefiningOp();
  BlockArgument acc = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  return combine && combine->getBlock() == op.getBlock() &&
         llvm::is_contained(combine->getOperands(), acc) && acc.hasOneUse() &&
         arith::getNeutralElement(combine).has_value();
}

/// The loop to chunk, and whether it reduces; nullopt when none is worth it.
std::optional<std::pair<unsigned, bool>> chooseLoop(linalg::LinalgOp op) {
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  auto many = [&](unsigned d) { return ShapedType::isDynamic(sizes[d]) || sizes[d] > 1; };
  for (unsigned d = 0; d < sizes.size(); ++d)
    if (iterators[d] == utils::IteratorType::parallel && many(d))
      return std::make_pair(d, false);
  // All loops reduce (or the parallel ones have one iteration): partial results.
  if (!combinesWithNeutral(op))
    return std::nullopt;
  for (unsigned d = 0; d < sizes.size(); ++d)
    if (iterators[d] == utils::IteratorType::reduction && many(d))
      return std::make_pair(d, true);
  return std::nullopt;
}

struct TileForThreads : ag::impl::TileForThreadsBase<TileForThreads> {
  using TileForThreadsBase::TileForThreadsBase;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && op->getNumResults() > 0 && op.getNumLoops() > 0 &&
          !op->getParentOfType<scf::ForallOp>() && pureBody(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops)
      chunk(rewriter, op);
  }

  void chunk(IRRewriter &rewriter, linalg::LinalgOp op) {
    SmallVector<int64_t> staticSizes = op.getStaticLoopRanges();
    // No work at all (a loop of no iterations), whatever the other sizes are.
    if (llvm::is_contained(staticSizes, 0))
      return;
    if (llvm::none_of(staticSizes, ShapedType::isDynamic)) {
      int64_t points = 1;
      for (int64_t s : staticSizes)
        points = points > INT64_MAX / s ? INT64_MAX : points * s;
      if (points < minWork)
        return;
    }
    std::optional<std::pair<unsigned, bool>> loop = chooseLoop(op);
    if (!loop)
      return;
    auto [dim, reduces] = *loop;

    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    // The number of points, as the sizes are at run time (a constant when they are static).
    SmallVector<Range> ranges = op.createLoopRanges(rewriter, loc);
    AffineExpr product = rewriter.getAffineConstantExpr(1);
    SmallVector<OpFoldResult> sizes;
    for (auto [i, range] : llvm::enumerate(ranges)) {
      product = product * rewriter.getAffineSymbolExpr(i);
      sizes.push_back(range.size);
    }
    OpFoldResult points = affine::makeComposedFoldedAffineApply(
        rewriter, loc, AffineMap::get(0, ranges.size(), product), sizes);
    Value enough = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::sge,
        getValueOrCreateConstantIndexOp(rewriter, loc, points),
        arith::ConstantIndexOp::create(rewriter, loc, minWork));

    // Both versions under an scf.if; the folder keeps one when the test is a constant.
    auto ifOp = scf::IfOp::create(rewriter, loc, op->getResultTypes(), enough,
                                  /*withElseRegion=*/true);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    Operation *chunked = rewriter.clone(*op);
    scf::YieldOp::create(rewriter, loc, chunked->getResults());
    rewriter.setInsertionPointToStart(ifOp.elseBlock());
    Operation *whole = rewriter.clone(*op);
    scf::YieldOp::create(rewriter, loc, whole->getResults());

    rewriter.setInsertionPoint(chunked);
    scf::SCFTilingOptions options;
    options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    SmallVector<OpFoldResult> counts(op.getNumLoops(), rewriter.getIndexAttr(0));
    if (matmulRows > 1 && dim == 0 && isa<linalg::MatmulOp>(op.getOperation())) {
      // A matmul's rows in chunks of a whole number of the kernel's row blocks (at most
      // `chunks` of them), so that no chunk but the last leaves rows to its slow edge.
      AffineExpr m = rewriter.getAffineSymbolExpr(0);
      AffineExpr perChunk = m.ceilDiv(chunks).ceilDiv(matmulRows) * matmulRows;
      counts[dim] = affine::makeComposedFoldedAffineApply(
          rewriter, loc, AffineMap::get(0, 1, perChunk), {ranges[dim].size});
      options.setTileSizes(counts);
    } else {
      counts[dim] = rewriter.getIndexAttr(std::min<int64_t>(
          chunks, ShapedType::isDynamic(staticSizes[dim]) ? chunks : staticSizes[dim]));
      options.setNumThreads(counts);
    }
    if (reduces) {
      options.setReductionTilingStrategy(ReductionTilingStrategy::PartialReductionOuterParallel);
      options.setReductionDims({dim});
    }
    FailureOr<scf::SCFTilingResult> tiled =
        scf::tileUsingSCF(rewriter, cast<TilingInterface>(chunked), options);
    if (failed(tiled)) {
      // Not chunked after all (upstream's tiling refused it): as it was.
      rewriter.eraseOp(ifOp);
      return;
    }
    rewriter.replaceOp(chunked, tiled->replacements);
    rewriter.replaceOp(op, ifOp.getResults());
  }
};

} // namespace
