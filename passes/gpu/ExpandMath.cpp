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
//     -ag-approximate-exp's and -ag-approximate-log's.
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
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ag {
#define GEN_PASS_DEF_GPUEXPANDMATH
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

struct GPUExpandMath : ag::impl::GPUExpandMathBase<GPUExpandMath> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    math::populateExpansionPatterns(patterns, {"rsqrt"});
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
