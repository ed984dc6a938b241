//===- FunctionAnalysis.h - Running the analyses of one function ----------===//
//
// The one place that runs the static analyses, in their fixed order:
//
//   CFG -> Activity -> ReachingDefinitions -> Liveness -> BlockVars (per if/while/for)
//
// and keeps their results together for the consumers (AutoGraph's decisions, MLIRGen,
// to-code), which read them and never recompute them. printAnalysis() is --emit=analysis.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_ANALYSIS_FUNCTIONANALYSIS_H
#define AG_FRONTEND_ANALYSIS_FUNCTIONANALYSIS_H

#include "ag/frontend/analysis/BlockVars.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace ag::analysis {

struct FunctionAnalysis {
  /// Runs every analysis on `function` (not on functions nested in it). The members are
  /// initialized in the order the analyses run.
  explicit FunctionAnalysis(const ast::FunctionDefStmt &function);

  const ast::FunctionDefStmt &function;
  NameTable names;
  CFG cfg;
  Activity activity;
  ReachingDefinitions reaching;
  Liveness liveness;
  llvm::DenseMap<const ast::Stmt *, BlockVars> blocks;
};

/// Calls `visit` on every if/while/for of `stmts` in source order, nested ones included
/// (but not those inside nested function definitions).
void forEachBlock(const ast::StmtList &stmts, llvm::function_ref<void(const ast::Stmt &)> visit);

/// Calls `visit` on every function defined in `stmts`, each before those nested in it.
void forEachFunction(const ast::StmtList &stmts,
                     llvm::function_ref<void(const ast::FunctionDefStmt &)> visit);

} // namespace ag::analysis

#endif // AG_FRONTEND_ANALYSIS_FUNCTIONANALYSIS_H
