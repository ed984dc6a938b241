//===- RegisterAccumulators.cpp - a parallel loop's sums kept in registers ------===//
//
// A matmul lowered for the GPU is a parallel loop over the result's elements, each
// iteration an inner loop over k that reads the element, adds a product and stores it
// back, every k:
//
//   scf.parallel (%i, %j) = ... {
//     scf.for %k = %lb to %ub step %s {
//       %c = memref.load %C[%i, %j]
//       %p = arith.mulf (A[%i, %k]) (B[%k, %j])
//       memref.store (arith.addf %c, %p), %C[%i, %j]
//     }
//   }
//
// The kernel cannot keep the element in a register: to the code generator, %C may be
// %A or %B, so every k stores to global memory (which the GPU's L1 cache does not keep)
// and loads again (PTX: an st.global after each fma). On the CPU, a thread's chunk of a
// sum is such a loop too, adding into its element of the partial sums (a subview of
// them); in the OpenMP region it becomes, the element and the input are pointers loaded
// from the region's arguments, and LLVM stored the sum at every step and vectorized the
// loop behind a run-time overlap check, with a scalar copy unrolled eight times (a
// [None] tanh loop: 328 -> 293 million instructions to compile with this pass).
// Where %C is a fresh allocation, or a subview of one, and nothing in the loop touches
// that memory under another name (ag::freshViews), this pass loads the element once
// before the loop, carries it through the loop as an iteration argument and stores it
// once after:
//
//     scf.if (%lb < %ub) {
//       %c0 = memref.load %C[%i, %j]
//       %r = scf.for %k = %lb to %ub step %s iter_args(%c = %c0) {
//         scf.yield (arith.addf %c, %p) }
//       memref.store %r, %C[%i, %j]
//     }
//
// the same arithmetic in the same order, so the same results. (The scf.if keeps a loop
// of no iterations from touching an element it did not touch; it is left out where the
// bounds are constants.) Applies to an scf.for inside an scf.parallel (a kernel's, the
// host's loop that -ag-gpu-kernel-checks reruns, or a CPU chunk loop) whose body, at
// its top level, loads an element of such a buffer at indices defined outside the loop
// and then stores into the same element, where nothing else in the body (nested ops
// included) touches that memory, and every op of the body has known memory effects.
// Inner loops first, so that a reduction over two axes (the inner loop's load and store
// now in the outer loop's body) is carried through both. Other matmuls' and reductions'
// loops of this shape (a batch matmul, a reduction along leading or middle axes, einsum,
// tensordot) are kept in registers alike.
//
// The result's zeros were a kernel of their own, launched before (linalg.fill, a
// parallel loop storing one value over the same bounds). Where that loop comes just
// before (nothing between touches the buffer, a fresh allocation no view names) and the
// carried element is read at the kernel loop's induction variables, the first value is
// the fill's value instead, the scf.if's else branch stores it where the inner loop
// runs no iteration, and the fill is erased: every element is written once, by one
// kernel.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/KernelMath.h"
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace ag {
#define GEN_PASS_DEF_REGISTERACCUMULATORS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// The element `loop` reads and then writes at its top level, in a buffer nothing else
/// in its body touches: the load and the store (see the file comment); null where none.
std::pair<memref::LoadOp, memref::StoreOp> accumulator(scf::ForOp loop) {
  Block *body = loop.getBody();
  for (Operation &op : body->without_terminator()) {
    auto load = dyn_cast<memref::LoadOp>(op);
    if (!load || !loop.isDefinedOutsideOfLoop(load.getMemRef()) ||
        !llvm::all_of(load.getIndices(),
                      [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }))
      continue;
    Value buffer = load.getMemRef();
    SmallVector<Value> views = ag::freshViews(buffer);
    memref::StoreOp store;
    bool other = views.empty();
    // Every use in the body of the memory the buffer names, under any of its names:
    // this load and one store after it into the same element, at the top level.
    for (Value view : views) {
      for (OpOperand &use : view.getUses()) {
        Operation *user = use.getOwner();
        if (!loop->isAncestor(user) || user == load)
          continue;
        auto candidate = dyn_cast<memref::StoreOp>(user);
        if (store || !candidate || candidate.getMemRef() != buffer ||
            candidate->getBlock() != body || candidate->isBeforeInBlock(load) ||
            !llvm::equal(candidate.getIndices(), load.getIndices())) {
          other = true;
          break;
        }
        store = candidate;
      }
      if (other)
        break;
    }
    if (!other && store)
      return {load, store};
  }
  return {};
}

/// Whether `op`'s memory effects can be listed (a call, or an op that says nothing of
/// its effects, might touch a buffer through a pointer the pass cannot see).
bool effectsKnown(Operation *op) {
  return isMemoryEffectFree(op) || isa<MemoryEffectOpInterface>(op) ||
         op->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
}

/// Whether every op in `loop`'s body has effectsKnown().
bool knownEffects(scf::ForOp loop) {
  return !loop.getBody()
              ->walk([](Operation *op) {
                return isa<scf::YieldOp>(op) || effectsKnown(op) ? WalkResult::advance()
                                                                  : WalkResult::interrupt();
              })
              .wasInterrupted();
}

/// `loop` with its accumulator's element carried through it (see the file comment);
/// returns the new loop. `guards` collects the scf.if made around it.
scf::ForOp carry(scf::ForOp loop, memref::LoadOp load, memref::StoreOp store,
                 SmallVectorImpl<scf::IfOp> &guards) {
  IRRewriter rewriter(loop);
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  bool runs = lb && ub && *lb < *ub;
  scf::IfOp guard;
  if (!runs) {
    Value some = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                       loop.getLowerBound(), loop.getUpperBound());
    // Results: the loop's own (its inits where it runs no iteration).
    bool results = loop.getNumResults() > 0;
    guard = scf::IfOp::create(rewriter, loc, loop.getResultTypes(), some,
                              /*withElseRegion=*/results);
    // (Built without results, its then branch has its yield already: made below.)
    if (!guard.thenBlock()->empty())
      rewriter.eraseOp(guard.thenBlock()->getTerminator());
    if (results) {
      rewriter.setInsertionPointToStart(guard.elseBlock());
      scf::YieldOp::create(rewriter, loc, loop.getInitArgs());
    }
    // The loop into the then branch (its results' uses outside are the guard's below).
    rewriter.moveOpBefore(loop, guard.thenBlock(), guard.thenBlock()->end());
    rewriter.setInsertionPoint(loop);
  }
  Value first =
      memref::LoadOp::create(rewriter, load.getLoc(), load.getMemRef(), load.getIndices());
  Value stored = store.getValueToStore(), buffer = store.getMemRef();
  Location storeLoc = store.getLoc();
  SmallVector<Value> indices(store.getIndices());
  // The loop's body now yields the stored value; the load reads the carried one.
  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, ValueRange{first}, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument>) { return SmallVector<Value>{stored}; });
  auto carried = cast<scf::ForOp>(replaced->getOperation());
  rewriter.replaceAllUsesWith(load.getResult(), carried.getRegionIterArgs().back());
  rewriter.eraseOp(load);
  rewriter.eraseOp(store);
  rewriter.setInsertionPointAfter(carried);
  memref::StoreOp::create(rewriter, storeLoc, carried.getResults().back(), buffer, indices);
  if (!guard)
    return carried;
  guards.push_back(guard);
  // The loop and its store into the guard's then branch; the guard's results replace
  // the loop's.
  ResultRange results = carried.getResults().drop_back();
  SmallVector<Value> outer(guard.getResults());
  for (auto [inner, result] : llvm::zip(results, outer))
    rewriter.replaceUsesWithIf(inner, result, [&](OpOperand &use) {
      return !guard->isAncestor(use.getOwner());
    });
  rewriter.setInsertionPointToEnd(guard.thenBlock());
  scf::YieldOp::create(rewriter, loc, ValueRange(results));
  return carried;
}

