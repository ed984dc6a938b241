//===- TracerStmts.cpp - Statements, assignments, break, continue and return ----===//
//
// The statements the tracer runs, one at a time; control flow of its own in
// TracerConditionals.cpp (if) and TracerLoops.cpp (while, for).
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

#include "llvm/ADT/ScopeExit.h"

#include "llvm/ADT/StringExtras.h"

using namespace ag;
using namespace ag::analysis;
using llvm::cast;
using llvm::dyn_cast;

/// The module path agc uses for a Python module name: `tensorflow...` is `tf...`.
std::string ag::analysis::canonicalModule(llvm::StringRef name) {
  if (name == "tensorflow" || name.starts_with("tensorflow."))
    return ("tf" + name.drop_front(strlen("tensorflow"))).str();
  return name.str();
}

namespace {

const char *loopWord(const ast::Stmt &stmt) {
  return llvm::isa<ast::ForStmt>(stmt) ? "for" : "while";
}

/// How to stage Python loop `loop`, for notes.
std::string stageHint(const ast::Stmt &loop) {
  if (llvm::isa<ast::ForStmt>(loop))
    return "this loop is unrolled at compile time; iterate over a tensor (tf.range) to "
           "stage it";
  const auto &test = llvm::cast<ast::WhileStmt>(loop).getTest();
  if (const auto *b = llvm::dyn_cast<ast::BoolLitExpr>(&test); b && b->getValue())
    return "this loop is unrolled at compile time; write `while tf.constant(True):` to stage it";
  return "this loop is unrolled at compile time; make its condition a tensor to stage it";
}

} // namespace

//===----------------------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------------------===//

Flow Tracer::Impl::execList(const ast::StmtList &stmts, size_t from) {
  for (size_t i = from; i < stmts.size(); ++i) {
    Flow flow = exec(*stmts[i]);
    if (flow != Flow::Normal)
      return flow;
    // A break, continue or return under a staged condition: what follows runs only
    // where no flag is set. At the end of the list the enclosing list guards its rest.
    if (emitter && frame().pendingGuard && i + 1 < stmts.size()) {
      frame().pendingGuard = false;
      return execGuarded(stmts, i + 1);
    }
  }
  return Flow::Normal;
}

Env *Tracer::Impl::declaredScope(llvm::StringRef name, bool &isGlobal) {
  const Frame &f = frame();
  if (!f.function || !f.analysis)
    return nullptr;
  int index = f.analysis->names.lookup(name);
  if (index < 0)
    return nullptr;
  const Activity &activity = f.analysis->activity;
  isGlobal = unsigned(index) < activity.globals().size() && activity.globals().test(index);
  if (isGlobal)
    return &currentModuleNames();
  if (unsigned(index) >= activity.nonlocals().size() || !activity.nonlocals().test(index))
    return nullptr;
  // The nearest enclosing call that binds it: closures share their cells, so the write
  // goes there (the scopes outlive the calls that made them; see closedOver).
  for (const CallScope *scope = f.scope->parent; scope; scope = scope->parent)
    if (scope->locals.count(name))
      return &const_cast<CallScope *>(scope)->locals;
  return nullptr;
}

