//===- VersionBroadcasts.cpp - one test of a block's run-time broadcasts --------===//
//
// See Passes.td. Where operands' sizes are known only at run time, MLIRGen copies an
// operand that turns out to be 1 where the result is not (TensorFlow's broadcasting) in an
// `scf.if` taken only then, and the elementwise op reads the `scf.if`'s result. That
// result is no linalg op, so no two ops of a chain over such operands fuse: x * y + x - y
// over two `[None]` inputs is one pass over memory per op even when, as nearly always,
// every size is the same. This pass tests, once, whether any of a block's broadcasts
// happens, and gives the block's code after the first of them two versions: as it was,
// and with every broadcast known not to happen (its branch's condition false), which
// canonicalization folds to the operands themselves and fusion then makes one loop.
//
// For each block (innermost first) of a function or an scf op:
//
//   1. the candidates: the block's `scf.if`s with no effects whose else branch yields
//      values from outside the `if` and does nothing else (a broadcast's form), whose
//      condition pure scalar ops compute from sizes (`tensor.dim`, `arith.cmpi`,
//      `arith.select`, ...: no tensor's elements), those of the block from values the
//      first candidate can see;
//   2. those ops move up to before the first candidate, or to the block's start where
//      they compute the conditions from values from outside the block (the arguments'
//      sizes: the work before the first broadcast then fuses with what follows it);
//      pure ops: nothing changes;
//   3. the block's ops from there to its terminator go into an
//      `scf.if %any` of the candidates' conditions: its then branch the ops as they were,
//      its else branch a copy in which each candidate's condition is `false`; the
//      terminator takes the values it used from the new `if`.
//
// Both versions run the same checks, prints and variable updates in the same order, and
// the second runs only when it computes what the first would: same results, same bits.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace ag {
#define GEN_PASS_DEF_VERSIONBROADCASTS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// The most ops a condition's computation may take to be moved up (a broadcast's takes
/// a handful: its sizes' comparisons and selects).
constexpr unsigned kMaxConditionOps = 64;

/// Whether `op` has the form of a broadcast's branch: no effects, results, and an else
/// branch that yields values defined outside it and does nothing else.
bool isBroadcastForm(scf::IfOp op) {
  if (op.getNumResults() == 0 || op.getElseRegion().empty() || !isMemoryEffectFree(op))
    return false;
  Block *elseBlock = op.elseBlock();
  if (!llvm::hasSingleElement(*elseBlock))
    return false;
  return llvm::all_of(elseBlock->getTerminator()->getOperands(), [&](Value v) {
    return !op->isAncestor(v.getParentRegion()->getParentOp());
  });
}

/// Whether `op` may be computed anywhere its operands are: a pure op on scalars, without
/// regions.
bool isPureScalar(Operation *op) {
  return op->getNumRegions() == 0 && isPure(op) &&
         llvm::all_of(op->getResultTypes(), [](Type t) { return t.isIntOrIndexOrFloat(); });
}

/// Whether `condition` is computed from sizes alone: by pure scalar ops from tensors'
/// sizes (`tensor.dim`), constants and index values; not from a tensor's elements (a
/// staged if's predicate, which is data).
bool isSizeCondition(Value condition) {
  llvm::SmallPtrSet<Value, 16> seen;
  SmallVector<Value> work{condition};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (seen.size() > 4 * kMaxConditionOps)
      return false;
    if (llvm::isa<BlockArgument>(v)) {
      if (!v.getType().isIndex())
        return false;
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (isa<tensor::DimOp>(def) || matchPattern(v, m_Constant()))
      continue;
    if (!isPureScalar(def))
      return false;
    llvm::append_range(work, def->getOperands());
  }
  return true;
}

/// Whether `v` is available just before `point`, in `point`'s block: defined before it
/// in the block, or outside the block.
bool availableBefore(Value v, Operation *point) {
  Block *block = point->getBlock();
  if (v.getParentBlock() != block)
    return true;
  if (llvm::isa<BlockArgument>(v))
    return true;
  return v.getDefiningOp()->isBeforeInBlock(point);
}

/// Adds to `slice` the ops of `point`'s block, `point` and after, that compute `v` from
/// values available before `point`; fails where one is not isPureScalar (or the
/// computation is longer than kMaxConditionOps). `slice` is unchanged on failure.
LogicalResult collectCondition(Value v, Operation *point, llvm::SetVector<Operation *> &slice) {
  llvm::SetVector<Operation *> found;
  SmallVector<Value> work{v};
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (availableBefore(x, point))
      continue;
    Operation *def = x.getDefiningOp();
    if (slice.contains(def) || !found.insert(def))
      continue;
    if (found.size() > kMaxConditionOps || !isPureScalar(def))
      return failure();
    llvm::append_range(work, def->getOperands());
  }
  slice.insert(found.begin(), found.end());
  return success();
}

/// Whether the ops from `first` to the end of its block, those in their regions too, are
/// more than `limit`.
bool spanExceeds(Operation *first, unsigned limit) {
  unsigned count = 0;
  for (Operation *op = first; op && count <= limit; op = op->getNextNode())
    op->walk([&](Operation *) { ++count; });
  return count > limit;
}

