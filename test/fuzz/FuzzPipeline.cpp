//===- FuzzPipeline.cpp - Fuzz target: source bytes to LLVM IR -------------===//
//
// The whole pipeline to LLVM IR: tracer, MLIRGen, every pass, translation.
#include "FuzzTarget.h"

#include "ag/driver/Driver.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return ag::fuzz::withModule(data, size, [](const ag::ast::Module &module, ag::DiagnosticEngine &diag) {
    static std::unique_ptr<ag::driver::Target> cpu =
        llvm::cantFail(ag::driver::createTarget(ag::driver::TargetKind::CPU, {}));
    ag::driver::emitIR(module, ag::analysis::ArgumentSpec(), diag, *cpu,
                       ag::driver::IRStage::LlvmIr, llvm::nulls());
  });
}