bool Tracer::Impl::assign(const ast::Expr &target, const Value &value) {
  if (const auto *name = dyn_cast<ast::NameExpr>(&target)) {
    if (emitter && frames.size() == 1 && !frame().function)
      emitter->bound(value, name->getId());
    Value bound = value;
    bound.boundAt = target.loc();
    bool isGlobal = false;
    Env *outer = declaredScope(name->getId(), isGlobal);
    bool staged = !frame().stagedIfs.empty() || frame().guards > 0 ||
                  llvm::any_of(frame().loops, [](const Loop &l) { return l.staged; });
    if (outer && staged) {
      error(target.loc(), llvm::Twine("assigning the ") + (isGlobal ? "global" : "nonlocal") +
                              " '" + name->getId() + "' under a staged condition or loop is "
                              "not supported by agc: tf.cond and tf.while_loop carry local "
                              "names only");
      note(target.loc(), "assign a local name in the staged code, and the " +
                             llvm::Twine(isGlobal ? "global" : "nonlocal") + " after it");
      return false;
    }
    (outer ? *outer : frame().locals)[name->getId()] = std::move(bound);
    return true;
  }
  if (const auto *seq = dyn_cast<ast::SequenceExpr>(&target)) {
    const ast::ExprList &targets = seq->getElements();
    std::vector<Value> parts;
    if (value.isPySequence()) {
      parts = value.items();
    } else if (value.isTensorLike() && value.shape.rankKnown && value.shape.rank() > 0 &&
               value.shape.dims[0] >= 0) {
      Shape inner = value.shape;
      inner.dims.erase(inner.dims.begin());
      parts.assign(value.shape.dims[0], Value::tensor(value.dtype, inner));
    } else {
      error(target.loc(), "cannot unpack " + value.describe() + " into " +
                              llvm::Twine(targets.size()) + " names");
      return false;
    }
    if (parts.size() != targets.size()) {
      error(target.loc(), (parts.size() > targets.size() ? "too many" : "not enough") +
                              llvm::Twine(" values to unpack (expected ") +
                              llvm::Twine(targets.size()) + ", got " +
                              llvm::Twine(parts.size()) + ")");
      return false;
    }
    for (size_t i = 0; i < parts.size(); ++i)
      if (!assign(*targets[i], parts[i]))
        return false;
    return true;
  }
  if (const auto *sub = dyn_cast<ast::SubscriptExpr>(&target)) {
    std::optional<Value> container = eval(sub->getValue());
    if (!container)
      return false;
    if (container->isTensorLike()) {
      error(target.loc(), "a tensor does not support item assignment (tensors are immutable)");
      note(target.loc(), "use tf.tensor_scatter_nd_update, or build the tensor with tf.concat "
                         "or a tf.TensorArray");
      return false;
    }
    return setItem(*container, sub->getIndex(), &value, target.loc());
  }
  if (const auto *attr = dyn_cast<ast::AttributeExpr>(&target)) {
    std::optional<Value> base = eval(attr->getValue());
    return base && setAttribute(*base, attr->getAttr(), value, target.loc());
  }
  error(target.loc(), "cannot assign to this expression");
  return false;
}

