//===- SplitReduction.cpp - float reductions in 16 lanes ---------------------===//
//
// A float sum (or max, min, product) along the innermost dimension is a chain of
// dependent additions: LLVM may not reorder them, so the loop neither vectorizes nor
// overlaps its latencies, and runs at a fraction of the memory bandwidth. TensorFlow does
// not add in order either (Eigen reduces in a tree). This pass splits such a reduction
// with upstream's linalg::splitReduction: element i goes to lane i % 16, the 16 lanes
// accumulate in parallel (a loop LLVM vectorizes), and a second reduction adds the lanes.
// The order of the additions is fixed, so the result is deterministic.
//
//   linalg.reduce ins(%x : tensor<1024xf32>) outs(%init : tensor<f32>) dimensions = [0]
//     => %lanes = (generic over tensor<64x16xf32>: reduction over 64, parallel over 16)
//        linalg.generic (reduction over the 16 lanes) into %init
//
// Only reductions of one dimension, the input's last, static and a multiple of 16 (at
// least 256 elements), of floats: an integer reduction vectorizes as it is.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace ag {
#define GEN_PASS_DEF_SPLITREDUCTION
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

constexpr int64_t kLanes = 16;

/// Whether `op` is a float reduction of its input's last dimension that is worth
/// splitting into kLanes lanes.
bool worthSplitting(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1)
    return false;
  auto input = dyn_cast<RankedTensorType>(op.getDpsInputOperand(0)->get().getType());
  if (!input || input.getRank() == 0 || !isa<FloatType>(input.getElementType()))
    return false;
  SmallVector<unsigned> dims;
  op.getReductionDims(dims);
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  if (!map.isProjectedPermutation() ||
      map.getResult(map.getNumResults() - 1) != getAffineDimExpr(dims[0], op.getContext()))
    return false;
  int64_t size = input.getShape().back();
  return !ShapedType::isDynamic(size) && size >= 256 && size % kLanes == 0;
}

struct SplitReduction : ag::impl::SplitReductionBase<SplitReduction> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isa<linalg::ReduceOp, linalg::GenericOp>(op.getOperation()) && worthSplitting(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      rewriter.setInsertionPoint(op);
      linalg::LinalgOp target = op;
      if (!isa<linalg::GenericOp>(op.getOperation())) {
        FailureOr<linalg::GenericOp> generic = linalg::generalizeNamedOp(rewriter, op);
        if (failed(generic))
          continue; // left as it is: correct, only slower
        target = *generic;
      }
      // The input [.., n] is seen as [.., n / 16, 16], and the lanes are the last
      // dimension of the partial results: [..] => [.., 16].
      unsigned index = cast<ShapedType>(target.getDpsInitOperand(0)->get().getType()).getRank();
      auto control = [&](linalg::LinalgOp) {
        return linalg::SplitReductionOptions{kLanes, index, /*innerParallel=*/true};
      };
      (void)linalg::splitReduction(rewriter, target, control);
    }
  }
};

} // namespace
