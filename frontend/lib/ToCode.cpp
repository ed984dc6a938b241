//===- ToCode.cpp - The converted program, as Python ------------------------===//
//
// A PythonPrinter that prints staged control flow the way AutoGraph stages it (see
// ToCode.h). The flow of one staged if:
//
//   # staged if (line 4): the test is a bool tensor; outputs y (live after it), inputs b
//   def if_true_4(b=b):        <- carried names bound before the if enter as defaults
//       ...body...
//       return y               <- the outputs, in AutoGraph's order
//   def if_false_4(b=b):
//       ...else branch...
//       return y
//   y = tf.cond(test, if_true_4, if_false_4)
//
// and of one staged loop:
//
//   def loop_cond_7(x, s):  return test
//   def loop_body_7(x, s):  ...body...; return (x, s)
//   x, s = tf.while_loop(loop_cond_7, loop_body_7, (x, s))
//
//===----------------------------------------------------------------------------------===//
#include "ag/frontend/ToCode.h"
#include "ag/frontend/PythonPrinter.h"
#include "ag/frontend/analysis/ControlExits.h"

#include "llvm/ADT/StringExtras.h"

using namespace ag;
using namespace ag::ast;
using namespace ag::analysis;
using llvm::cast;
using llvm::dyn_cast;

namespace {

/// The keyword `name` of a set_loop_options(...) call at the top of a loop body, or null.
/// (Tracing has checked that set_loop_options comes first.)
const Expr *loopOption(const StmtList &body, llvm::StringRef name) {
  const auto *stmt = body.empty() ? nullptr : dyn_cast<ExprStmt>(body.front().get());
  const auto *call = stmt ? dyn_cast<CallExpr>(&stmt->getValue()) : nullptr;
  const auto *callee = call ? dyn_cast<AttributeExpr>(&call->getCallee()) : nullptr;
  if (!callee || callee->getAttr() != "set_loop_options")
    return nullptr;
  const Keyword *keyword = call->findKeyword(name);
  return keyword ? keyword->value.get() : nullptr;
}

/// Python that makes the zeros a staged loop starts a variable unbound before it as
/// (`like`, its value after one iteration): tf.zeros of its dtype and shape (0 where a
/// dimension is known only at run time), a Python 0, or a tuple, list or dict of them.
std::string zerosLike(const Value &like) {
  switch (like.kind) {
  case Value::Kind::Int:
    return "0";
  case Value::Kind::Float:
    return "0.0";
  case Value::Kind::Bool:
    return "False";
  case Value::Kind::Tuple:
  case Value::Kind::List: {
    std::vector<std::string> items;
    for (const Value &item : like.items())
      items.push_back(zerosLike(item));
    if (like.kind == Value::Kind::List)
      return "[" + llvm::join(items, ", ") + "]";
    return "(" + llvm::join(items, ", ") + (items.size() == 1 ? ",)" : ")");
  }
  case Value::Kind::Dict: {
    std::vector<std::string> items;
    for (size_t k = 0; k < like.object->keys.size(); ++k)
      items.push_back(like.object->keys[k].pyStr(true) + ": " + zerosLike(like.object->items[k]));
    return "{" + llvm::join(items, ", ") + "}";
  }
  default: {
    Shape shape = like.shape;
    for (int64_t &d : shape.dims)
      d = d < 0 ? 0 : d;
    return "tf.zeros(" + shape.pyList() + ", tf." + dtypeName(like.dtype).str() + ")";
  }
  }
}

/// Python for the start of the tf.range that `iter` calls (`tf.range(a, b)`: a;
/// `tf.range(n)`: 0), as a tensor of `dtype`.
std::string rangeStart(const Expr &iter, DType dtype) {
  std::string start = "0";
  if (const auto *call = dyn_cast<CallExpr>(&iter)) {
    const Keyword *limit = call->findKeyword("limit");
    if (call->getArgs().size() >= 2 || limit)
      if (!call->getArgs().empty())
        start = PythonPrinter::text(*call->getArgs().front());
    if (const Keyword *s = call->findKeyword("start"); s && (limit || call->getArgs().size() == 1))
      start = PythonPrinter::text(*s->value);
  }
  return "tf.cast(" + start + ", tf." + dtypeName(dtype).str() + ")";
}

/// Whether a statement in `stmts` (at any depth) was staged by `trace`.
bool stagesSomething(const StmtList &stmts, const TraceResult &trace) {
  for (const StmtPtr &stmt : stmts) {
    auto it = trace.decisions.find(stmt.get());
    if (it != trace.decisions.end() && it->second.staged)
      return true;
    for (const StmtList *block : nestedBlocks(*stmt))
      if (stagesSomething(*block, trace))
        return true;
    // A factory's nested def (make_scaler's scaler) is converted with it.
    if (const auto *nested = dyn_cast<FunctionDefStmt>(stmt.get()))
      if (stagesSomething(nested->getBody(), trace))
        return true;
  }
  return false;
}

/// `text` as a Python string literal: '...' with escapes.
std::string pythonStringLiteral(llvm::StringRef text) {
  std::string out = "'";
  for (char c : text) {
    switch (c) {
    case '\\': out += "\\\\"; break;
    case '\'': out += "\\'"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default: out += c;
    }
  }
  return out + "'";
}

/// `(a,)`, `(a, b)`: a tuple display of names.
std::string tupleOf(llvm::ArrayRef<std::string> names) {
  return "(" + llvm::join(names, ", ") + (names.size() == 1 ? ",)" : ")");
}

class ToCodePrinter : public PythonPrinter {
public:
  ToCodePrinter(llvm::raw_ostream &os, const TraceResult &trace, Tracer &tracer,
                DiagnosticEngine &diag, ToCodeStyle style)
      : PythonPrinter(os), trace(trace), tracer(tracer), diag(diag), style(style) {}

