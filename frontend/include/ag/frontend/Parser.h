//===- Parser.h - Python source to agc AST --------------------------------===//
//
// The frontend's entry point: tree-sitter parses a SourceFile, every ERROR and MISSING node
// of the tree becomes a located syntax error, and the ASTBuilder turns the concrete tree
// into an ast::Module, reporting every construct outside agc's subset of Python as a
// located "not supported by agc" error. Nothing is silently dropped: the result is a
// complete AST, or null after at least one error.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_PARSER_H
#define AG_FRONTEND_PARSER_H

#include "ag/frontend/AST.h"
#include "ag/frontend/Diagnostics.h"
#include "ag/frontend/Source.h"

#include <memory>

namespace ag {

struct ParseOptions {
  /// Deepest nesting of statements and expressions accepted. Deeper input is refused
  /// with a diagnostic rather than risking the stack.
  unsigned maxNestingDepth = 1000;
  /// tree-sitter gives up after this long (0: never).
  uint64_t timeoutMicros = 60'000'000;
};

/// Parses `source` into an AST. Returns null after reporting at least one error to `diag`.
std::unique_ptr<ast::Module> parseModule(const SourceFile &source, DiagnosticEngine &diag,
                                         const ParseOptions &options = {});

} // namespace ag

#endif // AG_FRONTEND_PARSER_H
