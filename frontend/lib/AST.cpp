//===- AST.cpp - Names and look-ups on the Python AST ---------------------===//
#include "ag/frontend/AST.h"

#include "llvm/Support/ErrorHandling.h"

using namespace ag::ast;

llvm::StringRef ag::ast::spelling(UnaryOp op) {
  switch (op) {
  case UnaryOp::Plus: return "+";
  case UnaryOp::Minus: return "-";
  case UnaryOp::Not: return "not";
  case UnaryOp::Invert: return "~";
  }
  llvm_unreachable("unknown UnaryOp");
}

llvm::StringRef ag::ast::spelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return "+";
  case BinaryOp::Sub: return "-";
  case BinaryOp::Mul: return "*";
  case BinaryOp::Div: return "/";
  case BinaryOp::FloorDiv: return "//";
  case BinaryOp::Mod: return "%";
  case BinaryOp::Pow: return "**";
  case BinaryOp::MatMul: return "@";
  case BinaryOp::BitAnd: return "&";
  case BinaryOp::BitOr: return "|";
  case BinaryOp::BitXor: return "^";
  case BinaryOp::LShift: return "<<";
  case BinaryOp::RShift: return ">>";
  }
  llvm_unreachable("unknown BinaryOp");
}

llvm::StringRef ag::ast::spelling(BoolOpKind op) {
  return op == BoolOpKind::And ? "and" : "or";
}

llvm::StringRef ag::ast::spelling(CmpOp op) {
  switch (op) {
  case CmpOp::Lt: return "<";
  case CmpOp::LtE: return "<=";
  case CmpOp::Gt: return ">";
  case CmpOp::GtE: return ">=";
  case CmpOp::Eq: return "==";
  case CmpOp::NotEq: return "!=";
  case CmpOp::In: return "in";
  case CmpOp::NotIn: return "not in";
  case CmpOp::Is: return "is";
  case CmpOp::IsNot: return "is not";
  }
  llvm_unreachable("unknown CmpOp");
}

const Keyword *CallExpr::findKeyword(llvm::StringRef name) const {
  for (const Keyword &keyword : keywords)
    if (keyword.name == name)
      return &keyword;
  return nullptr;
}

LambdaExpr::LambdaExpr(Location loc, std::unique_ptr<FunctionDefStmt> def)
    : Expr(Kind::Lambda, loc), def(std::move(def)) {}
LambdaExpr::~LambdaExpr() = default;
const Expr &LambdaExpr::getBody() const {
  return *llvm::cast<ReturnStmt>(*def->getBody().front()).getValue();
}

const FunctionDefStmt *Module::findFunction(llvm::StringRef name) const {
  for (const StmtPtr &stmt : body)
    if (const auto *def = llvm::dyn_cast<FunctionDefStmt>(stmt.get()))
      if (def->getName() == name)
        return def;
  return nullptr;
}

llvm::SmallVector<const StmtList *, 2> ag::ast::nestedBlocks(const Stmt &stmt) {
  if (const auto *s = llvm::dyn_cast<IfStmt>(&stmt))
    return {&s->getBody(), &s->getOrElse()};
  if (const auto *s = llvm::dyn_cast<WhileStmt>(&stmt))
    return {&s->getBody(), &s->getOrElse()};
  if (const auto *s = llvm::dyn_cast<ForStmt>(&stmt))
    return {&s->getBody(), &s->getOrElse()};
  if (const auto *s = llvm::dyn_cast<WithStmt>(&stmt))
    return {&s->getBody()};
  if (const auto *s = llvm::dyn_cast<TryStmt>(&stmt)) {
    llvm::SmallVector<const StmtList *, 2> out{&s->getBody()};
    for (const ExceptHandler &handler : s->getHandlers())
      out.push_back(&handler.body);
    out.push_back(&s->getOrElse());
    out.push_back(&s->getFinalBody());
    return out;
  }
  return {};
}

llvm::StringRef ag::ast::kindName(Expr::Kind kind) {
  switch (kind) {
  case Expr::Kind::Name: return "Name";
  case Expr::Kind::IntLit: return "Int";
  case Expr::Kind::FloatLit: return "Float";
  case Expr::Kind::StrLit: return "Str";
  case Expr::Kind::BoolLit: return "Bool";
  case Expr::Kind::NoneLit: return "None";
  case Expr::Kind::EllipsisLit: return "Ellipsis";
  case Expr::Kind::Unary: return "UnaryOp";
  case Expr::Kind::Binary: return "BinOp";
  case Expr::Kind::BoolOp: return "BoolOp";
  case Expr::Kind::Compare: return "Compare";
  case Expr::Kind::Call: return "Call";
  case Expr::Kind::Attribute: return "Attribute";
  case Expr::Kind::Subscript: return "Subscript";
  case Expr::Kind::Slice: return "Slice";
  case Expr::Kind::Tuple: return "Tuple";
  case Expr::Kind::List: return "List";
  case Expr::Kind::Dict: return "Dict";
  case Expr::Kind::IfExp: return "IfExp";
  case Expr::Kind::Lambda: return "Lambda";
  case Expr::Kind::ListComp: return "ListComp";
  case Expr::Kind::DictComp: return "DictComp";
  case Expr::Kind::GeneratorExp: return "GeneratorExp";
  case Expr::Kind::Starred: return "Starred";
  }
  llvm_unreachable("unknown Expr::Kind");
}

llvm::StringRef ag::ast::kindName(Stmt::Kind kind) {
  switch (kind) {
  case Stmt::Kind::Import: return "Import";
  case Stmt::Kind::ImportFrom: return "ImportFrom";
  case Stmt::Kind::Assign: return "Assign";
  case Stmt::Kind::AugAssign: return "AugAssign";
  case Stmt::Kind::AnnAssign: return "AnnAssign";
  case Stmt::Kind::ExprStmt: return "Expr";
  case Stmt::Kind::If: return "If";
  case Stmt::Kind::While: return "While";
  case Stmt::Kind::For: return "For";
  case Stmt::Kind::Break: return "Break";
  case Stmt::Kind::Continue: return "Continue";
  case Stmt::Kind::Return: return "Return";
  case Stmt::Kind::Pass: return "Pass";
  case Stmt::Kind::Assert: return "Assert";
  case Stmt::Kind::Delete: return "Delete";
  case Stmt::Kind::Global: return "Global";
  case Stmt::Kind::Nonlocal: return "Nonlocal";
  case Stmt::Kind::FunctionDef: return "FunctionDef";
  case Stmt::Kind::With: return "With";
  case Stmt::Kind::Raise: return "Raise";
  case Stmt::Kind::Try: return "Try";
  case Stmt::Kind::Unsupported: return "Unsupported";
  }
  llvm_unreachable("unknown Stmt::Kind");
}
