//===- Tracer.cpp - AutoGraph's decisions, made by tracing at compile time -===//
//
// Module evaluation, function arguments, statements and control flow. For each if, while
// and for the tracer decides, as AutoGraph does when it runs:
//
//   if:     test is a tensor  -> staged: both branches run; carried outputs are merged
//                                (each must be defined in both, with one dtype);
//           otherwise         -> static: only the taken branch runs.
//   while:  test is a tensor  -> staged: the body runs once with the loop variables as
//                                tensors; their dtypes and shapes must hold;
//           otherwise         -> unrolled: the body runs while the Python test holds.
//   for:    over tf.range, range(tensor) or a tensor -> staged, as while;
//           over a range, list or tuple of Python values -> unrolled.
//
// break, continue and return under a staged if are lowered to flags by AutoGraph; a flag
// is a tensor, so it cannot end a Python (unrolled) loop: that is refused as TensorFlow
// refuses using a tensor as a Python bool.
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

#include "ag/frontend/Parser.h"
#include "ag/frontend/Source.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <utility>
#include <iterator>

using namespace ag;
using namespace ag::analysis;
using llvm::cast;
using llvm::dyn_cast;

namespace {

} // namespace

const ast::Expr *ag::analysis::findBinding(const ast::StmtList &stmts, llvm::StringRef name) {
  std::function<const ast::Expr *(const ast::Expr &)> inTarget =
      [&](const ast::Expr &target) -> const ast::Expr * {
    if (const auto *n = dyn_cast<ast::NameExpr>(&target))
      return n->getId() == name ? n : nullptr;
    if (const auto *seq = dyn_cast<ast::SequenceExpr>(&target))
      for (const ast::ExprPtr &e : seq->getElements())
        if (const ast::Expr *found = inTarget(*e))
          return found;
    return nullptr;
  };
  for (const ast::StmtPtr &stmt : stmts) {
    const ast::Expr *found = nullptr;
    if (const auto *s = dyn_cast<ast::AssignStmt>(stmt.get())) {
      for (const ast::ExprPtr &t : s->getTargets())
        if (!found)
          found = inTarget(*t);
    } else if (const auto *s = dyn_cast<ast::AugAssignStmt>(stmt.get())) {
      found = inTarget(s->getTarget());
    } else if (const auto *s = dyn_cast<ast::AnnAssignStmt>(stmt.get())) {
      found = inTarget(s->getTarget());
    } else if (const auto *s = dyn_cast<ast::IfStmt>(stmt.get())) {
      found = findBinding(s->getBody(), name);
      if (!found)
        found = findBinding(s->getOrElse(), name);
    } else if (const auto *s = dyn_cast<ast::WhileStmt>(stmt.get())) {
      found = findBinding(s->getBody(), name);
    } else if (const auto *s = dyn_cast<ast::ForStmt>(stmt.get())) {
      found = inTarget(s->getTarget());
      if (!found)
        found = findBinding(s->getBody(), name);
    }
    if (found)
      return found;
  }
  return nullptr;
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
// Module and functions
//===----------------------------------------------------------------------------------===//

/// The module path agc uses for a Python module name: `tensorflow...` is `tf...`.
static std::string canonicalModule(llvm::StringRef name) {
  if (name == "tensorflow" || name.starts_with("tensorflow."))
    return ("tf" + name.drop_front(strlen("tensorflow"))).str();
  return name.str();
}

bool Tracer::Impl::evaluateModule() {
  frames.push_back(Frame{nullptr, nullptr, {}, {}, {}, {}, nullptr, nullptr});
  for (const ast::StmtPtr &stmt : module.getBody()) {
    switch (stmt->getKind()) {
    case ast::Stmt::Kind::Import:
    case ast::Stmt::Kind::ImportFrom:
    case ast::Stmt::Kind::Assign:
    case ast::Stmt::Kind::AugAssign:
    case ast::Stmt::Kind::AnnAssign:
    case ast::Stmt::Kind::FunctionDef:
      if (exec(*stmt) == Flow::Error) {
        frames.pop_back();
        return false;
      }
      break;
    default:
      // Module-level control flow and expression statements are script code that runs
      // when Python imports the file; agc compiles the functions, not the script.
      break;
    }
  }
  globals = std::move(frame().locals);
  frames.pop_back();
  return true;
}

const FunctionAnalysis &Tracer::Impl::analysisOf(const ast::FunctionDefStmt &function) {
  std::unique_ptr<FunctionAnalysis> &slot = analyses[&function];
  if (!slot)
    slot = std::make_unique<FunctionAnalysis>(function);
  return *slot;
}

/// Parses a dtype[dims] signature type: `float32[None, 3]`, `int32[]`.
static std::optional<Value> parseTensorType(llvm::StringRef text) {
  text = text.trim();
  size_t open = text.find('[');
  if (open == llvm::StringRef::npos || !text.ends_with("]"))
    return std::nullopt;
  std::optional<DType> dtype = dtypeFromName(text.take_front(open).trim());
  if (!dtype)
    return std::nullopt;
  Shape shape;
  llvm::StringRef dims = text.slice(open + 1, text.size() - 1).trim();
  llvm::SmallVector<llvm::StringRef, 4> parts;
  if (!dims.empty())
    dims.split(parts, ',');
  for (llvm::StringRef part : parts) {
    part = part.trim();
    int64_t d = -1;
    if (part != "None" && part != "?" && (part.getAsInteger(10, d) || d < 0))
      return std::nullopt;
    shape.dims.push_back(d);
  }
  return Value::tensor(*dtype, shape);
}

/// Evaluates a -D value: a Python literal (number, bool, None, string, tuple, list).
static std::optional<Value> parseDefine(llvm::StringRef name, llvm::StringRef text,
                                        Tracer::Impl &impl, DiagnosticEngine &diag) {
  std::string bufferName = ("<-D " + name + ">").str();
  std::optional<SourceFile> source = addSourceBuffer(bufferName, text, diag);
  if (!source)
    return std::nullopt;
  std::unique_ptr<ast::Module> parsed = parseModule(*source, diag);
  if (!parsed) {
    diag.usageError("-D " + name + "=" + text + ": the value is not Python");
    return std::nullopt;
  }
  const auto *stmt = parsed->getBody().size() == 1
                         ? dyn_cast<ast::ExprStmt>(parsed->getBody()[0].get())
                         : nullptr;
  if (!stmt) {
    diag.usageError("-D " + name + "=" + text + ": the value must be one Python expression");
    return std::nullopt;
  }
  // The expression is evaluated now, while its AST is alive; it holds literals only.
  return impl.eval(stmt->getValue());
}

std::optional<std::vector<Value>>
Tracer::Impl::argumentsFor(const ast::FunctionDefStmt &function, const ArgumentSpec &spec,
                           std::string *missing) {
  const std::vector<ast::Param> &params = function.getParams();
  std::vector<std::optional<Value>> values(params.size());
  frames.push_back(Frame{nullptr, nullptr, {}, {}, {}, {}, nullptr, nullptr});
  auto done = [&](bool ok) -> std::optional<std::vector<Value>> {
    frames.pop_back();
    if (!ok)
      return std::nullopt;
    std::vector<Value> out;
    for (auto &v : values)
      out.push_back(std::move(*v));
    return out;
  };

  // 1. @tf.function(input_signature=[tf.TensorSpec(...), ...]).
  for (const ast::ExprPtr &decorator : function.getDecorators()) {
    const auto *call = dyn_cast<ast::CallExpr>(decorator.get());
    const ast::Keyword *sig = call ? call->findKeyword("input_signature") : nullptr;
    if (!sig)
      continue;
    std::optional<Value> specs = eval(*sig->value);
    if (!specs)
      return done(false);
    if (!specs->isPySequence()) {
      error(sig->value->loc(), "input_signature must be a list or tuple of tf.TensorSpec");
      return done(false);
    }
    if (specs->elements.size() != params.size()) {
      error(sig->value->loc(), "input_signature has " + llvm::Twine(specs->elements.size()) +
                                   " entries but '" + function.getName() + "' takes " +
                                   llvm::Twine(params.size()) + " arguments");
      note(function.getNameLoc(), "'" + function.getName() + "' is defined here");
      return done(false);
    }
    for (size_t i = 0; i < params.size(); ++i) {
      const Value &s = specs->elements[i];
      if (s.kind != Value::Kind::TensorSpec) {
        error(sig->value->loc(), "input_signature entry " + llvm::Twine(i) +
                                     " is not a tf.TensorSpec but " + s.describe());
        return done(false);
      }
      values[i] = Value::tensor(s.dtype, s.shape);
    }
  }

  // 2. --signature 'f(x: float32[None], n: int32[])'.
  auto it = spec.signatures.find(function.getName());
  if (it != spec.signatures.end()) {
    llvm::StringRef text = llvm::StringRef(it->second).trim();
    llvm::StringRef inner = text.drop_front(function.getName().size()).trim();
    if (!text.starts_with(function.getName()) || !inner.consume_front("(") ||
        !inner.consume_back(")")) {
      diag.usageError("--signature '" + text + "': expected " + function.getName() +
                 "(name: dtype[dims], ...)");
      return done(false);
    }
    llvm::SmallVector<llvm::StringRef, 4> entries;
    // Split on commas outside brackets.
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i <= inner.size(); ++i) {
      if (i < inner.size() && inner[i] == '[')
        ++depth;
      else if (i < inner.size() && inner[i] == ']')
        --depth;
      else if (i == inner.size() || (inner[i] == ',' && depth == 0)) {
        if (!inner.slice(start, i).trim().empty())
          entries.push_back(inner.slice(start, i).trim());
        start = i + 1;
      }
    }
    for (llvm::StringRef entry : entries) {
      auto [name, type] = entry.split(':');
      name = name.trim();
      auto param = llvm::find_if(params, [&](const ast::Param &p) { return p.name == name; });
      std::optional<Value> tensor = parseTensorType(type);
      if (param == params.end() || !tensor) {
        diag.usageError("--signature '" + text + "': " +
                   (param == params.end() ? "'" + name + "' is not a parameter of " +
                                                function.getName()
                                          : "'" + type.trim() +
                                                "' is not a type like float32[None, 3]"));
        return done(false);
      }
      values[param - params.begin()] = *tensor;
    }
  }

  // 3. -D name=value, then defaults.
  for (size_t i = 0; i < params.size(); ++i) {
    if (values[i])
      continue;
    auto define = spec.defines.find(params[i].name);
    if (define != spec.defines.end()) {
      values[i] = parseDefine(params[i].name, define->second, *this, diag);
      if (!values[i])
        return done(false);
    } else if (params[i].defaultValue) {
      values[i] = eval(*params[i].defaultValue);
      if (!values[i])
        return done(false);
    } else if (missing) {
      *missing = params[i].name;
      return done(false);
    } else {
      error(params[i].loc, "no value for parameter '" + params[i].name + "' of '" +
                               function.getName() + "': give it an input_signature, " +
                               "--signature '" + function.getName() + "(" + params[i].name +
                               ": float32[None])', or -D " + params[i].name + "=VALUE");
      return done(false);
    }
  }
  return done(true);
}