  void printExpr(const Expr &expr, unsigned context = 0) override;
  void printStmt(const Stmt &stmt, unsigned level) override;
  /// Prints a function, converted when tracing reached it.
  void printConvertedFunction(const FunctionDefStmt &def, unsigned level);
  bool failed = false;

private:
  const Decision *decisionOf(DecisionKey node) const {
    auto it = trace.decisions.find(node);
    return it == trace.decisions.end() || it->second.reached == 0 ? nullptr : &it->second;
  }
  /// Prints `stmts`; a staged if whose one branch returns takes the statements after it.
  void printList(const StmtList &stmts, size_t from, unsigned level);
  /// A with's or try's block, converted as the statements around it are (a staged return
  /// in it takes the rest of the block into its other branch).
  void printBody(const StmtList &stmts, unsigned level) override {
    if (stmts.empty())
      indent(level) << "pass\n";
    printList(stmts, 0, level);
  }
  void printStagedIf(const IfStmt &stmt, const Decision &d, const StmtList *rest, size_t restFrom,
                     unsigned level);
  void printStagedLoop(const Stmt &stmt, const Decision &d, unsigned level);
  void printDecorator(const Expr &decorator, unsigned level);
  void unsupported(const Stmt &stmt, const llvm::Twine &what) {
    diag.error(stmt.loc(), what + " is not converted by agc to-code yet");
    failed = true;
  }
  /// The function whose body is being printed.
  const FunctionAnalysis *analysis = nullptr;

  /// break and continue inside a staged loop become flags (AutoGraph's break_ and
  /// continue_): `break` sets one, the loop test reads break_, and what follows a
  /// statement that may set one runs under a staged guard. A Python loop inside keeps
  /// its own break and continue (an inactive scope).
  struct FlagScope {
    bool active = false;
    std::string breakFlag, continueFlag; ///< Empty when the loop has none.
    std::vector<std::string> loopVars;   ///< The loop's variables, flags included.
  };
  std::vector<FlagScope> flags;
  const FlagScope *activeFlags() const {
    return !flags.empty() && flags.back().active ? &flags.back() : nullptr;
  }
  /// The flags of the active loop that `stmt` may set.
  std::vector<std::string> flagsSetBy(const Stmt &stmt) const;
  void printGuard(const StmtList &stmts, size_t from, unsigned level);
  /// A staged for over a tf.data.Dataset (`vars` its loop variables, flags included).
  void printDatasetLoop(const ForStmt &loop, const Decision &d, FlagScope scope,
                        std::vector<std::string> vars, const std::string &ranFlag,
                        unsigned level);

  /// The AutoGraph style: ag__.if_stmt / while_stmt / for_stmt with state functions.
  void printAgBlock(const std::string &id, const std::vector<std::string> &names,
                    unsigned level);
  void printAgFunction(const std::string &name, const std::string &param,
                       const std::vector<std::string> &names, unsigned level);
  std::string quotedNames(llvm::ArrayRef<std::string> names) const;

  const TraceResult &trace;
  Tracer &tracer;
  DiagnosticEngine &diag;
  ToCodeStyle style;
};

} // namespace

//===----------------------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------------------===//

