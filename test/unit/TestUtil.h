// Helpers shared by the unit tests: parse a string as a file, capture diagnostics.
#ifndef AGC_TEST_UNIT_TESTUTIL_H
#define AGC_TEST_UNIT_TESTUTIL_H

#include "ag/frontend/ASTDump.h"
#include "ag/frontend/Parser.h"

#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>

namespace agtest {

/// One parse of `text` as "t.py": the module (null on error) and everything reported.
struct Parsed {
  std::unique_ptr<llvm::SourceMgr> sourceMgr = std::make_unique<llvm::SourceMgr>();
  std::string diagnostics;
  std::unique_ptr<ag::ast::Module> module;
  unsigned errors = 0;
};

inline Parsed parse(const std::string &text, ag::ParseOptions options = {}) {
  Parsed p;
  llvm::raw_string_ostream os(p.diagnostics);
  ag::DiagnosticEngine diag(*p.sourceMgr, os);
  if (auto source = ag::addSourceBuffer("t.py", text, diag))
    p.module = ag::parseModule(*source, diag, options);
  p.errors = diag.getNumErrors();
  return p;
}

/// The single statement of a one-statement module (fails the test otherwise).
inline const ag::ast::Stmt &onlyStmt(const Parsed &p) {
  static ag::ast::PassStmt none{ag::Location{}};
  if (!p.module || p.module->getBody().size() != 1)
    return none;
  return *p.module->getBody()[0];
}

inline std::string dumpOf(const Parsed &p) {
  std::string out;
  llvm::raw_string_ostream os(out);
  if (p.module)
    ag::ast::dump(*p.module, os);
  return out;
}

} // namespace agtest

#endif