Flow Tracer::Impl::exec(const ast::Stmt &stmt) {
  using K = ast::Stmt::Kind;
  switch (stmt.getKind()) {
  case K::Import:
    return execImport(cast<ast::ImportStmt>(stmt));
  case K::ImportFrom:
    return execImportFrom(cast<ast::ImportFromStmt>(stmt));
  case K::Assign: {
    const auto &s = cast<ast::AssignStmt>(stmt);
    std::optional<Value> value = eval(s.getValue());
    if (!value)
      return Flow::Error;
    for (const ast::ExprPtr &target : s.getTargets())
      if (!assign(*target, *value))
        return Flow::Error;
    return Flow::Normal;
  }
  case K::AugAssign: {
    const auto &s = cast<ast::AugAssignStmt>(stmt);
    std::optional<Value> current = eval(s.getTarget());
    std::optional<Value> rhs = current ? eval(s.getValue()) : std::nullopt;
    if (!rhs)
      return Flow::Error;
    // `l += items` extends the list in place (every alias sees it), then rebinds it.
    if (current->kind == Value::Kind::List && s.getOp() == ast::BinaryOp::Add) {
      CallArgs extend;
      extend.positional = {*rhs};
      extend.loc = stmt.loc();
      if (!listMethod(*current, "extend", extend) || !assign(s.getTarget(), *current))
        return Flow::Error;
      return Flow::Normal;
    }
    // `s |= t` (and &=, -=, ^=) changes the set in place.
    if (current->kind == Value::Kind::Set && rhs->kind == Value::Kind::Set) {
      std::optional<Value> value = setOperator(s.getOp(), *current, *rhs, stmt.loc());
      if (!value || !mayChange(*current, stmt.loc()))
        return Flow::Error;
      current->object->items = value->object->items;
      return assign(s.getTarget(), *current) ? Flow::Normal : Flow::Error;
    }
    std::optional<Value> value = binary(s.getOp(), *current, *rhs, stmt.loc());
    if (!value || !assign(s.getTarget(), *value))
      return Flow::Error;
    return Flow::Normal;
  }
  case K::AnnAssign: {
    const auto &s = cast<ast::AnnAssignStmt>(stmt);
    if (!s.getValue())
      return Flow::Normal;
    std::optional<Value> value = eval(*s.getValue());
    if (!value || !assign(s.getTarget(), *value))
      return Flow::Error;
    return Flow::Normal;
  }
  case K::ExprStmt:
    return eval(cast<ast::ExprStmt>(stmt).getValue()) ? Flow::Normal : Flow::Error;
  case K::If:
    return execIf(cast<ast::IfStmt>(stmt));
  case K::While:
    return execWhile(cast<ast::WhileStmt>(stmt));
  case K::For:
    return execFor(cast<ast::ForStmt>(stmt));
  case K::Break:
    return execBreakContinue(stmt, Flow::Break);
  case K::Continue:
    return execBreakContinue(stmt, Flow::Continue);
  case K::Return:
    return execReturn(cast<ast::ReturnStmt>(stmt));
  case K::Pass:
  case K::Global:
  case K::Nonlocal:
    return Flow::Normal;
  case K::Assert: {
    const auto &s = cast<ast::AssertStmt>(stmt);
    std::optional<Value> test = eval(s.getTest());
    if (!test)
      return Flow::Error;
    if (std::optional<bool> holds = truth(*test)) {
      if (!*holds) {
        error(s.getTest().loc(), "assertion failed while tracing (the test is " +
                                     test->describe() + ")");
        return Flow::Error;
      }
      return Flow::Normal;
    }
    // TensorFlow 2.21 does not stage an assert statement: a tensor test is used as a
    // Python bool while tracing, which it refuses (OperatorNotAllowedInGraphError).
    error(s.getTest().loc(), "an assert statement needs a Python bool, but its test is " +
                                 test->describe() + ", known only at run time; "
                                 "tf.function does not stage assert statements");
    note(s.loc(), "for a run-time check, write tf.debugging.Assert(test, [message]) or a "
                  "tf.debugging.assert_* function");
    return Flow::Error;
  }
  case K::Delete:
    for (const ast::ExprPtr &target : cast<ast::DeleteStmt>(stmt).getTargets()) {
      if (const auto *sub = dyn_cast<ast::SubscriptExpr>(target.get())) { // del d[k]
        std::optional<Value> container = eval(sub->getValue());
        if (!container || !setItem(*container, sub->getIndex(), nullptr, target->loc()))
          return Flow::Error;
        continue;
      }
      const auto *name = dyn_cast<ast::NameExpr>(target.get());
      if (!name) {
        error(target->loc(), "only names and items can be deleted in traced code");
        return Flow::Error;
      }
      if (!frame().locals.erase(name->getId())) {
        error(target->loc(), "name '" + name->getId() + "' is not defined");
        return Flow::Error;
      }
    }
    return Flow::Normal;
  case K::With:
    return execWith(cast<ast::WithStmt>(stmt));
  case K::Raise:
    return execRaise(cast<ast::RaiseStmt>(stmt));
  case K::Try:
    return execTry(cast<ast::TryStmt>(stmt));
  case K::Unsupported:
    // What the parser could not take is an error once tracing reaches it.
    diag.report(cast<ast::UnsupportedStmt>(stmt).getWhy());
    failed = true;
    return Flow::Error;
  case K::FunctionDef: {
    const auto &def = cast<ast::FunctionDefStmt>(stmt);
    std::optional<Value> fn = functionValue(def);
    if (fn)
      fn = applyDecorators(def.getDecorators(), std::move(*fn), def.getTfFunction());
    if (!fn)
      return Flow::Error;
    frame().locals[def.getName()] = std::move(*fn);
    return Flow::Normal;
  }
  case K::ClassDef:
    return execClassDef(cast<ast::ClassDefStmt>(stmt));
  }
  return Flow::Normal;
}

