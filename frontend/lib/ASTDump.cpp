//===- ASTDump.cpp - Printing the AST for tests and --emit=ast ------------===//
//
// Each node prints as one line, `[field: ]Kind [details] @file:l:c-l:c`, and its children
// follow, indented by two spaces under the field that holds them. A list-valued field prints
// its name on a line of its own, then its elements one level deeper. Absent optional
// children print nothing.
//
//===----------------------------------------------------------------------------------===//
#include "ag/frontend/ASTDump.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

using namespace ag;
using namespace ag::ast;
using llvm::cast;

namespace {

class Dumper {
public:
  explicit Dumper(llvm::raw_ostream &os) : os(os) {}

  void dumpModule(const Module &module) {
    os << "Module @" << module.loc().file << ':';
    printRange(module.loc());
    os << '\n';
    Indent in(*this);
    for (const StmtPtr &stmt : module.getBody())
      dumpStmt(*stmt, "");
  }

  void dumpStmt(const Stmt &stmt, llvm::StringRef field);
  void dumpExpr(const Expr &expr, llvm::StringRef field);

private:
  struct Indent {
    explicit Indent(Dumper &d) : d(d) { ++d.depth; }
    ~Indent() { --d.depth; }
    Dumper &d;
  };

  /// Starts a node's line: indentation, field label, kind.
  void head(llvm::StringRef field, llvm::StringRef kind) {
    os.indent(depth * 2);
    if (!field.empty())
      os << field << ": ";
    os << kind;
  }
  void printRange(const Location &loc) {
    os << loc.begin.line << ':' << loc.begin.column << '-' << loc.end.line << ':'
       << loc.end.column;
  }
  /// Ends a node's line with its location.
  void tail(const Location &loc) {
    os << " @" << loc.file << ':';
    printRange(loc);
    os << '\n';
  }
  void quoted(llvm::StringRef text) {
    os << " '";
    os.write_escaped(text);
    os << '\'';
  }

  void listField(llvm::StringRef field, const ExprList &exprs) {
    if (exprs.empty())
      return;
    os.indent(depth * 2) << field << ":\n";
    Indent in(*this);
    for (const ExprPtr &e : exprs)
      dumpExpr(*e, "");
  }
  void listField(llvm::StringRef field, const StmtList &stmts) {
    if (stmts.empty())
      return;
    os.indent(depth * 2) << field << ":\n";
    Indent in(*this);
    for (const StmtPtr &s : stmts)
      dumpStmt(*s, "");
  }
  void optional(llvm::StringRef field, const Expr *expr) {
    if (expr)
      dumpExpr(*expr, field);
  }
  void aliases(const std::vector<ImportAlias> &names) {
    for (const ImportAlias &alias : names) {
      head("", "alias");
      quoted(alias.name);
      if (!alias.asname.empty()) {
        os << " as";
        quoted(alias.asname);
      }
      tail(alias.loc);
    }
  }

  llvm::raw_ostream &os;
  unsigned depth = 0;
};

} // namespace