std::optional<Value> Tracer::Impl::callFunction(const ast::FunctionDefStmt &function,
                                                const CallArgs &args) {
  if (frames.size() > kMaxCallDepth)
    return error(args.loc, "calls nested more than " + llvm::Twine(kMaxCallDepth) +
                               " deep (recursion is not supported in traced code)");
  const std::vector<ast::Param> &params = function.getParams();
  Frame callee{&function, &analysisOf(function), {}, {}, {}, {}, nullptr, nullptr};
  size_t positional = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    const ast::Param &param = params[i];
    const Value *value = nullptr;
    if (!param.keywordOnly && positional < args.positional.size())
      value = &args.positional[positional++];
    for (const auto &[key, v] : args.keywords)
      if (key == param.name) {
        if (value)
          return error(args.loc, "'" + function.getName() + "' got multiple values for argument '" +
                                     param.name + "'");
        value = &v;
      }
    std::optional<Value> fallback;
    if (!value && param.defaultValue) {
      fallback = eval(*param.defaultValue);
      if (!fallback)
        return std::nullopt;
      value = &*fallback;
    }
    if (!value) {
      error(args.loc, "'" + function.getName() + "' is missing the argument '" + param.name + "'");
      note(param.loc, "the parameter is declared here");
      return std::nullopt;
    }
    callee.locals[param.name] = *value;
  }
  if (positional < args.positional.size()) {
    error(args.loc, "'" + function.getName() + "' takes " + llvm::Twine(positional) +
                        (positional == 1 ? " positional argument but " : " positional arguments but ") +
                        llvm::Twine(args.positional.size()) +
                        (args.positional.size() == 1 ? " was given" : " were given"));
    note(function.getNameLoc(), "'" + function.getName() + "' is defined here");
    return std::nullopt;
  }
  for (const auto &[key, v] : args.keywords)
    if (llvm::none_of(params, [&](const ast::Param &p) { return p.name == key; })) {
      error(args.loc, "'" + function.getName() + "' got an unexpected keyword argument '" +
                          key + "'");
      note(function.getNameLoc(), "'" + function.getName() + "' is defined here");
      return std::nullopt;
    }

  frames.push_back(std::move(callee));
  // A called function is converted by AutoGraph on its own, whatever surrounds the call.
  unsigned unconverted = std::exchange(unconvertedIfExp, 0);
  Flow flow = execList(function.getBody());
  unconvertedIfExp = unconverted;
  Frame done = std::move(frames.back());
  frames.pop_back();
  if (flow == Flow::Error)
    return std::nullopt;
  if (flow == Flow::Return) {
    // Returns under staged conditions joined into one value through the flags.
    if (auto joined = done.locals.find("retval#"); emitter && joined != done.locals.end())
      return joined->second;
    return done.returnValue ? *done.returnValue : Value::none();
  }
  if (done.conditionalReturnAt) {
    error(done.conditionalReturnAt->loc(),
          "'" + function.getName() + "' returns a value here, under a staged condition, but "
          "can also reach its end and return None");
    note(function.getBody().back()->loc(),
         "the function can end here without a return; make every path return a value "
         "(a staged if is tf.cond, whose branches must both produce it)");
    return std::nullopt;
  }
  return Value::none();
}