std::optional<Value> Tracer::Impl::functionValue(const ast::FunctionDefStmt &def) {
  Value fn;
  fn.kind = Value::Kind::Function;
  fn.function = &def;
  fn.boundAt = def.getNameLoc();
  // Defaults are evaluated once, where the function is defined (Python's __defaults__).
  for (const ast::Param &param : def.getParams()) {
    Value none;
    std::optional<Value> v = param.defaultValue ? eval(*param.defaultValue) : none;
    if (!v)
      return std::nullopt;
    fn.elements.push_back(std::move(*v));
  }
  if (frame().function) { // defined in a call: it closes over the call's names
    fn.closure = frame().scope.get();
    frame().closedOver = true;
  } else {
    fn.closure = moduleScope(); // an imported module's names (null: the main module's)
  }
  return fn;
}

//===----------------------------------------------------------------------------------===//
// break, continue, return
//===----------------------------------------------------------------------------------===//

Flow Tracer::Impl::execBreakContinue(const ast::Stmt &stmt, Flow flow) {
  Frame &f = frame();
  // The parser guarantees an enclosing loop.
  size_t target = f.loops.size() - 1;
  const Loop &loop = f.loops[target];
  // A staged continue only skips the rest of this pass (AutoGraph guards it with a flag
  // that the loop's test never reads); a staged break would have to end a Python loop.
  if (!loop.staged && flow == Flow::Break) {
    for (auto &[ifStmt, depth] : f.stagedIfs) {
      if (depth != f.loops.size())
        continue;
      error(stmt.loc(), llvm::Twine("'break' depends on a tensor, but the ") + loopWord(*loop.stmt) +
                            " loop it leaves is a Python loop: the loop would need a tensor "
                            "as a Python bool");
      note(ifStmt->getTest().loc(), "the break is under this staged condition (a tensor)");
      note(loop.stmt->loc(), stageHint(*loop.stmt));
      return Flow::Error;
    }
  }
  // Emitting: a flag records it, for the guards after staged conditions and for the
  // test of a staged loop. (A Python loop's break is never under a staged condition.)
  if (emitter && (loop.staged || flow == Flow::Continue)) {
    std::optional<Value> set = boolTensor(true, stmt.loc());
    if (!set)
      return Flow::Error;
    f.locals[exitFlag(flow == Flow::Break ? ExitKind::Break : ExitKind::Continue, target)] = *set;
  }
  return flow;
}

