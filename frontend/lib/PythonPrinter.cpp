//===- PythonPrinter.cpp - AST back to Python source ----------------------===//
#include "ag/frontend/PythonPrinter.h"

#include "llvm/ADT/StringExtras.h"

using namespace ag;
using namespace ag::ast;
using llvm::cast;
using llvm::dyn_cast;

std::string PythonPrinter::quote(llvm::StringRef value) {
  std::string out = "'";
  for (unsigned char c : value) {
    switch (c) {
    case '\\': out += "\\\\"; break;
    case '\'': out += "\\'"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    default:
      if (c < 0x20 || c == 0x7f) {
        out += "\\x";
        out += llvm::hexdigit(c >> 4, true);
        out += llvm::hexdigit(c & 15, true);
      } else {
        out += c;
      }
    }
  }
  return out + "'";
}

unsigned PythonPrinter::precedenceOf(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Kind::Tuple: return PrecAtom; // always printed with its parentheses
  case Expr::Kind::IfExp:
  case Expr::Kind::Lambda: return PrecIfExp;
  case Expr::Kind::BoolOp:
    return cast<BoolOpExpr>(expr).getOp() == BoolOpKind::Or ? PrecOr : PrecAnd;
  case Expr::Kind::Unary:
    return cast<UnaryExpr>(expr).getOp() == UnaryOp::Not ? PrecNot : PrecUnary;
  case Expr::Kind::Compare: return PrecCompare;
  case Expr::Kind::Binary:
    switch (cast<BinaryExpr>(expr).getOp()) {
    case BinaryOp::BitOr: return PrecBitOr;
    case BinaryOp::BitXor: return PrecBitXor;
    case BinaryOp::BitAnd: return PrecBitAnd;
    case BinaryOp::LShift:
    case BinaryOp::RShift: return PrecShift;
    case BinaryOp::Add:
    case BinaryOp::Sub: return PrecAdd;
    case BinaryOp::Pow: return PrecPow;
    default: return PrecMul;
    }
  case Expr::Kind::Call:
  case Expr::Kind::Attribute:
  case Expr::Kind::Subscript: return PrecPrimary;
  case Expr::Kind::IntLit:
  case Expr::Kind::FloatLit: {
    // A negative literal does not come from the parser, but keep it safe under `.` and `**`.
    return PrecAtom;
  }
  default: return PrecAtom;
  }
}

std::string PythonPrinter::text(const Expr &expr) {
  std::string out;
  llvm::raw_string_ostream os(out);
  PythonPrinter(os).printExpr(expr);
  return out;
}

void PythonPrinter::printCommaList(const ExprList &exprs) {
  for (size_t i = 0; i < exprs.size(); ++i) {
    if (i)
      os << ", ";
    printExpr(*exprs[i], PrecIfExp);
  }
}

