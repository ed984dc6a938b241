//===- PruneDead.cpp - erase what TensorFlow prunes; pin the checks left ----===//
//
// See Passes.td. TensorFlow 2.21 runs, of a tf.function's graph, what the outputs and the
// stateful ops need (its pruning, and Grappler's removal of dead loop variables); an op
// left out raises no error. agc's checks guard the operands of the op they protect (the
// op uses the check's results), so a check is dead exactly when that op is: this pass
// erases dead code once, while the IR is as MLIRGen made it, then turns every check left
// into one that guards nothing, so that no later fold or DCE can drop it.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "ag/dialect/AgDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"

namespace ag {
#define GEN_PASS_DEF_PRUNEDEAD
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// Which values and ops a tf.function would run: what the results of the function and
/// the ops with effects need, through ag.cond result by result and ag.while_loop position
/// by position (a loop variable is live only if something live reads it: TensorFlow's
/// optimizer removes the others), but a loop whole when it holds effects (to TensorFlow,
/// one stateful While op that its optimizer leaves as it is); other ops as a whole.
class Liveness {
public:
  explicit Liveness(Operation *root) : root(root) {
    // Liveness flows from uses back to definitions, so each sweep goes backward: a chain
    // of n ops settles in one sweep, not n (the sweeps repeat only for what loops carry
    // back to their tops).
    for (changed = true; changed;) {
      changed = false;
      for (Region &region : root->getRegions())
        sweep(region);
    }
  }
  bool isLive(Value v) const { return live.contains(v); }
  bool isLive(Operation *op) const { return liveOps.contains(op); }

private:
  /// Visits the ops of `region` last to first; an op that holds regions before them
  /// (what its live results ask of its terminators) and after them (what its regions ask
  /// of its operands).
  void sweep(Region &region) {
    for (Block &block : llvm::reverse(region))
      for (Operation &op : llvm::reverse(block)) {
        visit(&op);
        if (op.getNumRegions() == 0)
          continue;
        for (Region &inner : llvm::reverse(op.getRegions()))
          sweep(inner);
        visit(&op);
      }
  }

  void mark(Value v) { changed |= live.insert(v).second; }
  void markOp(Operation *op) { changed |= liveOps.insert(op).second; }
  bool anyLive(ValueRange values) const {
    return llvm::any_of(values, [&](Value v) { return live.contains(v); });
  }

  void visit(Operation *op) {
    if (op == root)
      return;
    Operation *parent = op->getParentOp();
    if (auto condition = dyn_cast<ag::ConditionOp>(op)) {
      auto loop = cast<ag::WhileLoopOp>(parent);
      if (!liveOps.contains(loop))
        return;
      mark(condition.getCondition());
      Block &after = loop.getAfter().front();
      for (auto [j, arg] : llvm::enumerate(condition.getArgs()))
        if (live.contains(loop.getResult(j)) || live.contains(after.getArgument(j)))
          mark(arg);
      return;
    }
    if (auto yield = dyn_cast<ag::YieldOp>(op)) {
      if (auto loop = dyn_cast<ag::WhileLoopOp>(parent)) {
        Block &before = loop.getBefore().front();
        for (auto [k, value] : llvm::enumerate(yield.getResults()))
          if (live.contains(before.getArgument(k)))
            mark(value);
      } else {
        for (auto [j, value] : llvm::enumerate(yield.getResults()))
          if (live.contains(parent->getResult(j)))
            mark(value);
      }
      return;
    }
    if (auto loop = dyn_cast<ag::WhileLoopOp>(op)) {
      Block &before = loop.getBefore().front(), &after = loop.getAfter().front();
      // A loop with effects (tf.print, a tf.Variable, tf.debugging) is one stateful While
      // op to TensorFlow, kept whole: every loop variable is computed.
      if (!isMemoryEffectFree(op)) {
        for (Value v : before.getArguments())
          mark(v);
        for (Value v : after.getArguments())
          mark(v);
      }
      if (!isMemoryEffectFree(op) || anyLive(loop.getResults()) ||
          anyLive(before.getArguments()) || anyLive(after.getArguments()))
        markOp(op);
      for (auto [k, init] : llvm::enumerate(loop.getInits()))
        if (live.contains(before.getArgument(k)))
          mark(init);
      return;
    }
    if (auto cond = dyn_cast<ag::CondOp>(op)) {
      // Result by result (tf.function's optimizer prunes an If's unused outputs, with
      // what computes them, even beside a tf.print).
      if (!isMemoryEffectFree(op) || anyLive(cond.getResults())) {
        markOp(op);
        mark(cond.getCondition());
      }
      return;
    }
    // Any other op: live with effects, with a live result, or as the terminator of a live
    // op (or of a function); then all it reads is live.
    bool isLiveOp = !isMemoryEffectFree(op) || anyLive(op->getResults()) ||
                    (op->hasTrait<OpTrait::IsTerminator>() &&
                     (parent == root || isa<FunctionOpInterface>(parent) ||
                      liveOps.contains(parent)));
    if (!isLiveOp)
      return;
    markOp(op);
    for (Value operand : op->getOperands())
      mark(operand);
  }

