//===- FunctionAnalysis.cpp - Running the analyses of one function --------===//
#include "ag/frontend/analysis/FunctionAnalysis.h"

#include "llvm/ADT/StringExtras.h"

using namespace ag;
using namespace ag::analysis;
using llvm::cast;
using llvm::dyn_cast;

namespace {
/// Calls `visit` on every if/while/for of `stmts`, in source order, nested ones included
/// (but not those inside nested function definitions).
template <typename Fn> void forEachBlock(const ast::StmtList &stmts, Fn &&visit) {
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

/// Every function of `stmts`, nested ones after their parent.
void forEachFunction(const ast::StmtList &stmts,
                     llvm::function_ref<void(const ast::FunctionDefStmt &)> visit) {
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

const char *blockKeyword(const ast::Stmt &stmt) {
  if (const auto *s = dyn_cast<ast::IfStmt>(&stmt))
    return s->isElif() ? "elif" : "if";
  return llvm::isa<ast::WhileStmt>(stmt) ? "while" : "for";
}
} // namespace

FunctionAnalysis::FunctionAnalysis(const ast::FunctionDefStmt &function)
    : function(function), cfg(CFG::build(function)), activity(Activity::compute(cfg, names)),
      reaching(ReachingDefinitions::compute(cfg, activity, names)),
      liveness(Liveness::compute(cfg, activity, names.size())) {
  forEachBlock(function.getBody(), [&](const ast::Stmt &stmt) {
    blocks[&stmt] = computeBlockVars(stmt, cfg, names, activity, reaching, liveness);
  });
}

void ag::analysis::printAnalysis(const ast::Module &module, llvm::raw_ostream &os) {
  forEachFunction(module.getBody(), [&](const ast::FunctionDefStmt &function) {
    auto fa = std::make_unique<FunctionAnalysis>(function);
    const NameTable &names = fa->names;
    os << "function '" << function.getName() << "' @" << function.loc() << '\n';
    auto line = [&](const char *label, const NameSet &set) {
      os << "    " << label << ": ";
      names.print(set, os);
      os << '\n';
    };
    os << "  params: ";
    names.print(fa->activity.params(), os);
    os << '\n';
    if (fa->activity.globals().any()) {
      os << "  globals: ";
      names.print(fa->activity.globals(), os);
      os << '\n';
    }
    if (fa->activity.nonlocals().any()) {
      os << "  nonlocals: ";
      names.print(fa->activity.nonlocals(), os);
      os << '\n';
    }
    forEachBlock(function.getBody(), [&](const ast::Stmt &stmt) {
      const BlockVars &vars = fa->blocks.find(&stmt)->second;
      os << "  " << blockKeyword(stmt) << " @" << stmt.loc() << '\n';
      line("live-in", vars.liveIn);
      line("live-out", vars.liveOut);
      line("defined-in", vars.definedIn);
      line("modified", vars.modified);
      auto list = [&](const char *label, llvm::ArrayRef<std::string> items) {
        os << "    " << label << ": (" << llvm::join(items, ", ") << ")\n";
      };
      llvm::ArrayRef<std::string> carried = vars.carried;
      list("outputs", carried.take_front(vars.numOutputs));
      list("input-only", carried.drop_front(vars.numOutputs));
      if (!vars.undefined.empty())
        list("undefined-before", vars.undefined);
    });
  });
}
