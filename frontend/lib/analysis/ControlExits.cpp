//===- ControlExits.cpp - AutoGraph's lowering of break, continue and return --===//
//
// See ControlExits.h. The names: `break#1`, `continue#1`, `return#`, `retval#`, `iter#1`,
// `ran#1`.
//
//===----------------------------------------------------------------------------------===//
#include "ag/frontend/analysis/ControlExits.h"

#include "llvm/ADT/Twine.h"

using namespace ag;
using namespace ag::analysis;
using llvm::dyn_cast;

namespace {
constexpr llvm::StringLiteral kBreak = "break#", kContinue = "continue#", kReturn = "return#",
                              kReturnSlot = "retval#", kLoopIndex = "iter#", kLoopRan = "ran#";
} // namespace

std::string analysis::exitFlag(ExitKind kind, unsigned loopDepth) {
  switch (kind) {
  case ExitKind::Break: return (kBreak + llvm::Twine(loopDepth)).str();
  case ExitKind::Continue: return (kContinue + llvm::Twine(loopDepth)).str();
  case ExitKind::Return: return kReturn.str();
  }
  return {};
}

std::string analysis::returnSlot() { return kReturnSlot.str(); }

std::string analysis::loopIndexSlot(unsigned loopDepth) {
  return (kLoopIndex + llvm::Twine(loopDepth)).str();
}

std::string analysis::loopRanSlot(unsigned loopDepth) {
  return (kLoopRan + llvm::Twine(loopDepth)).str();
}

bool analysis::isExitName(llvm::StringRef name) { return name.contains('#'); }

bool analysis::isExitFlag(llvm::StringRef name) {
  return name.starts_with(kBreak) || name.starts_with(kContinue) || name == kReturn;
}

bool analysis::isLoopIndexSlot(llvm::StringRef name) { return name.starts_with(kLoopIndex); }

std::string analysis::spellExitFlag(ExitKind kind, unsigned line,
                                    llvm::function_ref<bool(llvm::StringRef)> taken) {
  std::string name = (kind == ExitKind::Break ? "break_" : "continue_") + std::to_string(line);
  while (taken(name))
    name += '_';
  return name;
}

/// The blocks of `stmt` whose break and continue are the enclosing loop's: an if's, a
/// with's and a try's (a nested loop's are its own).
static llvm::SmallVector<const ast::StmtList *, 2> sameLoopBlocks(const ast::Stmt &stmt) {
  if (llvm::isa<ast::IfStmt, ast::WithStmt, ast::TryStmt>(stmt))
    return ast::nestedBlocks(stmt);
  return {};
}

/// Whether `stmts` hold a `kind` statement (break or continue) for the loop around them.
static bool takes(const ast::StmtList &stmts, ast::Stmt::Kind kind) {
  for (const ast::StmtPtr &stmt : stmts) {
    if (stmt->getKind() == kind)
      return true;
    for (const ast::StmtList *block : sameLoopBlocks(*stmt))
      if (takes(*block, kind))
        return true;
  }
  return false;
}

LoopExits analysis::loopExits(const ast::StmtList &body) {
  return {takes(body, ast::Stmt::Kind::Break), takes(body, ast::Stmt::Kind::Continue)};
}

LoopExits analysis::exitsTakenBy(const ast::Stmt &stmt) {
  auto one = [&](ast::Stmt::Kind kind) {
    if (stmt.getKind() == kind)
      return true;
    return llvm::any_of(sameLoopBlocks(stmt),
                        [&](const ast::StmtList *block) { return takes(*block, kind); });
  };
  return {one(ast::Stmt::Kind::Break), one(ast::Stmt::Kind::Continue)};
}

bool analysis::alwaysReturns(const ast::StmtList &stmts) {
  if (stmts.empty())
    return false;
  const ast::Stmt &last = *stmts.back();
  if (llvm::isa<ast::ReturnStmt>(last))
    return true;
  if (const auto *s = dyn_cast<ast::IfStmt>(&last))
    return alwaysReturns(s->getBody()) && alwaysReturns(s->getOrElse());
  if (const auto *s = dyn_cast<ast::WithStmt>(&last))
    return alwaysReturns(s->getBody());
  return false;
}
