//===- ApproximateLog.cpp - float32 log as TensorFlow's polynomial -------------===//
//
// math.log on f32 becomes a call of libm's logf, which keeps the loop around it scalar and
// does not honour the flushing of denormals the runtime sets around every call, as
// TensorFlow's kernels run: logf(1e-40) is -103.97, where TensorFlow, whose Eigen kernel
// (plog_float) sees that input as 0, gives -inf. This pass rewrites f32 math.log (scalars
// and vectors) with upstream's polynomial approximation, Cephes' as Eigen's is: the
// exponent split off with bit operations, a polynomial of degree 8 on the mantissa,
// within a unit or two in the last place; x < 0 and NaN give NaN, 0 (and, denormals
// being 0, any denormal) gives -inf, +inf gives +inf. The result is arith and math.fma
// only, so LLVM's loop vectorizer takes the loop whole. f64 keeps libm's log.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "F32Approximation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace ag {
#define GEN_PASS_DEF_APPROXIMATELOG
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

struct ApproximateLog : ag::impl::ApproximateLogBase<ApproximateLog> {
  void runOnOperation() override {
    // f32 only: a tensor log, or an f64 one, is not touched.
    if (failed(ag::approximateF32<math::LogOp>(getOperation())))
      signalPassFailure();
  }
};

} // namespace