void ToCodePrinter::printExpr(const Expr &expr, unsigned context) {
  const Decision *d = decisionOf(&expr);
  if (!d || !d->staged)
    return PythonPrinter::printExpr(expr, context);
  // tf.cond(...) and tf.logical_not(...) are calls: primary expressions.
  switch (expr.getKind()) {
  case Expr::Kind::Call: {
    // int(t), float(t), range(t): AutoGraph's casts and tf.range.
    const auto &call = cast<CallExpr>(expr);
    llvm::StringRef what = d->construct ? d->construct : "";
    if (what == "range") {
      os << "tf.range(";
      printCommaList(call.getArgs());
      os << ')';
      return;
    }
    if (what.starts_with("len") && call.getArgs().size() == 1) {
      // A static first dimension is a Python int, as AutoGraph's len_ gives it; else the
      // tensor's.
      if (what == "len") {
        os << "tf.shape(";
        printExpr(*call.getArgs()[0], PrecIfExp);
        os << ")[0]";
      } else {
        printExpr(*call.getArgs()[0], PrecPrimary);
        os << ".shape[0]";
      }
      return;
    }
    if ((what == "int" || what == "float") && call.getArgs().size() == 1) {
      os << "tf.cast(";
      printExpr(*call.getArgs()[0], PrecIfExp);
      os << (what == "int" ? ", tf.int32)" : ", tf.float32)");
      return;
    }
    return PythonPrinter::printExpr(expr, context);
  }
  case Expr::Kind::Unary:
    os << "tf.logical_not(";
    printExpr(cast<UnaryExpr>(expr).getOperand(), PrecIfExp);
    os << ')';
    return;
  case Expr::Kind::IfExp: {
    const auto &e = cast<IfExpExpr>(expr);
    os << "tf.cond(";
    printExpr(e.getTest(), PrecIfExp);
    os << ", lambda: ";
    printExpr(e.getBody(), PrecIfExp);
    os << ", lambda: ";
    printExpr(e.getOrElse(), PrecIfExp);
    os << ')';
    return;
  }
  case Expr::Kind::Compare: {
    // a < b < c on tensors  =>  tf.logical_and(a < b, b < c)
    const auto &c = cast<CompareExpr>(expr);
    const Decision *d = decisionOf(&expr);
    if (!d || !d->staged || c.getOps().size() < 2)
      return PythonPrinter::printExpr(expr, context);
    for (size_t i = 0; i + 1 < c.getOps().size(); ++i)
      os << "tf.logical_and(";
    for (size_t i = 0; i < c.getOps().size(); ++i) {
      if (i)
        os << ", ";
      printExpr(i ? *c.getComparators()[i - 1] : c.getLeft(), PrecCompare + 1);
      os << ' ' << spelling(c.getOps()[i]) << ' ';
      printExpr(*c.getComparators()[i], PrecCompare + 1);
      if (i)
        os << ')';
    }
    return;
  }
  case Expr::Kind::BoolOp: {
    // a and b and c  =>  tf.cond(a, lambda: tf.cond(b, lambda: c, lambda: b), lambda: a)
    // a or b         =>  tf.cond(a, lambda: a, lambda: b)
    const auto &b = cast<BoolOpExpr>(expr);
    bool isAnd = b.getOp() == BoolOpKind::And;
    const ExprList &values = b.getValues();
    std::function<void(size_t)> chain = [&](size_t i) {
      if (i + 1 == values.size()) {
        printExpr(*values[i], PrecIfExp);
        return;
      }
      os << "tf.cond(";
      printExpr(*values[i], PrecIfExp);
      os << ", lambda: ";
      if (isAnd)
        chain(i + 1);
      else
        printExpr(*values[i], PrecIfExp);
      os << ", lambda: ";
      if (isAnd)
        printExpr(*values[i], PrecIfExp);
      else
        chain(i + 1);
      os << ')';
    };
    chain(0);
    return;
  }
  default:
    return PythonPrinter::printExpr(expr, context);
  }
}

//===----------------------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------------------===//

void ToCodePrinter::printList(const StmtList &stmts, size_t from, unsigned level) {
  if (from >= stmts.size()) {
    indent(level) << "pass\n";
    return;
  }
  for (size_t i = from; i < stmts.size(); ++i) {
    const auto *ifs = dyn_cast<IfStmt>(stmts[i].get());
    const Decision *d = ifs ? decisionOf(ifs) : nullptr;
    if (d && d->staged && i + 1 < stmts.size() &&
        alwaysReturns(ifs->getBody()) != alwaysReturns(ifs->getOrElse())) {
      // One branch returns: what follows runs only on the other path, so it moves there.
      printStagedIf(*ifs, *d, &stmts, i + 1, level);
      return;
    }
    printStmt(*stmts[i], level);
    if (activeFlags() && i + 1 < stmts.size() && !flagsSetBy(*stmts[i]).empty()) {
      printGuard(stmts, i + 1, level);
      return;
    }
  }
}

void ToCodePrinter::printStmt(const Stmt &stmt, unsigned level) {
  switch (stmt.getKind()) {
  case Stmt::Kind::If: {
    const auto &s = cast<IfStmt>(stmt);
    const Decision *d = decisionOf(&s);
    if (d && d->staged)
      return printStagedIf(s, *d, nullptr, 0, level);
    if (d && d->tookTrue != d->tookFalse) {
      // Static, and always the same branch: only that branch is code.
      indent(level) << "# static if (line " << s.loc().begin.line << "): " << d->reason
                    << "; kept the " << (d->tookTrue ? "main" : "else") << " branch\n";
      const StmtList &taken = d->tookTrue ? s.getBody() : s.getOrElse();
      if (taken.empty())
        indent(level) << "pass\n";
      printList(taken, 0, level);
      return;
    }
    if (d)
      indent(level) << "# static if (line " << s.loc().begin.line << "): " << d->reason << '\n';
    return PythonPrinter::printStmt(stmt, level);
  }
  case Stmt::Kind::While:
  case Stmt::Kind::For: {
    const Decision *d = decisionOf(&stmt);
    if (d && d->staged)
      return printStagedLoop(stmt, *d, level);
    if (d)
      indent(level) << "# unrolled while tracing (line " << stmt.loc().begin.line << "): "
                    << d->reason << '\n';
    flags.push_back(FlagScope()); // a Python loop keeps its own break and continue
    PythonPrinter::printStmt(stmt, level);
    flags.pop_back();
    return;
  }
  case Stmt::Kind::Break:
  case Stmt::Kind::Continue:
    if (const FlagScope *f = activeFlags()) {
      indent(level) << (stmt.getKind() == Stmt::Kind::Break ? f->breakFlag : f->continueFlag)
                    << " = True\n";
      return;
    }
    return PythonPrinter::printStmt(stmt, level);
  case Stmt::Kind::FunctionDef:
    return printConvertedFunction(cast<FunctionDefStmt>(stmt), level);

  case Stmt::Kind::Delete:
    if (level > 1) {
      // Inside a branch or loop function a `del` would make the name local to it (an
      // UnboundLocalError); the tracer has checked that nothing reads a deleted name, so
      // unbinding it is rebinding it to None there.
      for (const ExprPtr &target : cast<DeleteStmt>(stmt).getTargets()) {
        indent(level);
        printExpr(*target);
        os << " = None  # del\n";
      }
      return;
    }
    return PythonPrinter::printStmt(stmt, level);
  default:
    return PythonPrinter::printStmt(stmt, level);
  }
}

