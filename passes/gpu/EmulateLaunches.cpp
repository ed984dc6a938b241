//===- EmulateLaunches.cpp - kernels run on the CPU, to test without a GPU --===//
//
// For testing the nvptx pipeline on a machine without a GPU (agc --gpu-emulate): each
// gpu.launch_func becomes a sequential nest of loops over its blocks and threads whose
// body is the kernel's, its block and thread ids the loops' indices, its sizes the
// launch's; the gpu.module ops go. What runs is then exactly what the GPU would run,
// with the pipeline's staging, deallocation and managed buffers around it, minus the
// NVVM lowering, the PTX and the driver: the kernels -ag-gpu-map-loops makes have no
// barrier, no shared memory and no communication between threads, so any order of
// their threads gives the same result; those of -ag-gpu-block-reductions combine their
// threads' values by gpu.all_reduce at their top level, which this runs in phases (all
// the threads of a block up to the all_reduce, the combine in the order of its lowering,
// then all the threads again). Not for production: the loops are sequential.
//
//   gpu.launch_func @k::@k blocks in (%gx, 1, 1) threads in (%tx, 1, 1) args(%a, %b)
//     => scf.for %bx = 0 to %gx { ... scf.for %x = 0 to %tx { <@k's body on %a, %b> } }
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

namespace ag {
#define GEN_PASS_DEF_GPUEMULATELAUNCHES
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// `lhs` combined with `rhs` as gpu.all_reduce's lowering combines them.
Value combineAs(OpBuilder &b, Location loc, gpu::AllReduceOperation operation, Value lhs,
                Value rhs) {
  return vector::makeArithReduction(b, loc, gpu::convertReductionKind(operation), lhs, rhs);
}

/// The first `n` (at least 1) elements of `buffer` combined as a block's gpu.all_reduce
/// combines its threads' values, the first lane's result: a warp's 32 lanes by
/// shuffles of lane ^ 1, ^ 2, ..., ^ 16 (lane i with i + 1, then pairs with pairs: a
/// pairwise tree), the warps' results likewise, the lanes past the block's last skipped.
/// As one tree over the block: element i with i + s, for s = 1, 2, 4, ... below n.
Value treeReduce(OpBuilder &b, Location loc, Value buffer, Value n,
                 gpu::AllReduceOperation operation) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value two = arith::ConstantIndexOp::create(b, loc, 2);
  scf::WhileOp::create(
      b, loc, TypeRange{b.getIndexType()}, ValueRange{one},
      [&](OpBuilder &cb, Location cl, ValueRange args) {
        Value more = arith::CmpIOp::create(cb, cl, arith::CmpIPredicate::ult, args[0], n);
        scf::ConditionOp::create(cb, cl, more, args);
      },
      [&](OpBuilder &db, Location dl, ValueRange args) {
        Value s = args[0];
        Value twice = arith::MulIOp::create(db, dl, s, two);
        Value last = arith::SubIOp::create(db, dl, n, s);
        scf::ForOp::create(db, dl, zero, last, twice, ValueRange{},
                           [&](OpBuilder &fb, Location fl, Value i, ValueRange) {
                             Value j = arith::AddIOp::create(fb, fl, i, s);
                             Value own = memref::LoadOp::create(fb, fl, buffer, i);
                             Value other = memref::LoadOp::create(fb, fl, buffer, j);
                             memref::StoreOp::create(
                                 fb, fl, combineAs(fb, fl, operation, own, other), buffer, i);
                             scf::YieldOp::create(fb, fl);
                           });
        scf::YieldOp::create(db, dl, ValueRange{twice});
      });
  return memref::LoadOp::create(b, loc, buffer, zero);
}