void PythonPrinter::printExpr(const Expr &expr, unsigned context) {
  unsigned prec = precedenceOf(expr);
  bool parens = prec < context;
  if (parens)
    os << '(';
  switch (expr.getKind()) {
  case Expr::Kind::Name: os << cast<NameExpr>(expr).getId(); break;
  case Expr::Kind::IntLit: os << cast<IntLitExpr>(expr).getSpelling(); break;
  case Expr::Kind::FloatLit: os << cast<FloatLitExpr>(expr).getSpelling(); break;
  case Expr::Kind::StrLit: os << quote(cast<StrLitExpr>(expr).getValue()); break;
  case Expr::Kind::BoolLit: os << (cast<BoolLitExpr>(expr).getValue() ? "True" : "False"); break;
  case Expr::Kind::NoneLit: os << "None"; break;
  case Expr::Kind::EllipsisLit: os << "..."; break;
  case Expr::Kind::Unary: {
    const auto &u = cast<UnaryExpr>(expr);
    os << spelling(u.getOp());
    if (u.getOp() == UnaryOp::Not)
      os << ' ';
    // -(-x) and -(x ** 2) keep their meaning without parentheses; (-x) ** 2 does not,
    // which the Pow case handles.
    printExpr(u.getOperand(), prec);
    break;
  }
  case Expr::Kind::Binary: {
    const auto &b = cast<BinaryExpr>(expr);
    bool pow = b.getOp() == BinaryOp::Pow;
    printExpr(b.getLHS(), pow ? prec + 1 : prec);
    os << ' ' << spelling(b.getOp()) << ' ';
    printExpr(b.getRHS(), pow ? PrecUnary : prec + 1);
    break;
  }
  case Expr::Kind::BoolOp: {
    const auto &b = cast<BoolOpExpr>(expr);
    for (size_t i = 0; i < b.getValues().size(); ++i) {
      if (i)
        os << ' ' << spelling(b.getOp()) << ' ';
      printExpr(*b.getValues()[i], prec + 1);
    }
    break;
  }
  case Expr::Kind::Compare: {
    const auto &c = cast<CompareExpr>(expr);
    printExpr(c.getLeft(), prec + 1);
    for (size_t i = 0; i < c.getOps().size(); ++i) {
      os << ' ' << spelling(c.getOps()[i]) << ' ';
      printExpr(*c.getComparators()[i], prec + 1);
    }
    break;
  }
  case Expr::Kind::Call: {
    const auto &c = cast<CallExpr>(expr);
    printExpr(c.getCallee(), PrecPrimary);
    os << '(';
    if (c.getArgs().size() == 1 && c.getKeywords().empty() &&
        c.getArgs()[0]->getKind() == Expr::Kind::GeneratorExp) {
      // f(x for x in xs): a sole generator argument needs no parentheses of its own.
      std::string gen = text(*c.getArgs()[0]);
      os << llvm::StringRef(gen).drop_front().drop_back() << ')';
      break;
    }
    printCommaList(c.getArgs());
    for (size_t i = 0; i < c.getKeywords().size(); ++i) {
      if (i || !c.getArgs().empty())
        os << ", ";
      const Keyword &k = c.getKeywords()[i];
      os << (k.name.empty() ? "**" : k.name + "=");
      printExpr(*k.value, k.name.empty() ? PrecBitOr : PrecIfExp);
    }
    os << ')';
    break;
  }
  case Expr::Kind::Attribute: {
    const auto &a = cast<AttributeExpr>(expr);
    // `1 .real` needs the space; agc never prints attributes of int literals otherwise.
    bool intBase = llvm::isa<IntLitExpr>(a.getValue());
    printExpr(a.getValue(), PrecPrimary);
    os << (intBase ? " ." : ".") << a.getAttr();
    break;
  }
  case Expr::Kind::Subscript: {
    const auto &s = cast<SubscriptExpr>(expr);
    printExpr(s.getValue(), PrecPrimary);
    os << '[';
    if (const auto *t = dyn_cast<TupleExpr>(&s.getIndex())) {
      for (size_t i = 0; i < t->getElements().size(); ++i) {
        if (i)
          os << ", ";
        printExpr(*t->getElements()[i], PrecIfExp);
      }
      if (t->getElements().size() == 1)
        os << ',';
    } else {
      printExpr(s.getIndex(), PrecIfExp);
    }
    os << ']';
    break;
  }
  case Expr::Kind::Slice: {
    const auto &s = cast<SliceExpr>(expr);
    if (s.getLower())
      printExpr(*s.getLower(), PrecIfExp);
    os << ':';
    if (s.getUpper())
      printExpr(*s.getUpper(), PrecIfExp);
    if (s.getStep()) {
      os << ':';
      printExpr(*s.getStep(), PrecIfExp);
    }
    break;
  }
  case Expr::Kind::Tuple: {
    const auto &t = cast<TupleExpr>(expr);
    os << '(';
    printCommaList(t.getElements());
    if (t.getElements().size() == 1)
      os << ',';
    os << ')';
    break;
  }
  case Expr::Kind::List:
    os << '[';
    printCommaList(cast<ListExpr>(expr).getElements());
    os << ']';
    break;
  case Expr::Kind::Set:
    os << '{';
    printCommaList(cast<SetExpr>(expr).getElements());
    os << '}';
    break;
  case Expr::Kind::Dict: {
    const auto &d = cast<DictExpr>(expr);
    os << '{';
    for (size_t i = 0; i < d.getKeys().size(); ++i) {
      if (i)
        os << ", ";
      if (!d.getKeys()[i]) {
        os << "**";
        printExpr(*d.getValues()[i], PrecBitOr);
        continue;
      }
      printExpr(*d.getKeys()[i], PrecIfExp);
      os << ": ";
      printExpr(*d.getValues()[i], PrecIfExp);
    }
    os << '}';
    break;
  }
  case Expr::Kind::IfExp: {
    const auto &e = cast<IfExpExpr>(expr);
    printExpr(e.getBody(), prec + 1);
    os << " if ";
    printExpr(e.getTest(), prec + 1);
    os << " else ";
    printExpr(e.getOrElse(), prec);
    break;
  }
  case Expr::Kind::Lambda: {
    const auto &l = cast<LambdaExpr>(expr);
    os << "lambda";
    if (!l.getDef().getParams().empty())
      os << ' ';
    printParams(l.getDef().getParams(), /*annotations=*/false);
    os << ": ";
    printExpr(l.getBody(), PrecIfExp);
    break;
  }
  case Expr::Kind::JoinedStr: {
    // Double quotes, as CPython's unparse writes them; braces in text doubled.
    os << "f\"";
    for (const FStringPart &part : cast<JoinedStrExpr>(expr).getParts()) {
      if (!part.value) {
        for (char c : part.literal) {
          if (c == '{' || c == '}')
            os << c << c;
          else if (c == '"' || c == '\\')
            os << '\\' << c;
          else if (c == '\n')
            os << "\\n";
          else if (c == '\t')
            os << "\\t";
          else
            os << c;
        }
        continue;
      }
      os << '{';
      printExpr(*part.value, PrecIfExp);
      if (part.conversion)
        os << '!' << part.conversion;
      if (!part.spec.empty())
        os << ':' << part.spec;
      os << '}';
    }
    os << '"';
    break;
  }
  case Expr::Kind::Starred:
    os << '*';
    printExpr(cast<StarredExpr>(expr).getValue(), PrecBitOr);
    break;
  case Expr::Kind::ListComp:
  case Expr::Kind::DictComp:
  case Expr::Kind::GeneratorExp:
  case Expr::Kind::SetComp: {
    const auto &c = cast<ComprehensionExpr>(expr);
    bool braces = expr.getKind() == Expr::Kind::DictComp || expr.getKind() == Expr::Kind::SetComp;
    os << (expr.getKind() == Expr::Kind::ListComp ? '[' : braces ? '{' : '(');
    printExpr(c.getElement(), PrecIfExp);
    if (c.getValue()) {
      os << ": ";
      printExpr(*c.getValue(), PrecIfExp);
    }
    for (const Comprehension &g : c.getGenerators()) {
      os << " for ";
      printTarget(*g.target);
      os << " in ";
      printExpr(*g.iter, PrecOr);
      for (const ExprPtr &test : g.ifs) {
        os << " if ";
        printExpr(*test, PrecOr);
      }
    }
    os << (expr.getKind() == Expr::Kind::ListComp ? ']' : braces ? '}' : ')');
    break;
  }
  }
  if (parens)
    os << ')';
}