void ToCodePrinter::printStagedIf(const IfStmt &stmt, const Decision &d, const StmtList *rest,
                                  size_t restFrom, unsigned level) {
  const BlockVars &vars = analysis->blocks.find(&stmt)->second;
  unsigned line = stmt.loc().begin.line;
  std::string trueName = "if_true_" + std::to_string(line);
  std::string falseName = "if_false_" + std::to_string(line);
  bool returns = alwaysReturns(stmt.getBody()) || alwaysReturns(stmt.getOrElse());
  bool restInElse = rest && alwaysReturns(stmt.getBody());

  // The carried names: outputs first, then the inputs; the ones bound before the if enter
  // the branch functions as parameter defaults.
  std::vector<std::string> carriedNames(vars.carried.begin(), vars.carried.end());
  unsigned numOutputs = vars.numOutputs;
  std::vector<std::string> params;
  for (const std::string &name : carriedNames)
    if (std::binary_search(d.definedBefore.begin(), d.definedBefore.end(), name))
      params.push_back(name);
  // Flags a branch sets (a break or continue inside) flow out of the if too.
  for (const std::string &flag : flagsSetBy(stmt)) {
    carriedNames.insert(carriedNames.begin() + numOutputs++, flag);
    params.push_back(flag);
  }
  llvm::ArrayRef<std::string> carried = carriedNames;
  llvm::ArrayRef<std::string> outputs = carried.take_front(numOutputs);
  if (rest) // the statements after the if move into a branch: what they read comes along
    for (const std::string &name : analysis->names.sorted(vars.liveOut))
      if (std::binary_search(d.definedBefore.begin(), d.definedBefore.end(), name) &&
          !llvm::is_contained(params, name))
        params.push_back(name);

  if (style == ToCodeStyle::AutoGraph) {
    if (returns) {
      unsupported(stmt, "a return under a staged if, in --style=autograph,");
      return;
    }
    indent(level) << "# staged if (line " << line << "): " << d.reason << '\n';
    std::string id = std::to_string(line);
    for (const std::string &name : outputs)
      if (!std::binary_search(d.definedBefore.begin(), d.definedBefore.end(), name) &&
          !llvm::is_contained(params, name))
        indent(level) << name << " = ag__.Undefined(" << quote(name) << ")\n";
    std::vector<std::string> names(carried.begin(), carried.end());
    printAgBlock(id, names, level);
    printAgFunction("if_body_" + id, "", names, level);
    printList(stmt.getBody(), 0, level + 1);
    printAgFunction("else_body_" + id, "", names, level);
    printList(stmt.getOrElse(), 0, level + 1);
    indent(level) << "ag__.if_stmt(";
    printExpr(stmt.getTest(), PrecIfExp);
    os << ", if_body_" << id << ", else_body_" << id << ", get_state_" << id << ", set_state_"
       << id << ", " << quotedNames(names) << ", " << outputs.size() << ")\n";
    return;
  }
  indent(level) << "# staged if (line " << line << "): " << d.reason;
  if (!returns) {
    os << "; outputs (" << llvm::join(outputs, ", ") << ")";
    if (!outputs.empty())
      os << ": live after it";
    if (carried.size() > outputs.size())
      os << "; inputs (" << llvm::join(carried.drop_front(outputs.size()), ", ")
         << "): changed in a branch, read before";
  } else {
    os << "; every path returns, so tf.cond gives the return value";
  }
  os << '\n';

  auto header = [&](const std::string &name) {
    indent(level) << "def " << name << '(';
    for (size_t i = 0; i < params.size(); ++i)
      os << (i ? ", " : "") << params[i] << '=' << params[i];
    os << "):\n";
  };
  auto tail = [&]() {
    if (returns)
      return;
    indent(level + 1) << "return ";
    if (outputs.empty())
      os << "None";
    else if (outputs.size() == 1)
      os << outputs[0];
    else
      os << '(' << llvm::join(outputs, ", ") << ')';
    os << '\n';
  };

  // A branch with no statements of its own prints only its return (or `pass`).
  auto branch = [&](const StmtList &stmts) {
    if (!stmts.empty() || returns)
      printList(stmts, 0, level + 1);
  };
  header(trueName);
  branch(stmt.getBody());
  if (rest && !restInElse)
    printList(*rest, restFrom, level + 1);
  tail();
  header(falseName);
  if (rest && restInElse) {
    for (const StmtPtr &s : stmt.getOrElse())
      printStmt(*s, level + 1);
    printList(*rest, restFrom, level + 1);
  } else {
    branch(stmt.getOrElse());
  }
  tail();

  indent(level);
  if (returns)
    os << "return ";
  else if (outputs.size() == 1)
    os << outputs[0] << " = ";
  else if (!outputs.empty())
    os << llvm::join(outputs, ", ") << " = ";
  os << "tf.cond(";
  printExpr(stmt.getTest(), PrecIfExp);
  os << ", " << trueName << ", " << falseName << ")\n";
}

