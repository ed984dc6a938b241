//===- EmulateLaunches.cpp - kernels run on the CPU, to test without a GPU --===//
//
// For testing the nvptx pipeline on a machine without a GPU (agc --gpu-emulate): each
// gpu.launch_func becomes a sequential nest of loops over its blocks and threads whose
// body is the kernel's, its block and thread ids the loops' indices, its sizes the
// launch's; the gpu.module ops go. What runs is then exactly what the GPU would run,
// with the pipeline's staging, deallocation and managed buffers around it, minus the
// NVVM lowering, the PTX and the driver. The threads of agc's kernels talk only through
// barriers: a gpu.barrier or a gpu.all_reduce (-ag-gpu-block-reductions) splits the
// kernel into phases, which each block runs one at a time for all its threads, a
// gpu.all_reduce combining their values in the order of its lowering; a loop or
// conditional with a barrier in it (-ag-gpu-register-tiles' slices of k) runs once for
// the block, its body's phases for all the threads in turn; what a thread carries
// between phases is kept in a buffer of one element per thread, and the kernel's
// workgroup memory is a buffer of the launch's. Any order of a phase's threads then
// gives the same result. Each launch's grid and block sizes are checked first by the
// runtime's check that the GPU's launches make (agrt_gpu_check_launch): a launch the
// driver would refuse fails here too. Not for production: the loops are sequential.
//
//   gpu.launch_func @k::@k blocks in (%gx, 1, 1) threads in (%tx, 1, 1) args(%a, %b)
//     => scf.for %bx = 0 to %gx { ... scf.for %x = 0 to %tx { <@k's body on %a, %b> } }
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"
#include "ag/passes/RuntimeDecls.h"

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

