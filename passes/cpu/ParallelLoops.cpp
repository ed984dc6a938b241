//===- ParallelLoops.cpp - bufferized chunk loops, parallel when they may be ----===//
//
// After bufferization, each scf.forall of ag-tile-for-threads becomes an scf.parallel,
// which convert-scf-to-openmp runs on all cores, when nothing in it may raise a run-time
// error: no call (agc's runtime reports errors by unwinding to the caller with longjmp,
// which must never happen on a worker thread) and no heap allocation (whose failure is
// such an error). A forall with either becomes sequential scf.for loops, which compute
// the same chunks in order. Bufferization may add a copy or a buffer to a chunk, so the
// decision is taken here, on buffers, and not when the chunks were made.
//
// A buffer a chunk allocates for itself (the matmul kernel's packed panel of B) is
// allocated once, before the loop, with one slice per chunk, when its sizes are known
// before the loop and it is only read and written in place (not yielded, returned or
// passed to a call): each chunk then uses its own slice, and the loop stays parallel.
//
//   scf.forall (%c) in (16) { ...subviews, linalg.generic... }
//     => scf.parallel (%c) = (%c0) to (%c16) step (%c1) { ... }
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/CallInterfaces.h"

namespace ag {
#define GEN_PASS_DEF_PARALLELLOOPS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// Whether `alloc` (in `forall`'s body) may become a slice of one buffer per chunk: its
/// sizes known before the loop, and used only by ops that read or write it in place.
bool hoistable(scf::ForallOp forall, memref::AllocOp alloc) {
  if (!alloc.getType().getLayout().isIdentity() || !alloc.getSymbolOperands().empty())
    return false;
  for (Value size : alloc.getDynamicSizes())
    if (forall->isAncestor(size.getParentBlock()->getParentOp()) ||
        forall.getBody() == size.getParentBlock())
      return false;
  // Between the loop and the allocation, only sequential loops and conditionals: a buffer
  // reused across their iterations is still a buffer of undefined contents each time.
  for (Operation *p = alloc->getParentOp(); p != forall; p = p->getParentOp())
    if (!isa<scf::ForOp, scf::IfOp>(p))
      return false;
  return llvm::all_of(alloc->getUsers(), [](Operation *user) {
    return isa<linalg::LinalgOp, memref::LoadOp, memref::StoreOp, memref::SubViewOp,
               memref::DimOp, memref::CopyOp, vector::TransferReadOp,
               vector::TransferWriteOp, vector::LoadOp, vector::StoreOp>(user);
  });
}

/// Replaces each hoistable allocation in `forall` (one loop from 0 with step 1 and a
/// constant trip count) by a slice of one buffer allocated before it, indexed by the
/// chunk.
void hoistAllocations(IRRewriter &rewriter, scf::ForallOp forall) {
  if (forall.getRank() != 1)
    return;
  std::optional<int64_t> lower = getConstantIntValue(forall.getMixedLowerBound()[0]);
  std::optional<int64_t> upper = getConstantIntValue(forall.getMixedUpperBound()[0]);
  std::optional<int64_t> step = getConstantIntValue(forall.getMixedStep()[0]);
  if (lower != 0 || !upper || step != 1)
    return;
  SmallVector<memref::AllocOp> allocs;
  forall.getBody()->walk([&](memref::AllocOp alloc) {
    if (hoistable(forall, alloc))
      allocs.push_back(alloc);
  });
  Value chunk = forall.getInductionVar(0);
  for (memref::AllocOp alloc : allocs) {
    MemRefType type = alloc.getType();
    SmallVector<int64_t> shape{*upper};
    llvm::append_range(shape, type.getShape());
    rewriter.setInsertionPoint(forall);
    auto all = memref::AllocOp::create(
        rewriter, alloc.getLoc(), MemRefType::get(shape, type.getElementType()),
        alloc.getDynamicSizes(), alloc.getAlignmentAttr());
    rewriter.setInsertionPoint(alloc);
    SmallVector<OpFoldResult> offsets(shape.size(), rewriter.getIndexAttr(0));
    offsets[0] = chunk;
    SmallVector<OpFoldResult> sizes{rewriter.getIndexAttr(1)};
    llvm::append_range(sizes, alloc.getMixedSizes());
    SmallVector<OpFoldResult> strides(shape.size(), rewriter.getIndexAttr(1));
    auto sliceType = memref::SubViewOp::inferRankReducedResultType(
        type.getShape(), all.getType(), offsets, sizes, strides);
    Value slice = memref::SubViewOp::create(rewriter, alloc.getLoc(), sliceType, all,
                                            offsets, sizes, strides);
    rewriter.replaceOp(alloc, slice);
  }
}

/// Whether a worker thread may run `forall`'s body: no call, no heap allocation.
bool mayRunOnWorker(scf::ForallOp forall) {
  WalkResult walk = forall.getBody()->walk([](Operation *op) {
    if (isa<CallOpInterface, memref::AllocOp, memref::ReallocOp>(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

struct ParallelLoops : ag::impl::ParallelLoopsBase<ParallelLoops> {
  void runOnOperation() override {
    SmallVector<scf::ForallOp> foralls;
    getOperation()->walk([&](scf::ForallOp op) { foralls.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp forall : foralls) {
      hoistAllocations(rewriter, forall);
      rewriter.setInsertionPoint(forall);
      LogicalResult done = mayRunOnWorker(forall)
                               ? scf::forallToParallelLoop(rewriter, forall)
                               : scf::forallToForLoop(rewriter, forall);
      if (failed(done)) {
        forall.emitError("agc could not lower a chunked loop (an internal error: please "
                         "report it)");
        return signalPassFailure();
      }
    }
  }
};

} // namespace