/// The parallel loop before `loop` in its block that fills `buffer` (stores one value,
/// defined outside it, at its induction variables and does nothing else) over the
/// same bounds, with nothing between the two touching `buffer`; null where none.
scf::ParallelOp fillBefore(scf::ParallelOp loop, Value buffer) {
  for (Operation *op = loop->getPrevNode(); op; op = op->getPrevNode()) {
    bool touches = llvm::any_of(buffer.getUsers(),
                                [&](Operation *user) { return op->isAncestor(user); });
    if (!touches) {
      if (!effectsKnown(op))
        return {};
      continue;
    }
    auto fill = dyn_cast<scf::ParallelOp>(op);
    if (!fill || fill.getLowerBound() != loop.getLowerBound() ||
        fill.getUpperBound() != loop.getUpperBound() || fill.getStep() != loop.getStep() ||
        fill.getNumResults() != 0)
      return {};
    Block *body = fill.getBody();
    auto store = dyn_cast<memref::StoreOp>(body->front());
    if (!store || !isa<scf::ReduceOp>(store->getNextNode()) || store.getMemRef() != buffer ||
        !llvm::equal(store.getIndices(), fill.getInductionVars()) ||
        !fill.isDefinedOutsideOfLoop(store.getValueToStore()))
      return {};
    return fill;
  }
  return {};
}