/// The launch `launch` of `kernel` as loops at the launch; failure (reported) for a
/// kernel this cannot emulate.
///
/// A kernel whose top level holds gpu.all_reduce ops (-ag-gpu-block-reductions) runs in
/// phases, the ops between two of them a phase: each block runs a phase's ops for all
/// its threads, then combines the threads' operands of the all_reduce that ends it (see
/// treeReduce), whose result the later phases read; a value a thread computes in one
/// phase and uses in a later one goes through a buffer of one element per thread.
LogicalResult emulate(gpu::LaunchFuncOp launch, gpu::GPUFuncOp kernel) {
  Region &body = kernel.getBody();
  if (!body.hasOneBlock())
    return launch.emitError() << "--gpu-emulate: kernel @" << kernel.getName()
                              << " has more than one block";
  Block &entry = body.front();
  // The phases: the top-level ops up to each gpu.all_reduce, and the rest.
  SmallVector<SmallVector<Operation *>> phases(1);
  SmallVector<gpu::AllReduceOp> reductions;
  DenseMap<Operation *, unsigned> phaseOf;
  for (Operation &op : entry) {
    if (auto reduce = dyn_cast<gpu::AllReduceOp>(op)) {
      if (!reduce.getOp() || !reduce.getUniform())
        return reduce.emitError() << "--gpu-emulate: only a uniform gpu.all_reduce with an "
                                     "operation attribute is emulated";
      reductions.push_back(reduce);
      phases.emplace_back();
      continue;
    }
    if (isa<gpu::GPUDialect>(op.getDialect()) &&
        !isa<gpu::BlockIdOp, gpu::ThreadIdOp, gpu::GridDimOp, gpu::BlockDimOp, gpu::ReturnOp>(
            op))
      return op.emitError() << "--gpu-emulate: '" << op.getName() << "' is not emulated";
    phaseOf[&op] = phases.size() - 1;
    phases.back().push_back(&op);
  }
  WalkResult nested = entry.walk([&](Operation *op) {
    if (op->getBlock() != &entry && isa<gpu::GPUDialect>(op->getDialect()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (nested.wasInterrupted())
    return launch.emitError() << "--gpu-emulate: kernel @" << kernel.getName()
                              << " has a GPU op inside a region";

  OpBuilder b(launch);
  Location loc = launch.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  auto dim = [](gpu::Dimension d, Value x, Value y, Value z) {
    return d == gpu::Dimension::x ? x : d == gpu::Dimension::y ? y : z;
  };

  // Values a thread carries from one phase to a later one, each with its buffer.
  SetVector<Value> carried;
  for (auto [p, ops] : llvm::enumerate(phases))
    for (Operation *op : ops)
      op->walk([&](Operation *inner) {
        for (Value v : inner->getOperands())
          if (Operation *def = v.getDefiningOp(); def && def->getBlock() == &entry &&
                                                  phaseOf.count(def) && phaseOf[def] < p &&
                                                  !isa<gpu::GPUDialect>(def->getDialect()))
            carried.insert(v);
      });
  Value threads;
  DenseMap<Value, Value> bufferOf;
  SmallVector<Value> operandBuffers;
  if (!reductions.empty()) {
    threads = arith::MulIOp::create(
        b, loc, arith::MulIOp::create(b, loc, block.x, block.y), block.z);
    Value size = arith::MaxUIOp::create(b, loc, threads, one);
    auto buffer = [&](Type type) -> Value {
      return memref::AllocOp::create(
          b, loc, MemRefType::get({ShapedType::kDynamic}, type), ValueRange{size});
    };
    for (Value v : carried)
      bufferOf[v] = buffer(v.getType());
    for (gpu::AllReduceOp reduce : reductions)
      operandBuffers.push_back(buffer(reduce.getValue().getType()));
  }

  // A nest of loops over `sizes` z, y, x, the builder left in the innermost; its
  // indices in `ivs`.
  auto nest = [&](gpu::KernelDim3 sizes, Value (&ivs)[3]) {
    Value bounds[3] = {sizes.z, sizes.y, sizes.x};
    for (int i = 0; i < 3; ++i) {
      auto loop = scf::ForOp::create(b, loc, zero, bounds[i], one);
      ivs[i] = loop.getInductionVar();
      b.setInsertionPoint(loop.getBody()->getTerminator());
    }
  };
  Value blockIvs[3];
  nest(grid, blockIvs);
  DenseMap<Value, Value> uniform; // the all_reduce results of the block
  for (auto [p, ops] : llvm::enumerate(phases)) {
    OpBuilder::InsertPoint blockBody = b.saveInsertionPoint();
    Value threadIvs[3];
    nest(block, threadIvs);
    Value linear;
    if (!reductions.empty())
      linear = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(
              b, loc,
              arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, threadIvs[0], block.y),
                                    threadIvs[1]),
              block.x),
          threadIvs[2]);
    IRMapping map;
    map.map(body.getArguments(), launch.getKernelOperands());
    for (auto [result, value] : uniform)
      map.map(result, value);
    for (Value v : carried)
      if (phaseOf[v.getDefiningOp()] < p)
        map.map(v, memref::LoadOp::create(b, loc, bufferOf[v], linear));
    // The ids and sizes (of whichever phase) as this phase's loops' indices and bounds.
    for (Operation &op : entry) {
      if (auto id = dyn_cast<gpu::BlockIdOp>(op))
        map.map(id.getResult(), dim(id.getDimension(), blockIvs[2], blockIvs[1], blockIvs[0]));
      else if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
        map.map(id.getResult(), dim(id.getDimension(), threadIvs[2], threadIvs[1], threadIvs[0]));
      else if (auto size = dyn_cast<gpu::GridDimOp>(op))
        map.map(size.getResult(), dim(size.getDimension(), grid.x, grid.y, grid.z));
      else if (auto size = dyn_cast<gpu::BlockDimOp>(op))
        map.map(size.getResult(), dim(size.getDimension(), block.x, block.y, block.z));
    }
    for (Operation *op : ops) {
      if (isa<gpu::GPUDialect>(op->getDialect()))
        continue; // an id or a size (mapped above), or the return
      b.clone(*op, map);
      for (Value v : op->getResults())
        if (carried.contains(v))
          memref::StoreOp::create(b, loc, map.lookup(v), bufferOf[v], linear);
    }
    if (p == reductions.size())
      break;
    // The phase's all_reduce: its operand from every thread, then their combine.
    gpu::AllReduceOp reduce = reductions[p];
    memref::StoreOp::create(b, loc, map.lookup(reduce.getValue()), operandBuffers[p], linear);
    b.restoreInsertionPoint(blockBody);
    uniform[reduce.getResult()] =
        treeReduce(b, reduce.getLoc(), operandBuffers[p], threads, *reduce.getOp());
  }
  b.setInsertionPointAfter(launch);
  for (auto &[v, buffer] : bufferOf)
    memref::DeallocOp::create(b, loc, buffer);
  for (Value buffer : operandBuffers)
    memref::DeallocOp::create(b, loc, buffer);
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
