//===- CheckLLVMLowered.cpp - Nothing but the LLVM dialect is left --------===//
//
// See Passes.td (-ag-check-llvm-lowered).
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace ag {
#define GEN_PASS_DEF_CHECKLLVMLOWERED
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {
struct CheckLLVMLowered : ag::impl::CheckLLVMLoweredBase<CheckLLVMLowered> {
  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](Operation *op) {
      // OpenMP regions stay as omp ops on LLVM types: the translation to LLVM IR
      // outlines them (OpenMPIRBuilder).
      if (isa<ModuleOp>(op) || isa<LLVM::LLVMDialect, omp::OpenMPDialect>(op->getDialect()))
        return;
      // An nvptx object's kernels and their launches on LLVM values: the translation
      // embeds and launches them (#gpu.select_object).
      if (isa<gpu::BinaryOp, gpu::LaunchFuncOp>(op))
        return;
      op->emitError() << "agc could not lower '" << op->getName()
                      << "' to the LLVM dialect (an internal error: please report it)";
      failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