/// Whether `op` is a loop or conditional whose regions hold a gpu.barrier or a
/// gpu.all_reduce: its block's threads run it together (its bounds or condition the
/// same for all of them), each of its regions in phases of its own.
bool isSyncOp(Operation *op) {
  if (!isa<scf::ForOp, scf::IfOp>(op))
    return false;
  return op
      ->walk([&](Operation *inner) {
        return inner != op && isa<gpu::BarrierOp, gpu::AllReduceOp>(inner)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// One launch of a kernel as loops at the launch (see run()).
class Emulator {
public:
  Emulator(gpu::LaunchFuncOp launch, gpu::GPUFuncOp kernel)
      : launch(launch), kernel(kernel), b(launch), loc(launch.getLoc()),
        grid(launch.getGridSizeOperandValues()), block(launch.getBlockSizeOperandValues()) {}

  LogicalResult run();

private:
  /// The phases of `block`'s threads (a kernel's body, a synchronizing loop's or
  /// conditional's region) at `b`'s insertion point, a block's scope.
  void emitBlock(Block &region, ArrayRef<Value> store);
  /// Numbers the phases of `region` and of the synchronizing ops in it (phaseOf).
  void number(Block &region, int &counter);
  /// The ops `ops` (of one phase) for every thread of the block, then `epilogue` in each
  /// thread (`map` the phase's values, `linear` the thread's number), whose operands
  /// `extraUses` are.
  void emitPhase(ArrayRef<Operation *> ops, ArrayRef<Value> extraUses,
                 llvm::function_ref<void(IRMapping &, Value)> epilogue);
  /// `v` at the block's scope (the same for every thread): a kernel operand, an id of the
  /// block, a size, a synchronizing loop's index, a block's reduction, or what is
  /// computed from those by ops without effects; null where it depends on the thread.
  Value atBlockScope(Value v);
  /// The phase `v` is computed in (-1 where no phase computes it: an operand, an id).
  int phaseOfValue(Value v);
  Value perThread(Type type) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(nestBegin);
    Value buffer = memref::AllocOp::create(b, loc, MemRefType::get({ShapedType::kDynamic}, type),
                                           ValueRange{threadCount});
    freed.push_back(buffer);
    return buffer;
  }
  bool failedToEmulate = false;
  InFlightDiagnostic fail(Operation *op) {
    failedToEmulate = true;
    return op->emitError() << "--gpu-emulate: ";
  }

  gpu::LaunchFuncOp launch;
  gpu::GPUFuncOp kernel;
  OpBuilder b;
  Location loc;
  gpu::KernelDim3 grid, block;
  Value zero, one;
  bool phased = false;      // whether the kernel has barriers (and so phases)
  Value threads, threadCount; // a block's threads, and at least 1 (a buffer's size)
  Operation *nestBegin = nullptr; // the per-thread buffers are allocated before it
  Value blockIvs[3];
  IRMapping uniform;                       // values at the block's scope
  DenseMap<Operation *, int> phaseOf;      // an op of a synchronized block: its phase
  DenseMap<Value, Value> bufferOf;         // a value kept per thread between phases
  SmallVector<Value> freed;                // buffers to free after the launch
  SmallVector<gpu::ThreadIdOp> threadIds;
};

int Emulator::phaseOfValue(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return -1;
  for (Operation *op = def; op && op != kernel; op = op->getParentOp())
    if (auto it = phaseOf.find(op); it != phaseOf.end())
      return it->second;
  return -1;
}

Value Emulator::atBlockScope(Value v) {
  if (Value u = uniform.lookupOrNull(v))
    return u;
  Operation *def = v.getDefiningOp();
  if (def && def->getNumRegions() == 0 && isMemoryEffectFree(def) &&
      !isa<gpu::GPUDialect>(def->getDialect())) {
    IRMapping map;
    for (Value operand : def->getOperands()) {
      Value u = atBlockScope(operand);
      if (!u)
        return {};
      map.map(operand, u);
    }
    return b.clone(*def, map)->getResult(cast<OpResult>(v).getResultNumber());
  }
  return {};
}

void Emulator::emitPhase(ArrayRef<Operation *> ops, ArrayRef<Value> extraUses,
                         llvm::function_ref<void(IRMapping &, Value)> epilogue) {
  OpBuilder::InsertionGuard guard(b);
  // The phase's number: that of its ops, or none (a loop's initial values, stored).
  int phase = ops.empty() ? -2 : phaseOf.lookup(ops.front());
  Value bounds[3] = {block.z, block.y, block.x}, threadIvs[3];
  for (int i = 0; i < 3; ++i) {
    auto loop = scf::ForOp::create(b, loc, zero, bounds[i], one);
    threadIvs[i] = loop.getInductionVar();
    b.setInsertionPoint(loop.getBody()->getTerminator());
  }
  // The thread's number in the block, for its elements of the buffers (where the
  // kernel has phases).
  Value linear;
  if (phased)
    linear = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, threadIvs[0], block.y),
                                threadIvs[1]),
          block.x),
      threadIvs[2]);
  IRMapping map = uniform;
  for (gpu::ThreadIdOp id : threadIds) {
    gpu::Dimension d = id.getDimension();
    map.map(id.getResult(), d == gpu::Dimension::x   ? threadIvs[2]
                            : d == gpu::Dimension::y ? threadIvs[1]
                                                     : threadIvs[0]);
  }
  // What the phase reads of other phases: from the thread's buffers; constants again.
  auto use = [&](Value v) {
    if (map.contains(v))
      return;
    Operation *def = v.getDefiningOp();
    if (def && def->hasTrait<OpTrait::ConstantLike>() && phaseOfValue(v) != phase) {
      map.map(v, b.clone(*def)->getResult(0));
      return;
    }
    auto it = bufferOf.find(v);
    if (it != bufferOf.end() && (!def || phaseOfValue(v) != phase || isSyncOp(def)))
      map.map(v, memref::LoadOp::create(b, loc, it->second, linear));
  };
  for (Operation *op : ops)
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        use(v);
    });
  for (Value v : extraUses)
    use(v);
  for (Operation *op : ops) {
    if (isa<gpu::GPUDialect>(op->getDialect()))
      continue; // an id or a size (mapped above)
    b.clone(*op, map);
    for (Value v : op->getResults())
      if (auto it = bufferOf.find(v); it != bufferOf.end())
        memref::StoreOp::create(b, loc, map.lookup(v), it->second, linear);
  }
  epilogue(map, linear);
}