std::optional<TraceResult> Tracer::Impl::trace(const ast::FunctionDefStmt &function,
                                               llvm::ArrayRef<Value> args) {
  TraceResult out;
  result = &out;
  failed = false;
  CallArgs call;
  call.positional.assign(args.begin(), args.end());
  for (size_t i = 0; i < call.positional.size() && i < function.getParams().size(); ++i)
    if (call.positional[i].isTensor())
      call.positional[i].tensorName = function.getParams()[i].name;
  call.loc = function.getNameLoc();
  if (emitter && !emitter->beginFunction(function, call.positional)) {
    result = nullptr;
    return std::nullopt;
  }
  std::optional<Value> value = callFunction(function, call);
  if (value && !failed && emitter && !emitter->endFunction(function, *value))
    failed = true;
  result = nullptr;
  if (!value || failed)
    return std::nullopt;
  out.result = std::move(*value);
  return out;
}

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

bool Tracer::Impl::assign(const ast::Expr &target, const Value &value) {
  if (const auto *name = dyn_cast<ast::NameExpr>(&target)) {
    if (emitter && frames.size() == 1 && !frame().function)
      emitter->bound(value, name->getId());
    Value bound = value;
    bound.boundAt = target.loc();
    frame().locals[name->getId()] = std::move(bound);
    return true;
  }
  if (const auto *seq = dyn_cast<ast::SequenceExpr>(&target)) {
    const ast::ExprList &targets = seq->getElements();
    std::vector<Value> parts;
    if (value.isPySequence()) {
      parts = value.elements;
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
    error(target.loc(), "item assignment to " + container->describe() +
                            " is not supported by agc");
    return false;
  }
  error(target.loc(), "assignment to an attribute is not supported by agc");
  return false;
}

Flow Tracer::Impl::exec(const ast::Stmt &stmt) {
  using K = ast::Stmt::Kind;
  switch (stmt.getKind()) {
  case K::Import:
    for (const ast::ImportAlias &alias : cast<ast::ImportStmt>(stmt).getNames()) {
      llvm::StringRef bound = alias.asname.empty()
                                  ? llvm::StringRef(alias.name).split('.').first
                                  : llvm::StringRef(alias.asname);
      std::string path = alias.asname.empty() ? canonicalModule(bound) : canonicalModule(alias.name);
      frame().locals[bound] = Value::module(path);
    }
    return Flow::Normal;
  case K::ImportFrom: {
    const auto &from = cast<ast::ImportFromStmt>(stmt);
    for (const ast::ImportAlias &alias : from.getNames())
      frame().locals[alias.asname.empty() ? alias.name : alias.asname] =
          Value::module(canonicalModule(from.getModule()) + "." + alias.name);
    return Flow::Normal;
  }
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
      const auto *name = dyn_cast<ast::NameExpr>(target.get());
      if (!name) {
        error(target->loc(), "only names can be deleted in traced code");
        return Flow::Error;
      }
      if (!frame().locals.erase(name->getId())) {
        error(target->loc(), "name '" + name->getId() + "' is not defined");
        return Flow::Error;
      }
    }
    return Flow::Normal;
  case K::FunctionDef: {
    Value fn;
    fn.kind = Value::Kind::Function;
    fn.function = &cast<ast::FunctionDefStmt>(stmt);
    fn.boundAt = fn.function->getNameLoc();
    frame().locals[fn.function->getName()] = fn;
    return Flow::Normal;
  }
  }
  return Flow::Normal;
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
    f.locals[(flow == Flow::Break ? "break#" : "continue#") + std::to_string(target)] = *set;
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
    // Returns that tf.cond joins must agree: tensors of one dtype.
    const Value &prior = *f.returnValue;
    bool priorTensor = prior.isTensorLike() || prior.isPyScalar();
    bool thisTensor = value->isTensorLike() || value->isPyScalar();
    auto mismatch = [&](const llvm::Twine &what) {
      error(stmt.loc(), "this return gives " + what + ", but the return at line " +
                            llvm::Twine(f.returnAt->loc().begin.line) + " gives " +
                            prior.describe() + "; returns joined by a staged condition " +
                            "must have the same type");
      note(f.returnAt->loc(), "the other return");
      return Flow::Error;
    };
    if (priorTensor != thisTensor)
      return mismatch(value->describe());
    if (thisTensor) {
      std::optional<Value> a = asTensor(prior, stmt.loc()), b = asTensor(*value, stmt.loc());
      if (!a || !b)
        return Flow::Error;
      if (a->dtype != b->dtype)
        return mismatch(b->describe());
      value = Value::tensor(a->dtype, a->shape.join(b->shape));
    }
  }
  if (!f.returnAt)
    f.returnAt = &stmt;
  f.returnValue = *value;
  f.openReturn = nullptr; // a return here covers the paths an earlier staged if left open
  if (emitter && staged) {
    // AutoGraph's retval_ and do_return: a value and a flag that staged ifs carry.
    if (!returned.isTensorLike() && !returned.isPyScalar()) {
      error(stmt.loc(), "returning " + returned.describe() + " under a staged condition is "
                        "not supported by agc's code generator yet; return a tensor");
      return Flow::Error;
    }
    std::optional<Value> set = boolTensor(true, stmt.loc());
    if (!set)
      return Flow::Error;
    f.locals["retval#"] = returned;
    f.locals["return#"] = *set;
  }
  return Flow::Return;
}

//===----------------------------------------------------------------------------------===//
// Emission: flags and guards
//===----------------------------------------------------------------------------------===//

/// The names the emitting trace keeps for AutoGraph's flags and the joined return value.
static bool isFlagName(llvm::StringRef name) { return name.contains('#'); }
/// A flag proper (a bool that a guard tests), not the return value or a loop index.
static bool isGuardFlag(llvm::StringRef name) {
  return name.starts_with("break#") || name.starts_with("continue#") || name == "return#";
}

/// Whether tracing `a` or `b` gives the same thing (the same handle, or the same Python value).
static bool sameValue(const Value &a, const Value &b) {
  if (a.kind != b.kind || a.ir != b.ir || a.i != b.i || a.f != b.f || a.s != b.s ||
      a.dtype != b.dtype || a.shape != b.shape || a.elements.size() != b.elements.size())
    return false;
  for (size_t k = 0; k < a.elements.size(); ++k)
    if (!sameValue(a.elements[k], b.elements[k]))
      return false;
  return true;
}

/// Whether `body` has a `break` of its own loop (not of a nested one).
static bool hasOwnBreak(const ast::StmtList &body) {
  for (const ast::StmtPtr &stmt : body) {
    if (stmt->getKind() == ast::Stmt::Kind::Break)
      return true;
    if (const auto *s = dyn_cast<ast::IfStmt>(stmt.get()))
      if (hasOwnBreak(s->getBody()) || hasOwnBreak(s->getOrElse()))
        return true;
  }
  return false;
}

std::optional<Value> Tracer::Impl::boolTensor(bool b, const Location &loc) {
  Value t = Value::tensor(DType::Bool, Shape::scalar());
  if (emitter && !emitter->constant(t, Value::boolean(b), loc)) {
    failed = true;
    return std::nullopt;
  }
  return t;
}

std::vector<std::string> Tracer::Impl::changedFlags(const Env &before, const Env &a,
                                                    const Env &b) const {
  std::vector<std::string> out;
  for (const Env *env : {&a, &b})
    for (const auto &entry : *env) {
      llvm::StringRef name = entry.getKey();
      if (!isFlagName(name) || name.starts_with("iter#") || llvm::is_contained(out, name))
        continue;
      auto old = before.find(name);
      if (old == before.end() || !sameValue(old->second, entry.getValue()))
        out.push_back(name.str());
    }
  llvm::sort(out);
  return out;
}

