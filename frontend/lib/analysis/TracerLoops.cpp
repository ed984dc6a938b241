//===- TracerLoops.cpp - while and for: unrolled or staged ----------------------===//
//
// A loop over Python values is unrolled; one whose test (or iterable) is a tensor or a
// tf.data.Dataset is staged (ag.while_loop): its body runs once with the loop variables
// as tensors, whose dtypes and shapes must hold from one iteration to the next (a
// dataset's are relaxed until they do, as Dataset.reduce relaxes them). A variable first
// bound in the loop starts as zeros of the type a first, typing-only pass of the body
// gives it, and the loop checks when it runs that it ran (TensorFlow 2.21's rule).
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

using namespace ag;
using namespace ag::analysis;
using llvm::cast;
using llvm::dyn_cast;

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

/// An else clause runs when a Python loop ends without break; on a staged loop agc
/// refuses it.
static bool refuseStagedElse(Tracer::Impl &impl, const ast::Stmt &loop,
                             const ast::StmtList &orelse) {
  if (orelse.empty())
    return false;
  impl.error(orelse.front()->loc(), llvm::Twine("an 'else' clause on a staged ") +
                                        (llvm::isa<ast::ForStmt>(loop) ? "for" : "while") +
                                        " loop is not supported by agc");
  impl.note(loop.loc(), "this loop is staged; set a flag where it breaks and test it after "
                        "the loop");
  return true;
}

Flow Tracer::Impl::execWhile(const ast::WhileStmt &stmt) {
  Decision &d = blockDecision(stmt);
  for (unsigned n = 0;; ++n) {
    std::optional<Value> test = eval(stmt.getTest());
    if (!test)
      return Flow::Error;
    if (test->isTensorLike() && !frame().unconverted.empty()) {
      refuseUnconverted(stmt.getTest().loc(), "the test of this while loop");
      return Flow::Error;
    }
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
      if (refuseStagedElse(*this, stmt, stmt.getOrElse()))
        return Flow::Error;
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
      return execList(stmt.getOrElse()); // ended without break
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
      return *end == Flow::Break ? Flow::Normal : *end;
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
    f.locals.erase(exitFlag(ExitKind::Continue, f.loops.size()));
    f.pendingGuard = false;
  }
  if (flow == Flow::Break || flow == Flow::Return || flow == Flow::Error)
    return flow;
  return std::nullopt;
}

Flow Tracer::Impl::execFor(const ast::ForStmt &stmt) {
  if (emitter)
    emitter->iterable(stmt.getIter().loc());
  lastRange.reset();
  std::optional<Value> iter = eval(stmt.getIter());
  if (!iter)
    return Flow::Error;
  Decision &d = blockDecision(stmt);
  if (iter->isTensorLike() && !frame().unconverted.empty()) {
    refuseUnconverted(stmt.getIter().loc(), "this for loop", /*iterating=*/true);
    return Flow::Error;
  }
  if (iter->kind == Value::Kind::Dataset) {
    // A staged loop over the dataset's elements, by index (TracerData.cpp).
    d.staged = true;
    d.overDataset = true;
    d.reason = "it iterates over a tf.data.Dataset";
    if (refuseStagedElse(*this, stmt, stmt.getOrElse()))
      return Flow::Error;
    std::optional<Value> element;
    {
      TypingOnly typing(*this, /*quiet=*/false);
      element = datasetElement(*iter, Value::tensor(DType::Int32, Shape::scalar()),
                               stmt.getIter().loc());
    }
    if (!element)
      return Flow::Error;
    return execStagedLoop(stmt, stmt.getBody(), nullptr, &stmt, &*element, &*iter);
  }
  if (iter->isTensorLike()) {
    if (!iter->shape.rankKnown || iter->shape.rank() == 0) {
      error(stmt.getIter().loc(), "cannot iterate over " + iter->describe() +
                                      "; a staged for loop iterates over the first dimension");
      return Flow::Error;
    }
    d.staged = true;
    d.reason = "it iterates over " + iter->describe();
    if (refuseStagedElse(*this, stmt, stmt.getOrElse()))
      return Flow::Error;
    Shape inner = iter->shape;
    inner.dims.erase(inner.dims.begin());
    Value element = Value::tensor(iter->dtype, inner);
    std::optional<Value> iterated = asTensor(*iter, stmt.getIter().loc());
    if (!iterated)
      return Flow::Error;
    // Emitting, the tensor iterated is the range's own; typing (no handles), the iterable
    // is a call that made a range last.
    if (lastRange && (emitter ? lastRange->ir == iter->ir
                              : llvm::isa<ast::CallExpr>(stmt.getIter())))
      stagedRange = lastRange;
    return execStagedLoop(stmt, stmt.getBody(), nullptr, &stmt, &element, &*iterated);
  }
  if (iter->kind == Value::Kind::Range) {
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
  }
  std::optional<std::vector<Value>> items = pythonItems(*iter, stmt.getIter().loc());
  if (!items)
    return Flow::Error;
  d.reason = "it iterates over a Python " + iter->typeString();
  for (const Value &item : *items) {
    if (!assign(stmt.getTarget(), item))
      return Flow::Error;
    if (std::optional<Flow> end = unrolledPass(stmt, stmt.getBody(), d))
      return *end == Flow::Break ? Flow::Normal : *end;
  }
  return execList(stmt.getOrElse()); // ended without break
}

