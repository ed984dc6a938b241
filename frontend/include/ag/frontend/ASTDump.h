//===- ASTDump.h - Printing the AST for tests and --emit=ast -------------===//
//
// A stable, indented dump: one node per line as `Kind [details] @file:line:col-line:col`,
// children below it, each under the name of the field that holds it ("test:", "body:").
// FileCheck tests match it, so its format changes only on purpose.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_ASTDUMP_H
#define AG_FRONTEND_ASTDUMP_H

#include "ag/frontend/AST.h"

#include "llvm/Support/raw_ostream.h"

namespace ag::ast {

void dump(const Module &module, llvm::raw_ostream &os);
void dump(const Stmt &stmt, llvm::raw_ostream &os);
void dump(const Expr &expr, llvm::raw_ostream &os);

} // namespace ag::ast

#endif // AG_FRONTEND_ASTDUMP_H
