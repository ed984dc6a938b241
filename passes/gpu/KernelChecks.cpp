//===- KernelChecks.cpp - a loop's run-time checks and trig, in its kernel -===//
//
// A run-time check (lowered ag.assert: an scf.if calling agrt_fail or agrt_fail_values,
// which does not return) in a parallel loop's body kept the whole loop on the host: a
// kernel cannot call the runtime. A tf.gather's index check is one, so every gather,
// embedding lookup, sort and top_k ran on the CPU. Here such a loop becomes one a kernel
// can run: each check records its failure in a flag (a buffer of one i32, zero before
// the loop) and skips the rest of its iteration, so no thread reads out of bounds; after
// the loop the host reads the flag and, where it is set, runs the original loop, which
// fails at the first failing point in order with the message the CPU target gives:
//
//   scf.parallel (%i) = ... {                 %flag = memref.alloc() : memref<i32>
//     %bad = arith.cmpi uge, %k, %n           memref.store %c0, %flag[]
//     scf.if %bad {                           scf.parallel (%i) = ... {      // a kernel
//       func.call @agrt_fail_values(...)        %bad = arith.cmpi uge, %k, %n
//     }                                 =>      scf.if %bad {
//     %v = memref.load %t[%k]                     memref.store %c1, %flag[]
//     memref.store %v, %out[%i]                 } else {
//     scf.reduce                                  %v = memref.load %t[%k]
//   }                                             memref.store %v, %out[%i]
//                                               }
//                                             }
//                                             %f = memref.load %flag[]
//                                             scf.if (%f != 0) { the original loop }
//
// The same flag makes float32 sin and cos kernel math: a kernel computes them for
// arguments of magnitude up to 105615 (-ag-gpu-expand-math, marked here with
// ag.kernel_trig); each stores into the flag where its argument is beyond (or NaN), and
// the host's rerun then computes the whole loop with libm. What the kernel computed
// from such an argument must not flow into an index (it would address memory before
// the rerun replaces it).
//
// Only where that rerun sees what the kernel saw: every buffer the loop writes is one
// the function allocates (or a view of one) that the loop does not read, nor anything
// that may be it (a value computed after the allocation: an scf.if's result, the
// iteration argument of a loop around the parallel loop but not the allocation). Only
// checks directly in the loop's body (a check nested in an inner loop or conditional
// leaves the loop on the host), and only where the rest of the body is kernel code
// (ag/passes/KernelMath.h): the loop is then one that -ag-gpu-map-loops maps.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/KernelMath.h"
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace ag {
#define GEN_PASS_DEF_GPUKERNELCHECKS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// Whether `op` is a run-time check: an scf.if of no result and no else whose then
/// block calls agrt_fail or agrt_fail_values, its other ops free of effects (the
/// message's address, the values' casts).
bool isCheck(Operation *op) {
  auto ifOp = dyn_cast<scf::IfOp>(op);
  if (!ifOp || ifOp.getNumResults() != 0 || !ifOp.getElseRegion().empty())
    return false;
  bool fails = false;
  for (Operation &inner : ifOp.thenBlock()->without_terminator()) {
    if (auto call = dyn_cast<func::CallOp>(inner)) {
      StringRef callee = call.getCallee();
      if (callee != "agrt_fail" && callee != "agrt_fail_values")
        return false;
      fails = true;
    } else if (!isMemoryEffectFree(&inner) || inner.getNumRegions() != 0) {
      return false;
    }
  }
  return fails;
}

/// Whether `op` is a float32 sine or cosine: a kernel computes it for arguments of
/// magnitude up to ag::kKernelTrigBound, the host beyond.
bool isBoundedTrig(Operation *op) {
  return isa<math::SinOp, math::CosOp>(op) && op->getResultTypes().front().isF32();
}

/// Whether `value` flows into an index (a value of index type: an address, a loop's
/// bound): what a kernel computes from an argument beyond the bound, before the host's
/// rerun replaces it, must not address memory or decide how long a loop runs.
bool reachesIndex(Value value) {
  SmallVector<Value> work{value};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (v.getType().isIndex())
      return true;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::StoreOp>(user))
        continue; // the value stored (an index would be of index type)
      if (isa<scf::YieldOp>(user)) {
        Operation *parent = user->getParentOp();
        if (use.getOperandNumber() < parent->getNumResults())
          work.push_back(parent->getResult(use.getOperandNumber()));
        if (auto loop = dyn_cast<scf::ForOp>(parent))
          work.push_back(loop.getRegionIterArgs()[use.getOperandNumber()]);
        continue;
      }
      if (auto loop = dyn_cast<scf::ForOp>(user)) { // an iteration argument's init
        unsigned i = use.getOperandNumber() - 3;     // (bounds are of index type)
        work.push_back(loop.getRegionIterArgs()[i]);
        work.push_back(loop.getResult(i));
        continue;
      }
      for (Value result : user->getResults())
        work.push_back(result);
    }
  }
  return false;
}

