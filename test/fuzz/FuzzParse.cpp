//===- FuzzParse.cpp - Fuzz target: source bytes to the located AST --------===//
#include "FuzzTarget.h"

#include "ag/frontend/ASTDump.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return ag::fuzz::withModule(data, size, [](const ag::ast::Module &module, ag::DiagnosticEngine &) {
    ag::ast::dump(module, llvm::nulls());
  });
}
