//===- FuseElementwise.cpp - Elementwise fusion with a bound on body size ----===//
//
// Upstream's linalg-fuse-elementwise-ops fuses a producer into its consumer whenever the
// producer has one use. Along a chain of n elementwise ops (`x = x + 1.0` a few thousand
// times) each fusion clones the body built so far, so the chain costs n^2 / 2 clones:
// 2,000 statements took 2.4 s, 8,000 statements 53 s. This pass fuses under the same rule
// with one more: the fused body holds at most `max-body-ops` operations. A chain becomes
// n / max-body-ops generic ops, each still a single pass over memory, and fusion costs
// n * max-body-ops: linear in the length of the function.
//
// First, upstream's folding of unit dimensions: a reduction with keepdims, which MLIRGen
// writes over a [rows, 1, cols] view with a [rows, 1] result broadcast back through a
// constant 0 in an indexing map, becomes a reduction of [rows, cols] to [rows] read as a
// row vector (a linalg.generic again, for producers to fuse into). The rows of softmax
// then run as plain 2-D loops: 10% faster at 4096 x 1024.
//
// With `recompute` (the GPU pipeline's), an elementwise producer of several uses whose
// payload is arithmetic and math a kernel computes fuses into each consumer, computed
// again there instead of stored and read back: memory traffic costs a GPU more than
// arithmetic. (On the CPU, computing a softmax's exponentials twice was 10% slower.)
//
// A producer whose payload has an effect (a run-time check's call) is not dead after
// its fusion: it stays, running its payload a second time, unless the fused op repeats
// its effects at each point in the same order (eraseRepeatedEffects).
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/KernelMath.h"
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ag {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// Whether computing `op`'s payload again in a consumer is cheap and keeps a GPU kernel
/// a kernel: arithmetic and the math a kernel computes (no float remainder, no float64
/// exp, no call, no branch).
bool cheap(linalg::GenericOp op) {
  for (Operation &inner : op.getBlock()->without_terminator()) {
    if (isa<arith::RemFOp>(inner))
      return false;
    if (isa<arith::ArithDialect>(inner.getDialect()))
      continue;
    if (!ag::isKernelMath(&inner))
      return false;
  }
  return true;
}

/// Whether the payload of `op` has an effect (a run-time check's call of the runtime).
bool payloadHasEffects(linalg::GenericOp op) {
  return !llvm::all_of(op.getBlock()->without_terminator(),
                       [](Operation &inner) { return isMemoryEffectFree(&inner); });
}

/// Marks a producer whose payload has effects that fusing `fused` repeats in full, at
/// each of its points and in its order: after the fusion it is left for those effects
/// alone (its result unused), and the fused op has them.
constexpr llvm::StringLiteral kEffectsFused = "ag.effects_fused";

/// Whether the fusion of `fused` runs the payload of its producer, an elementwise
/// generic with effects and this one use, at every point of the producer's domain and
/// in its order, with no effect of the consumer's own between: the consumer is an
/// elementwise generic of no effect reading the whole result through the identity.
bool repeatsProducerEffects(OpOperand *fused) {
  auto producer = fused->get().getDefiningOp<linalg::GenericOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(fused->getOwner());
  if (!producer || !consumer || !producer->hasOneUse() ||
      producer.getNumLoops() != producer.getNumParallelLoops() ||
      consumer.getNumLoops() != consumer.getNumParallelLoops() ||
      producer.getNumLoops() != consumer.getNumLoops())
    return false;
  auto result = cast<OpResult>(fused->get());
  return consumer.getMatchingIndexingMap(fused).isIdentity() &&
         producer.getIndexingMapMatchingResult(result).isIdentity() &&
         payloadHasEffects(producer) && !payloadHasEffects(consumer);
}

/// The operations in the body of a linalg op, its terminator included.
size_t bodySize(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return linalgOp ? linalgOp.getBlock()->getOperations().size() : 0;
}

/// A linalg.reduce as the linalg.generic it is, which elementwise producers fuse into
/// (dropping a reduction's unit dimensions makes the named op).
struct GeneralizeReduce : OpRewritePattern<linalg::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::ReduceOp op, PatternRewriter &rewriter) const override {
    return linalg::generalizeNamedOp(rewriter, op);
  }
};

/// Upstream's fusion patterns give each output of a linalg.generic whose payload does not
/// read it a `tensor.empty` in place of its init (RemoveOutsDependency): right for the
/// parallel loops it was written for, wrong for a reduction with no iterations, whose
/// result is its init. Such a payload is what fusing a constant input leaves:
/// `reduce_all(fill([n], False))`'s `false and acc` folds to `false`, and for n = 0 the
/// result was read from an uninitialized buffer (TensorFlow: True). This pattern, tried
/// first, splits such a reduction on its trip count: its inits where a reduction loop
/// has no iterations (the whole op, where one is statically empty), else the op with
/// those outputs `tensor.empty`.
struct KeepInitOfEmptyReduction : OpRewritePattern<linalg::GenericOp> {
  KeepInitOfEmptyReduction(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/10) {}

  /// The inits the payload does not read, where they are not already tensor.empty.
  static SmallVector<OpOperand *> unreadInits(linalg::GenericOp op) {
    SmallVector<OpOperand *> out;
    for (OpOperand &init : op.getDpsInitsMutable())
      if (!op.payloadUsesValueFromOperand(&init) && !init.get().getDefiningOp<tensor::EmptyOp>())
        out.push_back(&init);
    return out;
  }

