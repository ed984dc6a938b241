//===- ExactPowers.cpp - powers whose exact result is one arithmetic op ----===//
//
// `x ** 2`, `tf.pow(x, 2.0)`, `tf.math.reciprocal`-like `x ** -1`: after fusion the
// exponent is a constant in the payload, and math.powf with a constant exponent of 2,
// 1, 0 or -1 is x * x, x, 1 or 1 / x: each of those IEEE operations is correctly
// rounded, as powf's result is meant to be, with the same special values (powf(NaN, 0)
// and powf(inf, 0) are 1, powf(-0, -1) is -inf, ...). On the CPU, libm's powf is a call
// per element that keeps the loop scalar; in a GPU kernel it is a libdevice function
// agc does not define, which kept the loop on the host. Other exponents (0.5: sqrt
// differs at -0 and -inf; 3: two roundings) keep powf.
//
//   %y = math.powf %x, %c2 : f32     (%c2 = arith.constant 2.0)
//     => %y = arith.mulf %x, %x : f32
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ag {
#define GEN_PASS_DEF_EXACTPOWERS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

struct ExactPower : OpRewritePattern<math::PowFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::PowFOp op, PatternRewriter &rewriter) const override {
    APFloat exponent(0.0);
    if (!matchPattern(op.getRhs(), m_ConstantFloat(&exponent)))
      return failure();
    Value x = op.getLhs();
    Location loc = op.getLoc();
    auto one = [&] {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getFloatAttr(op.getType(), 1.0));
    };
    if (exponent.isExactlyValue(2.0))
      rewriter.replaceOpWithNewOp<arith::MulFOp>(op, x, x, op.getFastmathAttr());
    else if (exponent.isExactlyValue(1.0))
      rewriter.replaceOp(op, x);
    else if (exponent.isZero())
      rewriter.replaceOp(op, one());
    else if (exponent.isExactlyValue(-1.0))
      rewriter.replaceOpWithNewOp<arith::DivFOp>(op, one(), x, op.getFastmathAttr());
    else
      return failure();
    return success();
  }
};

struct ExactPowers : ag::impl::ExactPowersBase<ExactPowers> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExactPower>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