void ToCodePrinter::printStagedLoop(const Stmt &stmt, const Decision &d, unsigned level) {
  const auto *loop = dyn_cast<ForStmt>(&stmt);
  const StmtList &body = loop ? loop->getBody() : cast<WhileStmt>(stmt).getBody();
  // (Tracing refuses a return inside a staged loop, as TensorFlow does: none gets here.)
  const BlockVars &vars = analysis->blocks.find(&stmt)->second;
  const Expr *maximumIterations = loopOption(body, "maximum_iterations");
  std::string line = std::to_string(stmt.loc().begin.line);
  std::string condName = "loop_cond_" + line, bodyName = "loop_body_" + line;
  std::string itr = "itr_" + line, iterated = "iterated_" + line;
  std::vector<std::string> vars_(vars.carried.begin(), vars.carried.end());
  FlagScope scope;
  scope.active = true;
  // ControlExits.h's flags, spelled as AutoGraph does, apart from the function's names.
  LoopExits exits = loopExits(body);
  auto taken = [&](llvm::StringRef name) { return analysis->names.lookup(name) >= 0; };
  if (exits.breaks)
    scope.breakFlag = spellExitFlag(ExitKind::Break, stmt.loc().begin.line, taken);
  if (exits.continues)
    scope.continueFlag = spellExitFlag(ExitKind::Continue, stmt.loc().begin.line, taken);
  if (!scope.breakFlag.empty())
    vars_.push_back(scope.breakFlag); // the test reads it: a loop variable
  // Variables unbound before the loop start as zeros (or a range's start); then a flag
  // says whether the loop ran, checked after it.
  std::string ranFlag;
  if (llvm::any_of(d.started, [](const Decision::Started &s) { return !s.fromRange; })) {
    ranFlag = "ran_" + line;
    while (taken(ranFlag))
      ranFlag += '_';
    vars_.push_back(ranFlag);
  }
  scope.loopVars = vars_;
  std::vector<std::string> params = vars_;
  if (loop)
    params.insert(params.begin(), itr);
  std::string paramList = llvm::join(params, ", ");

  indent(level) << "# staged " << (loop ? "for" : "while") << " (line " << line
                << "): " << d.reason << "; loop variables (" << llvm::join(vars_, ", ")
                << "): changed in the loop, live in it or after it\n";
  if (style == ToCodeStyle::AutoGraph) {
    for (const Decision::Started &s : d.started)
      indent(level) << s.name << " = ag__.Undefined(" << quote(s.name) << ")\n";
    if (!scope.breakFlag.empty())
      indent(level) << scope.breakFlag << " = False\n";
    if (!ranFlag.empty())
      llvm::erase(vars_, ranFlag); // AutoGraph's own
    printAgBlock(line, vars_, level);
    printAgFunction("loop_body_" + line, loop ? itr : "", vars_, level);
    if (loop) {
      indent(level + 1);
      printTarget(loop->getTarget());
      os << " = " << itr << '\n';
    }
    if (!scope.continueFlag.empty())
      indent(level + 1) << scope.continueFlag << " = False\n";
    flags.push_back(scope);
    printList(body, 0, level + 1);
    flags.pop_back();
    // AutoGraph's loop options: what set_loop_options said, and the for loop's target.
    std::vector<std::string> options;
    if (!d.shapeInvariants.empty()) {
      std::vector<std::string> pairs;
      for (const auto &[name, shape] : d.shapeInvariants)
        pairs.push_back("(" + name + ", tf.TensorShape(" + shape.pyList() + "))");
      options.push_back("'shape_invariants': [" + llvm::join(pairs, ", ") + "]");
    }
    if (maximumIterations)
      options.push_back("'maximum_iterations': " + PythonPrinter::text(*maximumIterations));
    if (loop)
      options.push_back("'iterate_names': " + quote(PythonPrinter::text(loop->getTarget())));
    std::string opts = "{" + llvm::join(options, ", ") + "}";
    if (loop) {
      std::string extra = "None";
      if (!scope.breakFlag.empty()) {
        extra = "extra_test_" + line;
        indent(level) << "def " << extra << "():\n";
        indent(level + 1) << "return ag__.not_(" << scope.breakFlag << ")\n";
      }
      indent(level) << "ag__.for_stmt(";
      printExpr(loop->getIter(), PrecIfExp);
      os << ", " << extra << ", loop_body_" << line << ", get_state_" << line << ", set_state_"
         << line << ", " << quotedNames(vars_) << ", " << opts << ")\n";
    } else {
      indent(level) << "def loop_test_" << line << "():\n";
      indent(level + 1) << "return ";
      if (!scope.breakFlag.empty())
        os << "ag__.and_(lambda: ag__.not_(" << scope.breakFlag << "), lambda: ";
      printExpr(cast<WhileStmt>(stmt).getTest(), PrecIfExp);
      os << (scope.breakFlag.empty() ? "\n" : ")\n");
      indent(level) << "ag__.while_stmt(loop_test_" << line << ", loop_body_" << line
                    << ", get_state_" << line << ", set_state_" << line << ", "
                    << quotedNames(vars_) << ", " << opts << ")\n";
    }
    return;
  }
  if (loop) {
    indent(level) << iterated << " = ";
    printExpr(loop->getIter());
    os << '\n';
  }
  if (loop && d.overDataset) {
    printDatasetLoop(*loop, d, scope, vars_, ranFlag, level);
    return;
  }
  if (!scope.breakFlag.empty())
    indent(level) << scope.breakFlag << " = False\n";
  for (const Decision::Started &s : d.started)
    indent(level) << s.name << " = "
                  << (s.fromRange ? rangeStart(loop->getIter(), s.like.dtype) : zerosLike(s.like))
                  << '\n';
  if (!ranFlag.empty())
    indent(level) << ranFlag << " = False\n";
  indent(level) << "def " << condName << '(' << paramList << "):\n";
  indent(level + 1) << "return ";
  if (!scope.breakFlag.empty())
    os << "tf.cond(" << scope.breakFlag << ", lambda: False, lambda: ";
  if (loop)
    os << itr << " < tf.shape(" << iterated << ")[0]";
  else
    printExpr(cast<WhileStmt>(stmt).getTest(), PrecIfExp);
  os << (scope.breakFlag.empty() ? "\n" : ")\n");
  indent(level) << "def " << bodyName << '(' << paramList << "):\n";
  if (loop) {
    indent(level + 1);
    printTarget(loop->getTarget());
    os << " = " << iterated << '[' << itr << "]\n";
  }
  if (!scope.continueFlag.empty())
    indent(level + 1) << scope.continueFlag << " = False\n";
  flags.push_back(scope);
  printList(body, 0, level + 1);
  flags.pop_back();
  if (!ranFlag.empty())
    indent(level + 1) << ranFlag << " = True\n";
  indent(level + 1) << "return (";
  std::vector<std::string> results = vars_;
  if (loop)
    results.insert(results.begin(), itr + " + 1");
  os << llvm::join(results, ", ") << (results.size() == 1 ? ",)\n" : ")\n");

  indent(level);
  std::vector<std::string> targets = vars_;
  if (loop)
    targets.insert(targets.begin(), "_");
  os << llvm::join(targets, ", ") << (targets.size() == 1 ? "," : "") << " = tf.while_loop("
     << condName << ", " << bodyName << ", (";
  std::vector<std::string> initial = vars_;
  if (loop)
    initial.insert(initial.begin(), "0");
  os << llvm::join(initial, ", ") << (initial.size() == 1 ? ",)" : ")");
  if (!d.shapeInvariants.empty()) {
    os << ", shape_invariants=(";
    for (size_t i = 0; i < results.size(); ++i) {
      if (i)
        os << ", ";
      llvm::StringRef name = loop && i == 0 ? llvm::StringRef() : llvm::StringRef(vars_[i - (loop ? 1 : 0)]);
      auto inv = llvm::find_if(d.shapeInvariants, [&](const auto &p) { return p.first == name; });
      auto carriedType = llvm::find_if(d.carried, [&](const auto &p) { return p.first == name; });
      Shape shape = inv != d.shapeInvariants.end() ? inv->second
                    : carriedType != d.carried.end() ? carriedType->second.shape
                                                     : Shape::scalar();
      os << "tf.TensorShape(" << shape.pyList() << ')';
    }
    os << (results.size() == 1 ? ",)" : ")");
  }
  if (maximumIterations) {
    os << ", maximum_iterations=";
    printExpr(*maximumIterations, PrecIfExp);
  }
  os << ")\n";
  if (!ranFlag.empty()) {
    std::vector<std::string> names;
    for (const Decision::Started &s : d.started)
      if (!s.fromRange)
        names.push_back(s.name);
    indent(level) << "tf.debugging.Assert(" << ranFlag << ", ["
                  << quote("loop must iterate at least once to initialize " +
                           llvm::join(names, ", "))
                  << "])\n";
  }
}

