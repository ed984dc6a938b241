//===- KernelMath.h - what a GPU kernel computes (math without libdevice) --===//
//
// Shared by -ag-gpu-map-loops (which loops become kernels), -ag-gpu-kernel-checks (which
// loops would, but for their run-time checks), -ag-fuse-elementwise's recompute mode
// (which producers are cheap to compute again in each consumer without keeping that
// consumer off the GPU), and the reductions' passes (-ag-gpu-split-reductions,
// -ag-gpu-fuse-blocks, -ag-gpu-block-reductions: which combiners a block's threads
// combine with, which loops are blocks), and which buffers nothing aliases
// (-ag-gpu-fuse-blocks, -ag-register-accumulators).
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_PASSES_KERNELMATH_H
#define AG_PASSES_KERNELMATH_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/TypeSwitch.h"

#include <optional>

namespace ag {

/// A float32 math.sin or math.cos in a loop that -ag-gpu-kernel-checks reruns on the
/// host where an argument's magnitude exceeds kKernelTrigBound or is NaN: a kernel
/// computes it for arguments within the bound (-ag-gpu-expand-math).
inline constexpr llvm::StringLiteral kKernelTrig = "ag.kernel_trig";
/// The largest magnitude for which -ag-gpu-expand-math's range reduction (three parts of
/// pi / 2, with fused multiply-adds) is accurate: CUDA's sinf takes the same fast path.
inline constexpr double kKernelTrigBound = 105615.0;

/// The most blocks a kernel's grid takes along y and z (x takes 2^31 - 1): the
/// kernels' launch shapes stay within it (-ag-gpu-map-loops, -ag-gpu-register-tiles),
/// and the runtime refuses a launch past it (agrt_gpu_check_launch).
inline constexpr int64_t kMaxGridYZ = 65535;
/// On the `scf.for` over a block's lanes that -ag-gpu-split-reductions writes (the lanes'
/// partials combined in order, for the host), the most lanes it runs: -ag-gpu-block-
/// reductions makes its loop a kernel of a block per iteration, one thread per lane, the
/// lanes' partials combined by `gpu.all_reduce`.
inline constexpr llvm::StringLiteral kBlockLanes = "ag.block_lanes";

/// Math a kernel computes without libdevice: float32 exp, tanh and log (the
/// -ag-approximate-* passes), erf, expm1 and log1p (-ag-gpu-expand-math) become
/// arithmetic, and sin and cos where -ag-gpu-kernel-checks bounded their arguments;
/// rsqrt is 1 / sqrt; the rest is one instruction each (-ag-gpu-define-math defines the
/// libdevice functions they lower to).
inline bool isKernelMath(mlir::Operation *op) {
  using namespace mlir::math;
  if (mlir::isa<ExpOp, TanhOp, LogOp, ErfOp, ExpM1Op, Log1pOp>(op))
    return op->getResultTypes().front().isF32();
  if (mlir::isa<SinOp, CosOp>(op))
    return op->getResultTypes().front().isF32() && op->hasAttr(kKernelTrig);
  return mlir::isa<AbsFOp, FmaOp, CopySignOp, FloorOp, CeilOp, TruncOp, SqrtOp, RoundEvenOp,
                   RsqrtOp>(op);
}

/// Whether a GPU kernel can run `op` (not looking into its regions): arithmetic, index
/// computation, buffer loads and stores, sequential loops and conditionals, kernel math.
/// Not a call (agc's runtime, a run-time check's error), an allocation, a reduction
/// across a parallel loop's iterations (scf.reduce with operands), a float remainder
/// (libdevice's fmod, a loop of its own).
inline bool isKernelOp(mlir::Operation *op) {
  using namespace mlir;
  if (isa<arith::RemFOp>(op))
    return false;
  if (isa<arith::ArithDialect, index::IndexDialect, ub::UBDialect>(op->getDialect()))
    return true;
  if (isa<math::MathDialect>(op->getDialect()))
    return isKernelMath(op);
  if (isa<memref::LoadOp, memref::StoreOp, memref::DimOp, affine::AffineApplyOp,
          affine::AffineMinOp, affine::AffineMaxOp, scf::ForOp, scf::IfOp, scf::YieldOp>(op))
    return true;
  // -ag-gpu-vector-access's accesses of four elements.
  if (isa<vector::LoadOp, vector::StoreOp, vector::ExtractOp, vector::FromElementsOp>(op))
    return true;
  // The terminator of a loop that reduces nothing (a reduction has operands here).
  if (auto reduce = dyn_cast<scf::ReduceOp>(op))
    return reduce.getOperands().empty();
  return false;
}

/// gpu.all_reduce's operation for `c`, where `c` is a combiner a reduction can be split
/// on (-ag-gpu-split-reductions) and a block can combine its threads' values with
/// (-ag-gpu-block-reductions): float add, mul, maximum and minimum, integer add, mul,
/// signed and unsigned max and min, and, or, xor.
inline std::optional<mlir::gpu::AllReduceOperation> allReduceOperation(mlir::Operation *c) {
  using namespace mlir;
  using R = gpu::AllReduceOperation;
  return llvm::TypeSwitch<Operation *, std::optional<R>>(c)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return R::ADD; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return R::MUL; })
      .Case<arith::MaximumFOp>([](auto) { return R::MAXIMUMF; })
      .Case<arith::MinimumFOp>([](auto) { return R::MINIMUMF; })
      .Case<arith::MaxSIOp>([](auto) { return R::MAXSI; })
      .Case<arith::MinSIOp>([](auto) { return R::MINSI; })
      .Case<arith::MaxUIOp>([](auto) { return R::MAXUI; })
      .Case<arith::MinUIOp>([](auto) { return R::MINUI; })
      .Case<arith::AndIOp>([](auto) { return R::AND; })
      .Case<arith::OrIOp>([](auto) { return R::OR; })
      .Case<arith::XOrIOp>([](auto) { return R::XOR; })
      .Default([](Operation *) { return std::nullopt; });
}