void PythonPrinter::printTarget(const Expr &target) {
  // A tuple of two or more prints bare (`a, b = b, a`), as people write it.
  if (const auto *t = dyn_cast<TupleExpr>(&target); t && t->getElements().size() >= 2) {
    printCommaList(t->getElements());
    return;
  }
  printExpr(target);
}

void PythonPrinter::printBlock(const StmtList &stmts, unsigned level) {
  if (stmts.empty()) {
    indent(level) << "pass\n";
    return;
  }
  for (const StmtPtr &stmt : stmts)
    printStmt(*stmt, level);
}

void PythonPrinter::printParams(const std::vector<Param> &params, bool annotations) {
  bool starred = false; // a `*` or `*args` printed: what follows is keyword-only
  for (size_t i = 0; i < params.size(); ++i) {
    const Param &p = params[i];
    if (i)
      os << ", ";
    if (p.keywordOnly && !starred)
      os << "*, ";
    starred |= p.keywordOnly || p.varArgs;
    os << (p.varArgs ? "*" : p.varKeywords ? "**" : "") << p.name;
    if (annotations && p.annotation) {
      os << ": ";
      PythonPrinter::printExpr(*p.annotation, PrecIfExp);
    }
    if (p.defaultValue) {
      os << (annotations && p.annotation ? " = " : "=");
      PythonPrinter::printExpr(*p.defaultValue, PrecIfExp);
    }
  }
}

void PythonPrinter::printFunction(const FunctionDefStmt &def, unsigned level) {
  for (const ExprPtr &decorator : def.getDecorators()) {
    indent(level) << '@';
    printExpr(*decorator);
    os << '\n';
  }
  indent(level) << "def " << def.getName() << '(';
  printParams(def.getParams(), /*annotations=*/true);
  os << ')';
  if (def.getReturns()) {
    os << " -> ";
    printExpr(*def.getReturns(), PrecIfExp);
  }
  os << ":\n";
  printBlock(def.getBody(), level + 1);
}