void ToCodePrinter::printDatasetLoop(const ForStmt &loop, const Decision &d, FlagScope scope,
                                     std::vector<std::string> vars, const std::string &ranFlag,
                                     unsigned level) {
  // TensorFlow's form: Dataset.reduce over the loop variables; after a break, the
  // remaining elements leave them as they are.
  std::string line = std::to_string(loop.loc().begin.line);
  std::string state = "state_" + line, item = "itr_" + line, bodyName = "loop_body_" + line;
  if (vars.empty()) {
    vars.push_back("_unused_" + line); // Dataset.reduce needs a state
    indent(level) << vars.back() << " = 0\n";
  }
  if (!scope.breakFlag.empty())
    indent(level) << scope.breakFlag << " = False\n";
  for (const Decision::Started &s : d.started)
    indent(level) << s.name << " = " << zerosLike(s.like) << '\n';
  if (!ranFlag.empty())
    indent(level) << ranFlag << " = False\n";
  std::string tuple = llvm::join(vars, ", ") + (vars.size() == 1 ? "," : "");
  indent(level) << "def " << bodyName << '(' << state << ", " << item << "):\n";
  indent(level + 1) << tuple << " = " << state << '\n';
  indent(level + 1);
  printTarget(loop.getTarget());
  os << " = " << item << '\n';
  if (!scope.continueFlag.empty())
    indent(level + 1) << scope.continueFlag << " = False\n";
  flags.push_back(scope);
  printList(loop.getBody(), 0, level + 1);
  flags.pop_back();
  if (!ranFlag.empty())
    indent(level + 1) << ranFlag << " = True\n";
  indent(level + 1) << "return (" << tuple << ")\n";
  std::string step = bodyName;
  if (!scope.breakFlag.empty()) {
    step = "loop_step_" + line;
    indent(level) << "def " << step << '(' << state << ", " << item << "):\n";
    size_t at = llvm::find(vars, scope.breakFlag) - vars.begin();
    indent(level + 1) << "return tf.cond(" << state << '[' << at << "], lambda: "
                      << state << ", lambda: " << bodyName << '(' << state << ", " << item
                      << "))\n";
  }
  indent(level) << tuple << " = iterated_" << line << ".reduce((" << tuple << "), " << step
                << ")\n";
  if (!ranFlag.empty()) {
    std::vector<std::string> names;
    for (const Decision::Started &s : d.started)
      names.push_back(s.name);
    indent(level) << "tf.debugging.Assert(" << ranFlag << ", ["
                  << quote("loop must iterate at least once to initialize " +
                           llvm::join(names, ", "))
                  << "])\n";
  }
}