void Emulator::emitBlock(Block &region, ArrayRef<Value> store) {
  SmallVector<Operation *> ops;
  auto nothing = [](IRMapping &, Value) {};
  auto flush = [&] {
    if (!ops.empty())
      emitPhase(ops, {}, nothing);
    ops.clear();
  };
  for (Operation &op : region.without_terminator()) {
    if (failedToEmulate)
      return;
    if (isa<gpu::BarrierOp>(op)) {
      flush();
      continue;
    }
    if (auto reduce = dyn_cast<gpu::AllReduceOp>(op)) {
      // Every thread's operand, then their combine (see treeReduce), the same for all.
      Value operands = perThread(reduce.getValue().getType());
      emitPhase(ops, {reduce.getValue()}, [&](IRMapping &map, Value linear) {
        memref::StoreOp::create(b, loc, map.lookup(reduce.getValue()), operands, linear);
      });
      ops.clear();
      uniform.map(reduce.getResult(),
                  treeReduce(b, reduce.getLoc(), operands, threads, *reduce.getOp()));
      continue;
    }
    if (!isSyncOp(&op)) {
      ops.push_back(&op);
      continue;
    }
    flush();
    // A loop or conditional the block's threads run together: its results (and a loop's
    // iteration arguments) in buffers of the threads, stored by its yields.
    SmallVector<Value> results;
    for (Value result : op.getResults())
      results.push_back(bufferOf.lookup(result));
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      SmallVector<Value> inits(loop.getInitArgs());
      if (!inits.empty())
        emitPhase({}, inits, [&](IRMapping &map, Value linear) {
          for (auto [v, buffer] : llvm::zip(inits, results))
            memref::StoreOp::create(b, loc, map.lookup(v), buffer, linear);
        });
      Value lower = atBlockScope(loop.getLowerBound());
      Value upper = lower ? atBlockScope(loop.getUpperBound()) : Value();
      Value step = upper ? atBlockScope(loop.getStep()) : Value();
      if (!step) {
        fail(loop) << "a loop with a barrier has bounds that depend on the thread";
        return;
      }
      auto together = scf::ForOp::create(b, loc, lower, upper, step);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(together.getBody()->getTerminator());
      uniform.map(loop.getInductionVar(), together.getInductionVar());
      emitBlock(*loop.getBody(), results);
      continue;
    }
    auto branch = cast<scf::IfOp>(op);
    Value condition = atBlockScope(branch.getCondition());
    if (!condition) {
      fail(branch) << "a conditional with a barrier has a condition that depends on the thread";
      return;
    }
    bool hasElse = !branch.getElseRegion().empty();
    auto together = scf::IfOp::create(b, loc, TypeRange{}, condition, hasElse);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(together.thenBlock()->getTerminator());
    emitBlock(*branch.thenBlock(), results);
    if (hasElse) {
      b.setInsertionPoint(together.elseBlock()->getTerminator());
      emitBlock(*branch.elseBlock(), results);
    }
  }
  if (failedToEmulate)
    return;
  // The last phase, with the yield's values stored for the loop's next iteration or
  // the conditional's results.
  SmallVector<Value> yielded;
  if (!store.empty())
    yielded.append(region.getTerminator()->operand_begin(), region.getTerminator()->operand_end());
  if (ops.empty() && yielded.empty())
    return;
  emitPhase(ops, yielded, [&](IRMapping &map, Value linear) {
    for (auto [v, buffer] : llvm::zip(yielded, store))
      memref::StoreOp::create(b, loc, map.lookup(v), buffer, linear);
  });
}

void Emulator::number(Block &region, int &counter) {
  ++counter;
  for (Operation &op : region.without_terminator()) {
    if (isa<gpu::BarrierOp, gpu::AllReduceOp>(op)) {
      ++counter;
      continue;
    }
    if (isSyncOp(&op)) {
      for (Region &r : op.getRegions())
        if (!r.empty())
          number(r.front(), counter);
      ++counter;
      continue;
    }
    phaseOf[&op] = counter;
  }
  phaseOf[region.getTerminator()] = counter;
}

