//===- MathToIntrinsics.cpp - exact math ops to LLVM intrinsics --------------===//
//
// convert-math-to-libm turns every math op it knows into a call of the C library:
// math.floor becomes floorf, math.fma fmaf, math.sqrt sqrtf. A call keeps the loop
// around it scalar. For the operations whose result IEEE 754 defines exactly (fma,
// sqrt, floor, ceil, trunc, roundeven, fabs, copysign) an LLVM intrinsic gives the same
// bits, and LLVM vectorizes it and selects one instruction for it. This pass rewrites
// those ops, on floats or vectors of floats, to the intrinsics before the libm
// conversion sees them; the functions libm approximates (exp, tanh, log, ...) stay.
// math.rsqrt, which has no libm function, becomes 1 / sqrt(x) first (TensorFlow's
// kernel computes it so).
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ag {
#define GEN_PASS_DEF_MATHTOINTRINSICS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// `From` (a math op) becomes `To` (its LLVM intrinsic) on the same operands.
template <typename From, typename To>
struct ToIntrinsic : OpRewritePattern<From> {
  using OpRewritePattern<From>::OpRewritePattern;
  LogicalResult matchAndRewrite(From op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<To>(op, op->getResultTypes(), op->getOperands());
    return success();
  }
};

struct MathToIntrinsics : ag::impl::MathToIntrinsicsBase<MathToIntrinsics> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ToIntrinsic<math::FmaOp, LLVM::FMAOp>, ToIntrinsic<math::SqrtOp, LLVM::SqrtOp>,
                 ToIntrinsic<math::FloorOp, LLVM::FFloorOp>,
                 ToIntrinsic<math::CeilOp, LLVM::FCeilOp>,
                 ToIntrinsic<math::TruncOp, LLVM::FTruncOp>,
                 ToIntrinsic<math::RoundEvenOp, LLVM::RoundEvenOp>,
                 ToIntrinsic<math::AbsFOp, LLVM::FAbsOp>,
                 ToIntrinsic<math::CopySignOp, LLVM::CopySignOp>>(&getContext());
    math::populateExpansionPatterns(patterns, {"rsqrt"});
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