/// The buffer `value` is a view of (itself where it is no view).
Value viewedBuffer(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

/// Whether buffer `read` (a view's root) may be buffer `written`, an allocation: it is,
/// or it is computed after the allocation (a value an scf.if yields, an iteration
/// argument of a loop the allocation is outside of) and so may be derived from it.
/// Arguments, globals and other allocations are other buffers.
bool mayBe(Value read, memref::AllocOp written, DominanceInfo &dominance) {
  if (read == written.getResult())
    return true;
  if (auto arg = dyn_cast<BlockArgument>(read)) {
    Operation *owner = arg.getOwner()->getParentOp();
    return !isa<FunctionOpInterface>(owner) && dominance.dominates(written.getOperation(), owner);
  }
  Operation *def = read.getDefiningOp();
  if (isa<memref::AllocOp, memref::GetGlobalOp>(def))
    return false;
  return dominance.properlyDominates(written.getOperation(), def);
}

/// Whether `loop` can become a kernel with its checks recording into a flag: its
/// checks directly in its body, its float32 sines and cosines flowing into no index,
/// every other op kernel code, every buffer it writes one the function allocates that
/// it does not read (the rerun must read what the kernel read).
bool checkedKernelLoop(scf::ParallelOp loop, DominanceInfo &dominance) {
  bool flagged = false; // a check or a sine or cosine: what the flag is for
  llvm::SmallPtrSet<Value, 4> read, written;
  WalkResult result = loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isCheck(op)) {
      if (op->getBlock() != loop.getBody())
        return WalkResult::interrupt();
      flagged = true;
      // Not into it: its call of the runtime is what recordChecks replaces by the flag.
      return WalkResult::skip();
    }
    if (isBoundedTrig(op)) {
      if (reachesIndex(op->getResult(0)))
        return WalkResult::interrupt();
      flagged = true;
      return WalkResult::advance();
    }
    if (auto load = dyn_cast<memref::LoadOp>(op))
      read.insert(viewedBuffer(load.getMemRef()));
    if (auto store = dyn_cast<memref::StoreOp>(op))
      written.insert(viewedBuffer(store.getMemRef()));
    return ag::isKernelOp(op) ? WalkResult::advance() : WalkResult::interrupt();
  });
  if (result.wasInterrupted() || !flagged)
    return false;
  for (Value buffer : written) {
    auto alloc = buffer.getDefiningOp<memref::AllocOp>();
    if (!alloc)
      return false;
    for (Value other : read)
      if (mayBe(other, alloc, dominance))
        return false;
  }
  return true;
}

/// Makes each check of `body` (directly in it) store `one` into `flag` and run the rest
/// of the block only where it passes.
void recordChecks(Block *body, Value flag, Value one) {
  while (true) {
    auto check = llvm::find_if(body->without_terminator(),
                               [](Operation &op) { return isCheck(&op); });
    if (check == body->without_terminator().end())
      return;
    auto old = cast<scf::IfOp>(&*check);
    OpBuilder b(old);
    Location loc = old.getLoc();
    auto ifOp = scf::IfOp::create(b, loc, old.getCondition(), /*withElseRegion=*/true);
    b.setInsertionPointToStart(ifOp.thenBlock());
    memref::StoreOp::create(b, loc, one, flag, ValueRange{});
    old.erase();
    Block *rest = ifOp.elseBlock();
    for (Operation &op : llvm::make_early_inc_range(llvm::make_range(
             std::next(Block::iterator(ifOp)), Block::iterator(body->getTerminator()))))
      op.moveBefore(rest->getTerminator());
    body = rest;
  }
}

/// Makes each float32 sine and cosine in `body` store `one` into `flag` where its
/// argument's magnitude exceeds the kernels' bound (or is NaN), and marks it for
/// -ag-gpu-expand-math, which computes it for arguments within the bound. (The rest of
/// the iteration runs on: its results, which index nothing, the host's rerun replaces.)
void boundTrig(Block *body, Value flag, Value one) {
  SmallVector<Operation *> trig;
  body->walk([&](Operation *op) {
    if (isBoundedTrig(op))
      trig.push_back(op);
  });
  for (Operation *op : trig) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value magnitude = math::AbsFOp::create(b, loc, op->getOperand(0));
    Value bound = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(ag::kKernelTrigBound));
    Value beyond = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGT, magnitude, bound);
    auto ifOp = scf::IfOp::create(b, loc, beyond, /*withElseRegion=*/false);
    b.setInsertionPointToStart(ifOp.thenBlock());
    memref::StoreOp::create(b, loc, one, flag, ValueRange{});
    op->setAttr(ag::kKernelTrig, UnitAttr::get(op->getContext()));
  }
}

struct GPUKernelChecks : ag::impl::GPUKernelChecksBase<GPUKernelChecks> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    DominanceInfo &dominance = getAnalysis<DominanceInfo>();
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (ag::isGridLoop(loop) && checkedKernelLoop(loop, dominance))
        loops.push_back(loop);
    });
    for (scf::ParallelOp loop : loops) {
      Location loc = loop.getLoc();
      OpBuilder b(loop);
      Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
      Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
      Value flag = memref::AllocOp::create(b, loc, MemRefType::get({}, b.getI32Type()));
      memref::StoreOp::create(b, loc, zero, flag, ValueRange{});
      b.setInsertionPointAfter(loop);
      Value raised = memref::LoadOp::create(b, loc, flag, ValueRange{});
      Value failed = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, raised, zero);
      auto rerun = scf::IfOp::create(b, loc, failed, /*withElseRegion=*/false);
      b.setInsertionPointToStart(rerun.thenBlock());
      b.clone(*loop.getOperation());
      recordChecks(loop.getBody(), flag, one);
      boundTrig(loop.getBody(), flag, one);
    }
  }
};

} // namespace
