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

/// Prints, for every function of `module` (nested ones too), its parameters and, for each
/// if/while/for in source order, its live-in, live-out, defined-in, modified and carried
/// names: the text of `agc --emit=analysis`.
void printAnalysis(const ast::Module &module, llvm::raw_ostream &os);

} // namespace ag::analysis

#endif // AG_FRONTEND_ANALYSIS_FUNCTIONANALYSIS_H