Flow Tracer::Impl::execReturn(const ast::ReturnStmt &stmt) {
  Frame &f = frame();
  std::optional<Value> value = stmt.getValue() ? eval(*stmt.getValue()) : Value::none();
  if (!value)
    return Flow::Error;
  const Value returned = *value;
  bool staged = !f.stagedIfs.empty() || f.guards > 0 ||
                llvm::any_of(f.loops, [](const Loop &l) { return l.staged; });
  // AutoGraph's return value starts undefined, and a staged loop cannot carry an
  // undefined value: TensorFlow refuses every return inside one.
  for (const Loop &loop : f.loops) {
    if (!loop.staged)
      continue;
    error(stmt.loc(), "a return statement cannot be placed inside a staged " +
                          llvm::Twine(loopWord(*loop.stmt)) + " loop (tf.while_loop)");
    note(loop.stmt->loc(), "this loop is staged; keep the result in a variable, break out of "
                           "the loop, and return after it");
    return Flow::Error;
  }
  if (staged) {
    // A staged return is a flag; a Python loop around it would need its value.
    for (const Loop &loop : f.loops) {
      if (loop.staged)
        break;
      error(stmt.loc(), "'return' depends on a tensor, but it leaves a Python " +
                            llvm::Twine(loopWord(*loop.stmt)) +
                            " loop, which would need a tensor as a Python bool");
      if (!f.stagedIfs.empty())
        note(f.stagedIfs.back().first->getTest().loc(),
             "the return is under this staged condition (a tensor)");
      note(loop.stmt->loc(), stageHint(*loop.stmt));
      return Flow::Error;
    }
    if (!f.conditionalReturnAt)
      f.conditionalReturnAt = &stmt;
  }
  if (f.returnValue && (staged || f.conditionalReturnAt)) {
    // Returns that tf.cond joins must agree: tensors of one dtype, or tuples, lists and
    // dicts of one structure whose leaves do.
    const Value &prior = *f.returnValue;
    auto mismatch = [&](const llvm::Twine &what) {
      error(stmt.loc(), "this return gives " + what + ", but the return at line " +
                            llvm::Twine(f.returnAt->loc().begin.line) + " gives " +
                            prior.describe() + "; returns joined by a staged condition " +
                            "must have the same type");
      note(f.returnAt->loc(), "the other return");
      return Flow::Error;
    };
    if (isNest(prior) != isNest(*value))
      return mismatch(value->describe());
    std::string difference = nestDifference(prior, *value, "return");
    if (!difference.empty()) {
      error(stmt.loc(), "this return and the return at line " +
                            llvm::Twine(f.returnAt->loc().begin.line) +
                            " give values of different nested structures (" + difference +
                            "); returns joined by a staged condition must have the same "
                            "structure");
      note(f.returnAt->loc(), "the other return");
      return Flow::Error;
    }
    std::vector<NestLeaf> priorLeaves, theseLeaves;
    flattenNest(prior, prior, "", priorLeaves);
    flattenNest(*value, prior, "", theseLeaves);
    std::vector<Value> joined;
    for (size_t k = 0; k < priorLeaves.size(); ++k) {
      const Value &p = priorLeaves[k].value, &v = theseLeaves[k].value;
      bool priorTensor = p.isTensorLike() || p.isPyScalar();
      bool thisTensor = v.isTensorLike() || v.isPyScalar();
      if (priorTensor != thisTensor ||
          (!thisTensor && !(p.kind == Value::Kind::None && v.kind == Value::Kind::None)))
        return mismatch(value->describe());
      if (!thisTensor) {
        joined.push_back(v);
        continue;
      }
      std::optional<Value> a = asTensor(p, stmt.loc()), b = asTensor(v, stmt.loc());
      if (!a || !b)
        return Flow::Error;
      if (a->dtype != b->dtype)
        return mismatch(isNest(prior) ? value->describe() + " (" + b->describe() + " at " +
                                            priorLeaves[k].path + ")"
                                      : b->describe());
      joined.push_back(Value::tensor(a->dtype, a->shape.join(b->shape)));
    }
    size_t next = 0;
    value = packNest(prior, joined, next);
  }
  if (!f.returnAt)
    f.returnAt = &stmt;
  f.returnValue = *value;
  f.openReturn = nullptr; // a return here covers the paths an earlier staged if left open
  if (staged) {
    // AutoGraph's retval_ and do_return: a value and a flag that staged ifs carry.
    std::vector<NestLeaf> leaves;
    flattenNest(returned, returned, "", leaves);
    for (const NestLeaf &leaf : leaves)
      if (!leaf.value.isTensorLike() && !leaf.value.isPyScalar()) {
        std::string what = leaf.value.describe();
        if (isNest(returned))
          what += " (at " + leaf.path + " of " + returned.describe() + ")";
        error(stmt.loc(), "this return gives " + what + " under a staged condition; tf.cond "
                          "can only produce tensors (or tuples, lists and dicts of them)");
        note(stmt.loc(), "return a tensor there, or move the return out of the staged "
                         "condition");
        return Flow::Error;
      }
  }
  if (emitter && staged) {
    std::optional<Value> set = boolTensor(true, stmt.loc());
    if (!set)
      return Flow::Error;
    f.locals[returnSlot()] = returned;
    f.locals[exitFlag(ExitKind::Return)] = *set;
  }
  return Flow::Return;
}

