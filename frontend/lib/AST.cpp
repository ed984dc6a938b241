//===- AST.cpp - Names and look-ups on the Python AST ---------------------===//
#include "ag/frontend/AST.h"

#include "llvm/ADT/SmallPtrSet.h"
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

const ClassDefStmt *Module::findClass(llvm::StringRef name) const {
  for (const StmtPtr &stmt : body)
    if (const auto *def = llvm::dyn_cast<ClassDefStmt>(stmt.get()))
      if (def->getName() == name)
        return def;
  return nullptr;
}

namespace {

/// `name = Class(...)` at the top level of `module`, with `Class` one of its top-level
/// classes (or null where it is not): the name and the class.
std::optional<std::pair<llvm::StringRef, const ClassDefStmt *>>
instanceMade(const Module &module, const Stmt &stmt) {
  const auto *assign = llvm::dyn_cast<AssignStmt>(&stmt);
  if (!assign || assign->getTargets().size() != 1)
    return std::nullopt;
  const auto *target = llvm::dyn_cast<NameExpr>(assign->getTargets()[0].get());
  if (!target)
    return std::nullopt;
  const auto *call = llvm::dyn_cast<CallExpr>(&assign->getValue());
  const auto *callee = call ? llvm::dyn_cast<NameExpr>(&call->getCallee()) : nullptr;
  return std::make_pair(target->getId(), callee ? module.findClass(callee->getId()) : nullptr);
}

/// `cls` and the classes along its bases that `module` defines, depth first, left to
/// right, each once: enough for what a file's own classes define (the tracer binds
/// methods along Python's MRO).
llvm::SmallVector<const ClassDefStmt *, 4> classesAlongBases(const Module &module,
                                                            const ClassDefStmt *cls) {
  llvm::SmallVector<const ClassDefStmt *, 4> out, pending{cls};
  llvm::SmallPtrSet<const ClassDefStmt *, 4> seen;
  while (!pending.empty()) {
    const ClassDefStmt *c = pending.front();
    pending.erase(pending.begin());
    if (!seen.insert(c).second)
      continue;
    out.push_back(c);
    for (const ExprPtr &base : c->getBases())
      if (const auto *n = llvm::dyn_cast<NameExpr>(base.get()))
        if (const ClassDefStmt *b = module.findClass(n->getId()))
          pending.push_back(b);
  }
  return out;
}

} // namespace

std::optional<Module::Entry> Module::findEntry(llvm::StringRef name, std::string &why) const {
  if (!name.contains('.'))
    if (const FunctionDefStmt *def = findFunction(name))
      return Entry{def, ""};
  auto [object, method] = name.split('.');
  if (method.empty())
    method = "__call__";
  // `object = Class(...)`, the last such assignment at the top level.
  const ClassDefStmt *cls = nullptr;
  for (const StmtPtr &stmt : body)
    if (auto made = instanceMade(*this, *stmt); made && made->first == object)
      cls = made->second;
  if (!cls) {
    why = name.contains('.')
              ? "'" + object.str() + "' is not an instance made at the top level of the file "
                "from one of its classes ('" + object.str() + " = Model(...)')"
              : "there is no function '" + name.str() + "' at the top level of the file (nor "
                "an instance made there from one of its classes)";
    return std::nullopt;
  }
  for (const ClassDefStmt *c : classesAlongBases(*this, cls))
    for (const StmtPtr &stmt : c->getBody())
      if (const auto *def = llvm::dyn_cast<FunctionDefStmt>(stmt.get()))
        if (def->getName() == method)
          return Entry{def, object.str()};
  why = "'" + cls->getName().str() + "' (the class of '" + object.str() + "') has no method '" +
        method.str() + "'";
  return std::nullopt;
}

std::vector<std::string> Module::tfFunctionMethodEntries() const {
  std::vector<std::string> out;
  for (const StmtPtr &stmt : body) {
    auto made = instanceMade(*this, *stmt);
    if (!made || !made->second)
      continue;
    for (const ClassDefStmt *c : classesAlongBases(*this, made->second))
      for (const StmtPtr &member : c->getBody())
        if (const auto *def = llvm::dyn_cast<FunctionDefStmt>(member.get());
            def && def->isTfFunction()) {
          std::string name = made->first.str();
          if (def->getName() != "__call__")
            name += "." + def->getName().str();
          // The entry findEntry resolves it to: the first definition along the bases.
          std::string why;
          std::optional<Entry> entry = findEntry(name, why);
          if (entry && entry->def == def && !llvm::is_contained(out, name))
            out.push_back(name);
        }
  }
  return out;
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
  case Expr::Kind::JoinedStr: return "JoinedStr";
  case Expr::Kind::Set: return "Set";
  case Expr::Kind::SetComp: return "SetComp";
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
  case Stmt::Kind::ClassDef: return "ClassDef";
  case Stmt::Kind::With: return "With";
  case Stmt::Kind::Raise: return "Raise";
  case Stmt::Kind::Try: return "Try";
  case Stmt::Kind::Unsupported: return "Unsupported";
  }
  llvm_unreachable("unknown Stmt::Kind");
}
