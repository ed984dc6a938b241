//===- F32Approximation.h - upstream's polynomial math on chosen f32 ops --------===//
//
// What -ag-approximate-exp and -ag-approximate-tanh share: which ops they take (f32 and
// vectors of f32), and applying upstream's polynomial approximation of one math op to
// exactly the ops they chose.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_PASSES_CPU_F32APPROXIMATION_H
#define AG_PASSES_CPU_F32APPROXIMATION_H

#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ag {

inline bool isF32OrVectorOfF32(mlir::Type type) {
  if (auto vector = mlir::dyn_cast<mlir::VectorType>(type))
    return vector.getElementType().isF32();
  return type.isF32();
}

/// Rewrites `ops`, each an op named `opName`, with upstream's polynomial approximation;
/// no other op is touched (a tensor or f64 op of the same name stays).
inline mlir::LogicalResult approximateOnly(mlir::MLIRContext *context,
                                           llvm::ArrayRef<mlir::Operation *> ops,
                                           llvm::StringRef opName) {
  mlir::RewritePatternSet patterns(context);
  mlir::populateMathPolynomialApproximationPatterns(
      patterns, [&](llvm::StringRef name) { return name == opName; });
  mlir::GreedyRewriteConfig config;
  config.setStrictness(mlir::GreedyRewriteStrictness::ExistingOps);
  return mlir::applyOpPatternsGreedily(ops, std::move(patterns), config);
}

/// Rewrites every f32 (or vector of f32) `OpT` under `root` with upstream's polynomial
/// approximation; an f64 or tensor `OpT` stays.
template <typename OpT> mlir::LogicalResult approximateF32(mlir::Operation *root) {
  llvm::SmallVector<mlir::Operation *> ops;
  root->walk([&](OpT op) {
    if (isF32OrVectorOfF32(op.getType()))
      ops.push_back(op);
  });
  if (ops.empty())
    return mlir::success();
  return approximateOnly(root->getContext(), ops, OpT::getOperationName());
}

} // namespace ag

#endif // AG_PASSES_CPU_F32APPROXIMATION_H
