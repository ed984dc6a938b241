//===- FuzzAnalysis.cpp - Fuzz target: source bytes to --emit=analysis, dot ===//
//
// The analyses and the tracer (every function with an input_signature is traced), with
// no code generator; then the --emit=dot graph of the same.
#include "FuzzTarget.h"

#include "ag/frontend/analysis/Tracer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return ag::fuzz::withModule(data, size, [](const ag::ast::Module &module, ag::DiagnosticEngine &diag) {
    ag::analysis::printAnalysisAndDecisions(module, ag::analysis::ArgumentSpec(), diag,
                                            llvm::nulls());
    ag::analysis::printControlFlowDot(module, ag::analysis::ArgumentSpec(), diag, llvm::nulls());
  });
}