bool Tracer::Impl::emitMerge(void *token, const std::vector<std::string> &names,
                             const Env &thenEnv, const Env &elseEnv, const Location &loc) {
  Frame &f = frame();
  std::vector<Value> thenValues, elseValues, results;
  for (const std::string &name : names) {
    auto a = thenEnv.find(name), b = elseEnv.find(name);
    Value x = a != thenEnv.end() ? a->second : Value();
    Value y = b != elseEnv.end() ? b->second : Value();
    Value type;
    if (isGuardFlag(name)) {
      // A flag not set on a path is false there.
      if (!x.isDefined())
        x = Value::boolean(false);
      if (!y.isDefined())
        y = Value::boolean(false);
      type = Value::tensor(DType::Bool, Shape::scalar());
    } else if (name == "retval#") {
      // Undefined on a path that has not returned: its value is never used there.
      Emitter *saved = std::exchange(emitter, nullptr);
      std::optional<Value> tx = x.isDefined() ? asTensor(x, loc) : std::nullopt;
      std::optional<Value> ty = y.isDefined() ? asTensor(y, loc) : std::nullopt;
      emitter = saved;
      if (tx && ty && tx->dtype != ty->dtype) {
        error(loc, "the returns joined by this staged condition give " + tx->describe() +
                       " and " + ty->describe() + "; they must have one dtype");
        return false;
      }
      type = tx && ty ? Value::tensor(tx->dtype, tx->shape.join(ty->shape)) : tx ? *tx : *ty;
    } else {
      type = f.locals[name];
    }
    thenValues.push_back(std::move(x));
    elseValues.push_back(std::move(y));
    type.ir = nullptr;
    results.push_back(std::move(type));
  }
  if (!emitter->endCond(token, thenValues, elseValues, results)) {
    failed = true;
    return false;
  }
  for (size_t k = 0; k < names.size(); ++k) {
    Value &slot = f.locals[names[k]];
    Location boundAt = slot.boundAt;
    slot = results[k];
    slot.boundAt = boundAt.isValid() ? boundAt : loc;
  }
  return true;
}

Flow Tracer::Impl::execGuarded(const ast::StmtList &stmts, size_t from) {
  Frame &f = frame();
  const Location &loc = stmts[from]->loc();
  // not (break or continue or return), over the flags set so far.
  std::vector<std::string> flags;
  for (const auto &entry : f.locals)
    if (isGuardFlag(entry.getKey()))
      flags.push_back(entry.getKey().str());
  llvm::sort(flags);
  if (flags.empty())
    return execList(stmts, from);
  Value any = f.locals[flags[0]];
  for (size_t k = 1; k < flags.size(); ++k) {
    Value both = Value::tensor(DType::Bool, Shape::scalar());
    if (!emitOp(TFOp::LogicalOr, {any, f.locals[flags[k]]}, both, loc))
      return Flow::Error;
    any = both;
  }
  Value test = Value::tensor(DType::Bool, Shape::scalar());
  if (!emitOp(TFOp::LogicalNot, {any}, test, loc))
    return Flow::Error;

  Env before = f.locals;
  void *token = emitter->beginCond(test, loc);
  ++f.guards;
  Flow flow = execList(stmts, from);
  --f.guards;
  f.pendingGuard = false;
  if (flow == Flow::Error)
    return Flow::Error;
  Env thenEnv = std::move(f.locals);
  f.locals = before;
  emitter->beginElse(token);

  // Carried: what the guarded statements changed of the names bound before, and flags.
  std::vector<std::string> names;
  for (const auto &entry : before) {
    llvm::StringRef name = entry.getKey();
    auto after = thenEnv.find(name);
    if (isFlagName(name) || after == thenEnv.end() || sameValue(entry.getValue(), after->second))
      continue;
    const Value &x = after->second, &y = entry.getValue();
    if (!(x.isTensorLike() || x.isPyScalar() || x.kind == Value::Kind::TensorArray) ||
        !(y.isTensorLike() || y.isPyScalar() || y.kind == Value::Kind::TensorArray)) {
      error(loc, "'" + name + "' changes from " + y.describe() + " to " + x.describe() +
                     " in code that runs only where no earlier break, continue or return "
                     "happened (a staged condition); it must stay a tensor");
      return Flow::Error;
    }
    if (x.kind == Value::Kind::TensorArray) {
      f.locals[name] = x;
    } else {
      Emitter *saved = std::exchange(emitter, nullptr);
      std::optional<Value> tx = asTensor(x, loc), ty = asTensor(y, loc);
      emitter = saved;
      if (!tx || !ty)
        return Flow::Error;
      if (tx->dtype != ty->dtype) {
        error(loc, "'" + name + "' becomes " + tx->describe() + " where no break, continue or "
                       "return happened, but is " + ty->describe() + " otherwise");
        return Flow::Error;
      }
      f.locals[name] = Value::tensor(tx->dtype, tx->shape.join(ty->shape));
    }
    names.push_back(name.str());
  }
  llvm::sort(names);
  std::vector<std::string> changed = changedFlags(before, thenEnv, before);
  names.insert(names.end(), changed.begin(), changed.end());
  if (!emitMerge(token, names, thenEnv, before, loc))
    return Flow::Error;
  // The flags that made this guard necessary may still be set, whatever the guarded
  // statements changed: the enclosing list's rest runs only where none is (a staged
  // continue in the else of a static if once let the statements after that if run).
  f.pendingGuard = true;
  // Every path has returned: earlier (the flag) or in the guarded statements.
  return flow == Flow::Return ? Flow::Return : Flow::Normal;
}

//===----------------------------------------------------------------------------------===//
// if
//===----------------------------------------------------------------------------------===//

/// Why a test is staged or static, in words.
static std::string testReason(const Value &test) {
  if (test.isTensorLike())
    return "the test is " + aDtype(test.dtype) + " tensor";
  return "the test is " + test.describe();
}

Decision &Tracer::Impl::blockDecision(const ast::Stmt &stmt) {
  Decision &d = decision(&stmt);
  std::vector<std::string> bound;
  for (const auto &entry : frame().locals)
    bound.push_back(entry.getKey().str());
  std::sort(bound.begin(), bound.end());
  if (d.reached++ == 0) {
    d.definedBefore = std::move(bound);
  } else {
    std::vector<std::string> both;
    std::set_intersection(d.definedBefore.begin(), d.definedBefore.end(), bound.begin(),
                          bound.end(), std::back_inserter(both));
    d.definedBefore = std::move(both);
  }
  return d;
}

Flow Tracer::Impl::execIf(const ast::IfStmt &stmt) {
  std::optional<Value> test = eval(stmt.getTest());
  if (!test)
    return Flow::Error;
  Decision &d = blockDecision(stmt);
  if (test->isTensorLike()) {
    d.staged = true;
    d.reason = testReason(*test);
    return execStagedIf(stmt, *test);
  }
  std::optional<bool> holds = truth(*test);
  if (!holds) {
    error(stmt.getTest().loc(), "cannot use " + test->describe() + " as the test of an if");
    return Flow::Error;
  }
  (*holds ? d.tookTrue : d.tookFalse) = true;
  if (d.reason.empty())
    d.reason = testReason(*test);
  else if (d.tookTrue && d.tookFalse)
    d.reason = "the test is a Python bool, True on some passes and False on others";
  return execList(*holds ? stmt.getBody() : stmt.getOrElse());
}