  Operation *root;
  llvm::DenseSet<Value> live;
  llvm::DenseSet<Operation *> liveOps;
  bool changed = false;
};

/// `values` without the positions in `drop`.
llvm::SmallVector<Value> without(ValueRange values, const llvm::BitVector &drop) {
  llvm::SmallVector<Value> kept;
  for (auto [i, v] : llvm::enumerate(values))
    if (!drop.test(i))
      kept.push_back(v);
  return kept;
}

/// `loop` without its dead loop variables (`before` arguments nothing live reads, with
/// their inits and yielded values) and dead passed values (results and body arguments
/// nothing reads), rebuilt when there are any.
void pruneLoop(ag::WhileLoopOp loop, const Liveness &liveness) {
  Block &before = loop.getBefore().front(), &after = loop.getAfter().front();
  // Once the dead ops are gone, what is left of a dead argument or result is a use by a
  // terminator at a dead position (Liveness marks the live ones).
  llvm::BitVector dropBefore(before.getNumArguments()), dropAfter(after.getNumArguments());
  for (BlockArgument arg : before.getArguments())
    dropBefore[arg.getArgNumber()] = !liveness.isLive(arg);
  for (BlockArgument arg : after.getArguments())
    dropAfter[arg.getArgNumber()] =
        !liveness.isLive(arg) && !liveness.isLive(loop.getResult(arg.getArgNumber()));
  if (dropBefore.none() && dropAfter.none())
    return;
  auto condition = cast<ag::ConditionOp>(before.getTerminator());
  auto yield = cast<ag::YieldOp>(after.getTerminator());
  OpBuilder builder(condition);
  ag::ConditionOp::create(builder, condition.getLoc(), condition.getCondition(),
                          without(condition.getArgs(), dropAfter));
  condition.erase();
  builder.setInsertionPoint(yield);
  ag::YieldOp::create(builder, yield.getLoc(), without(yield.getResults(), dropBefore));
  yield.erase();
  before.eraseArguments(dropBefore);
  after.eraseArguments(dropAfter);
  builder.setInsertionPoint(loop);
  llvm::SmallVector<Type> types;
  for (auto [j, type] : llvm::enumerate(loop.getResultTypes()))
    if (!dropAfter.test(j))
      types.push_back(type);
  auto pruned = ag::WhileLoopOp::create(builder, loop.getLoc(), types,
                                        without(loop.getInits(), dropBefore));
  pruned->setAttrs(loop->getAttrs());
  pruned.getBefore().takeBody(loop.getBefore());
  pruned.getAfter().takeBody(loop.getAfter());
  // A result dropped may still be read by the terminator of an enclosing ag.cond or
  // ag.while_loop, at a dead position: that terminator is rebuilt next.
  unsigned next = 0;
  for (auto [j, result] : llvm::enumerate(loop.getResults())) {
    if (dropAfter.test(j))
      result.dropAllUses();
    else
      result.replaceAllUsesWith(pruned.getResult(next++));
  }
  loop.erase();
}

/// `cond` without the results nothing live reads.
void pruneCond(ag::CondOp cond, const Liveness &liveness) {
  llvm::BitVector drop(cond.getNumResults());
  for (OpResult result : cond->getResults())
    drop[result.getResultNumber()] = !liveness.isLive(result);
  if (drop.none())
    return;
  OpBuilder builder(cond);
  llvm::SmallVector<Type> types;
  for (auto [j, type] : llvm::enumerate(cond.getResultTypes()))
    if (!drop.test(j))
      types.push_back(type);
  auto pruned = ag::CondOp::create(builder, cond.getLoc(), types, cond.getCondition());
  pruned->setAttrs(cond->getAttrs());
  for (auto [from, to] : {std::pair<Region *, Region *>{&cond.getThenRegion(), &pruned.getThenRegion()},
                          {&cond.getElseRegion(), &pruned.getElseRegion()}}) {
    to->takeBody(*from);
    auto yield = cast<ag::YieldOp>(to->front().getTerminator());
    builder.setInsertionPoint(yield);
    ag::YieldOp::create(builder, yield.getLoc(), without(yield.getResults(), drop));
    yield.erase();
  }
  unsigned next = 0;
  for (auto [j, result] : llvm::enumerate(cond.getResults())) {
    if (drop.test(j))
      result.dropAllUses(); // see pruneLoop
    else
      result.replaceAllUsesWith(pruned.getResult(next++));
  }
  cond.erase();
}

/// Erases what `liveness` finds dead in `root`, then the loop and cond positions nothing
/// reads any more.
void prune(Operation *root, const Liveness &liveness) {
  llvm::SmallVector<Operation *> dead;
  root->walk([&](Operation *op) {
    Operation *parent = op->getParentOp();
    if (op == root || liveness.isLive(op) || op->hasTrait<OpTrait::IsTerminator>() ||
        isa<FunctionOpInterface>(op))
      return;
    // Outermost ones only: erasing an op erases what it holds.
    if (parent != root && !isa<FunctionOpInterface>(parent) && !liveness.isLive(parent))
      return;
    dead.push_back(op);
  });
  for (Operation *op : llvm::reverse(dead)) {
    op->dropAllUses();
    op->erase();
  }
  // Innermost first (post-order): rebuilding an op moves the regions it holds.
  llvm::SmallVector<Operation *> structured;
  root->walk([&](Operation *op) {
    if (isa<ag::WhileLoopOp, ag::CondOp>(op))
      structured.push_back(op);
  });
  for (Operation *op : structured) {
    if (auto loop = dyn_cast<ag::WhileLoopOp>(op))
      pruneLoop(loop, liveness);
    else
      pruneCond(cast<ag::CondOp>(op), liveness);
  }
}

struct PruneDead : ag::impl::PruneDeadBase<PruneDead> {
  void runOnOperation() override {
    Operation *root = getOperation();
    prune(root, Liveness(root));
    root->walk([](ag::AssertOp check) {
      if (check.getGuarded().empty())
        return;
      // A check that always holds only made values depend on others (MLIRGen's dependOn):
      // liveness has been decided, so it goes.
      if (matchPattern(check.getCondition(), m_One())) {
        check.replaceAllUsesWith(check.getGuarded().take_front(check.getNumResults()));
        check.erase();
        return;
      }
      OpBuilder builder(check);
      ag::AssertOp::create(builder, check.getLoc(), check.getCondition(), check.getMessage(),
                           check.getValues());
      check.replaceAllUsesWith(check.getGuarded());
      check.erase();
    });
  }
};

} // namespace