std::vector<std::string> ToCodePrinter::flagsSetBy(const Stmt &stmt) const {
  const FlagScope *f = activeFlags();
  std::vector<std::string> out;
  if (!f)
    return out;
  LoopExits exits = exitsTakenBy(stmt);
  if (!f->breakFlag.empty() && exits.breaks)
    out.push_back(f->breakFlag);
  if (!f->continueFlag.empty() && exits.continues)
    out.push_back(f->continueFlag);
  return out;
}

void ToCodePrinter::printGuard(const StmtList &stmts, size_t from, unsigned level) {
  // What follows a statement that may break or continue runs only if it did not:
  //   outs = tf.cond(tf.logical_not(flag), guard_true, guard_false)
  const FlagScope &f = *activeFlags();
  std::vector<std::string> outs = f.loopVars;
  if (!f.continueFlag.empty())
    outs.push_back(f.continueFlag);
  std::vector<std::string> set;
  for (const std::string &flag : {f.breakFlag, f.continueFlag})
    if (!flag.empty())
      set.push_back(flag);
  std::string line = std::to_string(stmts[from]->loc().begin.line);
  if (style == ToCodeStyle::AutoGraph) {
    std::string id = "guard_" + line;
    indent(level) << "# staged guard (line " << line << "): runs the rest of the loop body "
                  << "unless " << llvm::join(set, " or ") << " is set\n";
    printAgBlock(id, outs, level);
    printAgFunction("if_body_" + id, "", outs, level);
    printList(stmts, from, level + 1);
    printAgFunction("else_body_" + id, "", outs, level);
    indent(level + 1) << "pass\n";
    indent(level) << "ag__.if_stmt(ag__.not_(";
    if (set.size() == 2)
      os << "ag__.or_(lambda: " << set[0] << ", lambda: " << set[1] << ")";
    else
      os << set[0];
    os << "), if_body_" << id << ", else_body_" << id << ", get_state_" << id << ", set_state_"
       << id << ", " << quotedNames(outs) << ", " << outs.size() << ")\n";
    return;
  }
  std::string trueName = "guard_true_" + line, falseName = "guard_false_" + line;
  std::string defaults;
  for (size_t i = 0; i < outs.size(); ++i)
    defaults += (i ? ", " : "") + outs[i] + "=" + outs[i];
  indent(level) << "# staged guard (line " << line << "): runs the rest of the loop body "
                << "unless " << llvm::join(set, " or ") << " is set\n";
  indent(level) << "def " << trueName << '(' << defaults << "):\n";
  printList(stmts, from, level + 1);
  indent(level + 1) << "return " << tupleOf(outs) << '\n';
  indent(level) << "def " << falseName << '(' << defaults << "):\n";
  indent(level + 1) << "return " << tupleOf(outs) << '\n';
  indent(level) << llvm::join(outs, ", ") << (outs.size() == 1 ? "," : "") << " = tf.cond(";
  os << "tf.logical_not(";
  if (set.size() == 2)
    os << "tf.logical_or(" << set[0] << ", " << set[1] << ")";
  else
    os << set[0];
  os << "), " << trueName << ", " << falseName << ")\n";
}

std::string ToCodePrinter::quotedNames(llvm::ArrayRef<std::string> names) const {
  std::vector<std::string> quoted;
  for (const std::string &name : names)
    quoted.push_back(quote(name));
  return "(" + llvm::join(quoted, ", ") + (names.size() == 1 ? ",)" : ")");
}

void ToCodePrinter::printAgBlock(const std::string &id, const std::vector<std::string> &names,
                                 unsigned level) {
  // get_state / set_state: how AutoGraph reads and restores the carried names.
  indent(level) << "def get_state_" << id << "():\n";
  indent(level + 1) << "return " << tupleOf(names) << '\n';
  indent(level) << "def set_state_" << id << "(vars_):\n";
  if (names.empty()) {
    indent(level + 1) << "pass\n";
    return;
  }
  indent(level + 1) << "nonlocal " << llvm::join(names, ", ") << '\n';
  indent(level + 1) << tupleOf(names) << " = vars_\n";
}

void ToCodePrinter::printAgFunction(const std::string &name, const std::string &param,
                                    const std::vector<std::string> &names, unsigned level) {
  indent(level) << "def " << name << '(' << param << "):\n";
  if (!names.empty())
    indent(level + 1) << "nonlocal " << llvm::join(names, ", ") << '\n';
}

void ToCodePrinter::printDecorator(const Expr &decorator, unsigned level) {
  indent(level) << '@';
  if (const auto *call = dyn_cast<CallExpr>(&decorator)) {
    PythonPrinter::printExpr(call->getCallee(), PrecPrimary);
    os << '(';
    size_t n = 0;
    for (const ExprPtr &arg : call->getArgs()) {
      os << (n++ ? ", " : "");
      PythonPrinter::printExpr(*arg, PrecIfExp);
    }
    for (const Keyword &k : call->getKeywords()) {
      if (k.name == "autograph")
        continue;
      os << (n++ ? ", " : "") << k.name << '=';
      PythonPrinter::printExpr(*k.value, PrecIfExp);
    }
    os << (n ? ", " : "") << "autograph=False)\n";
    return;
  }
  PythonPrinter::printExpr(decorator, PrecPrimary);
  os << "(autograph=False)\n";
}

