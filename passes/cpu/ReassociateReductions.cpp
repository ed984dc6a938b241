//===- ReassociateReductions.cpp - float reductions LLVM may reorder ------------===//
//
// A float sum or product is a chain of dependent operations, and LLVM keeps their order
// unless told it may change it: the loop then neither vectorizes nor overlaps its
// latencies, and runs at a fraction of the memory bandwidth. TensorFlow and XLA do not add
// in order either (Eigen reduces in a tree of vector lanes). This pass marks the operation
// that combines each element into a float accumulator `reassoc`, and nothing else: LLVM's
// loop vectorizer then keeps one vector of partial results per register (4, 8 or 16 lanes
// on SSE, AVX2 and AVX-512 machines alike), interleaves several, handles any trip count
// (also one known only at run time) with a remainder loop, and adds the lanes at the end.
// The order of the additions depends on the target's vector width, not on the data or
// the run: the same machine code gives the same result every time.
//
//   linalg.reduce ins(%x : tensor<?xf32>) outs(%init : tensor<f32>) dimensions = [0]
//     (%in: f32, %acc: f32) { %s = arith.addf %in, %acc : f32  linalg.yield %s : f32 }
//     => ... %s = arith.addf %in, %acc fastmath<reassoc> : f32 ...
//
// Maximum and minimum need no mark (they are associative as they are, NaN and signed
// zeros included); integer reductions vectorize without one.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace ag {
#define GEN_PASS_DEF_REASSOCIATEREDUCTIONS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// Adds `reassoc` to the fast-math flags of `op`, an arith.addf or arith.mulf.
template <typename Op> bool markIf(Operation *op) {
  auto typed = dyn_cast<Op>(op);
  if (!typed)
    return false;
  typed.setFastmath(typed.getFastmath() | arith::FastMathFlags::reassoc);
  return true;
}

struct ReassociateReductions : ag::impl::ReassociateReductionsBase<ReassociateReductions> {
  void runOnOperation() override {
    getOperation()->walk([&](linalg::LinalgOp op) {
      // Reductions and generic ops (matmul has its own passes).
      if (!isa<linalg::ReduceOp, linalg::GenericOp>(op.getOperation()) ||
          op.getNumReductionLoops() == 0)
        return;
      Block *body = op.getBlock();
      auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
      if (!yield)
        return;
      // For each accumulator: the value yielded for it, where it combines the
      // accumulator's block argument with something else.
      for (auto [i, init] : llvm::enumerate(op.getDpsInitsMutable())) {
        BlockArgument acc = op.getMatchingBlockArgument(&init);
        Operation *combine = yield.getOperand(i).getDefiningOp();
        if (!combine || combine->getBlock() != body ||
            !llvm::is_contained(combine->getOperands(), acc))
          continue;
        (void)(markIf<arith::AddFOp>(combine) || markIf<arith::MulFOp>(combine));
      }
    });
  }
};

} // namespace
