//===- ApproximateExp.cpp - float32 exp as a polynomial that vectorizes -----===//
//
// math.exp on f32 becomes a call of libm's expf, which LLVM cannot vectorize: a loop of
// exps (softmax, a sigmoid) runs one element at a time, several times slower than
// TensorFlow, whose Eigen kernels evaluate exp as a polynomial on whole vectors. This
// pass rewrites f32 math.exp (scalars and vectors) with upstream's polynomial
// approximation: range reduction to [-ln2/2, ln2/2], a polynomial, the exponent put back
// with integer arithmetic. It is arith and math.fma only, so LLVM's loop vectorizer
// takes the loop whole.
//
// Upstream's approximation clamps its input to [-87.8, 88.8], so on its own it would
// return about 7e-39 for exp(-100) and for exp(-inf). Around it this pass puts what
// gives the small results their true value:
//
//   x < -87      exp(x + 32 ln2) * 2^-32     (a subnormal result, rounded once)
//   x < -104     0                           (below half the least subnormal)
//
// Large x still overflows to +inf and NaN stays NaN. f64 keeps libm's exp, and every
// other function keeps its own lowering.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "F32Approximation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

namespace ag {
#define GEN_PASS_DEF_APPROXIMATEEXP
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// Below this, exp(x) is subnormal (less than FLT_MIN = 2^-126, i.e. x < -87.34).
constexpr double kSubnormalBelow = -87.0;
/// Below this, exp(x) rounds to 0 (less than half of 2^-149, i.e. x < -103.97).
constexpr double kZeroBelow = -104.0;
/// How far small inputs are shifted up (a power of two: the scale back is exact).
constexpr int kShiftBits = 32;

/// A constant of `type` (f32 or a vector of f32) holding `value`.
Value constant(OpBuilder &b, Location loc, Type type, double value) {
  auto attr = b.getF32FloatAttr(static_cast<float>(value));
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vector, attr.getValue()));
  return arith::ConstantOp::create(b, loc, attr);
}

/// Replaces `op` by the guarded form above; returns the math.exp inside it, which the
/// polynomial then replaces.
Operation *guardSmallInputs(math::ExpOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Type type = op.getType();
  Value x = op.getOperand();
  auto less = [&](Value v, double bound) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, v,
                                 constant(b, loc, type, bound));
  };
  Value small = less(x, kSubnormalBelow);
  Value shifted = arith::AddFOp::create(b, loc, x, constant(b, loc, type, kShiftBits * M_LN2));
  Value input = arith::SelectOp::create(b, loc, small, shifted, x);
  auto exp = math::ExpOp::create(b, loc, input, op.getFastmathAttr());
  Value scale = arith::SelectOp::create(b, loc, small,
                                        constant(b, loc, type, std::ldexp(1.0, -kShiftBits)),
                                        constant(b, loc, type, 1.0));
  Value scaled = arith::MulFOp::create(b, loc, exp, scale);
  Value result = arith::SelectOp::create(b, loc, less(x, kZeroBelow),
                                         constant(b, loc, type, 0.0), scaled);
  op.replaceAllUsesWith(result);
  op.erase();
  return exp;
}

struct ApproximateExp : ag::impl::ApproximateExpBase<ApproximateExp> {
  void runOnOperation() override {
    SmallVector<math::ExpOp> exps;
    getOperation()->walk([&](math::ExpOp op) {
      if (ag::isF32OrVectorOfF32(op.getType()))
        exps.push_back(op);
    });
    if (exps.empty())
      return;
    SmallVector<Operation *> inner;
    for (math::ExpOp op : exps)
      inner.push_back(guardSmallInputs(op));
    // Only the exps made above: a tensor exp, or an f64 one, is not touched.
    if (failed(ag::approximateOnly(&getContext(), inner, math::ExpOp::getOperationName())))
      signalPassFailure();
  }
};

} // namespace
