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

#include "ag/compiler/AgDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"

namespace ag {
#define GEN_PASS_DEF_PRUNEDEAD
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// Removes from `loop` the loop variables that feed nothing but themselves: a `before`
/// argument whose value reaches no test, no used result, no op with effects and no other
/// loop variable (with the ops that computed it, and its init), and a value passed to the
/// body that nothing live uses (with its result, which nothing uses). Returns whether
/// anything changed.
bool dropDeadCarried(ag::WhileLoopOp loop) {
  Block &before = loop.getBefore().front(), &after = loop.getAfter().front();
  auto condition = cast<ag::ConditionOp>(before.getTerminator());
  auto yield = cast<ag::YieldOp>(after.getTerminator());
  llvm::DenseSet<Value> live;
  llvm::DenseSet<Operation *> liveOps;
  bool changed = true;
  // What is live: the test; the values passed on to a used result or to a live body
  // argument; a yielded value whose loop variable is live; and, within the regions, the
  // operands of every op that has effects, whose results are live, or that ends a region
  // of a live op. To a fixed point (a loop variable goes around the loop).
  auto isLive = [&](Operation *op) {
    if (liveOps.contains(op))
      return true;
    bool result = !isMemoryEffectFree(op) ||
                  llvm::any_of(op->getResults(), [&](Value r) { return live.contains(r); }) ||
                  (op->hasTrait<OpTrait::IsTerminator>() && op->getParentOp() != loop &&
                   liveOps.contains(op->getParentOp()));
    if (result)
      changed |= liveOps.insert(op).second;
    return result;
  };
  auto passed = [&](unsigned j) {
    return !loop.getResult(j).use_empty() || live.contains(after.getArgument(j));
  };
  while (changed) {
    changed = false;
    auto mark = [&](Value v) { changed |= live.insert(v).second; };
    mark(condition.getCondition());
    for (auto [j, arg] : llvm::enumerate(condition.getArgs()))
      if (passed(j))
        mark(arg);
    for (auto [k, value] : llvm::enumerate(yield.getResults()))
      if (live.contains(before.getArgument(k)))
        mark(value);
    loop->walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (op == loop.getOperation() || op == condition.getOperation() ||
          op == yield.getOperation() || !isLive(op))
        return;
      for (Value operand : op->getOperands())
        mark(operand);
    });
  }
  llvm::SmallVector<unsigned> deadVariables, deadPassed;
  for (BlockArgument arg : before.getArguments())
    if (!live.contains(arg))
      deadVariables.push_back(arg.getArgNumber());
  for (unsigned j = 0; j < loop.getNumResults(); ++j)
    if (!passed(j))
      deadPassed.push_back(j);
  if (deadVariables.empty() && deadPassed.empty())
    return false;
  // The ops nothing live needs go first (outermost ones: with what they hold), so that
  // the dead arguments are left with no use but the terminators'.
  llvm::SmallVector<Operation *> dead;
  loop->walk([&](Operation *op) {
    Operation *parent = op->getParentOp();
    if (op == loop.getOperation() || op == condition.getOperation() || op == yield.getOperation() ||
        liveOps.contains(op) || (parent != loop.getOperation() && !liveOps.contains(parent)))
      return;
    dead.push_back(op);
  });
  for (Operation *op : llvm::reverse(dead)) {
    op->dropAllUses();
    op->erase();
  }
  // The terminators without the dead positions, the blocks without the dead arguments.
  auto keep = [](ValueRange values, llvm::ArrayRef<unsigned> drop) {
    llvm::SmallVector<Value> kept;
    for (auto [i, v] : llvm::enumerate(values))
      if (!llvm::is_contained(drop, i))
        kept.push_back(v);
    return kept;
  };
  OpBuilder builder(condition);
  ag::ConditionOp::create(builder, condition.getLoc(), condition.getCondition(),
                          keep(condition.getArgs(), deadPassed));
  condition.erase();
  builder.setInsertionPoint(yield);
  ag::YieldOp::create(builder, yield.getLoc(), keep(yield.getResults(), deadVariables));
  yield.erase();
  llvm::BitVector dropBefore(before.getNumArguments()), dropAfter(after.getNumArguments());
  for (unsigned k : deadVariables)
    dropBefore.set(k);
  for (unsigned j : deadPassed)
    dropAfter.set(j);
  before.eraseArguments(dropBefore);
  after.eraseArguments(dropAfter);
  // A new loop takes the regions.
  builder.setInsertionPoint(loop);
  llvm::SmallVector<Type> types;
  for (auto [j, type] : llvm::enumerate(loop.getResultTypes()))
    if (!dropAfter.test(j))
      types.push_back(type);
  auto pruned = ag::WhileLoopOp::create(builder, loop.getLoc(), types,
                                        keep(loop.getInits(), deadVariables));
  pruned->setAttrs(loop->getAttrs());
  pruned.getBefore().takeBody(loop.getBefore());
  pruned.getAfter().takeBody(loop.getAfter());
  unsigned next = 0;
  for (auto [j, result] : llvm::enumerate(loop.getResults()))
    if (!dropAfter.test(j))
      result.replaceAllUsesWith(pruned.getResult(next++));
  loop.erase();
  return true;
}

/// Erases the ops in `root` whose results nothing uses and that have no effect, innermost
/// first, until none is left. Returns whether anything was erased.
bool eraseDead(Operation *root) {
  bool any = false;
  for (bool changed = true; changed;) {
    changed = false;
    llvm::SmallVector<Operation *> dead;
    root->walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (op != root && op->getNumResults() > 0 && isOpTriviallyDead(op))
        dead.push_back(op);
    });
    // An op holding another one on the list erases it too: erase only outermost ones.
    llvm::DenseSet<Operation *> erased;
    for (Operation *op : llvm::reverse(dead)) {
      bool inside = false;
      for (Operation *parent = op->getParentOp(); parent && !inside; parent = parent->getParentOp())
        inside = erased.contains(parent);
      if (inside)
        continue;
      erased.insert(op);
    }
    for (Operation *op : erased) {
      op->dropAllUses();
      op->erase();
      changed = any = true;
    }
  }
  return any;
}

struct PruneDead : ag::impl::PruneDeadBase<PruneDead> {
  void runOnOperation() override {
    Operation *root = getOperation();
    for (bool changed = true; changed;) {
      changed = eraseDead(root);
      // Innermost loops first; a loop rebuilt is not visited again in this sweep.
      llvm::SmallVector<ag::WhileLoopOp> loops;
      root->walk([&](ag::WhileLoopOp loop) { loops.push_back(loop); });
      for (ag::WhileLoopOp loop : loops)
        changed |= dropDeadCarried(loop);
    }
    root->walk([](ag::AssertOp check) {
      if (check.getGuarded().empty())
        return;
      OpBuilder builder(check);
      ag::AssertOp::create(builder, check.getLoc(), check.getCondition(), check.getMessage(),
                           check.getValues());
      check.replaceAllUsesWith(check.getGuarded());
      check.erase();
    });
  }
};

} // namespace