void PythonPrinter::printStmt(const Stmt &stmt, unsigned level) {
  auto aliases = [&](const std::vector<ImportAlias> &names) {
    for (size_t i = 0; i < names.size(); ++i) {
      os << (i ? ", " : "") << names[i].name;
      if (!names[i].asname.empty())
        os << " as " << names[i].asname;
    }
  };
  switch (stmt.getKind()) {
  case Stmt::Kind::Import:
    indent(level) << "import ";
    aliases(cast<ImportStmt>(stmt).getNames());
    os << '\n';
    return;
  case Stmt::Kind::ImportFrom: {
    const auto &s = cast<ImportFromStmt>(stmt);
    indent(level) << "from " << std::string(s.getLevel(), '.') << s.getModule() << " import ";
    aliases(s.getNames());
    os << '\n';
    return;
  }
  case Stmt::Kind::Assign: {
    const auto &s = cast<AssignStmt>(stmt);
    indent(level);
    for (const ExprPtr &target : s.getTargets()) {
      printTarget(*target);
      os << " = ";
    }
    printTarget(s.getValue());
    os << '\n';
    return;
  }
  case Stmt::Kind::AugAssign: {
    const auto &s = cast<AugAssignStmt>(stmt);
    indent(level);
    printExpr(s.getTarget());
    os << ' ' << spelling(s.getOp()) << "= ";
    printTarget(s.getValue());
    os << '\n';
    return;
  }
  case Stmt::Kind::AnnAssign: {
    const auto &s = cast<AnnAssignStmt>(stmt);
    indent(level);
    printExpr(s.getTarget());
    os << ": ";
    printExpr(s.getAnnotation(), PrecIfExp);
    if (s.getValue()) {
      os << " = ";
      printTarget(*s.getValue());
    }
    os << '\n';
    return;
  }
  case Stmt::Kind::ExprStmt: {
    const Expr &value = cast<ExprStmt>(stmt).getValue();
    indent(level);
    // A multi-line string statement (a docstring) prints triple-quoted when that reads
    // back as the same string.
    if (const auto *str = dyn_cast<StrLitExpr>(&value)) {
      llvm::StringRef v = str->getValue();
      if (v.contains('\n') && !v.contains("\"\"\"") && !v.contains('\\') && !v.ends_with("\"") &&
          llvm::all_of(v, [](char c) { return c == '\n' || static_cast<unsigned char>(c) >= 0x20; })) {
        os << "\"\"\"" << v << "\"\"\"\n";
        return;
      }
    }
    printTarget(value);
    os << '\n';
    return;
  }
  case Stmt::Kind::If: {
    const auto *s = &cast<IfStmt>(stmt);
    indent(level) << "if ";
    for (;;) {
      printExpr(s->getTest(), PrecIfExp);
      os << ":\n";
      printBlock(s->getBody(), level + 1);
      const StmtList &orelse = s->getOrElse();
      if (orelse.empty())
        return;
      const auto *elif = orelse.size() == 1 ? dyn_cast<IfStmt>(orelse[0].get()) : nullptr;
      if (!elif || !elif->isElif()) {
        indent(level) << "else:\n";
        printBlock(orelse, level + 1);
        return;
      }
      indent(level) << "elif ";
      s = elif;
    }
  }
  case Stmt::Kind::While: {
    const auto &s = cast<WhileStmt>(stmt);
    indent(level) << "while ";
    printExpr(s.getTest(), PrecIfExp);
    os << ":\n";
    printBlock(s.getBody(), level + 1);
    if (!s.getOrElse().empty()) {
      indent(level) << "else:\n";
      printBlock(s.getOrElse(), level + 1);
    }
    return;
  }
  case Stmt::Kind::For: {
    const auto &s = cast<ForStmt>(stmt);
    indent(level) << "for ";
    printTarget(s.getTarget());
    os << " in ";
    printTarget(s.getIter());
    os << ":\n";
    printBlock(s.getBody(), level + 1);
    if (!s.getOrElse().empty()) {
      indent(level) << "else:\n";
      printBlock(s.getOrElse(), level + 1);
    }
    return;
  }
  case Stmt::Kind::Break: indent(level) << "break\n"; return;
  case Stmt::Kind::Continue: indent(level) << "continue\n"; return;
  case Stmt::Kind::Pass: indent(level) << "pass\n"; return;
  case Stmt::Kind::Return: {
    indent(level) << "return";
    if (const Expr *value = cast<ReturnStmt>(stmt).getValue()) {
      os << ' ';
      printTarget(*value);
    }
    os << '\n';
    return;
  }
  case Stmt::Kind::Assert: {
    const auto &s = cast<AssertStmt>(stmt);
    indent(level) << "assert ";
    printExpr(s.getTest(), PrecIfExp);
    if (s.getMsg()) {
      os << ", ";
      printExpr(*s.getMsg(), PrecIfExp);
    }
    os << '\n';
    return;
  }
  case Stmt::Kind::Delete:
    indent(level) << "del ";
    printCommaList(cast<DeleteStmt>(stmt).getTargets());
    os << '\n';
    return;
  case Stmt::Kind::Global:
  case Stmt::Kind::Nonlocal: {
    indent(level) << (stmt.getKind() == Stmt::Kind::Global ? "global " : "nonlocal ");
    const auto &names = cast<ScopeDeclStmt>(stmt).getNames();
    for (size_t i = 0; i < names.size(); ++i)
      os << (i ? ", " : "") << names[i].name;
    os << '\n';
    return;
  }
  case Stmt::Kind::FunctionDef:
    printFunction(cast<FunctionDefStmt>(stmt), level);
    return;
  case Stmt::Kind::ClassDef: {
    const auto &def = cast<ClassDefStmt>(stmt);
    for (const ExprPtr &decorator : def.getDecorators()) {
      indent(level) << '@';
      printExpr(*decorator);
      os << '\n';
    }
    indent(level) << "class " << def.getName();
    if (!def.getBases().empty() || !def.getKeywords().empty()) {
      os << '(';
      printCommaList(def.getBases());
      for (size_t i = 0; i < def.getKeywords().size(); ++i) {
        const Keyword &k = def.getKeywords()[i];
        os << (i || !def.getBases().empty() ? ", " : "") << (k.name.empty() ? "**" : k.name + "=");
        printExpr(*k.value, k.name.empty() ? PrecBitOr : PrecIfExp);
      }
      os << ')';
    }
    os << ":\n";
    printBody(def.getBody(), level + 1);
    return;
  }
  case Stmt::Kind::Raise: {
    const auto &s = cast<RaiseStmt>(stmt);
    indent(level) << "raise";
    if (s.getExc()) {
      os << ' ';
      printExpr(*s.getExc(), PrecIfExp);
    }
    if (s.getCause()) {
      os << " from ";
      printExpr(*s.getCause(), PrecIfExp);
    }
    os << '\n';
    return;
  }
  case Stmt::Kind::Try: {
    const auto &s = cast<TryStmt>(stmt);
    indent(level) << "try:\n";
    printBody(s.getBody(), level + 1);
    for (const ExceptHandler &handler : s.getHandlers()) {
      indent(level) << "except";
      if (handler.type) {
        os << ' ';
        printExpr(*handler.type, PrecIfExp);
      }
      if (!handler.name.empty())
        os << " as " << handler.name;
      os << ":\n";
      printBody(handler.body, level + 1);
    }
    if (!s.getOrElse().empty()) {
      indent(level) << "else:\n";
      printBody(s.getOrElse(), level + 1);
    }
    if (!s.getFinalBody().empty()) {
      indent(level) << "finally:\n";
      printBody(s.getFinalBody(), level + 1);
    }
    return;
  }
  case Stmt::Kind::With: {
    const auto &s = cast<WithStmt>(stmt);
    indent(level) << "with ";
    for (size_t i = 0; i < s.getItems().size(); ++i) {
      const WithItem &item = s.getItems()[i];
      os << (i ? ", " : "");
      printExpr(*item.context, PrecIfExp);
      if (item.target) {
        os << " as ";
        printExpr(*item.target, PrecPrimary);
      }
    }
    os << ":\n";
    printBody(s.getBody(), level + 1);
    return;
  }
  case Stmt::Kind::Unsupported: {
    // As written, re-indented: its later lines lose the column its first line had.
    const auto &s = cast<UnsupportedStmt>(stmt);
    unsigned column = s.loc().begin.column - 1;
    llvm::SmallVector<llvm::StringRef, 8> lines;
    s.getSource().split(lines, '\n');
    for (size_t i = 0; i < lines.size(); ++i) {
      llvm::StringRef line = lines[i].rtrim();
      if (i > 0)
        line = line.drop_front(std::min<size_t>(column, line.find_first_not_of(' ')));
      if (line.empty())
        os << '\n';
      else
        indent(level) << line << '\n';
    }
    return;
  }
  }
}

void PythonPrinter::printModule(const Module &module) {
  for (const StmtPtr &stmt : module.getBody())
    printStmt(*stmt, 0);
}