void Dumper::dumpExpr(const Expr &expr, llvm::StringRef field) {
  head(field, kindName(expr.getKind()));
  switch (expr.getKind()) {
  case Expr::Kind::Name:
    quoted(cast<NameExpr>(expr).getId());
    break;
  case Expr::Kind::IntLit: {
    const auto &lit = cast<IntLitExpr>(expr);
    if (lit.getValue())
      os << ' ' << *lit.getValue();
    else
      os << ' ' << lit.getSpelling() << " (beyond 64 bits)";
    break;
  }
  case Expr::Kind::FloatLit:
    os << ' ' << llvm::format("%.17g", cast<FloatLitExpr>(expr).getValue());
    break;
  case Expr::Kind::StrLit:
    quoted(cast<StrLitExpr>(expr).getValue());
    break;
  case Expr::Kind::BoolLit:
    os << (cast<BoolLitExpr>(expr).getValue() ? " True" : " False");
    break;
  case Expr::Kind::Unary:
    quoted(spelling(cast<UnaryExpr>(expr).getOp()));
    break;
  case Expr::Kind::Binary:
    quoted(spelling(cast<BinaryExpr>(expr).getOp()));
    break;
  case Expr::Kind::BoolOp:
    quoted(spelling(cast<BoolOpExpr>(expr).getOp()));
    break;
  case Expr::Kind::Compare:
    for (CmpOp op : cast<CompareExpr>(expr).getOps())
      quoted(spelling(op));
    break;
  case Expr::Kind::Attribute:
    quoted(cast<AttributeExpr>(expr).getAttr());
    break;
  default:
    break;
  }
  tail(expr.loc());

  Indent in(*this);
  switch (expr.getKind()) {
  case Expr::Kind::Unary:
    dumpExpr(cast<UnaryExpr>(expr).getOperand(), "operand");
    break;
  case Expr::Kind::Binary:
    dumpExpr(cast<BinaryExpr>(expr).getLHS(), "lhs");
    dumpExpr(cast<BinaryExpr>(expr).getRHS(), "rhs");
    break;
  case Expr::Kind::BoolOp:
    listField("values", cast<BoolOpExpr>(expr).getValues());
    break;
  case Expr::Kind::Compare:
    dumpExpr(cast<CompareExpr>(expr).getLeft(), "left");
    listField("comparators", cast<CompareExpr>(expr).getComparators());
    break;
  case Expr::Kind::Call: {
    const auto &call = cast<CallExpr>(expr);
    dumpExpr(call.getCallee(), "func");
    listField("args", call.getArgs());
    for (const Keyword &keyword : call.getKeywords()) {
      head("keyword", "");
      os << '\'' << keyword.name << '\'';
      tail(keyword.loc);
      Indent kin(*this);
      dumpExpr(*keyword.value, "value");
    }
    break;
  }
  case Expr::Kind::Attribute:
    dumpExpr(cast<AttributeExpr>(expr).getValue(), "value");
    break;
  case Expr::Kind::Subscript:
    dumpExpr(cast<SubscriptExpr>(expr).getValue(), "value");
    dumpExpr(cast<SubscriptExpr>(expr).getIndex(), "index");
    break;
  case Expr::Kind::Slice: {
    const auto &slice = cast<SliceExpr>(expr);
    optional("lower", slice.getLower());
    optional("upper", slice.getUpper());
    optional("step", slice.getStep());
    break;
  }
  case Expr::Kind::Tuple:
  case Expr::Kind::List:
  case Expr::Kind::Set:
    listField("elts", cast<SequenceExpr>(expr).getElements());
    break;
  case Expr::Kind::Dict:
    if (!cast<DictExpr>(expr).getKeys().empty()) {
      os.indent(depth * 2) << "keys:\n";
      Indent in(*this);
      for (const ExprPtr &key : cast<DictExpr>(expr).getKeys()) {
        if (key)
          dumpExpr(*key, "");
        else
          os.indent(depth * 2) << "** (the value is unpacked)\n";
      }
    }
    listField("values", cast<DictExpr>(expr).getValues());
    break;
  case Expr::Kind::IfExp:
    dumpExpr(cast<IfExpExpr>(expr).getTest(), "test");
    dumpExpr(cast<IfExpExpr>(expr).getBody(), "body");
    dumpExpr(cast<IfExpExpr>(expr).getOrElse(), "orelse");
    break;
  default:
    break;
  }
}

