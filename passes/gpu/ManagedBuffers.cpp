//===- ManagedBuffers.cpp - host buffers a kernel can read -----------------===//
//
// In an object for nvptx, every buffer the host code allocates may be handed to a
// kernel, read back by the host's control flow, or returned to the caller: it comes from
// the runtime's GPU allocator (agrt_gpu_aligned_alloc, runtime/lib/gpu.c), which gives
// CUDA managed memory, addressable by host and device alike, where a GPU is present, and
// host memory where none is (a function with no kernel then runs without one). Freeing
// is the same function for both (the allocator knows its managed blocks).
//
//   llvm.call @_mlir_memref_to_llvm_aligned_alloc(%align, %size)
//     => llvm.call @agrt_gpu_aligned_alloc(%align, %size)
//
// After finalize-memref-to-llvm, which declares and calls MLIR's generic allocation
// function.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace ag {
#define GEN_PASS_DEF_GPUMANAGEDBUFFERS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kGeneric = "_mlir_memref_to_llvm_aligned_alloc";
constexpr llvm::StringLiteral kManaged = "agrt_gpu_aligned_alloc";

struct GPUManagedBuffers : ag::impl::GPUManagedBuffersBase<GPUManagedBuffers> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto generic = module.lookupSymbol<LLVM::LLVMFuncOp>(kGeneric);
    if (!generic)
      return;
    if (module.lookupSymbol(kManaged)) {
      generic.emitError() << "'" << kManaged << "' is already defined in this module";
      return signalPassFailure();
    }
    auto name = StringAttr::get(&getContext(), kManaged);
    if (failed(SymbolTable::replaceAllSymbolUses(generic, name, module)))
      return signalPassFailure();
    SymbolTable::setSymbolName(generic, name);
  }
};

} // namespace
