//===- Tracer.cpp - AutoGraph's decisions, made by tracing at compile time -===//
//
// Module evaluation, function arguments and calls, and the public interface; statements in
// TracerStmts.cpp, ifs in TracerConditionals.cpp, loops in TracerLoops.cpp, expressions in
// TracerExpr.cpp. For each if, while and for the tracer decides, as AutoGraph does when it
// runs:
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
    } else if (const auto *s = dyn_cast<ast::ForStmt>(stmt.get())) {
      found = inTarget(s->getTarget());
    } else if (const auto *s = dyn_cast<ast::WithStmt>(stmt.get())) {
      for (const ast::WithItem &item : s->getItems())
        if (!found && item.target)
          found = inTarget(*item.target);
    }
    for (const ast::StmtList *block : ast::nestedBlocks(*stmt))
      if (!found)
        found = findBinding(*block, name);
    if (found)
      return found;
  }
  return nullptr;
}


//===----------------------------------------------------------------------------------===//
// Module and functions
//===----------------------------------------------------------------------------------===//

void ag::analysis::assignedNames(const ast::Expr &target, std::vector<ast::Identifier> &out) {
  if (const auto *name = dyn_cast<ast::NameExpr>(&target))
    out.push_back({name->loc(), name->getId().str()});
  else if (const auto *seq = dyn_cast<ast::SequenceExpr>(&target))
    for (const ast::ExprPtr &e : seq->getElements())
      ag::analysis::assignedNames(*e, out);
}

void ag::analysis::boundNames(const ast::Stmt &stmt, std::vector<ast::Identifier> &out) {
  if (const auto *s = dyn_cast<ast::AssignStmt>(&stmt))
    for (const ast::ExprPtr &target : s->getTargets())
      assignedNames(*target, out);
  else if (const auto *s = dyn_cast<ast::AugAssignStmt>(&stmt))
    assignedNames(s->getTarget(), out);
  else if (const auto *s = dyn_cast<ast::AnnAssignStmt>(&stmt))
    assignedNames(s->getTarget(), out);
  else if (const auto *s = dyn_cast<ast::FunctionDefStmt>(&stmt))
    out.push_back({s->getNameLoc(), s->getName().str()});
  else if (const auto *s = dyn_cast<ast::ClassDefStmt>(&stmt))
    out.push_back({s->getNameLoc(), s->getName().str()});
  else if (const auto *s = dyn_cast<ast::ImportStmt>(&stmt))
    for (const ast::ImportAlias &alias : s->getNames())
      out.push_back({alias.loc, alias.asname.empty()
                                    ? llvm::StringRef(alias.name).split('.').first.str()
                                    : alias.asname});
  else if (const auto *s = dyn_cast<ast::ImportFromStmt>(&stmt))
    for (const ast::ImportAlias &alias : s->getNames())
      out.push_back({alias.loc, alias.asname.empty() ? alias.name : alias.asname});
}

bool Tracer::Impl::evaluateModule() {
  frames.emplace_back(nullptr, nullptr, nullptr);
  refusals.clear();
  failed = false;
  globals.clear();
  imported.clear();
  unknownModules.clear();
  if (readFiles.empty())
    readFiles.push_back(module.loc().file.str());
  evaluatingModule = true;
  evaluateBody(module.getBody(), nullptr);
  evaluatingModule = false;
  globals = std::move(frame().locals);
  frames.pop_back();
  return !diag.hadUsageError();
}