/// Where `loop`'s kernel reads its carried element, at its induction variables, from a
/// buffer the parallel loop before it filled with one value (a matmul's or a
/// reduction's init, zeros): the value instead, stored where the inner loop runs no
/// iteration (the guard's else branch), and the fill loop erased. Every element is then
/// written once, by `loop`: one kernel rather than two. `guards` are the scf.if of
/// carry(), `first` the load before the inner loop.
void takeFill(scf::ParallelOp loop, memref::LoadOp first, ArrayRef<scf::IfOp> guards) {
  if (!llvm::equal(first.getIndices(), loop.getInductionVars()))
    return;
  // (The buffer under no other name, so that its uses below are all the accesses.)
  Value buffer = first.getMemRef();
  if (!ag::freshBuffer(buffer))
    return;
  scf::ParallelOp fill = fillBefore(loop, buffer);
  if (!fill)
    return;
  // The store after the inner loop must be reached wherever the load is: directly in
  // the parallel loop's body, or in a guard of carry() whose else branch gets one.
  Operation *parent = first->getParentOp();
  scf::IfOp guard = dyn_cast<scf::IfOp>(parent);
  bool guarded = guard && guard->getParentOp() == loop && llvm::is_contained(guards, guard);
  if (parent != loop && !guarded)
    return;
  // Only this load and its store read or write the buffer in the loop.
  unsigned uses = 0;
  for (Operation *user : buffer.getUsers())
    if (loop->isAncestor(user))
      ++uses;
  if (uses != 2)
    return;
  auto store = cast<memref::StoreOp>(fill.getBody()->front());
  Value value = store.getValueToStore();
  IRRewriter rewriter(loop);
  if (guard) {
    OpBuilder::InsertionGuard insertion(rewriter);
    if (!guard.elseBlock()) {
      rewriter.createBlock(&guard.getElseRegion());
      scf::YieldOp::create(rewriter, guard.getLoc());
    }
    rewriter.setInsertionPoint(guard.elseBlock()->getTerminator());
    memref::StoreOp::create(rewriter, store.getLoc(), value, buffer, first.getIndices());
  }
  rewriter.replaceAllUsesWith(first.getResult(), value);
  rewriter.eraseOp(first);
  rewriter.eraseOp(fill);
}

struct RegisterAccumulators
    : ag::impl::RegisterAccumulatorsBase<RegisterAccumulators> {
  void runOnOperation() override {
    // Post-order: inner loops first.
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (loop->getParentOfType<scf::ParallelOp>())
        loops.push_back(loop);
    });
    SmallVector<scf::IfOp> guards;
    for (scf::ForOp loop : loops) {
      if (!knownEffects(loop))
        continue;
      // One accumulator after another (a loop computing two results' elements).
      for (auto [load, store] = accumulator(loop); load; std::tie(load, store) = accumulator(loop))
        loop = carry(loop, load, store, guards);
    }
    // The loads of the carried elements' first values from a filled buffer: the fill's
    // value (outermost parallel loops only, the kernels).
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (loop->getParentOfType<scf::ParallelOp>())
        return;
      SmallVector<memref::LoadOp> firsts;
      loop.getBody()->walk([&](memref::LoadOp load) {
        auto carried = dyn_cast_or_null<scf::ForOp>(load->getNextNode());
        if (carried && carried.getInitArgs().size() > 0 &&
            carried.getInitArgs().back() == load.getResult())
          firsts.push_back(load);
      });
      for (memref::LoadOp first : firsts)
        takeFill(loop, first, guards);
    });
  }
};

} // namespace
