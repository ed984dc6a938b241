//===- AgOps.cpp - Verifiers and canonicalizations of ag operations -------===//
//
// Verifiers check that the carried values line up: the yields of ag.cond against its
// results; the block arguments, ag.condition and ag.yield of ag.while_loop against its
// loop-carried values and results. Canonicalizations:
//
//   ag.cond(true) {a} else {b}   =>  a       (and false => b)
//   results of ag.cond nobody uses are dropped, with their yielded values.
//
//===----------------------------------------------------------------------------------===//
#include "ag/dialect/AgDialect.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace ag;

/// Whether the types of `values` are `types`; otherwise reports at `op` what `what` is.
static LogicalResult checkTypes(Operation *op, TypeRange values, TypeRange types,
                                llvm::StringRef what) {
  if (values == types)
    return success();
  return op->emitOpError() << what << " have types (" << values << "), expected (" << types
                           << ")";
}

//===----------------------------------------------------------------------------------===//
// ag.cond
//===----------------------------------------------------------------------------------===//

LogicalResult CondOp::verify() {
  for (Region *region : {&getThenRegion(), &getElseRegion()}) {
    auto yield = dyn_cast<YieldOp>(region->front().getTerminator());
    if (!yield)
      return emitOpError() << "each region must end in ag.yield";
    if (failed(checkTypes(*this, yield.getResults().getTypes(), getResultTypes(),
                          region == &getThenRegion() ? "the values the then region yields"
                                                     : "the values the else region yields")))
      return failure();
  }
  return success();
}

namespace {

/// ag.cond(true) {a} else {b} => a: the taken region's operations move before the cond,
/// and its yielded values replace the cond's results.
struct FoldConstantCond : OpRewritePattern<CondOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CondOp op, PatternRewriter &rewriter) const override {
    Attribute attr;
    if (!matchPattern(op.getCondition(), m_Constant(&attr)))
      return failure();
    bool taken;
    if (auto integer = dyn_cast<IntegerAttr>(attr))
      taken = integer.getValue().getBoolValue();
    else if (auto dense = dyn_cast<DenseElementsAttr>(attr); dense && dense.isSplat())
      taken = dense.getSplatValue<bool>();
    else
      return failure();
    Block *block = &(taken ? op.getThenRegion() : op.getElseRegion()).front();
    auto yield = cast<YieldOp>(block->getTerminator());
    SmallVector<Value> results(yield.getResults());
    rewriter.inlineBlockBefore(block, op);
    rewriter.replaceOp(op, results);
    rewriter.eraseOp(yield);
    return success();
  }
};

/// Results of ag.cond that nobody uses are dropped, with the values both regions yield
/// for them.
struct DropUnusedCondResults : OpRewritePattern<CondOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CondOp op, PatternRewriter &rewriter) const override {
    SmallVector<unsigned> kept;
    for (OpResult result : op->getResults())
      if (!result.use_empty())
        kept.push_back(result.getResultNumber());
    if (kept.size() == op->getNumResults())
      return failure();
    SmallVector<Type> types;
    for (unsigned i : kept)
      types.push_back(op->getResult(i).getType());
    auto newOp = CondOp::create(rewriter, op.getLoc(), types, op.getCondition());
    for (auto [from, to] : {std::pair<Region *, Region *>{&op.getThenRegion(), &newOp.getThenRegion()},
                            {&op.getElseRegion(), &newOp.getElseRegion()}}) {
      rewriter.inlineRegionBefore(*from, *to, to->end());
      auto yield = cast<YieldOp>(to->front().getTerminator());
      SmallVector<Value> values;
      for (unsigned i : kept)
        values.push_back(yield.getResults()[i]);
      rewriter.modifyOpInPlace(yield, [&] { yield->setOperands(values); });
    }
    SmallVector<Value> replacements(op->getNumResults(), nullptr);
    for (auto [j, i] : llvm::enumerate(kept))
      replacements[i] = newOp->getResult(j);
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

} // namespace

void CondOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *context) {
  patterns.add<FoldConstantCond, DropUnusedCondResults>(context);
}

//===----------------------------------------------------------------------------------===//
// ag.while_loop
//===----------------------------------------------------------------------------------===//

LogicalResult WhileLoopOp::verify() {
  Block &before = getBefore().front();
  Block &after = getAfter().front();
  if (failed(checkTypes(*this, before.getArgumentTypes(), getInits().getTypes(),
                        "the arguments of the before region")))
    return failure();
  auto condition = dyn_cast<ConditionOp>(before.getTerminator());
  if (!condition)
    return emitOpError() << "the before region must end in ag.condition";
  if (failed(checkTypes(*this, condition.getArgs().getTypes(), getResultTypes(),
                        "the values ag.condition passes")) ||
      failed(checkTypes(*this, after.getArgumentTypes(), getResultTypes(),
                        "the arguments of the after region")))
    return failure();
  auto yield = dyn_cast<YieldOp>(after.getTerminator());
  if (!yield)
    return emitOpError() << "the after region must end in ag.yield";
  return checkTypes(*this, yield.getResults().getTypes(), getInits().getTypes(),
                    "the values the after region yields");
}

//===----------------------------------------------------------------------------------===//
// ag.print
//===----------------------------------------------------------------------------------===//

/// The items of ag.print and ag.format: text, or indices of tensor operands.
static LogicalResult verifyItems(Operation *op, ArrayAttr items, size_t tensors,
                                 std::optional<ArrayAttr> dtypes) {
  for (Attribute item : items) {
    if (isa<StringAttr>(item))
      continue;
    auto index = dyn_cast<IntegerAttr>(item);
    if (!index)
      return op->emitOpError() << "items must be strings or operand indices, not " << item;
    if (index.getInt() < 0 || uint64_t(index.getInt()) >= tensors)
      return op->emitOpError() << "item " << index.getInt()
                               << " names no tensor operand (there are " << tensors << ")";
  }
  if (dtypes && (*dtypes).size() != tensors)
    return op->emitOpError() << "dtypes names " << (*dtypes).size() << " tensors, not "
                             << tensors;
  return success();
}

LogicalResult FormatOp::verify() {
  return verifyItems(*this, getItems(), getTensors().size(), getDtypes());
}

LogicalResult PrintOp::verify() {
  if (failed(verifyItems(*this, getItems(), getTensors().size(), getDtypes())))
    return failure();
  if (getStream() != "stderr" && getStream() != "stdout")
    return emitOpError() << "stream must be \"stderr\" or \"stdout\", not \"" << getStream()
                         << "\"";
  return success();
}

//===----------------------------------------------------------------------------------===//
// ag.assert
//===----------------------------------------------------------------------------------===//

/// The runtime substitutes at most this many values into a failed check's message.
static constexpr unsigned kMaxAssertValues = 3;

LogicalResult AssertOp::verify() {
  if (getValues().size() > kMaxAssertValues)
    return emitOpError() << "takes at most " << kMaxAssertValues << " values, not "
                         << getValues().size();
  return success();
}

LogicalResult AssertOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                         ValueRange operands, DictionaryAttr attributes,
                                         OpaqueProperties properties, RegionRange regions,
                                         SmallVectorImpl<Type> &types) {
  Adaptor adaptor(operands, attributes, properties, regions);
  llvm::append_range(types, adaptor.getGuarded().getTypes());
  return success();
}

void AssertOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  // A check that guards values lives and dies with their users (see the op's description).
  if (getGuarded().empty())
    effects.emplace_back(MemoryEffects::Write::get());
}

#define GET_OP_CLASSES
#include "ag/dialect/AgOps.cpp.inc"
