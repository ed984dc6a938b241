//===- TracerConditionals.cpp - if, static or staged; the flags of exits --------===//
//
// A static if runs the taken branch; a staged one runs both and merges what they carry
// (ag.cond). break, continue and return under a staged if become AutoGraph's flags, and
// the statements after them run guarded by "no flag set".
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

#include <algorithm>
#include <iterator>

using namespace ag;
using namespace ag::analysis;
using llvm::cast;
using llvm::dyn_cast;

//===----------------------------------------------------------------------------------===//
// Emission: flags and guards
//===----------------------------------------------------------------------------------===//

/// Whether tracing `a` or `b` gives the same thing (the same handle, or the same Python value).
bool analysis::sameValue(const Value &a, const Value &b) {
  if (a.kind != b.kind || a.ir != b.ir || a.i != b.i || a.f != b.f || a.text != b.text ||
      a.name != b.name || a.dtype != b.dtype || a.shape != b.shape ||
      a.object != b.object || a.elements.size() != b.elements.size())
    return false;
  for (size_t k = 0; k < a.elements.size(); ++k)
    if (!sameValue(a.elements[k], b.elements[k]))
      return false;
  return true;
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
      if (!isExitName(name) || isLoopIndexSlot(name) || llvm::is_contained(out, name))
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
  // Each name's leaves: a tuple, list or dict goes through the cond leaf by leaf (a None
  // leaf was refused before), and `structures` packs them again.
  std::vector<Value> structures;
  auto leavesOf = [](const Value &v, const Value &structure) {
    std::vector<Value> out;
    if (!isNest(structure)) {
      out.push_back(v);
      return out;
    }
    std::vector<NestLeaf> leaves;
    if (v.isDefined())
      flattenNest(v, structure, "", leaves);
    else
      flattenNest(structure, structure, "", leaves); // undefined on this path: any leaves
    for (NestLeaf &leaf : leaves)
      out.push_back(v.isDefined() ? std::move(leaf.value) : Value());
    return out;
  };
  for (const std::string &name : names) {
    auto a = thenEnv.find(name), b = elseEnv.find(name);
    Value x = a != thenEnv.end() ? a->second : Value();
    Value y = b != elseEnv.end() ? b->second : Value();
    Value type;
    if (isExitFlag(name)) {
      // A flag not set on a path is false there.
      if (!x.isDefined())
        x = Value::boolean(false);
      if (!y.isDefined())
        y = Value::boolean(false);
      type = Value::tensor(DType::Bool, Shape::scalar());
    } else if (name == returnSlot()) {
      // Undefined on a path that has not returned: its value is never used there
      // (execReturn checked that joined returns agree).
      type = f.returnValue ? *f.returnValue : x.isDefined() ? x : y;
      if (isNest(type)) {
        // Its leaves as the tensors the cond gives (a Python number becomes one).
        std::vector<NestLeaf> leaves;
        flattenNest(type, type, "", leaves);
        std::vector<Value> types;
        for (const NestLeaf &leaf : leaves) {
          std::optional<Value> t = tensorTypeOf(leaf.value, loc);
          if (!t)
            return false;
          types.push_back(*t);
        }
        size_t next = 0;
        type = packNest(type, types, next);
      } else {
        std::optional<Value> tx = x.isDefined() ? tensorTypeOf(x, loc) : std::nullopt;
        std::optional<Value> ty = y.isDefined() ? tensorTypeOf(y, loc) : std::nullopt;
        if (tx && ty && tx->dtype != ty->dtype) {
          error(loc, "the returns joined by this staged condition give " + tx->describe() +
                         " and " + ty->describe() + "; they must have one dtype");
          return false;
        }
        type = tx && ty ? Value::tensor(tx->dtype, tx->shape.join(ty->shape)) : tx ? *tx : *ty;
      }
    } else {
      type = f.locals[name];
    }
    structures.push_back(isNest(type) ? type : Value());
    std::vector<Value> xs = leavesOf(x, type), ys = leavesOf(y, type), types = leavesOf(type, type);
    for (size_t k = 0; k < types.size(); ++k) {
      thenValues.push_back(std::move(xs[k]));
      elseValues.push_back(std::move(ys[k]));
      types[k].ir = nullptr;
      results.push_back(std::move(types[k]));
    }
  }
  if (!emitter->endCond(token, thenValues, elseValues, results)) {
    failed = true;
    return false;
  }
  size_t at = 0;
  for (size_t k = 0; k < names.size(); ++k) {
    Value &slot = f.locals[names[k]];
    Location boundAt = slot.boundAt;
    if (isNest(structures[k])) {
      slot = packNest(structures[k], results, at);
    } else {
      slot = results[at++];
    }
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
    if (isExitFlag(entry.getKey()))
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
  Flow flow;
  {
    StagingScope staged(*this, stmts[from]->loc(),
                        "if (tf.cond) that AutoGraph puts around the code after a staged exit",
                        f.firstObject);
    flow = execList(stmts, from);
  }
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
    if (isExitName(name) || after == thenEnv.end() || sameValue(entry.getValue(), after->second))
      continue;
    const Value &x = after->second, &y = entry.getValue();
    if (isNest(x) || isNest(y)) {
      std::optional<Value> merged = joinNests(
          name.str(), x, y, "the code that runs only where no earlier break, continue or "
          "return happened and where one did", loc);
      if (!merged)
        return Flow::Error;
      f.locals[name] = *merged;
      names.push_back(name.str());
      continue;
    }
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
      std::optional<Value> tx = tensorTypeOf(x, loc), ty = tensorTypeOf(y, loc);
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
std::string analysis::testReason(const Value &test) {
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

std::nullopt_t Tracer::Impl::refuseUnconverted(const Location &loc, const llvm::Twine &what,
                                               bool iterating) {
  if (iterating)
    error(loc, "iterating over a tensor is not allowed here: AutoGraph does not convert " +
                   frame().unconverted + ", so " + what + " is Python's, over a symbolic tensor");
  else
    error(loc, "using a tensor as a Python bool is not allowed here: AutoGraph does not "
               "convert " + frame().unconverted + ", so " + what + " needs the tensor's value, "
               "which exists only at run time");
  note(frame().function ? frame().function->getNameLoc() : loc,
       "TensorFlow raises OperatorNotAllowedInGraphError; move the code into a function that "
       "AutoGraph converts (a @tf.function, or one it calls), or use tf.cond / "
       "tf.while_loop");
  return std::nullopt;
}

Flow Tracer::Impl::execIf(const ast::IfStmt &stmt) {
  std::optional<Value> test = eval(stmt.getTest());
  if (!test)
    return Flow::Error;
  Decision &d = blockDecision(stmt);
  if (test->isTensorLike() && !frame().unconverted.empty()) {
    refuseUnconverted(stmt.getTest().loc(), "the test of this if");
    return Flow::Error;
  }
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
  std::optional<StagingScope> staged(std::in_place, *this, stmt.loc(), "if (tf.cond)");
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
  staged.reset();
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

void Tracer::Impl::noneAtEnd(const std::string &name, const char *branch,
                             const Location &loc, const Location &boundAt) {
  error(loc, "'" + name + "' is None at the end of the " + branch + " branch");
  if (boundAt.isValid())
    note(boundAt, "'" + name + "' is set to None here");
  note(loc, "a staged if (tf.cond) can only produce tensors, and '" + name + "' is used after "
            "it; give it a tensor value in both branches (tf.zeros, or a flag), or stop using it "
            "after the if");
}

std::optional<Value> Tracer::Impl::joinNests(const std::string &name, const Value &x,
                                             const Value &y, const char *what,
                                             const Location &loc) {
  std::string difference = nestDifference(x, y, name);
  if (!difference.empty()) {
    error(loc, "'" + name + "' must have the same nested structure in " + what + ": " +
                   difference);
    if (x.boundAt.isValid())
      note(x.boundAt, "'" + name + "' is " + x.describe() + " here");
    if (y.boundAt.isValid())
      note(y.boundAt, "and " + y.describe() + " here");
    return std::nullopt;
  }
  std::vector<NestLeaf> xs, ys;
  flattenNest(x, x, name, xs);
  flattenNest(y, x, name, ys);
  std::vector<Value> joined;
  for (size_t k = 0; k < xs.size(); ++k) {
    const Value &a = xs[k].value, &b = ys[k].value;
    const std::string &path = xs[k].path;
    if (a.kind == Value::Kind::None || b.kind == Value::Kind::None) {
      noneAtEnd(name, a.kind == Value::Kind::None ? "main" : "else", loc,
                a.kind == Value::Kind::None ? a.boundAt : b.boundAt);
      return std::nullopt;
    }
    if (a.kind == Value::Kind::TensorArray && b.kind == Value::Kind::TensorArray) {
      // One array written in both branches: the cond produces its tensor.
      if (!sameTensorArray(a, b)) {
        error(loc, "'" + path + "' is a different tf.TensorArray in " + what);
        return std::nullopt;
      }
      joined.push_back(joinTensorArrays(a, b));
      continue;
    }
    if (!(a.isTensorLike() || a.isPyScalar()) || !(b.isTensorLike() || b.isPyScalar())) {
      error(loc, "'" + path + "' is " + a.describe() + " and " + b.describe() + " in " +
                     what + "; a staged if (tf.cond) can only produce tensors (or tuples, "
                     "lists and dicts of them, and tf.TensorArrays)");
      return std::nullopt;
    }
    std::optional<Value> ta = tensorTypeOf(a, loc), tb = tensorTypeOf(b, loc);
    if (!ta || !tb)
      return std::nullopt;
    if (ta->dtype != tb->dtype) {
      error(loc, "'" + path + "' has dtype " + dtypeName(ta->dtype) + " and dtype " +
                     dtypeName(tb->dtype) + " in " + what);
      return std::nullopt;
    }
    joined.push_back(Value::tensor(ta->dtype, ta->shape.join(tb->shape)));
  }
  size_t next = 0;
  Value merged = packNest(x, joined, next);
  merged.boundAt = loc;
  return merged;
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
    // Nests, and tf.TensorArrays, join leaf by leaf.
    if (isNest(x) || isNest(y) || x.kind == Value::Kind::TensorArray ||
        y.kind == Value::Kind::TensorArray) {
      std::optional<Value> merged =
          joinNests(name, x, y, "the main and else branches", stmt.loc());
      if (!merged)
        return false;
      frame().locals[name] = *merged;
      d.carried.push_back({name, *merged});
      continue;
    }
    bool xTensor = x.isTensorLike() || x.isPyScalar(), yTensor = y.isTensorLike() || y.isPyScalar();
    if (!xTensor || !yTensor) {
      if (x.kind == Value::Kind::None || y.kind == Value::Kind::None) {
        noneAtEnd(name, x.kind == Value::Kind::None ? "main" : "else", stmt.loc(),
                  x.kind == Value::Kind::None ? x.boundAt : y.boundAt);
        return false;
      }
      error(stmt.loc(), "'" + name + "' is " + x.describe() + " in the main branch and " +
                            y.describe() + " in the else branch; a staged if (tf.cond) can "
                            "only produce tensors");
      note(x.boundAt.isValid() ? x.boundAt : stmt.loc(), "assigned here in the main branch");
      return false;
    }
    // Types only: emitMerge converts the values inside their branches.
    std::optional<Value> tx = tensorTypeOf(x, stmt.loc()), ty = tensorTypeOf(y, stmt.loc());
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
