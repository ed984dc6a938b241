//===- ExpandMath.cpp - kernel math that has no instruction, as arithmetic --===//
//
// A kernel has no libm and no libdevice (see -ag-gpu-define-math): math that is not one
// instruction must become arithmetic before the NVVM lowering, or its loop stays on the
// host. This pass rewrites, in the kernels' gpu.module ops:
//
//   - math.rsqrt (any float type) as 1 / sqrt(x), upstream's expansion, the same the CPU
//     target makes (-ag-math-to-intrinsics): the same bits;
//   - float32 math.erf as upstream's polynomial approximation (rational functions on
//     three intervals);
//   - float32 math.expm1 and math.log1p as upstream's approximations by exp and log with
//     Kahan's corrections (expm1(x) = (u - 1) * x / log(u), u = exp(x);
//     log1p(x) = log(u) * x / (u - 1), u = 1 + x), whose exp and log are then
//     -ag-approximate-exp's and -ag-approximate-log's;
//   - float32 math.sin and math.cos that -ag-gpu-kernel-checks marked ag.kernel_trig
//     (their loop reruns on the host where an argument's magnitude exceeds 105615) as
//     a range reduction by three parts of pi / 2 and Cephes' polynomials: within 1.63
//     and 1.70 units in the last place up to that bound.
//
// Measured (test/lit/gpu/kernel-math.test, 800,000 inputs log-spaced over every float
// magnitude of both signs, against float64 references rounded to float32): erf within
// 3.7 units in the last place, expm1 3.9 (2.8 below x = 88), log1p 2.3, rsqrt 1.8
// (1 / sqrt rounds twice, as on the CPU); special values (0, infinities, NaN, -1 and
// below for log1p) exact.
// Not erfc: upstream's is 62 units off for large x (3.7e-6 relative), so it stays on
// the host, with libm.
//
// It runs on the outlined kernels before they are emulated (-ag-gpu-emulate-launches)
// or lowered to NVVM, so that the emulated conformance suite checks the same arithmetic
// the GPU runs against TensorFlow. tf.nn.gelu (erf), elu and selu (expm1), softplus and
// the cross-entropy losses (log1p), tf.math.rsqrt (l2_normalize, batch normalization)
// are then kernels.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/KernelMath.h"
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ag {
#define GEN_PASS_DEF_GPUEXPANDMATH
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// Float32 sin or cos marked by -ag-gpu-kernel-checks (whose loop reruns on the host
/// where an argument's magnitude exceeds ag::kKernelTrigBound or is NaN) for arguments
/// within that bound: x = k * pi / 2 + y, k an integer, |y| <= pi / 4, y computed with
/// pi / 2 in three parts by fused multiply-adds (the first exact: CUDA's sinf takes the
/// same path below the same bound), then Cephes' minimax polynomials for sin y and
/// cos y, chosen and signed by the quadrant k mod 4. sin x is x itself below 2^-12
/// (also the sign of -0).
template <typename Op, bool Cosine> struct BoundedTrig : OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op, PatternRewriter &rewriter) const override {
    if (!op->hasAttr(ag::kKernelTrig) || !op.getType().isF32())
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    auto f = [&](float v) -> Value {
      return arith::ConstantOp::create(b, b.getF32FloatAttr(v));
    };
    auto fma = [&](Value p, Value q, Value r) -> Value {
      return math::FmaOp::create(b, p, q, r);
    };
    Value x = op.getOperand();
    // k = round(x * 2 / pi), kept finite and small (the argument is within the bound
    // where the result is used; elsewhere k only must not be NaN for the conversion).
    Value k = math::RoundEvenOp::create(b, arith::MulFOp::create(b, x, f(0x1.45f306p-1f)));
    k = arith::MinNumFOp::create(b, arith::MaxNumFOp::create(b, k, f(-0x1p20f)), f(0x1p20f));
    Value minusK = arith::NegFOp::create(b, k);
    Value y = fma(minusK, f(0x1.921fb6p+0f), x);
    y = fma(minusK, f(-0x1.777a5cp-25f), y);
    y = fma(minusK, f(-0x1.ee59dap-50f), y);
    Value z = arith::MulFOp::create(b, y, y);
    // sin y = y + y z (s1 + z (s2 + z s3)); cos y = 1 - z / 2 + z^2 (c1 + z (c2 + z c3)).
    Value sinP = fma(z, fma(z, f(-1.9515295891e-4f), f(8.3321608736e-3f)), f(-1.6666654611e-1f));
    Value sinY = fma(arith::MulFOp::create(b, y, z), sinP, y);
    Value cosP = fma(z, fma(z, f(2.443315711809948e-5f), f(-1.388731625493765e-3f)),
                     f(4.166664568298827e-2f));
    Value cosY = fma(arith::MulFOp::create(b, z, z), cosP, fma(z, f(-0.5f), f(1.0f)));
    // Quadrant q = k mod 4 (cos x = sin(x + pi / 2): q + 1): sin y, cos y, -sin y, -cos y.
    Type i32 = b.getI32Type();
    Value q = arith::FPToSIOp::create(b, i32, k);
    if (Cosine)
      q = arith::AddIOp::create(b, q, arith::ConstantIntOp::create(b, 1, 32));
    auto bit = [&](int64_t mask) -> Value {
      Value set = arith::AndIOp::create(b, q, arith::ConstantIntOp::create(b, mask, 32));
      return arith::CmpIOp::create(b, arith::CmpIPredicate::ne, set,
                                   arith::ConstantIntOp::create(b, 0, 32));
    };
    Value v = arith::SelectOp::create(b, bit(1), cosY, sinY);
    v = arith::SelectOp::create(b, bit(2), arith::NegFOp::create(b, v), v);
    if (!Cosine) {
      Value tiny = arith::CmpFOp::create(b, arith::CmpFPredicate::OLT, math::AbsFOp::create(b, x),
                                         f(0x1p-12f));
      v = arith::SelectOp::create(b, tiny, x, v);
    }
    rewriter.replaceOp(op, v);
    return success();
  }
};

struct GPUExpandMath : ag::impl::GPUExpandMathBase<GPUExpandMath> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    math::populateExpansionPatterns(patterns, {"rsqrt"});
    patterns.add<BoundedTrig<math::SinOp, false>, BoundedTrig<math::CosOp, true>>(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return name == math::ErfOp::getOperationName() ||
             name == math::ExpM1Op::getOperationName() ||
             name == math::Log1pOp::getOperationName();
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