void Tracer::Impl::evaluateBody(const ast::StmtList &body, const Location *importedAt) {
  // A name whose module-level statement agc refused, or could not evaluate (a Keras
  // model, a class), is refused where a traced function uses it: Python would run the
  // statement, and TensorFlow fails only functions that need what it made.
  auto refuse = [&](const std::vector<ast::Identifier> &names,
                    const std::vector<StoredDiagnostic> &why) {
    for (const ast::Identifier &id : names) {
      Value v;
      v.kind = Value::Kind::Refused;
      v.refusal = &why;
      v.boundAt = id.loc;
      frame().locals[id.name] = v;
    }
  };
  for (const ast::StmtPtr &stmt : body) {
    switch (stmt->getKind()) {
    case ast::Stmt::Kind::Unsupported: {
      const auto &unsupported = cast<ast::UnsupportedStmt>(*stmt);
      refuse(unsupported.getBinds(), unsupported.getWhy());
      break;
    }
    case ast::Stmt::Kind::Import:
    case ast::Stmt::Kind::ImportFrom:
    case ast::Stmt::Kind::Assign:
    case ast::Stmt::Kind::AugAssign:
    case ast::Stmt::Kind::AnnAssign:
    case ast::Stmt::Kind::FunctionDef:
    case ast::Stmt::Kind::ClassDef: {
      std::vector<StoredDiagnostic> captured;
      std::vector<StoredDiagnostic> *outer = diag.setSink(&captured);
      Flow flow = exec(*stmt);
      diag.setSink(outer);
      if (flow != Flow::Error) {
        diag.report(captured); // warnings
        break;
      }
      failed = false;
      if (importedAt) // where the importing file asked for it
        captured.push_back({Severity::Note, *importedAt, "imported here"});
      std::vector<ast::Identifier> names;
      boundNames(*stmt, names);
      refusals.push_back(std::move(captured));
      refuse(names, refusals.back());
      break;
    }
    default:
      // Module-level control flow and expression statements are script code that runs
      // when Python imports the file; agc compiles the functions, not the script.
      break;
    }
  }
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
  // A method compiled on its own: `self` is the instance; the signature gives the rest.
  size_t bound = 0;
  if (entrySelf) {
    if (params.empty()) {
      error(function.getNameLoc(), "the method '" + function.getName() + "' takes no 'self'");
      return std::nullopt;
    }
    values[0] = *entrySelf;
    bound = 1;
  }
  // The name the command line gives it (`model.method`), for --signature.
  std::string entry = entryName.empty() ? function.getName().str() : entryName;
  frames.emplace_back(nullptr, nullptr, nullptr);
  failed = false; // an earlier function's failure is not this one's (the typing rules read it)
  for (const ast::Param &param : params)
    if (!param.isPlain()) {
      error(param.loc, "'" + function.getName() + "' is compiled as an entry point, whose C "
                       "signature takes named parameters, not '" +
                       (param.varArgs ? "*" : "**") + param.name + "'");
      note(function.getNameLoc(), "call it from a function with named parameters, and compile "
                                  "that one");
      frames.pop_back();
      return std::nullopt;
    }
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
    if (specs->items().size() != params.size() - bound) {
      error(sig->value->loc(), "input_signature has " + llvm::Twine(specs->items().size()) +
                                   " entries but '" + function.getName() + "' takes " +
                                   llvm::Twine(params.size() - bound) + " arguments" +
                                   (bound ? " besides self" : ""));
      note(function.getNameLoc(), "'" + function.getName() + "' is defined here");
      return done(false);
    }
    for (size_t i = bound; i < params.size(); ++i) {
      const Value &s = specs->items()[i - bound];
      if (s.kind != Value::Kind::TensorSpec) {
        error(sig->value->loc(), "input_signature entry " + llvm::Twine(i) +
                                     " is not a tf.TensorSpec but " + s.describe());
        return done(false);
      }
      values[i] = Value::tensor(s.dtype, s.shape);
    }
  }

  // 2. --signature 'f(x: float32[None], n: int32[])'.
  auto it = spec.signatures.find(entry);
  if (it != spec.signatures.end()) {
    llvm::StringRef text = llvm::StringRef(it->second).trim();
    llvm::StringRef inner = text.drop_front(entry.size()).trim();
    if (!text.starts_with(entry) || !inner.consume_front("(") || !inner.consume_back(")")) {
      diag.usageError("--signature '" + text + "': expected " + entry +
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
                               "--signature '" + entry + "(" + params[i].name +
                               ": float32[None])', or -D " + params[i].name + "=VALUE");
      return done(false);
    }
  }
  return done(true);
}

/// How an unconverted function's reason goes on to the functions it calls.
static constexpr llvm::StringLiteral kNorWhatItCalls = ", nor the functions it calls";

