//===- FuzzPipeline.cpp - Fuzz target: source bytes to LLVM IR -------------===//
//
// The whole pipeline to LLVM IR: tracer, MLIRGen, every pass, translation.
#include "FuzzTarget.h"

#include "ag/passes/Pipeline.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return ag::fuzz::withModule(data, size, [](const ag::ast::Module &module, ag::DiagnosticEngine &diag) {
    ag::emitIR(module, ag::analysis::ArgumentSpec(), diag, ag::IRStage::LlvmIr, llvm::nulls());
  });
}