Flow Tracer::Impl::execStagedIf(const ast::IfStmt &stmt, const Value &test) {
  if (test.dtype != DType::Bool) {
    error(stmt.getTest().loc(), "the test of this if is " + test.describe() +
                                    "; a staged if needs a bool tensor");
    note(stmt.getTest().loc(), "compare it, e.g. `x > 0`, or cast it with tf.cast(..., tf.bool)");
    return Flow::Error;
  }
  if (!test.shape.canBeScalar()) {
    error(stmt.getTest().loc(), "the test of this if is " + test.describe() +
                                    "; a staged if needs a single value (shape ())");
    note(stmt.getTest().loc(), "reduce it, e.g. with tf.reduce_all or tf.reduce_any");
    return Flow::Error;
  }
  Frame &f = frame();
  Env before = f.locals;
  void *token = emitter ? emitter->beginCond(test, stmt.loc()) : nullptr;
  f.stagedIfs.push_back({&stmt, f.loops.size()});
  f.pendingGuard = false;
  const ast::IfStmt *outerOpen = std::exchange(f.openReturn, nullptr);
  Flow thenFlow = execList(stmt.getBody());
  const ast::IfStmt *thenOpen = std::exchange(f.openReturn, nullptr);
  Env thenEnv = std::move(f.locals);
  f.locals = before;
  if (token && thenFlow != Flow::Error)
    emitter->beginElse(token);
  f.pendingGuard = false;
  Flow elseFlow = thenFlow == Flow::Error ? Flow::Error : execList(stmt.getOrElse());
  const ast::IfStmt *elseOpen = std::exchange(f.openReturn, outerOpen);
  f.pendingGuard = false;
  Env elseEnv = std::move(f.locals);
  f.stagedIfs.pop_back();
  f.locals = before;
  if (thenFlow == Flow::Error || elseFlow == Flow::Error)
    return Flow::Error;
  // A branch that ends with a return on some of its paths only: tf.cond would have to
  // give the return value from a path where it is undefined, which TensorFlow refuses.
  if (const ast::IfStmt *open = thenOpen ? thenOpen : elseOpen) {
    bool mainReturns = false;
    for (const ast::StmtPtr &s : open->getBody())
      mainReturns |= s->getKind() == ast::Stmt::Kind::Return;
    error(open->loc(), llvm::Twine("the ") + (mainReturns ? "else" : "main") +
                           " branch must also have a return statement");
    note(open->loc(), "this staged if returns on one path only, and nothing after it in the "
                      "enclosing branch returns");
    note(stmt.loc(), "the enclosing staged if (tf.cond) needs the return value from both of "
                     "its branches; add a return after the inner if, or to its other branch");
    return Flow::Error;
  }
  // This if returns on one path only: the rest of its list (or the function) must return.
  if ((thenFlow == Flow::Return) != (elseFlow == Flow::Return) &&
      (thenFlow == Flow::Return || elseFlow == Flow::Return) &&
      (thenFlow == Flow::Normal || elseFlow == Flow::Normal))
    f.openReturn = &stmt;
  if (!mergeBranches(stmt, thenEnv, elseEnv, thenFlow, elseFlow))
    return Flow::Error;
  if (token) {
    // The carried names the analysis chose (None stays None), then the flags.
    std::vector<std::string> names;
    for (const auto &[name, value] : decision(&stmt).carried)
      if (value.kind != Value::Kind::None)
        names.push_back(name);
    std::vector<std::string> flags = changedFlags(before, thenEnv, elseEnv);
    // A branch that returned on every path leaves the other names unread: AutoGraph moves
    // what follows the if into the other branch, so what the returning branch computed
    // for them is dead (TensorFlow prunes it, with any error it would raise). They are
    // undefined on that path, not carried out of it.
    for (auto [flow, env] : {std::pair{thenFlow, &thenEnv}, std::pair{elseFlow, &elseEnv}})
      if (flow == Flow::Return)
        for (const std::string &name : names)
          if (auto it = env->find(name);
              it != env->end() && it->second.kind != Value::Kind::TensorArray)
            it->second = Value();
    names.insert(names.end(), flags.begin(), flags.end());
    if (!emitMerge(token, names, thenEnv, elseEnv, stmt.loc()))
      return Flow::Error;
    if (!flags.empty())
      f.pendingGuard = true;
  }
  if (thenFlow == Flow::Return && elseFlow == Flow::Return)
    return Flow::Return;
  return Flow::Normal;
}

bool Tracer::Impl::mergeBranches(const ast::IfStmt &stmt, const Env &then, const Env &orelse,
                                 Flow thenFlow, Flow elseFlow) {
  const BlockVars &vars = frame().analysis->blocks.find(&stmt)->second;
  Decision &d = decision(&stmt);
  d.carried.clear();
  for (unsigned i = 0; i < vars.numOutputs; ++i) {
    const std::string &name = vars.carried[i];
    auto a = then.find(name), b = orelse.find(name);
    bool inThen = a != then.end(), inElse = b != orelse.end();
    // A branch that left through return, break or continue need not define it.
    bool thenLeaves = thenFlow != Flow::Normal, elseLeaves = elseFlow != Flow::Normal;
    if (!inThen && !inElse)
      continue;
    if (inThen != inElse && !(inThen ? elseLeaves : thenLeaves)) {
      const Value &defined = inThen ? a->second : b->second;
      error(stmt.loc(), "'" + name + "' must also be initialized in the " +
                            (inThen ? "else" : "main") + " branch");
      if (defined.boundAt.isValid())
        note(defined.boundAt, "'" + name + "' is assigned here, in the " +
                                  (inThen ? "main" : "else") + " branch");
      if (inThen && stmt.getOrElse().empty())
        note(stmt.loc(), "this staged if (tf.cond) has no else branch; assign '" + name +
                             "' before the if, or in an else branch, so that both branches "
                             "produce it");
      else
        note((inThen ? stmt.getOrElse().front() : stmt.getBody().front())->loc(),
             "the " + llvm::Twine(inThen ? "else" : "main") + " branch does not assign '" +
                 name + "'; assign it there too, or before the if");
      return false;
    }
    if (inThen != inElse) {
      // Only one branch goes on: its value is the one that flows out.
      const Value &only = inThen ? a->second : b->second;
      frame().locals[name] = only;
      d.carried.push_back({name, only});
      continue;
    }
    const Value &x = a->second, &y = b->second;
    bool xTensor = x.isTensorLike() || x.isPyScalar(), yTensor = y.isTensorLike() || y.isPyScalar();
    if (!xTensor || !yTensor) {
      if (x.kind == y.kind && x.kind == Value::Kind::None) {
        frame().locals[name] = x;
        d.carried.push_back({name, x});
        continue;
      }
      error(stmt.loc(), "'" + name + "' is " + x.describe() + " in the main branch and " +
                            y.describe() + " in the else branch; a staged if (tf.cond) can "
                            "only produce tensors");
      note(x.boundAt.isValid() ? x.boundAt : stmt.loc(), "assigned here in the main branch");
      return false;
    }
    // Types only: emitMerge converts the values inside their branches.
    Emitter *saved = std::exchange(emitter, nullptr);
    std::optional<Value> tx = asTensor(x, stmt.loc()), ty = asTensor(y, stmt.loc());
    emitter = saved;
    if (!tx || !ty)
      return false;
    if (tx->dtype != ty->dtype) {
      error(stmt.loc(), "'" + name + "' has dtype " + dtypeName(tx->dtype) +
                            " in the main branch, but dtype " + dtypeName(ty->dtype) +
                            " in the else branch");
      if (x.boundAt.isValid())
        note(x.boundAt, "'" + name + "' is " + x.describe() + " here");
      if (y.boundAt.isValid())
        note(y.boundAt, "and " + y.describe() + " here");
      return false;
    }
    Value merged = Value::tensor(tx->dtype, tx->shape.join(ty->shape));
    merged.boundAt = stmt.loc();
    frame().locals[name] = merged;
    d.carried.push_back({name, merged});
  }
  return true;
}