//===----------------------------------------------------------------------------------===//
// with
//===----------------------------------------------------------------------------------===//

/// The context managers of TensorFlow's that only name, place or order the ops their body
/// builds: the body is traced as it stands. (Ops with effects, tf.print and assignments,
/// already run in program order in compiled code, which is the order tf.control_dependencies
/// asks for.)
static bool isScopeManager(llvm::StringRef path) {
  return llvm::is_contained({"tf.name_scope", "tf.compat.v1.name_scope", "tf.device",
                             "tf.control_dependencies", "tf.init_scope"},
                            path);
}

Flow Tracer::Impl::execWith(const ast::WithStmt &stmt) {
  llvm::scope_exit restore([&, outer = nameScope] { nameScope = outer; });
  std::vector<std::string> scopes;
  // The __exit__ methods of the Python context managers entered, innermost last.
  std::vector<Value> exits;
  for (const ast::WithItem &item : stmt.getItems()) {
    const auto *call = dyn_cast<ast::CallExpr>(item.context.get());
    std::optional<Value> callee = call ? eval(call->getCallee()) : std::nullopt;
    if (call && !callee)
      return Flow::Error;
    if (!callee || callee->kind != Value::Kind::Module || !isScopeManager(callee->name)) {
      // Anything else: evaluated for its own refusal (tf.GradientTape says why), else
      // refused as a context manager agc cannot enter.
      std::optional<Value> manager = eval(*item.context);
      if (!manager)
        return Flow::Error;
      // An object of a Python class with __enter__ and __exit__: Python, run while tracing.
      if (manager->kind == Value::Kind::Instance) {
        Object &cls = *manager->object->mro.front();
        const Value *enter = classAttribute(cls, "__enter__");
        const Value *exit = classAttribute(cls, "__exit__");
        if (enter && exit) {
          std::optional<Value> method = objectAttribute(*manager, "__enter__", item.context->loc());
          std::optional<Value> entered;
          if (method) {
            UnconvertedScope python(*this, "__enter__, which the with statement calls "
                                           "unconverted");
            entered = callValue(*method, std::vector<Value>{}, item.context->loc());
          }
          if (!entered || (item.target && !assign(*item.target, *entered)))
            return Flow::Error;
          std::optional<Value> bound = objectAttribute(*manager, "__exit__", item.context->loc());
          if (!bound)
            return Flow::Error;
          exits.push_back(std::move(*bound));
          continue;
        }
      }
      error(item.context->loc(), "agc cannot enter " + manager->describe() + " as a context "
                                 "manager: it supports tf.name_scope, tf.device, "
                                 "tf.control_dependencies and Python classes with __enter__ "
                                 "and __exit__");
      return Flow::Error;
    }
    std::vector<Value> args;
    for (const ast::ExprPtr &arg : call->getArgs()) {
      std::optional<Value> v = eval(*arg);
      if (!v)
        return Flow::Error;
      args.push_back(std::move(*v));
    }
    for (const ast::Keyword &keyword : call->getKeywords()) {
      std::optional<Value> v = eval(*keyword.value);
      if (!v)
        return Flow::Error;
      args.push_back(std::move(*v));
    }
    llvm::StringRef path = callee->name;
    Value entered = Value::none();
    auto want = [&](bool ok, const llvm::Twine &what) {
      if (!ok)
        error(item.context->loc(), path + "() takes " + what);
      return ok;
    };
    if (path.ends_with("name_scope")) {
      if (!want(args.size() == 1 && args[0].kind == Value::Kind::Str, "one name, a Python str"))
        return Flow::Error;
      // `as scope` is the scope's full name, under the scopes around it.
      entered = Value::str(nameScope + args[0].text + "/");
      scopes.push_back(entered.text);
    } else if (path == "tf.device") {
      if (!want(args.size() == 1 && (args[0].kind == Value::Kind::Str ||
                                     args[0].kind == Value::Kind::None),
                "one device name, a Python str or None"))
        return Flow::Error;
    } else if (path == "tf.control_dependencies") {
      bool ok = args.size() == 1 &&
                (args[0].kind == Value::Kind::None ||
                 (args[0].isPySequence() && llvm::all_of(args[0].items(), [](const Value &v) {
                    return v.isTensorLike() || v.kind == Value::Kind::None ||
                           v.kind == Value::Kind::Operation;
                  })));
      if (!want(ok, "a list of tensors and operations (or None)"))
        return Flow::Error;
    } else if (!want(args.empty(), "no arguments")) {
      return Flow::Error;
    }
    if (item.target && !assign(*item.target, entered))
      return Flow::Error;
    if (!scopes.empty())
      nameScope = scopes.back();
  }
  Flow flow = execList(stmt.getBody());
  if (flow == Flow::Error)
    return flow;
  // __exit__(None, None, None), innermost first, however the body ended.
  for (const Value &exit : llvm::reverse(exits)) {
    UnconvertedScope python(*this, "__exit__, which the with statement calls unconverted");
    if (!callValue(exit, {Value::none(), Value::none(), Value::none()}, stmt.loc()))
      return Flow::Error;
  }
  return flow;
}

