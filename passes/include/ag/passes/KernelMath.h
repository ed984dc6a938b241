//===- KernelMath.h - math a GPU kernel computes without libdevice ---------===//
//
// Shared by -ag-gpu-map-loops (which loops become kernels) and -ag-fuse-elementwise's
// recompute mode (which producers are cheap to compute again in each consumer without
// keeping that consumer off the GPU).
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_PASSES_KERNELMATH_H
#define AG_PASSES_KERNELMATH_H

#include "mlir/Dialect/Math/IR/Math.h"

namespace ag {

/// Math a kernel computes without libdevice: float32 exp, tanh and log (the
/// -ag-approximate-* passes), erf, expm1 and log1p (-ag-gpu-expand-math) become
/// arithmetic; rsqrt is 1 / sqrt; the rest is one instruction each (-ag-gpu-define-math
/// defines the libdevice functions they lower to).
inline bool isKernelMath(mlir::Operation *op) {
  using namespace mlir::math;
  if (mlir::isa<ExpOp, TanhOp, LogOp, ErfOp, ExpM1Op, Log1pOp>(op))
    return op->getResultTypes().front().isF32();
  return mlir::isa<AbsFOp, FmaOp, CopySignOp, FloorOp, CeilOp, TruncOp, SqrtOp, RoundEvenOp,
                   RsqrtOp>(op);
}

} // namespace ag

#endif // AG_PASSES_KERNELMATH_H