  LogicalResult matchAndRewrite(linalg::GenericOp op, PatternRewriter &rewriter) const override {
    if (op.getNumReductionLoops() == 0 || !op.hasPureTensorSemantics() || unreadInits(op).empty())
      return failure();
    Location loc = op.getLoc();
    SmallVector<unsigned> reductionDims;
    op.getReductionDims(reductionDims);
    SmallVector<int64_t> sizes = op.getStaticLoopRanges();
    for (unsigned d : reductionDims)
      if (sizes[d] == 0) {
        // Statically no iterations: the results are the inits.
        SmallVector<Value> inits(op.getDpsInits());
        rewriter.replaceOp(op, inits);
        return success();
      }
    // Static sizes, none 0: it iterates, and the init is never the result. (Decided
    // before building anything: a pattern that fails leaves the IR as it was.)
    if (llvm::none_of(reductionDims, [&](unsigned d) { return ShapedType::isDynamic(sizes[d]); }))
      return failure();
    SmallVector<Range, 4> ranges =
        cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(rewriter, loc);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0), anyEmpty;
    for (unsigned d : reductionDims) {
      if (!ShapedType::isDynamic(sizes[d]))
        continue;
      Value size = getValueOrCreateConstantIndexOp(rewriter, loc, ranges[d].size);
      Value isEmpty = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, size, zero);
      anyEmpty = anyEmpty ? arith::OrIOp::create(rewriter, loc, anyEmpty, isEmpty) : isEmpty;
    }
    auto ifOp = scf::IfOp::create(rewriter, loc, op->getResultTypes(), anyEmpty, true, true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(rewriter, loc, SmallVector<Value>(op.getDpsInits()));
      rewriter.setInsertionPointToStart(ifOp.elseBlock());
      auto iterating = cast<linalg::GenericOp>(rewriter.clone(*op));
      rewriter.setInsertionPoint(iterating);
      for (OpOperand *init : unreadInits(iterating)) {
        SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, init->get());
        Type element = getElementTypeOrSelf(init->get().getType());
        rewriter.modifyOpInPlace(iterating, [&] {
          init->set(tensor::EmptyOp::create(rewriter, loc, sizes, element));
        });
      }
      rewriter.setInsertionPointAfter(iterating);
      scf::YieldOp::create(rewriter, loc, iterating->getResults());
    }
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

struct FuseElementwise : ag::impl::FuseElementwiseBase<FuseElementwise> {
  using FuseElementwiseBase::FuseElementwiseBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    {
      RewritePatternSet unitDims(context);
      linalg::ControlDropUnitDims dropUnitDims;
      linalg::populateFoldUnitExtentDimsPatterns(unitDims, dropUnitDims);
      linalg::populateFoldUnitExtentDimsCanonicalizationPatterns(unitDims, dropUnitDims);
      if (failed(applyPatternsGreedily(getOperation(), std::move(unitDims))))
        return signalPassFailure();
    }
    unsigned limit = maxBodyOps;
    bool again = recompute;
    // Upstream's rule (a producer with one use), and the bound on the fused body. With
    // `recompute`, an elementwise producer of several uses fuses into each of them (it
    // stays for the uses not fused yet, and goes with the last).
    linalg::ControlFusionFn control = [limit, again](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      if (!producer || bodySize(producer) + bodySize(fused->getOwner()) > limit)
        return false;
      if (producer->hasOneUse()) {
        // (An attribute, not a set of ops: upstream's patterns may rebuild the producer.)
        if (repeatsProducerEffects(fused))
          producer->setAttr(kEffectsFused, UnitAttr::get(producer->getContext()));
        return true;
      }
      auto generic = dyn_cast<linalg::GenericOp>(producer);
      return again && generic && generic.getNumLoops() == generic.getNumParallelLoops() &&
             generic->getNumResults() == 1 && cheap(generic);
    };
    // The pattern set of upstream's pass, with that control.
    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    patterns.add<GeneralizeReduce, KeepInitOfEmptyReduction>(context);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, control);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, control);
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
    eraseRepeatedEffects(getOperation());
    inlineOperandless(getOperation());
  }

  /// A producer whose payload has effects stays after it is fused into its consumer
  /// (its result unused), and runs its payload a second time: `tf.gather(t, ids) * 2.0`
  /// gathered twice, checking each index twice (on the GPU, two kernels). Where the
  /// fused op repeats those effects in full (repeatsProducerEffects), it goes.
  static void eraseRepeatedEffects(Operation *root) {
    SmallVector<Operation *> fused;
    root->walk([&](linalg::GenericOp op) {
      if (op->hasAttr(kEffectsFused))
        fused.push_back(op);
    });
    for (Operation *op : fused) {
      if (op->use_empty())
        op->erase();
      else
        op->removeAttr(kEffectsFused);
    }
  }

  /// A producer fused into its consumer stays where its payload has effects (a run-time
  /// check's call of the runtime), and upstream's patterns drop its unused result and,
  /// where its inputs were constants folded into the payload, every operand: a generic
  /// of no operand and no loop (`tf.reduce_sum(x, keepdims=True) // 0` left one, which no
  /// lowering takes: an internal error). It runs its payload once: here, in its place.
  static void inlineOperandless(Operation *root) {
    SmallVector<linalg::GenericOp> ops;
    root->walk([&](linalg::GenericOp op) {
      if (op->getNumOperands() == 0 && op.getNumLoops() == 0 && op->getNumResults() == 0)
        ops.push_back(op);
    });
    for (linalg::GenericOp op : ops) {
      Block *body = op.getBlock();
      body->getTerminator()->erase();
      op->getBlock()->getOperations().splice(Block::iterator(op), body->getOperations());
      op->erase();
    }
  }
};

} // namespace
