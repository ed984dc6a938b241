//===- StageBuffers.cpp - what a kernel reads, in memory the GPU can reach --===//
//
// A host function that launches kernels gets its caller's tensors in the caller's
// memory, and its constants in the object's read-only data: neither is memory a GPU
// can read (the caller's could be, on a machine with heterogeneous memory management,
// but agc does not count on it). The buffers the function allocates are (in an object
// for nvptx, the runtime's allocator gives CUDA managed memory: -ag-gpu-managed-buffers).
// So, in a function with a gpu.launch_func, each memref argument and each constant
// global it reads is copied once, at the function's entry, into a buffer of its own,
// and every use reads the copy. (A tf.Variable's global, which the host reads and
// writes through copies, stays where it is; a kernel given a view of a global or of the
// stack is an error.)
//
//   func.func @f(%x: memref<?xf32>) { ... gpu.launch_func ... args(%x ...) }
//     => func.func @f(%x: memref<?xf32>) {
//          %d = memref.dim %x, %c0
//          %x1 = memref.alloc(%d) : memref<?xf32>
//          memref.copy %x, %x1
//          ... gpu.launch_func ... args(%x1 ...) }
//
// With driver-copies (an nvptx object's pipeline), the copies of the caller's tensors
// are marked `ag.through_driver`: after buffer deallocation (which cannot see through
// gpu.wait), -ag-gpu-driver-copies makes them copies by the CUDA driver, which reads
// device memory as well as host memory, so that a caller may pass tensors that are in
// GPU memory already (AGC_CUDA).
//
// Before buffer deallocation, which frees the copies where they die. A function with no
// kernel is left as it is.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/MapVector.h"

namespace ag {
#define GEN_PASS_DEF_GPUSTAGEBUFFERS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// A new buffer at `b` with the shape of `source` (its dynamic sizes read from it), the
/// contents of `source` copied into it (marked for the CUDA driver with
/// `throughDriver`); the ops that read `source` go into `readers`.
Value copyOf(OpBuilder &b, Location loc, Value source,
             SmallPtrSetImpl<Operation *> *readers = nullptr, bool throughDriver = false) {
  auto type = cast<MemRefType>(source.getType());
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i)) {
      auto dim = memref::DimOp::create(b, loc, source, i);
      if (readers)
        readers->insert(dim);
      sizes.push_back(dim);
    }
  auto allocType = MemRefType::get(type.getShape(), type.getElementType());
  Value copy = memref::AllocOp::create(b, loc, allocType, sizes, b.getI64IntegerAttr(64));
  auto copied = memref::CopyOp::create(b, loc, source, copy);
  if (throughDriver)
    copied->setAttr(ag::kThroughDriverAttr, b.getUnitAttr());
  if (readers)
    readers->insert(copied);
  if (allocType != type)
    copy = memref::CastOp::create(b, loc, type, copy);
  return copy;
}

struct GPUStageBuffers : ag::impl::GPUStageBuffersBase<GPUStageBuffers> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn.isExternal() || !fn->walk([](gpu::LaunchFuncOp) { return WalkResult::interrupt(); })
                                 .wasInterrupted())
      return;
    Block &entry = fn.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    // The caller's tensors.
    for (BlockArgument arg : entry.getArguments()) {
      if (!isa<MemRefType>(arg.getType()) || arg.use_empty())
        continue;
      SmallPtrSet<Operation *, 4> readers;
      Value copy = copyOf(b, arg.getLoc(), arg, &readers, driverCopies);
      arg.replaceUsesWithIf(copy, [&](OpOperand &use) { return !readers.contains(use.getOwner()); });
    }
    // The constants: one copy of each global, however often the function names it. (A
    // tf.Variable's global is read and written by the host's copies, never by a kernel:
    // see below.)
    auto module = fn->getParentOfType<ModuleOp>();
    llvm::MapVector<StringAttr, SmallVector<memref::GetGlobalOp>> globals;
    fn.walk([&](memref::GetGlobalOp get) {
      auto global = module ? module.lookupSymbol<memref::GlobalOp>(get.getNameAttr()) : nullptr;
      if (global && global.getConstant())
        globals[get.getNameAttr().getAttr()].push_back(get);
    });
    for (auto &[name, gets] : globals) {
      memref::GetGlobalOp first = gets.front();
      auto get = memref::GetGlobalOp::create(b, first.getLoc(), first.getType(), first.getName());
      Value copy = copyOf(b, first.getLoc(), get);
      for (memref::GetGlobalOp old : gets) {
        old.replaceAllUsesWith(copy);
        old.erase();
      }
    }
    // What a kernel is given must now be a buffer the function allocated: a view of a
    // global or of the stack would be host memory.
    WalkResult checked = fn.walk([&](gpu::LaunchFuncOp launch) {
      for (Value operand : launch.getKernelOperands()) {
        if (!isa<BaseMemRefType>(operand.getType()))
          continue;
        Value root = operand;
        while (auto view = root.getDefiningOp<ViewLikeOpInterface>())
          root = view.getViewSource();
        Operation *def = root.getDefiningOp();
        if (def && isa<memref::GetGlobalOp, memref::AllocaOp>(def)) {
          launch.emitError() << "agc cannot run this kernel on the GPU: it would read "
                             << (isa<memref::AllocaOp>(def) ? "the host's stack"
                                                            : "a tf.Variable's host memory")
                             << " (an internal limitation of --target=nvptx; please report it)";
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (checked.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