//===----------------------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------------------===//

std::optional<llvm::StringMap<Shape>>
Tracer::Impl::shapeInvariants(const ast::StmtList &body) {
  llvm::StringMap<Shape> out;
  for (const ast::StmtPtr &stmt : body) {
    const auto *expr = dyn_cast<ast::ExprStmt>(stmt.get());
    const auto *call = expr ? dyn_cast<ast::CallExpr>(&expr->getValue()) : nullptr;
    const auto *callee = call ? dyn_cast<ast::AttributeExpr>(&call->getCallee()) : nullptr;
    if (!callee || callee->getAttr() != "set_loop_options")
      continue;
    if (stmt.get() != body.front().get()) {
      error(stmt->loc(), "set_loop_options must be the first statement in the loop body");
      note(body.front()->loc(), "move it before this statement");
      return std::nullopt;
    }
    const ast::Keyword *invariants = call->findKeyword("shape_invariants");
    const auto *list = invariants ? dyn_cast<ast::SequenceExpr>(invariants->value.get()) : nullptr;
    if (!list)
      continue;
    for (const ast::ExprPtr &pair : list->getElements()) {
      const auto *tuple = dyn_cast<ast::TupleExpr>(pair.get());
      if (!tuple || tuple->getElements().size() != 2)
        continue;
      const auto *name = dyn_cast<ast::NameExpr>(tuple->getElements()[0].get());
      std::optional<Value> shape = eval(*tuple->getElements()[1]);
      if (!name || !shape)
        continue;
      if (std::optional<Shape> s = shapeFrom(*shape, tuple->getElements()[1]->loc()))
        out[name->getId()] = *s;
    }
  }
  return out;
}

Flow Tracer::Impl::execWhile(const ast::WhileStmt &stmt) {
  if (!stmt.getOrElse().empty()) {
    error(stmt.loc(), "'while' with an 'else' clause is not supported by agc");
    return Flow::Error;
  }
  Decision &d = blockDecision(stmt);
  for (unsigned n = 0;; ++n) {
    std::optional<Value> test = eval(stmt.getTest());
    if (!test)
      return Flow::Error;
    if (test->isTensorLike()) {
      if (n > 0) {
        error(stmt.getTest().loc(), "the test of this while loop became a tensor after " +
                                        llvm::Twine(n) + " Python iterations; a loop is "
                                        "staged or unrolled from its first test");
        note(stmt.getTest().loc(), "make the test a tensor from the start (for example with "
                                   "tf.constant) to stage the loop");
        return Flow::Error;
      }
      d.staged = true;
      d.reason = testReason(*test);
      return execStagedLoop(stmt, stmt.getBody(), &stmt.getTest(), nullptr, nullptr, nullptr);
    }
    std::optional<bool> holds = truth(*test);
    if (!holds) {
      error(stmt.getTest().loc(), "cannot use " + test->describe() + " as a loop test");
      return Flow::Error;
    }
    if (d.reason.empty() || n == 0)
      d.reason = "the test is a Python value (" + test->typeString() + ")";
    if (!*holds)
      return Flow::Normal;
    if (n == kWarnUnroll)
      diag.warning(stmt.loc(), "this Python while loop has run " + llvm::Twine(kWarnUnroll) +
                                   " times while tracing; every pass is unrolled into the "
                                   "program (make its condition a tensor to stage it)");
    if (n >= kMaxUnroll) {
      error(stmt.loc(), "this Python while loop ran " + llvm::Twine(kMaxUnroll) +
                            " times while tracing and is still going; agc stops unrolling here");
      note(stmt.getTest().loc(), "make the test a tensor to stage it as tf.while_loop");
      return Flow::Error;
    }
    if (std::optional<Flow> end = unrolledPass(stmt, stmt.getBody(), d))
      return *end;
  }
}

std::optional<Flow> Tracer::Impl::unrolledPass(const ast::Stmt &loop, const ast::StmtList &body,
                                               Decision &d) {
  ++d.iterations;
  Frame &f = frame();
  f.loops.push_back({&loop, false});
  Flow flow = execList(body);
  f.loops.pop_back();
  if (emitter) {
    f.locals.erase("continue#" + std::to_string(f.loops.size()));
    f.pendingGuard = false;
  }
  if (flow == Flow::Break)
    return Flow::Normal;
  if (flow == Flow::Return || flow == Flow::Error)
    return flow;
  return std::nullopt;
}

Flow Tracer::Impl::execFor(const ast::ForStmt &stmt) {
  if (!stmt.getOrElse().empty()) {
    error(stmt.loc(), "'for' with an 'else' clause is not supported by agc");
    return Flow::Error;
  }
  if (emitter)
    emitter->iterable(stmt.getIter().loc());
  std::optional<Value> iter = eval(stmt.getIter());
  if (!iter)
    return Flow::Error;
  Decision &d = blockDecision(stmt);
  if (iter->isTensorLike()) {
    if (!iter->shape.rankKnown || iter->shape.rank() == 0) {
      error(stmt.getIter().loc(), "cannot iterate over " + iter->describe() +
                                      "; a staged for loop iterates over the first dimension");
      return Flow::Error;
    }
    d.staged = true;
    d.reason = "it iterates over " + iter->describe();
    Shape inner = iter->shape;
    inner.dims.erase(inner.dims.begin());
    Value element = Value::tensor(iter->dtype, inner);
    std::optional<Value> iterated = asTensor(*iter, stmt.getIter().loc());
    if (!iterated)
      return Flow::Error;
    return execStagedLoop(stmt, stmt.getBody(), nullptr, &stmt, &element, &*iterated);
  }
  std::vector<Value> items;
  if (iter->kind == Value::Kind::Range) {
    int64_t start = iter->elements[0].i, step = iter->elements[2].i;
    int64_t count = rangeLength(*iter).value_or(INT64_MAX);
    if (count > int64_t(kMaxUnroll)) {
      error(stmt.getIter().loc(), "this Python for loop would unroll " + llvm::Twine(count) +
                                      " times (agc's limit is " + llvm::Twine(kMaxUnroll) +
                                      "); iterate over tf.range(...) to stage it");
      return Flow::Error;
    }
    if (count > int64_t(kWarnUnroll))
      diag.warning(stmt.getIter().loc(), "this Python for loop unrolls " + llvm::Twine(count) +
                                             " times while tracing; iterate over tf.range(...) "
                                             "to stage it");
    for (int64_t k = 0; k < count; ++k)
      items.push_back(Value::integer(start + k * step));
    d.reason = "it iterates over a Python range";
  } else if (iter->isPySequence()) {
    items = iter->elements;
    d.reason = "it iterates over a Python " + iter->typeString();
  } else if (iter->kind == Value::Kind::Str) {
    for (char c : iter->s)
      items.push_back(Value::str(std::string(1, c)));
    d.reason = "it iterates over a Python str";
  } else {
    error(stmt.getIter().loc(), "cannot iterate over " + iter->describe());
    return Flow::Error;
  }
  for (const Value &item : items) {
    if (!assign(stmt.getTarget(), item))
      return Flow::Error;
    if (std::optional<Flow> end = unrolledPass(stmt, stmt.getBody(), d))
      return *end;
  }
  return Flow::Normal;
}