void Dumper::dumpStmt(const Stmt &stmt, llvm::StringRef field) {
  head(field, kindName(stmt.getKind()));
  switch (stmt.getKind()) {
  case Stmt::Kind::ImportFrom: {
    const auto &from = cast<ImportFromStmt>(stmt);
    os << ' ' << std::string(from.getLevel(), '.');
    if (!from.getModule().empty() || from.getLevel() == 0)
      os << '\'' << from.getModule() << '\'';
    break;
  }
  case Stmt::Kind::AugAssign:
    quoted((spelling(cast<AugAssignStmt>(stmt).getOp()) + "=").str());
    break;
  case Stmt::Kind::If:
    if (cast<IfStmt>(stmt).isElif())
      os << " elif";
    break;
  case Stmt::Kind::Global:
  case Stmt::Kind::Nonlocal:
    for (const Identifier &id : cast<ScopeDeclStmt>(stmt).getNames())
      quoted(id.name);
    break;
  case Stmt::Kind::FunctionDef:
    quoted(cast<FunctionDefStmt>(stmt).getName());
    break;
  case Stmt::Kind::ClassDef:
    quoted(cast<ClassDefStmt>(stmt).getName());
    break;
  case Stmt::Kind::Unsupported:
    // What tracing would refuse, and what the statement binds at module level.
    quoted(cast<UnsupportedStmt>(stmt).getWhy().front().message);
    for (const Identifier &id : cast<UnsupportedStmt>(stmt).getBinds())
      quoted(id.name);
    break;
  default:
    break;
  }
  tail(stmt.loc());

  Indent in(*this);
  switch (stmt.getKind()) {
  case Stmt::Kind::Import:
    aliases(cast<ImportStmt>(stmt).getNames());
    break;
  case Stmt::Kind::ImportFrom:
    aliases(cast<ImportFromStmt>(stmt).getNames());
    break;
  case Stmt::Kind::Assign:
    listField("targets", cast<AssignStmt>(stmt).getTargets());
    dumpExpr(cast<AssignStmt>(stmt).getValue(), "value");
    break;
  case Stmt::Kind::AugAssign:
    dumpExpr(cast<AugAssignStmt>(stmt).getTarget(), "target");
    dumpExpr(cast<AugAssignStmt>(stmt).getValue(), "value");
    break;
  case Stmt::Kind::AnnAssign:
    dumpExpr(cast<AnnAssignStmt>(stmt).getTarget(), "target");
    dumpExpr(cast<AnnAssignStmt>(stmt).getAnnotation(), "annotation");
    optional("value", cast<AnnAssignStmt>(stmt).getValue());
    break;
  case Stmt::Kind::ExprStmt:
    dumpExpr(cast<ExprStmt>(stmt).getValue(), "value");
    break;
  case Stmt::Kind::If:
    dumpExpr(cast<IfStmt>(stmt).getTest(), "test");
    listField("body", cast<IfStmt>(stmt).getBody());
    listField("orelse", cast<IfStmt>(stmt).getOrElse());
    break;
  case Stmt::Kind::While:
    dumpExpr(cast<WhileStmt>(stmt).getTest(), "test");
    listField("body", cast<WhileStmt>(stmt).getBody());
    listField("orelse", cast<WhileStmt>(stmt).getOrElse());
    break;
  case Stmt::Kind::For:
    dumpExpr(cast<ForStmt>(stmt).getTarget(), "target");
    dumpExpr(cast<ForStmt>(stmt).getIter(), "iter");
    listField("body", cast<ForStmt>(stmt).getBody());
    listField("orelse", cast<ForStmt>(stmt).getOrElse());
    break;
  case Stmt::Kind::Return:
    optional("value", cast<ReturnStmt>(stmt).getValue());
    break;
  case Stmt::Kind::Assert:
    dumpExpr(cast<AssertStmt>(stmt).getTest(), "test");
    optional("msg", cast<AssertStmt>(stmt).getMsg());
    break;
  case Stmt::Kind::Delete:
    listField("targets", cast<DeleteStmt>(stmt).getTargets());
    break;
  case Stmt::Kind::Raise:
    optional("exc", cast<RaiseStmt>(stmt).getExc());
    optional("cause", cast<RaiseStmt>(stmt).getCause());
    break;
  case Stmt::Kind::Try: {
    const auto &t = cast<TryStmt>(stmt);
    listField("body", t.getBody());
    for (const ExceptHandler &handler : t.getHandlers()) {
      head("handler", "");
      if (!handler.name.empty())
        os << " '" << handler.name << "'";
      tail(handler.loc);
      Indent hin(*this);
      optional("type", handler.type.get());
      listField("body", handler.body);
    }
    listField("orelse", t.getOrElse());
    listField("finalbody", t.getFinalBody());
    break;
  }
  case Stmt::Kind::With:
    for (const WithItem &item : cast<WithStmt>(stmt).getItems()) {
      dumpExpr(*item.context, "context");
      optional("as", item.target.get());
    }
    listField("body", cast<WithStmt>(stmt).getBody());
    break;
  case Stmt::Kind::ClassDef: {
    const auto &def = cast<ClassDefStmt>(stmt);
    listField("decorators", def.getDecorators());
    listField("bases", def.getBases());
    for (const Keyword &k : def.getKeywords())
      dumpExpr(*k.value, k.name);
    listField("body", def.getBody());
    break;
  }
  case Stmt::Kind::FunctionDef: {
    const auto &def = cast<FunctionDefStmt>(stmt);
    listField("decorators", def.getDecorators());
    for (const Param &param : def.getParams()) {
      head("param", "");
      os << '\'' << param.name << '\'';
      if (param.keywordOnly)
        os << " keyword-only";
      if (param.varArgs)
        os << " *args";
      if (param.varKeywords)
        os << " **kwargs";
      tail(param.loc);
      Indent pin(*this);
      optional("annotation", param.annotation.get());
      optional("default", param.defaultValue.get());
    }
    optional("returns", def.getReturns());
    listField("body", def.getBody());
    break;
  }
  default:
    break;
  }
}

void ag::ast::dump(const Module &module, llvm::raw_ostream &os) { Dumper(os).dumpModule(module); }
void ag::ast::dump(const Stmt &stmt, llvm::raw_ostream &os) { Dumper(os).dumpStmt(stmt, ""); }
void ag::ast::dump(const Expr &expr, llvm::raw_ostream &os) { Dumper(os).dumpExpr(expr, ""); }
