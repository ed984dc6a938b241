//===- FunctionAnalysis.cpp - Running the analyses of one function --------===//
#include "ag/frontend/analysis/FunctionAnalysis.h"

using namespace ag;
using namespace ag::analysis;
using llvm::dyn_cast;

void ag::analysis::forEachBlock(const ast::StmtList &stmts,
                                llvm::function_ref<void(const ast::Stmt &)> visit) {
  for (const ast::StmtPtr &stmt : stmts) {
    if (const auto *s = dyn_cast<ast::IfStmt>(stmt.get())) {
      visit(*s);
      forEachBlock(s->getBody(), visit);
      forEachBlock(s->getOrElse(), visit);
    } else if (const auto *s = dyn_cast<ast::WhileStmt>(stmt.get())) {
      visit(*s);
      forEachBlock(s->getBody(), visit);
      forEachBlock(s->getOrElse(), visit);
    } else if (const auto *s = dyn_cast<ast::ForStmt>(stmt.get())) {
      visit(*s);
      forEachBlock(s->getBody(), visit);
      forEachBlock(s->getOrElse(), visit);
    }
  }
}

void ag::analysis::forEachFunction(
    const ast::StmtList &stmts, llvm::function_ref<void(const ast::FunctionDefStmt &)> visit) {
  for (const ast::StmtPtr &stmt : stmts) {
    if (const auto *def = dyn_cast<ast::FunctionDefStmt>(stmt.get())) {
      visit(*def);
      forEachFunction(def->getBody(), visit);
    } else if (const auto *s = dyn_cast<ast::IfStmt>(stmt.get())) {
      forEachFunction(s->getBody(), visit);
      forEachFunction(s->getOrElse(), visit);
    } else if (const auto *s = dyn_cast<ast::WhileStmt>(stmt.get())) {
      forEachFunction(s->getBody(), visit);
      forEachFunction(s->getOrElse(), visit);
    } else if (const auto *s = dyn_cast<ast::ForStmt>(stmt.get())) {
      forEachFunction(s->getBody(), visit);
      forEachFunction(s->getOrElse(), visit);
    }
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

