//===- LaunchEffects.cpp - what a kernel launch does to memory ---------------===//
//
// gpu.launch_func says nothing of its memory effects, and upstream's buffer
// deallocation refuses an op it cannot see into. A launch reads and writes the buffers
// it is given (what the kernel does with each is not visible from the host function);
// agc's launches are synchronous (the translation waits for each kernel), so a buffer
// may be freed right after the last launch that uses it. This model says so: a read and
// a write of each buffer operand (a memref, or its pointers once lowered), and a write
// of the default resource, so that no launch is ever erased as dead.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace {
struct LaunchFuncEffects
    : MemoryEffectOpInterface::ExternalModel<LaunchFuncEffects, gpu::LaunchFuncOp> {
  void getEffects(Operation *op,
                  SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) const {
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<BaseMemRefType, LLVM::LLVMPointerType>(operand.get().getType()))
        continue;
      effects.emplace_back(MemoryEffects::Read::get(), &operand);
      effects.emplace_back(MemoryEffects::Write::get(), &operand);
    }
    effects.emplace_back(MemoryEffects::Write::get());
  }
};
} // namespace

void ag::registerGPULaunchEffects(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, gpu::GPUDialect *) {
    gpu::LaunchFuncOp::attachInterface<LaunchFuncEffects>(*context);
  });
}