struct VersionBroadcasts : ag::impl::VersionBroadcastsBase<VersionBroadcasts> {
  using VersionBroadcastsBase::VersionBroadcastsBase;

  void runOnOperation() override {
    // Innermost blocks first: an outer block's copy then holds the inner ones' versions.
    SmallVector<Block *> blocks;
    getOperation()->walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (!isa<func::FuncOp, scf::ForOp, scf::WhileOp, scf::IfOp, scf::IndexSwitchOp,
               scf::ExecuteRegionOp>(op))
        return;
      for (Region &region : op->getRegions())
        if (region.hasOneBlock())
          blocks.push_back(&region.front());
    });
    for (Block *block : blocks)
      version(*block);
  }

  /// Steps 1-3 of the file comment on `block`.
  void version(Block &block) {
    if (block.empty() || !block.back().hasTrait<OpTrait::IsTerminator>())
      return;
    Operation *first = nullptr;
    llvm::SetVector<Operation *> slice;
    SmallVector<Value> conditions;
    for (Operation &op : block.without_terminator()) {
      auto ifOp = dyn_cast<scf::IfOp>(op);
      if (!ifOp || !isBroadcastForm(ifOp) || !isSizeCondition(ifOp.getCondition()))
        continue;
      if (failed(collectCondition(ifOp.getCondition(), first ? first : &op, slice)))
        continue;
      first = first ? first : &op;
      conditions.push_back(ifOp.getCondition());
    }
    if (!first)
      return;
    // The versions start at the block's first op where the conditions are computed from
    // values from outside the block (the function's arguments' sizes): then the work
    // before the first broadcast is in both versions too, and fuses with what follows
    // it in the second. Otherwise they start at the first broadcast.
    llvm::SetVector<Operation *> fromTop;
    if (llvm::all_of(conditions, [&](Value c) {
          return succeeded(collectCondition(c, &block.front(), fromTop));
        })) {
      first = &block.front();
      slice = std::move(fromTop);
    }
    // 2. The conditions' ops before the first op of the versions, in their order.
    while (slice.contains(first))
      first = first->getNextNode();
    if (spanExceeds(first, maxSpanOps))
      return;
    for (Operation &op : llvm::make_early_inc_range(llvm::make_range(first->getIterator(),
                                                                     block.end())))
      if (slice.contains(&op))
        op.moveBefore(first);

    // 3. The span's values the terminator reads become the new if's results.
    Operation *terminator = block.getTerminator();
    auto inSpan = [&](Value v) {
      Operation *def = v.getDefiningOp();
      return def && def->getBlock() == &block && !def->isBeforeInBlock(first) &&
             def != terminator;
    };
    llvm::SetVector<Value> results;
    for (Value v : terminator->getOperands())
      if (inSpan(v))
        results.insert(v);
    SmallVector<Type> types;
    for (Value v : results)
      types.push_back(v.getType());

    Location loc = first->getLoc();
    OpBuilder b(first);
    // The new if's location says what it is, for --print-kernels (an attribute would not
    // survive bufferization, which makes the if anew).
    Location versionsLoc =
        FusedLoc::get(b.getContext(), {loc}, b.getStringAttr(ag::kBroadcastVersions));
    Value any = conditions.front();
    for (Value c : llvm::drop_begin(conditions))
      any = arith::OrIOp::create(b, loc, any, c);
    Value no = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
    auto versions = scf::IfOp::create(b, versionsLoc, types, any, /*addThenBlock=*/true,
                                      /*addElseBlock=*/true);

    // The else branch: a copy with every broadcast's condition false.
    IRMapping fast;
    for (Value c : conditions)
      fast.map(c, no);
    b.setInsertionPointToStart(versions.elseBlock());
    for (Operation *op = versions->getNextNode(); op != terminator; op = op->getNextNode())
      b.clone(*op, fast);
    SmallVector<Value> fastResults;
    for (Value v : results)
      fastResults.push_back(fast.lookup(v));
    scf::YieldOp::create(b, loc, fastResults);

    // The then branch: the ops themselves.
    Block *thenBlock = versions.thenBlock();
    thenBlock->getOperations().splice(thenBlock->end(), block.getOperations(),
                                      std::next(versions->getIterator()),
                                      terminator->getIterator());
    b.setInsertionPointToEnd(thenBlock);
    scf::YieldOp::create(b, loc, results.getArrayRef());

    for (auto [v, r] : llvm::zip(results, versions.getResults()))
      Value(v).replaceUsesWithIf(r, [&](OpOperand &use) { return use.getOwner() == terminator; });
  }
};

} // namespace

bool ag::inBroadcastVersion(Operation *op) {
  for (; op->getParentOp(); op = op->getParentOp()) {
    auto ifOp = dyn_cast<scf::IfOp>(op->getParentOp());
    if (!ifOp || op->getParentRegion() != &ifOp.getThenRegion())
      continue;
    auto fused = llvm::dyn_cast<FusedLoc>(ifOp->getLoc());
    if (fused && fused.getMetadata() == StringAttr::get(op->getContext(), kBroadcastVersions))
      return true;
  }
  return false;
}
