//===- MatmulLoopOrder.cpp - matmul loops in the order the CPU likes --------===//
//
// linalg.matmul iterates (i, j, k), k innermost: lowered to loops, the inner loop reads a
// column of B, one element per cache line, and does not vectorize. This pass rewrites
// linalg.matmul (and linalg.batch_matmul) as the same linalg.generic with the loops in
// the order (i, k, j) ((b, i, k, j) for a batch): the inner loop then walks a row of B and
// a row of the result, contiguously, and LLVM vectorizes it. Each result element still
// sums its products in order of k. Float products and sums are marked `contract`, so
// that each multiply-add is fused where the CPU has FMA, as in the kernel of
// ag-matmul-microkernel (vector.fma) and in TensorFlow's CPU kernels: the edges of a
// matmul that kernel computes round as its blocks do. With reorder=false (the GPU
// pipeline) the loops keep their order and only the flags are set.
//
//   linalg.matmul ins(%a, %b) outs(%c)
//     => linalg.generic {indexing_maps = [(i, k, j) -> (i, k), (i, k, j) -> (k, j),
//                                         (i, k, j) -> (i, j)],
//                        iterator_types = [parallel, reduction, parallel]} ...
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace ag {
#define GEN_PASS_DEF_MATMULLOOPORDER
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

struct MatmulLoopOrder : ag::impl::MatmulLoopOrderBase<MatmulLoopOrder> {
  using MatmulLoopOrderBase::MatmulLoopOrderBase;
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      // The result's dimensions stay outermost; the reduction moves inside them but
      // outside the last one: (i, j, k) => (i, k, j).
      SmallVector<unsigned> order = isa<linalg::MatmulOp>(op.getOperation())
                                        ? SmallVector<unsigned>{0, 2, 1}
                                        : SmallVector<unsigned>{0, 1, 3, 2};
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> generic = linalg::generalizeNamedOp(rewriter, op);
      if (failed(generic) ||
          (reorder && failed(linalg::interchangeGenericOp(rewriter, *generic, order)))) {
        op->emitError("internal error: cannot reorder the loops of this matmul");
        return signalPassFailure();
      }
      auto contract = arith::FastMathFlagsAttr::get(&getContext(), arith::FastMathFlags::contract);
      generic->getBody()->walk([&](Operation *inner) {
        if (isa<arith::MulFOp, arith::AddFOp>(inner))
          inner->setAttr(cast<arith::ArithFastMathInterface>(inner).getFastMathAttrName(), contract);
      });
    }
  }
};

} // namespace
