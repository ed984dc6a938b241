//===- EmulateLaunches.cpp - kernels run on the CPU, to test without a GPU --===//
//
// For testing the nvptx pipeline on a machine without a GPU (agc --gpu-emulate): each
// gpu.launch_func becomes a sequential nest of loops over its blocks and threads whose
// body is the kernel's, its block and thread ids the loops' indices, its sizes the
// launch's; the gpu.module ops go. What runs is then exactly what the GPU would run --
// the kernels -ag-gpu-map-loops makes have no barrier, no shared memory and no
// communication between threads, so any order of their threads gives the same result --
// with the pipeline's staging, deallocation and managed buffers around it, minus the
// NVVM lowering, the PTX and the driver. Not for production: the loops are sequential.
//
//   gpu.launch_func @k::@k blocks in (%gx, 1, 1) threads in (%tx, 1, 1) args(%a, %b)
//     => scf.for %bx = 0 to %gx { ... scf.for %x = 0 to %tx { <@k's body on %a, %b> } }
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

namespace ag {
#define GEN_PASS_DEF_GPUEMULATELAUNCHES
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// The launch `launch` of `kernel` as loops at the launch; failure (reported) for a
/// kernel this cannot emulate.
LogicalResult emulate(gpu::LaunchFuncOp launch, gpu::GPUFuncOp kernel) {
  Region &body = kernel.getBody();
  if (!body.hasOneBlock())
    return launch.emitError() << "--gpu-emulate: kernel @" << kernel.getName()
                              << " has more than one block";
  OpBuilder b(launch);
  Location loc = launch.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  // Outermost first: blocks z, y, x, then threads z, y, x.
  Value bounds[6] = {grid.z, grid.y, grid.x, block.z, block.y, block.x};
  Value ivs[6];
  for (int i = 0; i < 6; ++i) {
    auto loop = scf::ForOp::create(b, loc, zero, bounds[i], one);
    ivs[i] = loop.getInductionVar();
    b.setInsertionPoint(loop.getBody()->getTerminator());
  }
  auto dim = [](gpu::Dimension d, Value x, Value y, Value z) {
    return d == gpu::Dimension::x ? x : d == gpu::Dimension::y ? y : z;
  };
  IRMapping map;
  map.map(body.getArguments(), launch.getKernelOperands());
  for (Operation &op : body.front()) {
    Value replacement;
    if (auto id = dyn_cast<gpu::BlockIdOp>(op))
      replacement = dim(id.getDimension(), ivs[2], ivs[1], ivs[0]);
    else if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
      replacement = dim(id.getDimension(), ivs[5], ivs[4], ivs[3]);
    else if (auto size = dyn_cast<gpu::GridDimOp>(op))
      replacement = dim(size.getDimension(), grid.x, grid.y, grid.z);
    else if (auto size = dyn_cast<gpu::BlockDimOp>(op))
      replacement = dim(size.getDimension(), block.x, block.y, block.z);
    else if (isa<gpu::ReturnOp>(op))
      continue;
    else if (isa<gpu::GPUDialect>(op.getDialect()))
      return op.emitError() << "--gpu-emulate: '" << op.getName() << "' is not emulated";
    if (replacement) {
      map.map(op.getResult(0), replacement);
      continue;
    }
    b.clone(op, map);
  }
  launch.erase();
  return success();
}

struct GPUEmulateLaunches : ag::impl::GPUEmulateLaunchesBase<GPUEmulateLaunches> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
    for (gpu::LaunchFuncOp launch : launches) {
      auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernelAttr());
      if (!kernel || launch.getAsyncToken() || launch.hasClusterSize()) {
        launch.emitError() << "--gpu-emulate: cannot emulate this launch";
        return signalPassFailure();
      }
      if (failed(emulate(launch, kernel)))
        return signalPassFailure();
    }
    for (auto kernels : llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>()))
      kernels.erase();
  }
};

} // namespace