/// A kernel's launch as loops (see the file comment). Where the kernel has barriers
/// (gpu.barrier, gpu.all_reduce), the ops between two of them are a phase: each block
/// runs a phase's ops for all its threads before the next phase; a loop or conditional
/// that holds barriers runs once for the block, each phase of its body for all threads;
/// a value a thread computes in one phase and uses in another goes through a buffer of
/// one element per thread, as do such a loop's iteration arguments and results. A
/// gpu.all_reduce combines the threads' operands as its lowering does (treeReduce).
/// Workgroup memory is a buffer of the launch, the blocks running one after another.
LogicalResult Emulator::run() {
  Region &body = kernel.getBody();
  if (!body.hasOneBlock())
    return launch.emitError() << "--gpu-emulate: kernel @" << kernel.getName()
                              << " has more than one block";
  if (kernel.getNumPrivateAttributions() != 0)
    return launch.emitError() << "--gpu-emulate: kernel @" << kernel.getName()
                              << " has private memory";
  Block &entry = body.front();
  // Which GPU ops: ids and sizes anywhere; barriers and reductions where all the block's
  // threads reach them together (in the kernel's body, or loops and conditionals of
  // barriers in it); a reduction with its operation.
  WalkResult checked = entry.walk([&](Operation *op) {
    if (!isa<gpu::GPUDialect>(op->getDialect()) ||
        isa<gpu::BlockIdOp, gpu::ThreadIdOp, gpu::GridDimOp, gpu::BlockDimOp>(op) ||
        (isa<gpu::ReturnOp>(op) && op->getBlock() == &entry))
      return WalkResult::advance();
    if (isa<gpu::BarrierOp, gpu::AllReduceOp>(op)) {
      for (Operation *parent = op->getParentOp(); parent != kernel; parent = parent->getParentOp())
        if (!isSyncOp(parent)) {
          fail(op) << "'" << op->getName() << "' in a region other than a loop or conditional";
          return WalkResult::interrupt();
        }
      auto reduce = dyn_cast<gpu::AllReduceOp>(op);
      if (reduce && (!reduce.getOp() || !reduce.getUniform())) {
        fail(op) << "only a uniform gpu.all_reduce with an operation attribute is emulated";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    fail(op) << "'" << op->getName() << "' is not emulated";
    return WalkResult::interrupt();
  });
  if (checked.wasInterrupted())
    return failure();
  for (BlockArgument memory : kernel.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(memory.getType());
    if (!type.hasStaticShape() ||
        llvm::any_of(memory.getUsers(), [](Operation *user) {
          return !isa<memref::LoadOp, memref::StoreOp>(user);
        }))
      return launch.emitError() << "--gpu-emulate: kernel @" << kernel.getName()
                                << "'s workgroup memory is used other than by loads and stores";
  }
  int counter = 0;
  number(entry, counter);

  zero = arith::ConstantIndexOp::create(b, loc, 0);
  one = arith::ConstantIndexOp::create(b, loc, 1);
  phased = entry.walk([](Operation *op) {
                  return isa<gpu::BarrierOp, gpu::AllReduceOp>(op) ? WalkResult::interrupt()
                                                                   : WalkResult::advance();
                })
               .wasInterrupted();
  if (phased) {
    threads = arith::MulIOp::create(
        b, loc, arith::MulIOp::create(b, loc, block.x, block.y), block.z);
    threadCount = arith::MaxUIOp::create(b, loc, threads, one);
  }
  // The kernel's operands, its workgroup memory (a buffer of the launch's, as the
  // blocks run one after another), the block's ids and the sizes: the same for all of a
  // block's threads.
  for (auto [arg, operand] :
       llvm::zip(body.getArguments().take_front(kernel.getNumArguments()),
                 launch.getKernelOperands()))
    uniform.map(arg, operand);
  for (BlockArgument memory : kernel.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(memory.getType());
    Value buffer = memref::AllocOp::create(
        b, loc, MemRefType::get(type.getShape(), type.getElementType()));
    uniform.map(memory, buffer);
    freed.push_back(buffer);
  }
  auto dim = [](gpu::Dimension d, Value x, Value y, Value z) {
    return d == gpu::Dimension::x ? x : d == gpu::Dimension::y ? y : z;
  };
  // The nest of loops over the blocks, z, y, x.
  Value bounds[3] = {grid.z, grid.y, grid.x};
  for (int i = 0; i < 3; ++i) {
    auto loop = scf::ForOp::create(b, loc, zero, bounds[i], one);
    if (i == 0)
      nestBegin = loop;
    blockIvs[i] = loop.getInductionVar();
    b.setInsertionPoint(loop.getBody()->getTerminator());
  }
  entry.walk([&](Operation *op) {
    if (auto id = dyn_cast<gpu::BlockIdOp>(op))
      uniform.map(id.getResult(), dim(id.getDimension(), blockIvs[2], blockIvs[1], blockIvs[0]));
    else if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
      threadIds.push_back(id);
    else if (auto size = dyn_cast<gpu::GridDimOp>(op))
      uniform.map(size.getResult(), dim(size.getDimension(), grid.x, grid.y, grid.z));
    else if (auto size = dyn_cast<gpu::BlockDimOp>(op))
      uniform.map(size.getResult(), dim(size.getDimension(), block.x, block.y, block.z));
  });
  // The values kept per thread: those used in a phase other than their own (constants
  // aside, computed again), a barrier loop's initial values (stored before it runs) and
  // its iteration arguments and results, a barrier conditional's results.
  auto keep = [&](Value v) {
    if (!bufferOf.count(v))
      bufferOf[v] = perThread(v.getType());
  };
  auto usedIn = [&](Value v, int phase) {
    Operation *def = v.getDefiningOp();
    if (!def || uniform.contains(v) || isa<gpu::GPUDialect>(def->getDialect()) ||
        def->hasTrait<OpTrait::ConstantLike>() || isSyncOp(def))
      return;
    if (phaseOfValue(v) != phase)
      keep(v);
  };
  entry.walk([&](Operation *op) {
    if (isSyncOp(op)) {
      for (Value result : op->getResults())
        keep(result);
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        for (auto [arg, result] : llvm::zip(loop.getRegionIterArgs(), loop.getResults()))
          bufferOf[arg] = bufferOf[result];
        for (Value init : loop.getInitArgs())
          usedIn(init, /*phase=*/-2);
      }
      return;
    }
    int phase = -1;
    for (Operation *at = op; at != kernel; at = at->getParentOp())
      if (auto it = phaseOf.find(at); it != phaseOf.end()) {
        phase = it->second;
        break;
      }
    if (phase < 0)
      return; // a barrier, a reduction (its operand: the phase before it's)
    for (Value v : op->getOperands())
      usedIn(v, phase);
  });
  entry.walk([&](gpu::AllReduceOp reduce) {
    Operation *before = reduce->getPrevNode();
    usedIn(reduce.getValue(), before && phaseOf.count(before) ? phaseOf[before] : -3);
  });
  emitBlock(entry, {});
  if (failedToEmulate)
    return failure();
  b.setInsertionPointAfter(launch);
  for (Value buffer : freed)
    memref::DeallocOp::create(b, loc, buffer);
  launch.erase();
  return success();
}

struct GPUEmulateLaunches : ag::impl::GPUEmulateLaunchesBase<GPUEmulateLaunches> {
  /// The runtime's check of `launch`'s grid and block sizes, which the driver's launch
  /// makes too (agrt_gpu_check_launch): a launch a GPU refuses fails here as well.
  void checkShape(gpu::LaunchFuncOp launch) {
    ModuleOp module = getOperation();
    OpBuilder b(launch);
    Location loc = launch.getLoc();
    constexpr StringLiteral name = "agrt_gpu_check_launch";
    SmallVector<Type> types(6, b.getI64Type());
    ag::declareRuntime(module, name, b.getFunctionType(types, {}));
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    SmallVector<Value> sizes;
    for (Value size : {grid.x, grid.y, grid.z, block.x, block.y, block.z})
      sizes.push_back(arith::IndexCastOp::create(b, loc, b.getI64Type(), size));
    func::CallOp::create(b, loc, name, TypeRange{}, sizes);
  }

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
      checkShape(launch);
      if (failed(Emulator(launch, kernel).run()))
        return signalPassFailure();
    }
    for (auto kernels : llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>()))
      kernels.erase();
  }
};

} // namespace