/// The first `yield` in `stmts` (a refused statement; not in nested functions), or null:
/// calling a generator function makes a generator, which agc does not support, whatever
/// path the call would take.
static const ast::UnsupportedStmt *findYield(const ast::StmtList &stmts) {
  for (const ast::StmtPtr &stmt : stmts) {
    if (const auto *u = llvm::dyn_cast<ast::UnsupportedStmt>(stmt.get()))
      if (llvm::StringRef(u->getWhy()[0].message).starts_with("generators ('yield')"))
        return u;
    if (llvm::isa<ast::FunctionDefStmt>(stmt.get()) || llvm::isa<ast::ClassDefStmt>(stmt.get()))
      continue;
    for (const ast::StmtList *block : ast::nestedBlocks(*stmt))
      if (const ast::UnsupportedStmt *u = findYield(*block))
        return u;
  }
  return nullptr;
}

std::optional<Value> Tracer::Impl::callFunction(const ast::FunctionDefStmt &function,
                                                const CallScope *closure, const CallArgs &args,
                                                const std::vector<Value> *defaults) {
  if (const ast::UnsupportedStmt *yield = findYield(function.getBody())) {
    diag.report(yield->getWhy());
    failed = true;
    note(args.loc, "'" + function.getName() + "' is a generator function (it holds a yield), "
                   "called here");
    return std::nullopt;
  }
  if (frames.size() > kMaxCallDepth)
    return error(args.loc, "calls nested more than " + llvm::Twine(kMaxCallDepth) +
                               " deep while tracing: a recursion must end on Python values "
                               "within that depth");
  const std::vector<ast::Param> &params = function.getParams();
  Frame callee(&function, &analysisOf(function), closure);
  // Unconverted: called from unconverted code, or by Python itself (a constructor, ...).
  if (!unconvertedCall.empty()) {
    callee.unconverted = std::exchange(unconvertedCall, std::string());
  } else if (!frames.empty() && !frames.back().unconverted.empty()) {
    callee.unconverted = frames.back().unconverted;
    if (!llvm::StringRef(callee.unconverted).ends_with(kNorWhatItCalls))
      callee.unconverted += kNorWhatItCalls;
  }
  size_t positional = 0;
  bool varArgs = false, varKeywords = false;
  for (size_t i = 0; i < params.size(); ++i) {
    const ast::Param &param = params[i];
    if (param.varArgs) { // *args: the positional arguments no parameter took, a tuple
      std::vector<Value> rest(args.positional.begin() + std::min(positional, args.positional.size()),
                              args.positional.end());
      positional = args.positional.size();
      callee.locals[param.name] = Value::sequence(Value::Kind::Tuple, std::move(rest));
      varArgs = true;
      continue;
    }
    if (param.varKeywords) { // **kwargs: the keyword arguments no parameter took, a dict
      std::vector<Value> keys, values;
      for (const auto &[key, v] : args.keywords)
        if (llvm::none_of(params, [&](const ast::Param &p) {
              return p.name == key && p.isPlain();
            })) {
          keys.push_back(Value::str(key));
          values.push_back(v);
        }
      callee.locals[param.name] = Value::dict(std::move(keys), std::move(values));
      varKeywords = true;
      continue;
    }
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
      if (defaults && i < defaults->size() && (*defaults)[i].isDefined())
        fallback = (*defaults)[i];
      else
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
  if (positional < args.positional.size() && !varArgs) {
    error(args.loc, "'" + function.getName() + "' takes " + llvm::Twine(positional) +
                        (positional == 1 ? " positional argument but " : " positional arguments but ") +
                        llvm::Twine(args.positional.size()) +
                        (args.positional.size() == 1 ? " was given" : " were given"));
    note(function.getNameLoc(), "'" + function.getName() + "' is defined here");
    return std::nullopt;
  }
  for (const auto &[key, v] : args.keywords)
    if (!varKeywords &&
        llvm::none_of(params, [&](const ast::Param &p) { return p.name == key; })) {
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
  if (done.closedOver)
    closedOver.push_back(std::move(done.scope)); // done.locals lives on there
  if (flow == Flow::Error)
    return std::nullopt;
  if (flow == Flow::Return) {
    // Returns under staged conditions joined into one value through the flags.
    if (auto joined = done.locals.find(returnSlot()); emitter && joined != done.locals.end())
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
  traceFirstObject = Object::made();
  CallArgs call;
  call.positional.assign(args.begin(), args.end());
  for (size_t i = 0; i < call.positional.size() && i < function.getParams().size(); ++i)
    if (call.positional[i].isTensor())
      call.positional[i].tensorName = function.getParams()[i].name;
  call.loc = function.getNameLoc();
  std::string name = entryName.empty() ? function.getName().str() : entryName;
  if (emitter && !emitter->beginFunction(function, name, call.positional)) {
    result = nullptr;
    return std::nullopt;
  }
  // A function with decorators besides @tf.function is what they made of it: trace a
  // call of that (as tf.function calls what its decorators return). For a method, what
  // its instance's attribute is (`self` then comes from there).
  std::optional<Value> value;
  bool decorated = function.getDecorators().size() > (function.isTfFunction() ? 1u : 0u);
  std::optional<Value> method;
  if (decorated && entrySelf) {
    method = objectAttribute(*entrySelf, function.getName(), function.getNameLoc());
    if (method && method->kind == Value::Kind::BoundMethod &&
        method->elements[1].function == &function) {
      method.reset(); // the function as written
    } else if (method) {
      call.positional.erase(call.positional.begin()); // bound already
      value = callValue(*method, call);
    }
    decorated = false;
  }
  auto bound = globals.find(function.getName());
  if (method || failed) {
    // traced through the instance's attribute above (or that failed)
  } else if (decorated && bound != globals.end() && bound->second.kind == Value::Kind::Refused) {
    error(function.getNameLoc(), "'" + function.getName() + "' cannot be compiled: agc could "
                                 "not apply its decorators");
    for (const StoredDiagnostic &why : *bound->second.refusal)
      note(why.loc.isValid() ? why.loc : function.getNameLoc(), why.message);
  } else if (decorated && bound != globals.end() &&
             !(bound->second.kind == Value::Kind::Function && bound->second.function == &function)) {
    value = callValue(Value(bound->second), call);
  } else {
    // @tf.function(autograph=False): nothing in the function is converted.
    std::optional<UnconvertedScope> off;
    if (const auto *call = llvm::dyn_cast_or_null<ast::CallExpr>(function.getTfFunction()))
      if (const ast::Keyword *autograph = call->findKeyword("autograph"))
        if (const auto *b = llvm::dyn_cast<ast::BoolLitExpr>(autograph->value.get());
            b && !b->getValue())
          off.emplace(*this, "'" + function.getName().str() +
                                 "', whose @tf.function says autograph=False");
    value = callFunction(function, /*closure=*/nullptr, call);
  }
  closedOver.clear();
  forgetKeptTensors(function);
  // tf.function returns a NumPy array as a constant tensor of its dtype.
  if (value && !failed && !arraysToConstants(*value, std::nullopt, function.getNameLoc()))
    failed = true;
  if (value && !failed && emitter && !emitter->endFunction(function, *value))
    failed = true;
  result = nullptr;
  if (!value || failed)
    return std::nullopt;
  out.result = std::move(*value);
  return out;
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
DiagnosticEngine &Tracer::getDiagnostics() { return impl->diag; }
void Tracer::setImportPath(const std::vector<std::string> &dirs) {
  impl->importPath = dirs;
  if (const char *env = std::getenv("AGC_PATH")) {
    llvm::SmallVector<llvm::StringRef, 4> parts;
    llvm::StringRef(env).split(parts, ':', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef p : parts)
      impl->importPath.push_back(p.str());
  }
}
const std::vector<std::string> &Tracer::getReadFiles() const { return impl->readFiles; }
std::vector<std::pair<std::string, const ast::Module *>> Tracer::getImportedModules() const {
  std::vector<std::pair<std::string, const ast::Module *>> out;
  for (const std::string &file : impl->readFiles)
    if (auto it = impl->imported.find(file); it != impl->imported.end())
      out.push_back({it->second->name, it->second->ast});
  return out;
}

std::optional<TraceResult> Tracer::traceEntry(const EntryPoint &entry, const ArgumentSpec &spec,
                                              std::vector<Value> *argsOut) {
  if (const auto *refused = dyn_cast<ast::UnsupportedStmt>(entry.stmt)) {
    impl->diag.report(refused->getWhy());
    return std::nullopt;
  }
  const auto &function = cast<ast::FunctionDefStmt>(*entry.stmt);
  std::optional<Value> self;
  if (!entry.receiver.empty()) {
    // The instance module-level code made: its method is traced with it as `self`.
    auto bound = impl->globals.find(entry.receiver);
    if (bound == impl->globals.end() || bound->second.kind == Value::Kind::Refused) {
      impl->error(function.getNameLoc(), "'" + entry.name + "' cannot be compiled: agc could "
                                         "not make '" + entry.receiver + "' at the top level "
                                         "of the file");
      if (bound != impl->globals.end())
        for (const StoredDiagnostic &why : *bound->second.refusal)
          impl->note(why.loc.isValid() ? why.loc : function.getNameLoc(), why.message);
      return std::nullopt;
    }
    if (bound->second.kind != Value::Kind::Instance)
      return impl->error(function.getNameLoc(), "'" + entry.receiver + "' is " +
                                                    bound->second.describe() +
                                                    ", not an instance of a class");
    self = bound->second;
  }
  impl->entryName = entry.name;
  impl->entrySelf = self ? &*self : nullptr;
  std::optional<std::vector<Value>> args = argumentsFor(function, spec);
  if (args && argsOut)
    *argsOut = *args;
  std::optional<TraceResult> out = args ? trace(function, *args) : std::nullopt;
  impl->entrySelf = nullptr;
  impl->entryName.clear();
  return out;
}

std::optional<std::vector<EntryPoint>>
ag::analysis::entryPoints(const ast::Module &module, const ArgumentSpec &spec,
                          DiagnosticEngine &diag) {
  auto nameOf = [](const ast::Stmt &stmt) -> std::optional<llvm::StringRef> {
    if (const auto *def = dyn_cast<ast::FunctionDefStmt>(&stmt))
      return def->getName();
    if (const auto *refused = dyn_cast<ast::UnsupportedStmt>(&stmt);
        refused && refused->isTfFunction() && refused->getBinds().size() == 1)
      return llvm::StringRef(refused->getBinds().front().name);
    return std::nullopt;
  };
  std::vector<EntryPoint> out;
  for (const ast::StmtPtr &stmt : module.getBody()) {
    std::optional<llvm::StringRef> name = nameOf(*stmt);
    if (!name)
      continue;
    const auto *def = dyn_cast<ast::FunctionDefStmt>(stmt.get());
    bool wanted = spec.functions.empty() ? !def || def->isTfFunction()
                                         : llvm::is_contained(spec.functions, *name);
    if (wanted)
      out.push_back({stmt.get(), name->str(), ""});
  }
  // Methods of module-level instances, by name (`model.method`, `model`).
  for (const std::string &name : spec.functions) {
    if (llvm::any_of(out, [&](const EntryPoint &e) { return e.name == name; }))
      continue;
    std::string why;
    std::optional<ast::Module::Entry> entry = module.findEntry(name, why);
    if (!entry) {
      diag.usageError("'" + module.loc().file + "': " + why);
      return std::nullopt;
    }
    out.push_back({entry->def, name, entry->receiver});
  }
  return out;
}

std::optional<TraceResult> ag::analysis::traceModule(Tracer &tracer, const ast::Module &module,
                                                     const ArgumentSpec &spec) {
  std::optional<std::vector<EntryPoint>> entries = entryPoints(module, spec, tracer.getDiagnostics());
  tracer.setImportPath(spec.importDirs);
  if (!entries || !tracer.evaluateModule())
    return std::nullopt;
  TraceResult merged;
  std::vector<std::string> refused;
  for (const EntryPoint &entry : *entries) {
    std::optional<TraceResult> trace = tracer.traceEntry(entry, spec);
    if (!trace) {
      refused.push_back(entry.name);
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
  if (refused.empty())
    return merged;
  // Which functions failed, when the file's others could compile alone.
  if (entries->size() > refused.size() && spec.functions.empty()) {
    std::string names;
    for (const std::string &name : refused)
      names += (names.empty() ? "'" : ", '") + name + "'";
    tracer.getDiagnostics().error(module.loc().file + ": " + llvm::Twine(refused.size()) + " of " +
                       llvm::Twine(entries->size()) + " @tf.functions refused (" + names +
                       "); nothing written. Compile the others alone with --function NAME");
  }
  return std::nullopt;
}

Emitter::~Emitter() = default;
