//===- FunctionAnalysis.cpp - Running the analyses of one function --------===//
#include "ag/frontend/analysis/FunctionAnalysis.h"

using namespace ag;
using namespace ag::analysis;
using llvm::dyn_cast;

void ag::analysis::forEachBlock(const ast::StmtList &stmts,
                                llvm::function_ref<void(const ast::Stmt &)> visit) {
  for (const ast::StmtPtr &stmt : stmts) {
    if (llvm::isa<ast::IfStmt, ast::WhileStmt, ast::ForStmt>(*stmt))
      visit(*stmt);
    for (const ast::StmtList *block : ast::nestedBlocks(*stmt))
      forEachBlock(*block, visit);
  }
}

void ag::analysis::forEachFunction(
    const ast::StmtList &stmts, llvm::function_ref<void(const ast::FunctionDefStmt &)> visit) {
  for (const ast::StmtPtr &stmt : stmts) {
    if (const auto *def = dyn_cast<ast::FunctionDefStmt>(stmt.get())) {
      visit(*def);
      forEachFunction(def->getBody(), visit);
    }
    for (const ast::StmtList *block : ast::nestedBlocks(*stmt))
      forEachFunction(*block, visit);
  }
}

FunctionAnalysis::FunctionAnalysis(const ast::FunctionDefStmt &function)
    : function(function), cfg(CFG::build(function)), activity(Activity::compute(cfg, names)),
      reaching(ReachingDefinitions::compute(cfg, activity, names)),
      liveness(Liveness::compute(cfg, activity, names.size())) {
  forEachBlock(function.getBody(), [&](const ast::Stmt &stmt) {
    blocks[&stmt] = computeBlockVars(stmt, cfg, names, activity, reaching, liveness);
  });
}