std::optional<Value> Tracer::Impl::checkLoopVariable(const ast::Stmt &stmt,
                                                     const std::string &name,
                                                     const Value &before0,
                                                     const Value *afterPtr,
                                                     const std::string &entryDescription) {
  if (!afterPtr) {
    error(stmt.loc(), "'" + name + "' is deleted in the loop but is a loop variable");
    return std::nullopt;
  }
  const Value &after = *afterPtr;
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

Tracer::Impl::TypingOnly::TypingOnly(Impl &impl, bool quiet)
    : impl(impl), quiet(quiet), emitter(std::exchange(impl.emitter, nullptr)),
      failed(std::exchange(impl.failed, false)), arrays(impl.tensorArrayShapes) {
  if (quiet)
    sink = impl.diag.setSink(&swallowed);
  if (impl.result)
    decisions = impl.result->decisions;
}

Tracer::Impl::TypingOnly::~TypingOnly() {
  impl.emitter = emitter;
  impl.failed = quiet ? failed : failed || impl.failed;
  if (quiet)
    impl.diag.setSink(sink);
  if (decisions) {
    // In place: the callers up the stack hold references to decisions made before.
    for (auto it = impl.result->decisions.begin(); it != impl.result->decisions.end();) {
      auto before = decisions->find(it->first);
      if (before == decisions->end()) {
        it = impl.result->decisions.erase(it);
        continue;
      }
      it->second = std::move(before->second);
      ++it;
    }
  }
  impl.tensorArrayShapes = std::move(arrays);
}

std::optional<llvm::StringMap<Value>>
Tracer::Impl::probeValues(const ast::Stmt &stmt, const ast::StmtList &body,
                          const ast::ForStmt *forStmt, const Value *element,
                          llvm::ArrayRef<std::string> names,
                          const llvm::StringMap<Shape> &invariants, std::string &missing,
                          std::vector<StoredDiagnostic> &swallowed) {
  // One pass of the body that emits nothing and whose bindings, decisions and errors are
  // dropped (Python's print output is kept: TensorFlow runs the body's Python then too).
  Frame &f = frame();
  Env saved = f.locals;
  llvm::StringMap<Value> out;
  {
    TypingOnly typing(*this, /*quiet=*/true);
    // The loop's variables as it carries them: Python numbers as tensors, of the shapes
    // their invariants give.
    const BlockVars &vars = f.analysis->blocks.find(&stmt)->second;
    for (const std::string &name : vars.carried) {
      auto it = f.locals.find(name);
      if (it == f.locals.end())
        continue;
      if (it->second.isPyScalar())
        if (std::optional<Value> t = tensorTypeOf(it->second, stmt.loc()))
          it->second = *t;
      if (auto inv = invariants.find(name); inv != invariants.end() && it->second.isTensorLike())
        it->second = Value::tensor(it->second.dtype, inv->second);
    }
    Flow flow = Flow::Error;
    if (!forStmt || assign(forStmt->getTarget(), *element)) {
      f.loops.push_back({&stmt, true});
      StagingScope staged(*this, stmt.loc(), "loop (tf.while_loop)");
      flow = execList(body);
      f.loops.pop_back();
    }
    for (const std::string &name : names) {
      auto it = f.locals.find(name);
      if (flow != Flow::Error && it != f.locals.end() && it->second.isDefined())
        out[name] = it->second;
      else if (missing.empty())
        missing = name;
    }
    swallowed = std::move(typing.swallowed);
  }
  f.locals = std::move(saved);
  if (!missing.empty())
    return std::nullopt;
  return out;
}

std::optional<llvm::StringMap<Value>>
Tracer::Impl::probeIteration(const ast::Stmt &stmt, const ast::StmtList &body,
                             const ast::ForStmt *forStmt, const Value *element,
                             llvm::ArrayRef<std::string> undefined,
                             const llvm::StringMap<Shape> &invariants) {
  std::string missing;
  std::vector<StoredDiagnostic> swallowed;
  std::optional<llvm::StringMap<Value>> out =
      probeValues(stmt, body, forStmt, element, undefined, invariants, missing, swallowed);
  if (out)
    return out;
  error(stmt.loc(), "'" + missing + "' must be defined before the loop");
  if (const ast::Expr *bound = findBinding(body, missing))
    note(bound->loc(), "'" + missing + "' is assigned here, in the loop, and used " +
                           "after an iteration or after the loop");
  if (!swallowed.empty())
    note(swallowed.front().loc.isValid() ? swallowed.front().loc : stmt.loc(),
         "agc tried to define it from one iteration of the loop, as TensorFlow does, but: " +
             swallowed.front().message);
  note(stmt.loc(), "a staged loop (tf.while_loop) can run zero times, so '" + missing +
                       "' needs a value before it; for example `" + missing +
                       " = tf.zeros_like(...)`");
  return std::nullopt;
}

std::optional<Value> Tracer::Impl::loopPlaceholder(const Value &like, const std::string &path,
                                                   const ast::Stmt &stmt,
                                                   llvm::StringMap<Shape> &invariants) {
  switch (like.kind) {
  case Value::Kind::Int:
    return Value::integer(0);
  case Value::Kind::Float:
    return Value::floating(0);
  case Value::Kind::Bool:
    return Value::boolean(false);
  default:
    break;
  }
  if (like.isTensorLike()) {
    if (!like.shape.rankKnown)
      return error(stmt.loc(), "'" + path + "' is first bound in this staged loop to " +
                                   like.describe() + "; agc needs its rank to start it "
                                   "before the loop: bind it before the loop");
    // Zeros, with 0 where a dimension is known only at run time (the loop then carries
    // it with that dimension unknown).
    std::vector<Value> dims;
    bool dynamic = false;
    for (int64_t d : like.shape.dims) {
      dims.push_back(Value::integer(d < 0 ? 0 : d));
      dynamic |= d < 0;
    }
    if (dynamic && !invariants.count(path))
      invariants[path] = like.shape;
    CallArgs zeros;
    zeros.positional = {Value::list(std::move(dims)), Value::dtypeOf(like.dtype)};
    zeros.loc = stmt.loc();
    return callTF("tf.zeros", zeros);
  }
  if (isNest(like)) {
    std::vector<NestLeaf> leaves;
    flattenNest(like, like, path, leaves);
    std::vector<Value> zeros;
    for (const NestLeaf &leaf : leaves) {
      std::optional<Value> z = loopPlaceholder(leaf.value, leaf.path, stmt, invariants);
      if (!z)
        return std::nullopt;
      zeros.push_back(*z);
    }
    size_t next = 0;
    return packNest(like, zeros, next);
  }
  error(stmt.loc(), "'" + path + "' is first bound in this staged loop, to " +
                        like.describe() + ", and used after an iteration or after the loop; "
                        "a loop variable must be a tensor, a Python number, or a tuple, "
                        "list or dict of them");
  note(stmt.loc(), "bind it before the loop");
  return std::nullopt;
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
  d.started.clear();
  for (const auto &entry : invariants)
    d.shapeInvariants.push_back({entry.getKey().str(), entry.getValue()});
  llvm::sort(d.shapeInvariants, [](const auto &a, const auto &b) { return a.first < b.first; });

  // 1. Loop variables: defined before the loop, and tensors from here on. A tuple, list
  // or dict is carried leaf by leaf (`entry` holds the leaves, `loopVars` where each
  // variable's are); the body gets new lists and dicts, which it may change.
  const uint64_t firstObject = Object::made();
  struct LoopVar {
    std::string name;
    Value structure; ///< A nest: its structure; otherwise undefined.
    size_t first, count;
  };
  std::vector<LoopVar> loopVars;
  std::vector<std::pair<std::string, Value>> entry;
  llvm::StringMap<std::string> entryDescriptions; // for notes: the value as written
  // A leaf as the loop carries it: a tensor (or a TensorArray).
  auto enterLeaf = [&](const std::string &name, const Value &v,
                       const Value &variable) -> std::optional<Value> {
    if (v.kind == Value::Kind::TensorArray)
      return v;
    if (!v.isTensorLike() && !v.isPyScalar()) {
      error(stmt.loc(), "'" + name + "' is " + v.describe() +
                            " before the loop; a variable of a staged loop must be a tensor, "
                            "a Python number, or a tuple, list or dict of them");
      if (variable.boundAt.isValid())
        note(variable.boundAt, "'" + name + "' is assigned here");
      return std::nullopt;
    }
    std::optional<Value> t = asTensor(v, stmt.loc());
    if (!t)
      return std::nullopt;
    auto inv = invariants.find(name);
    if (inv != invariants.end()) {
      if (!inv->second.admits(t->shape)) {
        error(stmt.loc(), "'" + name + "' has shape " + t->shape.str() +
                              " before the loop, which its shape invariant " +
                              inv->second.str() + " does not admit");
        return std::nullopt;
      }
      Value relaxed = Value::tensor(t->dtype, inv->second);
      if (emitter && !emitter->castTo(relaxed, *t, stmt.loc())) {
        failed = true;
        return std::nullopt;
      }
      *t = relaxed;
    }
    t->boundAt = v.boundAt.isValid() ? v.boundAt : variable.boundAt;
    entryDescriptions[name] = v.isPyScalar()
                                  ? v.describe() + ", which the loop makes " + t->describe()
                                  : v.describe();
    return t;
  };
  // A name the loop carries but that is unbound before it starts as zeros of the type one
  // iteration gives it, as TensorFlow 2.21 does; a flag checks after the loop that it ran.
  // A loop over a tf.data.Dataset is Dataset.reduce in TensorFlow, which relaxes the shape
  // of a state that changes from one iteration to the next (to the most specific shape
  // that admits both) until it holds: so do its loop variables here.
  if (iterated && iterated->kind == Value::Kind::Dataset) {
    std::vector<std::string> names;
    for (const std::string &name : vars.carried)
      if (auto it = f.locals.find(name); it != f.locals.end() &&
                                         (it->second.isTensorLike() || it->second.isPyScalar()))
        names.push_back(name);
    for (unsigned round = 0; round < 8 && !names.empty(); ++round) {
      std::string missing;
      std::vector<StoredDiagnostic> swallowed;
      std::optional<llvm::StringMap<Value>> after =
          probeValues(stmt, body, forStmt, element, names, invariants, missing, swallowed);
      if (!after)
        break; // the loop itself reports what fails
      bool changed = false;
      for (const std::string &name : names) {
        std::optional<Value> entered = tensorTypeOf(f.locals[name], stmt.loc());
        const Value &next = (*after)[name];
        if (!entered || !next.isTensorLike() || next.dtype != entered->dtype)
          continue;
        auto inv = invariants.find(name);
        Shape now = inv != invariants.end() ? inv->second : entered->shape;
        if (now.admits(next.shape))
          continue;
        invariants[name] = now.join(next.shape);
        changed = true;
      }
      if (!changed)
        break;
    }
  }

  // The target of a for over a tf.range starts at the range's start instead, unchecked.
  std::optional<RangeStart> range = std::exchange(stagedRange, std::nullopt);
  const auto *target = forStmt ? llvm::dyn_cast<ast::NameExpr>(&forStmt->getTarget()) : nullptr;
  std::vector<std::string> undefined;
  for (const std::string &name : vars.carried)
    if (!f.locals.count(name))
      undefined.push_back(name);
  if (!undefined.empty() && iterated && iterated->kind == Value::Kind::Dataset) {
    // TensorFlow's loop over a dataset (Dataset.reduce) has no such fallback.
    error(stmt.loc(), "'" + undefined.front() + "' must be defined before the loop");
    if (const ast::Expr *bound = findBinding(body, undefined.front()))
      note(bound->loc(), "'" + undefined.front() + "' is assigned here, in the loop, and "
                         "used after an iteration or after the loop");
    note(stmt.loc(), "a loop over a tf.data.Dataset (Dataset.reduce) can run zero times and "
                     "starts only names bound before it; for example `" +
                         undefined.front() + " = tf.zeros_like(...)` before the loop");
    return Flow::Error;
  }
  if (!undefined.empty()) {
    std::optional<llvm::StringMap<Value>> firstPass =
        probeIteration(stmt, body, forStmt, element, undefined, invariants);
    if (!firstPass)
      return Flow::Error;
    for (const std::string &name : undefined) {
      std::optional<Value> zeros;
      if (range && target && target->getId() == name) {
        const Value &start = range->start;
        zeros = start.isTensorLike() && start.dtype != range->dtype
                    ? callTF("tf.cast", CallArgs{{start, Value::dtypeOf(range->dtype)}, {}, stmt.loc()})
                    : start.isTensorLike() ? asTensor(start, stmt.loc())
                                           : toTensor(start, stmt.loc(), range->dtype);
      } else {
        zeros = loopPlaceholder((*firstPass)[name], name, stmt, invariants);
      }
      if (!zeros)
        return Flow::Error;
      zeros->boundAt = (*firstPass)[name].boundAt;
      f.locals[name] = *zeros;
      bool fromRange = range && target && target->getId() == name;
      d.started.push_back({name, fromRange ? *zeros : (*firstPass)[name], fromRange});
      if (auto inv = invariants.find(name);
          inv != invariants.end() &&
          llvm::none_of(d.shapeInvariants, [&](const auto &p) { return p.first == name; }))
        d.shapeInvariants.push_back({name, inv->second});
    }
    if (range && target)
      llvm::erase(undefined, target->getId().str());
  }
  for (const std::string &name : vars.carried) {
    const Value v = f.locals.find(name)->second;
    LoopVar var{name, Value(), entry.size(), 1};
    if (isNest(v)) {
      var.structure = v;
      std::vector<NestLeaf> leaves;
      flattenNest(v, v, name, leaves);
      var.count = leaves.size();
      std::vector<Value> entered;
      for (const NestLeaf &leaf : leaves) {
        std::optional<Value> t = enterLeaf(leaf.path, leaf.value, v);
        if (!t)
          return Flow::Error;
        entry.push_back({leaf.path, *t});
        entered.push_back(*t);
      }
      size_t next = 0;
      f.locals[name] = packNest(v, entered, next);
      f.locals[name].boundAt = v.boundAt;
    } else {
      std::optional<Value> t = enterLeaf(name, v, v);
      if (!t)
        return Flow::Error;
      f.locals[name] = *t;
      entry.push_back({name, *t});
    }
    loopVars.push_back(std::move(var));
  }
  // The loop variables bound again to the emitter's values for the leaves (`ir`).
  auto rebind = [&](const std::vector<Value> &values) {
    for (const LoopVar &var : loopVars) {
      if (!isNest(var.structure)) {
        f.locals[var.name].ir = values[var.first].ir;
        continue;
      }
      std::vector<Value> leaves;
      for (size_t k = var.first; k < var.first + var.count; ++k) {
        leaves.push_back(entry[k].second);
        leaves.back().ir = values[k].ir;
      }
      size_t next = 0;
      Location boundAt = f.locals[var.name].boundAt;
      f.locals[var.name] = packNest(var.structure, leaves, next);
      f.locals[var.name].boundAt = boundAt;
    }
  };

  // Emitting: AutoGraph's extra loop variables (the break flag; a for loop's index
  // into what it iterates, and its trip count), then the loop's test region.
  const unsigned depth = f.loops.size();
  const std::string breakFlag = exitFlag(ExitKind::Break, depth), index = loopIndexSlot(depth),
                    ranFlag = loopRanSlot(depth);
  std::optional<Value> tripCount;
  void *token = nullptr;
  if (emitter) {
    if (loopExits(body).breaks) {
      std::optional<Value> unset = boolTensor(false, stmt.loc());
      if (!unset)
        return Flow::Error;
      f.locals[breakFlag] = *unset;
      loopVars.push_back({breakFlag, Value(), entry.size(), 1});
      entry.push_back({breakFlag, *unset});
    }
    if (!undefined.empty()) {
      std::optional<Value> unset = boolTensor(false, stmt.loc());
      if (!unset)
        return Flow::Error;
      f.locals[ranFlag] = *unset;
      loopVars.push_back({ranFlag, Value(), entry.size(), 1});
      entry.push_back({ranFlag, *unset});
    }
    if (forStmt) {
      Value rows = Value::tensor(DType::Int32, Shape::scalar());
      if (iterated->kind == Value::Kind::Dataset) {
        std::optional<Value> count = datasetCount(*iterated, forStmt->getIter().loc());
        if (!count)
          return Flow::Error;
        rows = *count;
      } else if (!emitter->rowCount(*iterated, rows, stmt.loc())) {
        failed = true;
        return Flow::Error;
      }
      tripCount = rows;
      Value start = Value::tensor(DType::Int32, Shape::scalar());
      if (!emitter->constant(start, Value::integer(0), stmt.loc())) {
        failed = true;
        return Flow::Error;
      }
      f.locals[index] = start;
      loopVars.push_back({index, Value(), entry.size(), 1});
      entry.push_back({index, start});
    }
    std::vector<Value> vars;
    for (auto &[name, value] : entry)
      vars.push_back(value);
    token = emitter->beginLoop(vars, stmt.loc());
    rebind(vars);
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
    for (const LoopVar &var : loopVars) {
      if (!isNest(var.structure)) {
        vars.push_back(f.locals[var.name]);
        continue;
      }
      std::vector<NestLeaf> leaves;
      flattenNest(f.locals[var.name], var.structure, var.name, leaves);
      for (NestLeaf &leaf : leaves)
        vars.push_back(std::move(leaf.value));
    }
    if (!emitter->loopBody(token, *go, vars)) {
      failed = true;
      return Flow::Error;
    }
    rebind(vars);
  }
  if (forStmt) {
    Value item = *element;
    if (iterated->kind == Value::Kind::Dataset) {
      std::optional<Value> x = datasetElement(
          *iterated, token ? f.locals[index] : Value::tensor(DType::Int32, Shape::scalar()),
          forStmt->getIter().loc());
      if (!x)
        return Flow::Error;
      item = *x;
    } else if (token) {
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
  Flow flow;
  {
    StagingScope staged(*this, stmt.loc(), "loop (tf.while_loop)", firstObject);
    flow = execList(body);
  }
  f.loops.pop_back();
  if (flow == Flow::Error)
    return Flow::Error;
  if (token) {
    f.pendingGuard = false;
    f.locals.erase(exitFlag(ExitKind::Continue, depth));
    if (!undefined.empty()) {
      std::optional<Value> ran = boolTensor(true, stmt.loc());
      if (!ran)
        return Flow::Error;
      f.locals[ranFlag] = *ran;
    }
    if (forStmt) {
      std::optional<Value> next = binary(ast::BinaryOp::Add, f.locals[index], Value::integer(1),
                                         stmt.loc());
      if (!next)
        return Flow::Error;
      f.locals[index] = *next;
    }
  }

  // 4. Loop variables keep their structure, and their leaves their dtype and shape.
  std::vector<Value> next, results;
  for (const LoopVar &var : loopVars) {
    auto it = f.locals.find(var.name);
    const Value *after = it == f.locals.end() ? nullptr : &it->second;
    if (!isNest(var.structure)) {
      std::optional<Value> carried =
          checkLoopVariable(stmt, var.name, entry[var.first].second, after,
                            entryDescriptions[var.name]);
      if (!carried)
        return Flow::Error;
      next.push_back(*after);
      results.push_back(*carried);
      results.back().ir = nullptr;
      continue;
    }
    std::string difference =
        after ? nestDifference(var.structure, *after, var.name) : std::string();
    if (!after || !difference.empty()) {
      error(stmt.loc(), "'" + var.name + "' does not have the same nested structure after "
                        "one iteration" + (after ? ": " + difference : std::string()));
      if (after && after->boundAt.isValid())
        note(after->boundAt, "'" + var.name + "' is assigned here");
      note(stmt.loc(), "a staged loop (tf.while_loop) carries each item of a tuple, list or "
                       "dict; keep their number (and a dict's keys) from one iteration to the "
                       "next, or collect values in a tf.TensorArray");
      return Flow::Error;
    }
    std::vector<NestLeaf> leaves;
    flattenNest(*after, var.structure, var.name, leaves);
    for (size_t k = 0; k < leaves.size(); ++k) {
      const std::string &path = leaves[k].path;
      std::optional<Value> carried =
          checkLoopVariable(stmt, path, entry[var.first + k].second, &leaves[k].value,
                            entryDescriptions[path]);
      if (!carried)
        return Flow::Error;
      next.push_back(leaves[k].value);
      results.push_back(*carried);
      results.back().ir = nullptr;
    }
  }
  if (token && !emitter->endLoop(token, next, results)) {
    failed = true;
    return Flow::Error;
  }
  d.carried.clear();
  for (const LoopVar &var : loopVars) {
    if (var.name == ranFlag) {
      // TensorFlow's check that the names the loop started as zeros got a value.
      std::string names;
      for (const std::string &name : undefined)
        names += (names.empty() ? "" : ", ") + name;
      CallArgs check;
      std::string message = "loop must iterate at least once to initialize " + names;
      check.positional = {results[var.first], Value::list({Value::str(message)})};
      check.keywords.push_back({"message", Value::str(message)});
      check.loc = stmt.loc();
      if (!callTF("tf.debugging.Assert", check))
        return Flow::Error;
    }
    if (isExitName(var.name))
      continue;
    size_t at = var.first;
    Value value = isNest(var.structure) ? packNest(var.structure, results, at) : results[at];
    if (isNest(var.structure))
      value.boundAt = var.structure.boundAt;
    d.carried.push_back({var.name, std::move(value)});
  }

  // 5. After the loop: the loop variables as tensors; what the body bound is local to it.
  f.locals = std::move(before);
  for (auto &[name, value] : d.carried)
    f.locals[name] = value;
  // A return in the body is conditional (execReturn noted it): tracing goes on.
  return Flow::Normal;
}