std::optional<Value> Tracer::Impl::checkLoopVariable(const ast::Stmt &stmt,
                                                     const std::string &name,
                                                     const Value &before0,
                                                     const std::string &entryDescription) {
  auto it = frame().locals.find(name);
  if (it == frame().locals.end()) {
    error(stmt.loc(), "'" + name + "' is deleted in the loop but is a loop variable");
    return std::nullopt;
  }
  const Value &after = it->second;
  if (before0.kind == Value::Kind::TensorArray) {
    if (after.kind != Value::Kind::TensorArray) {
      error(stmt.loc(), "'" + name + "' is a tf.TensorArray before the loop, but " +
                            after.describe() + " after one iteration");
      return std::nullopt;
    }
    return after;
  }
  if (!after.isTensorLike() && !after.isPyScalar()) {
    error(stmt.loc(), "'" + name + "' is a tensor before the loop, but " + after.describe() +
                          " after one iteration");
    if (after.boundAt.isValid())
      note(after.boundAt, "'" + name + "' is assigned here");
    return std::nullopt;
  }
  std::optional<Value> t = asTensor(after, stmt.loc());
  if (!t)
    return std::nullopt;
  if (t->dtype != before0.dtype) {
    error(stmt.loc(), "'" + name + "' has dtype " + dtypeName(before0.dtype) +
                          " before the loop, but dtype " + dtypeName(t->dtype) +
                          " after one iteration");
    if (after.boundAt.isValid())
      note(after.boundAt, "'" + name + "' becomes " + t->describe() + " here");
    if (before0.boundAt.isValid())
      note(before0.boundAt, "'" + name + "' is " + entryDescription + " before the loop");
    return std::nullopt;
  }
  if (!before0.shape.admits(t->shape)) {
    error(stmt.loc(), "'" + name + "' has shape " + before0.shape.str() +
                          " before the loop, but shape " + t->shape.str() +
                          " after one iteration. Use "
                          "tf.autograph.experimental.set_loop_options to set shape "
                          "invariants.");
    if (after.boundAt.isValid())
      note(after.boundAt, "'" + name + "' gets shape " + t->shape.str() + " here");
    if (t->shape.admits(before0.shape) && before0.shape.isFullyKnown()) {
      // The body lost shape information: set_shape can restore it.
      note(stmt.loc(), "if it keeps its shape at run time, say so in the body with `" +
                           name + ".set_shape(" + before0.shape.pyList() + ")`");
    } else {
      Shape both = before0.shape.join(t->shape);
      note(stmt.loc(), "to let it change, put `tf.autograph.experimental.set_loop_options("
                       "shape_invariants=[(" + name + ", tf.TensorShape(" +
                           both.pyList() + "))])` first in the loop body");
    }
    return std::nullopt;
  }
  return before0;
}