//===----------------------------------------------------------------------------------===//
// raise, try
//===----------------------------------------------------------------------------------===//

/// Python's exceptions a program raises by name.
static bool isBuiltinException(llvm::StringRef name) {
  return name.ends_with("Error") || name == "Exception" || name == "StopIteration" ||
         name == "KeyboardInterrupt" || name == "SystemExit";
}

Flow Tracer::Impl::execRaise(const ast::RaiseStmt &stmt) {
  // An exception raised while tracing ends the trace, as it ends TensorFlow's: agc reports
  // it as Python prints it, where it is raised.
  const ast::Expr *exc = stmt.getExc();
  if (!exc) {
    error(stmt.loc(), "RuntimeError: No active exception to re-raise");
    return Flow::Error;
  }
  const auto *call = dyn_cast<ast::CallExpr>(exc);
  const auto *name = dyn_cast<ast::NameExpr>(call ? &call->getCallee() : exc);
  std::string shown;
  if (name && isBuiltinException(name->getId()) && !frame().locals.count(name->getId()) &&
      !moduleNames().count(name->getId())) {
    shown = name->getId().str();
    std::vector<std::string> args;
    size_t count = call ? call->getArgs().size() : 0;
    for (size_t i = 0; i < count; ++i) {
      std::optional<Value> v = eval(*call->getArgs()[i]);
      if (!v)
        return Flow::Error;
      args.push_back(v->pyStr(/*repr=*/count > 1));
    }
    if (args.size() == 1)
      shown += ": " + args[0];
    else if (args.size() > 1)
      shown += ": (" + llvm::join(args, ", ") + ")";
  } else {
    std::optional<Value> v = eval(*exc);
    if (!v)
      return Flow::Error;
    shown = "raise of " + v->describe();
  }
  error(stmt.loc(), shown);
  note(stmt.loc(), "raised while tracing: tf.function raises it when it traces the function, "
                   "so agc refuses the function");
  return Flow::Error;
}

Flow Tracer::Impl::execTry(const ast::TryStmt &stmt) {
  Flow flow = execList(stmt.getBody());
  if (flow == Flow::Error) {
    // What failed was reported; agc's refusals are not Python exceptions a handler sees.
    if (!stmt.getHandlers().empty())
      note(stmt.getHandlers().front().loc,
           "agc does not catch what fails while tracing, so this handler does not run; "
           "check the condition with an if instead");
    return Flow::Error;
  }
  if (flow == Flow::Normal)
    flow = execList(stmt.getOrElse());
  if (flow == Flow::Error)
    return Flow::Error;
  // finally runs on every way out of the body, and its own exit wins.
  Flow done = execList(stmt.getFinalBody());
  return done == Flow::Normal ? flow : done;
}
