//===- ApproximateTanh.cpp - float32 tanh as TensorFlow's rational function -----===//
//
// math.tanh on f32 becomes a call of libm's tanhf, which keeps the loop around it scalar
// (and costs most of a small loop's time). TensorFlow's CPU kernels do not call libm
// either: Eigen evaluates tanh as a rational function of degree 13/6 on whole vectors
// (generic_fast_tanh_float), clamped to [-7.9, 7.9], and |x| < 0.0004 as x itself. This pass
// rewrites f32 math.tanh (scalars and vectors) with upstream's polynomial approximation,
// which is that same function (its error is a few units in the last place, as Eigen's
// is), and is arith and math.fma only, so LLVM's loop vectorizer takes the loop whole.
// NaN gives NaN, +-inf gives +-1, -0 gives -0. f64 keeps libm's tanh.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "F32Approximation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace ag {
#define GEN_PASS_DEF_APPROXIMATETANH
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

struct ApproximateTanh : ag::impl::ApproximateTanhBase<ApproximateTanh> {
  void runOnOperation() override {
    // f32 only: a tensor tanh, or an f64 one, is not touched.
    if (failed(ag::approximateF32<math::TanhOp>(getOperation())))
      signalPassFailure();
  }
};

} // namespace