void ToCodePrinter::printConvertedFunction(const FunctionDefStmt &def, unsigned level) {
  const FunctionAnalysis *outer = analysis;
  analysis = &tracer.analysisOf(def);
  // @tf.function gets autograph=False; other decorators are Python, printed as written.
  for (const ExprPtr &decorator : def.getDecorators()) {
    if (decorator.get() == def.getTfFunction()) {
      printDecorator(*decorator, level);
      continue;
    }
    indent(level) << '@';
    printExpr(*decorator);
    os << '\n';
  }
  // The header as written, then the converted body.
  indent(level) << "def " << def.getName() << '(';
  printParams(def.getParams(), /*annotations=*/false);
  os << "):\n";
  printList(def.getBody(), 0, level + 1);
  analysis = outer;
}

bool ag::printConvertedModule(const Module &module, const TraceResult &trace, Tracer &tracer,
                              llvm::StringRef only, ToCodeStyle style, DiagnosticEngine &diag,
                              llvm::raw_ostream &os) {
  std::string text;
  llvm::raw_string_ostream buffer(text);
  ToCodePrinter printer(buffer, trace, tracer, diag, style);
  if (style == ToCodeStyle::AutoGraph)
    buffer << "from tensorflow.python.autograph import operators as ag__\n";
  if (!only.empty()) {
    std::string why;
    std::optional<Module::Entry> entry = module.findEntry(only, why);
    if (!entry) {
      diag.error(module.loc(), why);
      return false;
    }
    const FunctionDefStmt *def = entry->def;
    bool method = !entry->receiver.empty();
    // The helpers it calls that stage control flow, converted too (AutoGraph converts
    // called functions recursively); they come first, so that the function finds them.
    for (const StmtPtr &stmt : module.getBody()) {
      const auto *helper = dyn_cast<FunctionDefStmt>(stmt.get());
      if (!helper || helper == def || helper->isTfFunction() ||
          !stagesSomething(helper->getBody(), trace))
        continue;
      printer.printConvertedFunction(*helper, 0);
      buffer << "\n\n";
    }
    // Methods that stage control flow, converted and set on their class, so that the
    // instances the file made use them.
    for (const StmtPtr &stmt : module.getBody()) {
      const auto *cls = dyn_cast<ClassDefStmt>(stmt.get());
      if (!cls)
        continue;
      for (const StmtPtr &member : cls->getBody()) {
        const auto *m = dyn_cast<FunctionDefStmt>(member.get());
        if (!m || (m != def && !stagesSomething(m->getBody(), trace)))
          continue;
        buffer << "# " << cls->getName() << "." << m->getName() << ", converted\n";
        printer.printConvertedFunction(*m, 0);
        buffer << cls->getName() << "." << m->getName() << " = " << m->getName() << "\n\n\n";
      }
    }
    // Imported helpers that stage control flow, converted in their own module (whose names
    // they read), and bound again where this file imported them by name.
    for (const auto &[name, imported] : tracer.getImportedModules()) {
      for (const StmtPtr &stmt : imported->getBody()) {
        const auto *helper = dyn_cast<FunctionDefStmt>(stmt.get());
        if (!helper || helper->isTfFunction() || !stagesSomething(helper->getBody(), trace))
          continue;
        // (The converted code calls tf.cond and tf.while_loop, whether or not the module
        // imported TensorFlow.)
        std::string converted = "import tensorflow as tf\n";
        llvm::raw_string_ostream inner(converted);
        ToCodePrinter helperPrinter(inner, trace, tracer, diag, style);
        helperPrinter.printConvertedFunction(*helper, 0);
        if (helperPrinter.failed)
          return false;
        buffer << "# " << name << "." << helper->getName() << ", converted in its own module ("
               << imported->loc().file << ")\n"
               << "import sys as _agc_sys\n"
               << "exec(" << pythonStringLiteral(converted) << ", _agc_sys.modules['" << name
               << "'].__dict__)\n";
        for (const StmtPtr &s : module.getBody())
          if (const auto *from = dyn_cast<ImportFromStmt>(s.get());
              from && from->getLevel() == 0 && from->getModule() == name)
            for (const ImportAlias &alias : from->getNames())
              if (alias.name == helper->getName())
                buffer << (alias.asname.empty() ? alias.name : alias.asname)
                       << " = _agc_sys.modules['" << name << "']." << alias.name << "\n";
        buffer << "\n\n";
      }
    }
    if (!method)
      printer.printConvertedFunction(*def, 0);
  } else {
    buffer << "# Converted by agc: staged control flow is tf.cond / tf.while_loop, static control\n"
              "# flow is resolved. Runs under tf.function(autograph=False).\n";
    for (const StmtPtr &stmt : module.getBody()) {
      if (llvm::isa<FunctionDefStmt>(*stmt))
        buffer << "\n\n"; // two blank lines around top-level functions, as PEP 8 has it
      printer.printStmt(*stmt, 0);
    }
  }
  if (printer.failed)
    return false;
  os << text;
  return true;
}