Flow Tracer::Impl::execStagedLoop(const ast::Stmt &stmt, const ast::StmtList &body,
                                  const ast::Expr *test, const ast::ForStmt *forStmt,
                                  const Value *element, const Value *iterated) {
  Frame &f = frame();
  const BlockVars &vars = f.analysis->blocks.find(&stmt)->second;
  Decision &d = decision(&stmt);
  Env before = f.locals;
  std::optional<llvm::StringMap<Shape>> found = shapeInvariants(body);
  if (!found)
    return Flow::Error;
  llvm::StringMap<Shape> &invariants = *found;
  d.shapeInvariants.clear();
  for (const auto &entry : invariants)
    d.shapeInvariants.push_back({entry.getKey().str(), entry.getValue()});
  llvm::sort(d.shapeInvariants, [](const auto &a, const auto &b) { return a.first < b.first; });

  // 1. Loop variables: defined before the loop, and tensors from here on.
  std::vector<std::pair<std::string, Value>> entry;
  llvm::StringMap<std::string> entryDescriptions; // for notes: the value as written
  for (const std::string &name : vars.carried) {
    auto it = f.locals.find(name);
    if (it == f.locals.end()) {
      error(stmt.loc(), "'" + name + "' must be defined before the loop");
      if (const ast::Expr *bound = findBinding(body, name))
        note(bound->loc(), "'" + name + "' is assigned here, in the loop, and used " +
                               "after an iteration or after the loop");
      note(stmt.loc(), "a staged loop (tf.while_loop) can run zero times, so '" + name +
                           "' needs a value before it; for example `" + name +
                           " = tf.zeros_like(...)`");
      return Flow::Error;
    }
    const Value &v = it->second;
    if (v.kind == Value::Kind::TensorArray) {
      entry.push_back({name, v});
      continue;
    }
    if (!v.isTensorLike() && !v.isPyScalar()) {
      error(stmt.loc(), "'" + name + "' is " + v.describe() +
                            " before the loop; a variable of a staged loop must be a tensor "
                            "or a Python number");
      if (v.boundAt.isValid())
        note(v.boundAt, "'" + name + "' is assigned here");
      return Flow::Error;
    }
    std::optional<Value> t = asTensor(v, stmt.loc());
    if (!t)
      return Flow::Error;
    auto inv = invariants.find(name);
    if (inv != invariants.end()) {
      if (!inv->second.admits(t->shape)) {
        error(stmt.loc(), "'" + name + "' has shape " + t->shape.str() +
                              " before the loop, which its shape invariant " +
                              inv->second.str() + " does not admit");
        return Flow::Error;
      }
      Value relaxed = Value::tensor(t->dtype, inv->second);
      if (emitter && !emitter->castTo(relaxed, *t, stmt.loc())) {
        failed = true;
        return Flow::Error;
      }
      *t = relaxed;
    }
    t->boundAt = v.boundAt;
    f.locals[name] = *t;
    entry.push_back({name, *t});
    entryDescriptions[name] = v.isPyScalar()
                                  ? v.describe() + ", which the loop makes " + t->describe()
                                  : v.describe();
  }

  // Emitting: AutoGraph's extra loop variables (the break flag; a for loop's index
  // into what it iterates, and its trip count), then the loop's test region.
  const std::string depth = std::to_string(f.loops.size());
  const std::string breakFlag = "break#" + depth, index = "iter#" + depth;
  std::optional<Value> tripCount;
  void *token = nullptr;
  if (emitter) {
    if (hasOwnBreak(body)) {
      std::optional<Value> unset = boolTensor(false, stmt.loc());
      if (!unset)
        return Flow::Error;
      f.locals[breakFlag] = *unset;
      entry.push_back({breakFlag, *unset});
    }
    if (forStmt) {
      int64_t n = iterated->shape.dims[0];
      if (n >= 0) {
        tripCount = Value::integer(n);
      } else {
        Value shape = Value::tensor(DType::Int32, Shape::of({iterated->shape.rank()}));
        Value first = Value::tensor(DType::Int32, Shape::scalar());
        IndexItem zero;
        zero.index = Value::integer(0);
        zero.loc = stmt.loc();
        if (!emitOp(TFOp::Shape, {*iterated}, shape, stmt.loc()) ||
            !emitter->subscript(shape, {zero}, first, stmt.loc())) {
          failed = true;
          return Flow::Error;
        }
        tripCount = first;
      }
      Value start = Value::tensor(DType::Int32, Shape::scalar());
      if (!emitter->constant(start, Value::integer(0), stmt.loc())) {
        failed = true;
        return Flow::Error;
      }
      f.locals[index] = start;
      entry.push_back({index, start});
    }
    std::vector<Value> vars;
    for (auto &[name, value] : entry)
      vars.push_back(value);
    token = emitter->beginLoop(vars, stmt.loc());
    for (size_t k = 0; k < entry.size(); ++k)
      f.locals[entry[k].first].ir = vars[k].ir;
  }

  // 2. The test, as tf.while_loop traces it: on the loop variables.
  std::optional<Value> go;
  if (test) {
    std::optional<Value> t = eval(*test);
    if (!t)
      return Flow::Error;
    if (!t->isTensorLike() || t->dtype != DType::Bool ||
        (t->shape.rankKnown && t->shape.rank() != 0)) {
      error(test->loc(), "the test of this staged loop is " + t->describe() +
                             "; it must be a scalar bool tensor");
      return Flow::Error;
    }
    go = asTensor(*t, test->loc());
  }
  if (token) {
    if (forStmt)
      go = compare(ast::CmpOp::Lt, f.locals[index], *tripCount, stmt.loc());
    if (go && f.locals.count(breakFlag)) {
      Value notBroken = Value::tensor(DType::Bool, Shape::scalar());
      Value both = Value::tensor(DType::Bool, Shape::scalar());
      if (!emitOp(TFOp::LogicalNot, {f.locals[breakFlag]}, notBroken, stmt.loc()) ||
          !emitOp(TFOp::LogicalAnd, {*go, notBroken}, both, stmt.loc()))
        return Flow::Error;
      go = both;
    }
    if (!go)
      return Flow::Error;
    std::vector<Value> vars;
    for (auto &[name, value] : entry)
      vars.push_back(f.locals[name]);
    if (!emitter->loopBody(token, *go, vars)) {
      failed = true;
      return Flow::Error;
    }
    for (size_t k = 0; k < entry.size(); ++k)
      f.locals[entry[k].first].ir = vars[k].ir;
  }
  if (forStmt) {
    Value item = *element;
    if (token) {
      IndexItem at;
      at.index = f.locals[index];
      at.loc = forStmt->getIter().loc();
      if (!emitter->subscript(*iterated, {at}, item, forStmt->getIter().loc())) {
        failed = true;
        return Flow::Error;
      }
    }
    if (!assign(forStmt->getTarget(), item))
      return Flow::Error;
  }

  // 3. One pass of the body.
  f.loops.push_back({&stmt, true});
  Flow flow = execList(body);
  f.loops.pop_back();
  if (flow == Flow::Error)
    return Flow::Error;
  if (token) {
    f.pendingGuard = false;
    f.locals.erase("continue#" + depth);
    if (forStmt) {
      std::optional<Value> next = binary(ast::BinaryOp::Add, f.locals[index], Value::integer(1),
                                         stmt.loc());
      if (!next)
        return Flow::Error;
      f.locals[index] = *next;
    }
  }

  // 4. Loop variables keep their dtype and shape.
  d.carried.clear();
  std::vector<Value> next, results;
  for (auto &[name, before0] : entry) {
    std::optional<Value> carried = checkLoopVariable(stmt, name, before0, entryDescriptions[name]);
    if (!carried)
      return Flow::Error;
    next.push_back(f.locals[name]);
    results.push_back(*carried);
    results.back().ir = nullptr;
    if (!isFlagName(name))
      d.carried.push_back({name, *carried});
  }
  if (token) {
    if (!emitter->endLoop(token, next, results)) {
      failed = true;
      return Flow::Error;
    }
    for (size_t k = 0; k < entry.size(); ++k)
      if (!isFlagName(entry[k].first))
        d.carried[k].second.ir = results[k].ir;
  }

  // 5. After the loop: the loop variables as tensors; what the body bound is local to it.
  f.locals = std::move(before);
  for (auto &[name, value] : d.carried)
    f.locals[name] = value;
  // A return in the body is conditional (execReturn noted it): tracing goes on.
  return Flow::Normal;
}

//===----------------------------------------------------------------------------------===//
// Public interface
//===----------------------------------------------------------------------------------===//

Tracer::Tracer(const ast::Module &module, DiagnosticEngine &diag)
    : impl(std::make_unique<Impl>(module, diag)) {}
Tracer::~Tracer() = default;
bool Tracer::evaluateModule() { return impl->evaluateModule(); }
void Tracer::setEmitter(Emitter *emitter) { impl->emitter = emitter; }
std::optional<std::vector<Value>> Tracer::argumentsFor(const ast::FunctionDefStmt &function,
                                                       const ArgumentSpec &spec,
                                                       std::string *missing) {
  return impl->argumentsFor(function, spec, missing);
}
std::optional<TraceResult> Tracer::trace(const ast::FunctionDefStmt &function,
                                         llvm::ArrayRef<Value> args) {
  return impl->trace(function, args);
}
const FunctionAnalysis &Tracer::analysisOf(const ast::FunctionDefStmt &function) {
  return impl->analysisOf(function);
}

std::optional<TraceResult> ag::analysis::traceModule(Tracer &tracer, const ast::Module &module,
                                                     const ArgumentSpec &spec,
                                                     llvm::StringRef only) {
  if (!tracer.evaluateModule())
    return std::nullopt;
  TraceResult merged;
  bool ok = true;
  for (const ast::StmtPtr &stmt : module.getBody()) {
    const auto *function = dyn_cast<ast::FunctionDefStmt>(stmt.get());
    if (!function || function->getDecorators().empty() ||
        (!only.empty() && function->getName() != only))
      continue;
    std::optional<std::vector<Value>> args = tracer.argumentsFor(*function, spec);
    std::optional<TraceResult> trace = args ? tracer.trace(*function, *args) : std::nullopt;
    if (!trace) {
      ok = false;
      continue;
    }
    for (auto &[node, d] : trace->decisions) {
      auto [it, inserted] = merged.decisions.try_emplace(node, d);
      if (inserted)
        continue;
      Decision &m = it->second;
      if (d.staged && !m.staged) {
        m.staged = true;
        m.reason = d.reason;
        m.carried = d.carried;
      }
      m.tookTrue |= d.tookTrue;
      m.tookFalse |= d.tookFalse;
      m.reached += d.reached;
      m.iterations += d.iterations;
      std::vector<std::string> both;
      std::set_intersection(m.definedBefore.begin(), m.definedBefore.end(),
                            d.definedBefore.begin(), d.definedBefore.end(),
                            std::back_inserter(both));
      m.definedBefore = std::move(both);
    }
    merged.printed.insert(merged.printed.end(), trace->printed.begin(), trace->printed.end());
  }
  if (!ok)
    return std::nullopt;
  return merged;
}

Emitter::~Emitter() = default;