/// Whether every op in `loop`'s body can run in a GPU kernel.
inline bool isKernelBody(mlir::scf::ParallelOp loop) {
  return !loop.getBody()
              ->walk([](mlir::Operation *op) {
                return isKernelOp(op) ? mlir::WalkResult::advance()
                                      : mlir::WalkResult::interrupt();
              })
              .wasInterrupted();
}

/// Whether a loop's bounds start at 0 and step by 1 (every dimension's).
inline bool fromZeroByOne(mlir::ValueRange lower, mlir::ValueRange step) {
  return llvm::all_of(lower, [](mlir::Value v) { return mlir::isConstantIntValue(v, 0); }) &&
         llvm::all_of(step, [](mlir::Value v) { return mlir::isConstantIntValue(v, 1); });
}

/// Whether `loop` is one a kernel's grid can run: an outermost parallel loop (none
/// around it) of at most three dimensions.
inline bool isGridLoop(mlir::scf::ParallelOp loop) {
  return !loop->getParentOfType<mlir::scf::ParallelOp>() && loop.getNumLoops() <= 3;
}

/// Every name of the memory `buffer` names, where `buffer` is a fresh allocation or a
/// subview of one and nothing else aliases it: the allocation and its subviews (and
/// theirs), whose users otherwise only load, store, copy, ask sizes, free or return.
/// Any other buffer is then none of this memory; an op touches it only through one of
/// these values. Empty where `buffer` is not such a view. (-ag-register-accumulators:
/// the CPU's chunk of a sum adds into its element of the partial sums, a subview.)
inline llvm::SmallVector<mlir::Value> freshViews(mlir::Value buffer) {
  while (auto view = buffer.getDefiningOp<mlir::memref::SubViewOp>())
    buffer = view.getSource();
  if (!buffer.getDefiningOp<mlir::memref::AllocOp>())
    return {};
  llvm::SmallVector<mlir::Value> views{buffer};
  for (size_t i = 0; i < views.size(); ++i)
    for (mlir::Operation *user : views[i].getUsers()) {
      if (auto view = mlir::dyn_cast<mlir::memref::SubViewOp>(user)) {
        views.push_back(view.getResult());
        continue;
      }
      if (!mlir::isa<mlir::memref::LoadOp, mlir::memref::StoreOp, mlir::memref::CopyOp,
                     mlir::memref::DimOp, mlir::memref::DeallocOp, mlir::func::ReturnOp>(user))
        return {};
    }
  return views;
}

/// Whether `buffer` is a fresh allocation that no other value aliases: nothing makes
/// another buffer of it (a view, a cast, a loop or branch yielding it, a call that may
/// return it); its users only load, store, copy, ask its sizes, free or return it. Any
/// other buffer a function touches is then not it. (-ag-gpu-fuse-blocks,
/// -ag-register-accumulators.)
inline bool freshBuffer(mlir::Value buffer) {
  // (An allocation whose only name is itself: no subview.)
  return buffer.getDefiningOp<mlir::memref::AllocOp>() && freshViews(buffer).size() == 1;
}

} // namespace ag

#endif // AG_PASSES_KERNELMATH_H
