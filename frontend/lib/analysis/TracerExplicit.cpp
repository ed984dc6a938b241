//===- TracerExplicit.cpp - TensorFlow's explicit control flow ------------------===//
//
// tf.cond, tf.while_loop, tf.case and tf.switch_case, called by the user's code: the
// functions they take are traced as the branches and body of the same staged cond and
// loop that an `if` or `while` on a tensor becomes (Emitter::beginCond, beginLoop), with
// TensorFlow 2.21's signatures and checks. Outputs are nested structures (tuples, lists,
// dicts, namedtuples), flattened leaf by leaf as tf.nest does. tf.no_op and tf.group give
// an Operation: code runs in program order, so it only stands for what TensorFlow returns.
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

using namespace ag;
using namespace ag::analysis;

std::optional<std::vector<const Value *>>
analysis::bindParams(Tracer::Impl &impl, llvm::StringRef api, const CallArgs &args,
                     llvm::ArrayRef<const char *> params, size_t required) {
  std::vector<const Value *> out(params.size(), nullptr);
  if (args.positional.size() > params.size())
    return impl.error(args.loc, api + "() takes from " + llvm::Twine(required) + " to " +
                                    llvm::Twine(params.size()) + " positional arguments but " +
                                    llvm::Twine(args.positional.size()) + " were given");
  for (size_t k = 0; k < args.positional.size(); ++k)
    out[k] = &args.positional[k];
  for (const auto &[key, value] : args.keywords) {
    auto it = llvm::find_if(params, [&](const char *p) { return key == p; });
    if (it == params.end())
      return impl.error(args.loc, api + "() got an unexpected keyword argument '" + key + "'");
    size_t k = it - params.begin();
    if (out[k])
      return impl.error(args.loc, api + "() got multiple values for argument '" + key + "'");
    out[k] = &value;
  }
  for (size_t k = 0; k < required; ++k)
    if (!out[k])
      return impl.error(args.loc, api + "(): '" + params[k] + "' argument required");
  return out;
}

bool analysis::isCallable(const Value &v) {
  switch (v.kind) {
  case Value::Kind::Function:
  case Value::Kind::Builtin:
  case Value::Kind::Class:
  case Value::Kind::BoundMethod:
  case Value::Kind::Wrapper:
  case Value::Kind::Instance:
    return true;
  case Value::Kind::Module:
    return llvm::StringRef(v.name).starts_with("tf.");
  default:
    return false;
  }
}

Value analysis::shapeValue(const Shape &shape) {
  if (!shape.rankKnown)
    return Value::none();
  std::vector<Value> dims;
  for (int64_t d : shape.dims)
    dims.push_back(d < 0 ? Value::none() : Value::integer(d));
  Value t = Value::sequence(Value::Kind::Tuple, std::move(dims));
  t.name = "TensorShape"; // rank, ndims, as_list(), ... (Tracer::Impl::attribute)
  return t;
}

namespace {
/// Whether `b` has the nested structure of `a` where tuples and lists (namedtuples too)
/// are alike, as TensorFlow compares a while loop's variables and shape invariants
/// (check_types=False): the place where they differ, in words, or empty.
std::string looseDifference(const Value &a, const Value &b, const std::string &path) {
  if (!isNest(a))
    return "";
  bool sequences = a.isPySequence() && b.isPySequence();
  bool dicts = a.kind == Value::Kind::Dict && b.kind == Value::Kind::Dict;
  if ((!sequences && !dicts) || a.items().size() != b.items().size()) {
    auto count = [](const Value &v) {
      size_t n = v.items().size();
      return "a " + v.typeString() + " of " + std::to_string(n) + (n == 1 ? " item" : " items");
    };
    return "'" + path + "' is " + count(a) + " in loop_vars, but " +
           (isNest(b) ? count(b) : b.describe()) + " here";
  }
  for (size_t k = 0; k < a.items().size(); ++k) {
    const Value *other = &b.items()[k];
    std::string key = "[" + std::to_string(k) + "]";
    if (dicts) {
      std::optional<size_t> at = b.object->find(a.object->keys[k]);
      if (!at)
        return "'" + path + "' lacks the key " + a.object->keys[k].pyStr(true);
      other = &b.object->items[*at];
      key = "[" + a.object->keys[k].pyStr(true) + "]";
    }
    std::string inner = looseDifference(a.items()[k], *other, path + key);
    if (!inner.empty())
      return inner;
  }
  return "";
}
} // namespace

llvm::ArrayRef<const char *> analysis::explicitControlFlowPaths() {
  static const char *const kPaths[] = {"tf.cond", "tf.while_loop", "tf.case",
                                       "tf.switch_case", "tf.no_op", "tf.group"};
  return kPaths;
}

bool Tracer::Impl::isExplicitControlFlow(llvm::StringRef path) {
  return llvm::is_contained(explicitControlFlowPaths(), path);
}

std::optional<Value> Tracer::Impl::explicitControlFlow(llvm::StringRef path,
                                                       const CallArgs &args) {
  if (path == "tf.cond")
    return explicitCond(args);
  if (path == "tf.while_loop")
    return explicitWhileLoop(args);
  if (path == "tf.case")
    return explicitCase(args);
  if (path == "tf.switch_case")
    return explicitSwitchCase(args);
  if (path == "tf.no_op" &&
      !bindParams(*this, "no_op", args, {"name"}, 0))
    return std::nullopt;
  if (path == "tf.group") {
    // tf.group(*inputs, name=None): what it groups has run already, in program order.
    for (const auto &[key, value] : args.keywords)
      if (key != "name")
        return error(args.loc, "group() got an unexpected keyword argument '" + key + "'");
  }
  Value op;
  op.kind = Value::Kind::Operation;
  return op;
}

/// A branch's output converted where it runs: each leaf a tensor (a Python number by
/// TensorFlow's default dtypes, a tf.Variable read) or None. `who` names it in errors.
std::optional<std::vector<Value>> Tracer::Impl::branchLeaves(const Value &out,
                                                             const Value &structure,
                                                             const std::string &who,
                                                             llvm::StringRef api,
                                                             const Location &loc) {
  std::vector<NestLeaf> leaves;
  flattenNest(out, structure, "", leaves);
  std::vector<Value> converted;
  for (const NestLeaf &leaf : leaves) {
    const Value &v = leaf.value;
    std::string where = leaf.path.empty() ? "" : " (at " + leaf.path + ")";
    if (v.kind == Value::Kind::None) {
      converted.push_back(v);
      continue;
    }
    if (v.kind == Value::Kind::Operation)
      return error(loc, who + " of " + api + " returns an Operation" + where + " (what "
                        "tf.no_op and tf.group give); agc's " + api + " produces tensors, so "
                        "return a tensor or None");
    if (v.kind == Value::Kind::TensorArray) {
      converted.push_back(v); // its tensor is what the cond produces
      continue;
    }
    if (!v.isTensorLike() && !v.isPyScalar())
      return error(loc, who + " of " + api + " returns " + v.describe() + where + "; the "
                        "branches of a cond return tensors (or Python numbers, None, or "
                        "tuples, lists and dicts of them)");
    std::optional<Value> t = asTensor(v, loc);
    if (!t)
      return std::nullopt;
    converted.push_back(std::move(*t));
  }
  return converted;
}

/// Notes where the functions of branches `a` and `b` are defined, for an error about
/// what they return.
static void noteBranches(Tracer::Impl &impl, const Tracer::Impl::Branch &a,
                         const Tracer::Impl::Branch &b) {
  for (const Tracer::Impl::Branch *branch : {&a, &b})
    if (branch->fn && branch->fn->kind == Value::Kind::Function)
      impl.note(branch->fn->function->loc(), branch->name + " is defined here");
}

std::optional<Value> Tracer::Impl::stagedCond(const Value &pred, const Branch &thenBranch,
                                              const Branch &elseBranch, llvm::StringRef api,
                                              const Location &loc) {
  std::optional<Value> test = asTensor(pred, loc);
  if (!test)
    return std::nullopt;
  void *token = emitter ? emitter->beginCond(*test, loc) : nullptr;
  std::optional<Value> a;
  {
    StagingScope staged(*this, loc, "branch of tf.cond");
    a = thenBranch.run();
  }
  if (!a)
    return std::nullopt;
  std::optional<std::vector<Value>> xs = branchLeaves(*a, *a, thenBranch.name, api, loc);
  if (!xs)
    return std::nullopt;
  if (token)
    emitter->beginElse(token);
  std::optional<Value> b;
  {
    StagingScope staged(*this, loc, "branch of tf.cond");
    b = elseBranch.run();
  }
  if (!b)
    return std::nullopt;
  std::string difference = nestDifference(*a, *b, "output");
  if (!difference.empty()) {
    error(loc, "the branches of " + api + " must return the same number, type and overall "
               "structure of values: " + difference + " (" + thenBranch.name + "'s, then " +
               elseBranch.name + "'s)");
    noteBranches(*this, thenBranch, elseBranch);
    return std::nullopt;
  }
  std::optional<std::vector<Value>> ys = branchLeaves(*b, *a, elseBranch.name, api, loc);
  if (!ys)
    return std::nullopt;
  std::vector<Value> thenValues, elseValues, results;
  for (size_t k = 0; k < xs->size(); ++k) {
    const Value &x = (*xs)[k], &y = (*ys)[k];
    bool xNone = x.kind == Value::Kind::None, yNone = y.kind == Value::Kind::None;
    if (xNone && yNone)
      continue;
    if (xNone || yNone) {
      error(loc, "the branches of " + api + " must return the same structure of values: " +
                     (xNone ? thenBranch.name : elseBranch.name) + " returns None where " +
                     (xNone ? elseBranch.name : thenBranch.name) + " returns " +
                     (xNone ? y : x).describe());
      noteBranches(*this, thenBranch, elseBranch);
      return std::nullopt;
    }
    if (x.dtype != y.dtype) {
      error(loc, "the branches of " + api + " must return values of the same dtypes: " +
                     thenBranch.name + " returns " + x.describe() + ", " + elseBranch.name +
                     " " + y.describe());
      noteBranches(*this, thenBranch, elseBranch);
      return std::nullopt;
    }
    thenValues.push_back(x);
    elseValues.push_back(y);
    if (x.kind == Value::Kind::TensorArray || y.kind == Value::Kind::TensorArray) {
      // One array, written in either branch (another array, or a tensor, is an error).
      if (!sameTensorArray(x, y)) {
        error(loc, "the branches of " + api + " must return the same tf.TensorArray where "
                       "one returns one: " + thenBranch.name + " returns " + x.describe() +
                       ", " + elseBranch.name + " " + y.describe());
        noteBranches(*this, thenBranch, elseBranch);
        return std::nullopt;
      }
      results.push_back(joinTensorArrays(x, y));
      continue;
    }
    results.push_back(Value::tensor(x.dtype, x.shape.join(y.shape)));
  }
  if (token && !emitter->endCond(token, thenValues, elseValues, results)) {
    failed = true;
    return std::nullopt;
  }
  std::vector<Value> leaves;
  size_t next = 0;
  for (const Value &x : *xs)
    leaves.push_back(x.kind == Value::Kind::None ? x : results[next++]);
  next = 0;
  Value out = packNest(*a, leaves, next);
  out.boundAt = loc;
  return out;
}

/// A predicate that tf.cond and tf.case take: a bool tensor with one element.
std::optional<Value> Tracer::Impl::predicate(const Value &pred, llvm::StringRef api,
                                             const Location &loc) {
  if (pred.kind == Value::Kind::Bool) {
    error(loc, "pred must not be a Python bool (" + api + " takes a bool tensor)");
    note(loc, "a Python condition is decided while tracing: use a Python if, or pass a "
              "tensor");
    return std::nullopt;
  }
  if (!pred.isTensorLike())
    return error(loc, "the predicate of " + api + " must be a bool tensor, not " +
                          pred.describe());
  if (pred.dtype != DType::Bool)
    return error(loc, "the predicate of " + api + " must be a bool tensor, not " +
                          pred.describe() + " (TensorFlow fails when it runs the graph)");
  if (pred.shape.rankKnown && !pred.shape.canBeScalar())
    return error(loc, "the predicate of " + api + " must hold one element, not " +
                          pred.describe());
  return asTensor(pred, loc);
}

std::optional<Value> Tracer::Impl::explicitCond(const CallArgs &args) {
  std::optional<std::vector<const Value *>> p =
      bindParams(*this, "cond", args, {"pred", "true_fn", "false_fn", "name"}, 1);
  if (!p)
    return std::nullopt;
  const Value *pred = (*p)[0], *trueFn = (*p)[1], *falseFn = (*p)[2];
  if (!trueFn)
    return error(args.loc, "cond(): 'true_fn' argument required");
  if (!falseFn)
    return error(args.loc, "cond(): 'false_fn' argument required");
  if (!isCallable(*trueFn))
    return error(args.loc, "'true_fn' must be callable, not " + trueFn->describe());
  if (!isCallable(*falseFn))
    return error(args.loc, "'false_fn' must be callable, not " + falseFn->describe());
  std::optional<Value> test = predicate(*pred, "tf.cond", args.loc);
  if (!test)
    return std::nullopt;
  Value t = *trueFn, f = *falseFn;
  Location loc = args.loc;
  return stagedCond(*test, {[&] { return callValue(t, {}, loc); }, "true_fn", &t},
                    {[&] { return callValue(f, {}, loc); }, "false_fn", &f}, "tf.cond", loc);
}

std::optional<Value> Tracer::Impl::explicitSwitchCase(const CallArgs &args) {
  std::optional<std::vector<const Value *>> p =
      bindParams(*this, "switch_case", args, {"branch_index", "branch_fns", "default", "name"}, 2);
  if (!p)
    return std::nullopt;
  const Value &index = *(*p)[0], &fns = *(*p)[1];
  const Location &loc = args.loc;
  if (!index.isTensorLike())
    return error(loc, "'branch_index' must be a Tensor, not " + index.describe());
  if (index.dtype != DType::Int32 || (index.shape.rankKnown && index.shape.rank() != 0))
    return error(loc, "'branch_index' must be an int32 scalar tensor, not " +
                          index.describe());
  // TensorFlow's canonical form: (key, function) pairs with keys 0..n-1, in key order.
  if (!fns.isPySequence() && fns.kind != Value::Kind::Dict)
    return error(loc, "'branch_fns' must be a list, tuple, or dict, not " + fns.describe());
  std::vector<std::pair<Value, Value>> pairs;
  if (fns.kind == Value::Kind::Dict) {
    for (size_t k = 0; k < fns.object->keys.size(); ++k)
      pairs.push_back({fns.object->keys[k], fns.object->items[k]});
  } else if (!fns.items().empty() && llvm::all_of(fns.items(), isCallable)) {
    for (size_t k = 0; k < fns.items().size(); ++k)
      pairs.push_back({Value::integer(k), fns.items()[k]});
  } else {
    for (const Value &pair : fns.items()) {
      if (pair.kind != Value::Kind::Tuple || pair.items().size() != 2)
        return error(loc, "each entry in 'branch_fns' must be a 2-tuple, not " +
                              pair.describe());
      pairs.push_back({pair.items()[0], pair.items()[1]});
    }
  }
  if (pairs.empty())
    return error(loc, "'branch_fns' must not be empty");
  for (const auto &[key, fn] : pairs) {
    if (key.kind != Value::Kind::Int)
      return error(loc, "a key of 'branch_fns' must be a Python int, not " + key.describe());
    if (!isCallable(fn))
      return error(loc, "the function for key " + llvm::Twine(key.i) + " must be callable, "
                        "not " + fn.describe());
  }
  llvm::sort(pairs, [](const auto &a, const auto &b) { return a.first.i < b.first.i; });
  for (size_t k = 0; k < pairs.size(); ++k)
    if (pairs[k].first.i != int64_t(k)) {
      std::string found;
      for (const auto &pair : pairs)
        found += (found.empty() ? "" : ",") + std::to_string(pair.first.i);
      return error(loc, "branch indices (keys) must form contiguous range of [0 to " +
                            llvm::Twine(pairs.size()) + ") but found {" + found + "}");
    }
  std::vector<Value> branches;
  for (const auto &pair : pairs)
    branches.push_back(pair.second);
  // An index out of range runs the default, or the last branch when there is none.
  if (const Value *fallback = (*p)[2]; fallback && fallback->kind != Value::Kind::None) {
    if (!isCallable(*fallback))
      return error(loc, "'default' must be callable, not " + fallback->describe());
    branches.push_back(*fallback);
  }
  std::optional<Value> i = asTensor(index, loc);
  if (!i)
    return std::nullopt;
  // cond(i == 0, f0, cond(i == 1, f1, ... f_last)): each branch traced once, in order.
  std::function<std::optional<Value>(size_t)> from = [&](size_t k) -> std::optional<Value> {
    if (k + 1 == branches.size())
      return callValue(branches[k], {}, loc);
    std::optional<Value> is = compare(ast::CmpOp::Eq, *i, Value::integer(k), loc);
    if (!is)
      return std::nullopt;
    return stagedCond(
        *is, {[&] { return callValue(branches[k], {}, loc); }, "branch " + std::to_string(k), &branches[k]},
        {[&] { return from(k + 1); }, "the branches after it", nullptr}, "tf.switch_case", loc);
  };
  return from(0);
}

std::optional<Value> Tracer::Impl::explicitCase(const CallArgs &args) {
  std::optional<std::vector<const Value *>> p = bindParams(
      *this, "case", args, {"pred_fn_pairs", "default", "exclusive", "strict", "name"}, 1);
  if (!p)
    return std::nullopt;
  const Value &pairsArg = *(*p)[0];
  const Location &loc = args.loc;
  std::vector<std::pair<Value, Value>> pairs;
  if (pairsArg.kind == Value::Kind::Dict) {
    for (size_t k = 0; k < pairsArg.object->keys.size(); ++k)
      pairs.push_back({pairsArg.object->keys[k], pairsArg.object->items[k]});
  } else if (pairsArg.isPySequence()) {
    for (const Value &pair : pairsArg.items()) {
      if (!pair.isPySequence() || pair.items().size() != 2)
        return error(loc, "each entry in pred_fn_pairs must be a 2-tuple, not " +
                              pair.describe());
      pairs.push_back({pair.items()[0], pair.items()[1]});
    }
  } else {
    return error(loc, "pred_fn_pairs must be a list of (predicate, function) pairs, not " +
                          pairsArg.describe());
  }
  std::vector<Value> preds, fns;
  for (const auto &[pred, fn] : pairs) {
    if (!pred.isTensorLike())
      return error(loc, "pred must be a Tensor, got: " + pred.describe());
    if (pred.dtype != DType::Bool)
      return error(loc, "pred must be Tensor of type bool: " + pred.describe());
    if (!isCallable(fn))
      return error(loc, "fn for pred must be callable, not " + fn.describe());
    std::optional<Value> t = predicate(pred, "tf.case", loc);
    if (!t)
      return std::nullopt;
    preds.push_back(*t);
    fns.push_back(fn);
  }
  const Value *exclusive = (*p)[2];
  if (exclusive && exclusive->kind != Value::Kind::Bool && exclusive->kind != Value::Kind::None)
    return error(loc, "'exclusive' must be a Python bool, not " + exclusive->describe());
  Value fallback;
  bool lastIsDefault = false;
  if (const Value *d = (*p)[1]; d && d->kind != Value::Kind::None) {
    if (!isCallable(*d))
      return error(loc, "'default' must be callable, not " + d->describe());
    fallback = *d;
  } else if (preds.empty()) {
    return error(loc, "tf.case needs at least one (predicate, function) pair or a default");
  } else {
    // No default: the last pair is it, asserting at run time that its predicate holds.
    lastIsDefault = true;
  }
  auto toInt = [&](const Value &b) -> std::optional<Value> {
    CallArgs cast;
    cast.positional = {b, Value::dtypeOf(DType::Int32)};
    cast.loc = loc;
    return callTF("tf.cast", cast);
  };
  auto assertThat = [&](const Value &holds, const std::string &message) {
    CallArgs check;
    check.positional = {holds, Value::list({Value::str(message)})};
    check.keywords.push_back({"message", Value::str(message)});
    check.loc = loc;
    return callTF("tf.debugging.Assert", check).has_value();
  };
  if (exclusive && exclusive->kind == Value::Kind::Bool && exclusive->i && preds.size() > 1) {
    // At most one predicate holds, checked before the case runs.
    std::optional<Value> count = toInt(preds[0]);
    for (size_t k = 1; count && k < preds.size(); ++k)
      if (std::optional<Value> one = toInt(preds[k]))
        count = binary(ast::BinaryOp::Add, *count, *one, loc);
      else
        count.reset();
    std::optional<Value> atMostOne =
        count ? compare(ast::CmpOp::LtE, *count, Value::integer(1), loc) : std::nullopt;
    if (!atMostOne ||
        !assertThat(*atMostOne, "Input error: exclusive=True: more than 1 conditions (" +
                                    std::to_string(preds.size()) + " given) evaluated as True"))
      return std::nullopt;
  }
  size_t n = preds.size() - (lastIsDefault ? 1 : 0);
  std::function<std::optional<Value>(size_t)> from = [&](size_t k) -> std::optional<Value> {
    if (k == n) {
      if (!lastIsDefault)
        return callValue(fallback, {}, loc);
      if (!assertThat(preds[n], "Input error: None of conditions evaluated as True"))
        return std::nullopt;
      return callValue(fns[n], {}, loc);
    }
    return stagedCond(
        preds[k], {[&] { return callValue(fns[k], {}, loc); }, "the function of pair " + std::to_string(k), &fns[k]},
        {[&] { return from(k + 1); }, "the functions after it", nullptr}, "tf.case", loc);
  };
  return from(0);
}

std::optional<Value> Tracer::Impl::explicitWhileLoop(const CallArgs &args) {
  std::optional<std::vector<const Value *>> p = bindParams(
      *this, "while_loop", args,
      {"cond", "body", "loop_vars", "shape_invariants", "parallel_iterations", "back_prop",
       "swap_memory", "maximum_iterations", "name"},
      3);
  if (!p)
    return std::nullopt;
  const Value &condFn = *(*p)[0], &bodyFn = *(*p)[1], &loopVars = *(*p)[2];
  const Location &loc = args.loc;
  if (!isCallable(condFn))
    return error(loc, "'cond' must be callable, not " + condFn.describe());
  if (!isCallable(bodyFn))
    return error(loc, "'body' must be callable, not " + bodyFn.describe());
  if (const Value *n = (*p)[4]; n && n->kind != Value::Kind::None) {
    if (n->kind != Value::Kind::Int && n->kind != Value::Kind::Bool)
      return error(loc, "'parallel_iterations' must be a positive Python int, not " +
                            n->describe());
    if (n->i < 1)
      return error(loc, "'parallel_iterations' must be a positive integer, not " +
                            llvm::Twine(n->i));
  }
  if (!loopVars.isPySequence()) {
    error(loc, "loop_vars of tf.while_loop must be a tuple or list of loop variables, not " +
                   loopVars.describe());
    note(loc, "TensorFlow takes len() of it and passes its items to cond and body: write "
              "[x] for one variable");
    return std::nullopt;
  }
  // maximum_iterations: an int32 scalar; an extra loop variable counts the iterations.
  std::optional<Value> most;
  if (const Value *m = (*p)[7]; m && m->kind != Value::Kind::None) {
    if (m->kind == Value::Kind::Int) {
      if (m->i < INT32_MIN || m->i > INT32_MAX)
        return error(loc, "maximum_iterations " + llvm::Twine(m->i) + " is out of range "
                          "of int32");
    } else if (!m->isTensorLike() || m->dtype != DType::Int32) {
      return error(loc, "maximum_iterations must be a Python int or an int32 tensor, not " +
                            m->describe());
    }
    if (m->isTensorLike() && !(m->shape.rankKnown && m->shape.rank() == 0))
      return error(loc, "maximum_iterations must be a scalar, not " + m->describe());
    most = asTensor(*m, loc);
    if (!most)
      return std::nullopt;
  }

  std::vector<Value> invariantLeaves;
  if (const Value *s = (*p)[3]; s && s->kind != Value::Kind::None) {
    std::string difference = looseDifference(loopVars, *s, "shape_invariants");
    if (!difference.empty())
      return error(loc, "shape_invariants must have the structure of loop_vars: " + difference);
    std::vector<NestLeaf> shapes;
    flattenNest(*s, loopVars, "", shapes);
    for (NestLeaf &leaf : shapes)
      invariantLeaves.push_back(std::move(leaf.value));
  }
  Value c = condFn, b = bodyFn;
  return stagedWhileLoop(
      loopVars, invariantLeaves, most,
      [&](const std::vector<Value> &operands) { return callValue(c, operands, loc); },
      [&](const std::vector<Value> &operands) { return callValue(b, operands, loc); }, loc);
}

std::optional<Value> Tracer::Impl::stagedWhileLoop(const Value &loopVars,
                                                   llvm::ArrayRef<Value> invariantLeaves,
                                                   std::optional<Value> most, const LoopFn &condFn,
                                                   const LoopFn &bodyFn, const Location &loc) {
  // The loop variables, leaf by leaf, as tensors (or TensorArrays) of the shapes their
  // invariants give.
  std::vector<NestLeaf> leaves;
  flattenNest(loopVars, loopVars, "loop_vars", leaves);
  std::vector<Value> entry;
  for (size_t k = 0; k < leaves.size(); ++k) {
    const Value &v = leaves[k].value;
    const std::string &path = leaves[k].path;
    if (v.kind == Value::Kind::TensorArray) {
      entry.push_back(v);
      continue;
    }
    if (!v.isTensorLike() && !v.isPyScalar())
      return error(loc, "'" + path + "' is " + v.describe() + "; a loop variable of "
                        "tf.while_loop is a tensor, a Python number or a tf.TensorArray (or "
                        "a tuple, list or dict of them)");
    std::optional<Value> t = asTensor(v, loc);
    if (!t)
      return std::nullopt;
    if (!invariantLeaves.empty()) {
      std::optional<Shape> s = shapeFrom(invariantLeaves[k], loc);
      if (!s)
        return std::nullopt;
      if (!s->admits(t->shape))
        return error(loc, "the shape invariant specified for '" + path + "' is not "
                          "compatible with the initial shape of the loop variable: it "
                          "enters the loop with shape " + t->shape.str() + ", but the "
                          "specified shape invariant is " + s->str());
      Value relaxed = Value::tensor(t->dtype, *s);
      if (emitter && !emitter->castTo(relaxed, *t, loc)) {
        failed = true;
        return std::nullopt;
      }
      t = relaxed;
    }
    entry.push_back(*t);
  }
  const size_t count = entry.size();
  if (most) {
    std::optional<Value> zero = toTensor(Value::integer(0), loc);
    if (!zero)
      return std::nullopt;
    entry.push_back(*zero);
  }

  std::vector<Value> vars = entry;
  void *token = emitter ? emitter->beginLoop(vars, loc) : nullptr;
  auto operands = [&](const std::vector<Value> &now) {
    size_t next = 0;
    Value packed = packNest(loopVars, llvm::ArrayRef(now).take_front(count), next);
    return std::vector<Value>(packed.items());
  };
  const uint64_t firstObject = Object::made();

  // The test: cond(*loop_vars), a bool tensor with one element.
  std::optional<Value> go;
  {
    StagingScope staged(*this, loc, "loop (tf.while_loop)", firstObject);
    go = condFn(operands(vars));
  }
  if (!go)
    return std::nullopt;
  if (go->kind == Value::Kind::Bool)
    go = toTensor(*go, loc);
  else if (!go->isTensorLike() || go->dtype != DType::Bool ||
           (go->shape.rankKnown && !go->shape.canBeScalar()))
    return error(loc, "the cond of tf.while_loop returns " + go->describe() +
                          "; it must return a scalar bool tensor");
  if (go && go->shape.rankKnown && go->shape.rank() != 0) {
    // TensorFlow squeezes a test of one element.
    CallArgs reshape;
    reshape.positional = {*go, Value::sequence(Value::Kind::List, {})};
    reshape.loc = loc;
    go = callTF("tf.reshape", reshape);
  }
  if (!go)
    return std::nullopt;
  go = asTensor(*go, loc);
  if (go && most) {
    std::optional<Value> under = compare(ast::CmpOp::Lt, vars[count], *most, loc);
    Value both = Value::tensor(DType::Bool, Shape::scalar());
    if (!under || !emitOp(TFOp::LogicalAnd, {*under, *go}, both, loc))
      return std::nullopt;
    go = both;
  }
  if (!go)
    return std::nullopt;
  if (token && !emitter->loopBody(token, *go, vars)) {
    failed = true;
    return std::nullopt;
  }

  // The body: body(*loop_vars), giving loop_vars' structure again (a list for a tuple
  // will do), each leaf of its dtype and of a shape its entry shape admits.
  std::optional<Value> out;
  {
    StagingScope staged(*this, loc, "loop (tf.while_loop)", firstObject);
    out = bodyFn(operands(vars));
  }
  if (!out)
    return std::nullopt;
  if (!isNest(*out))
    out = Value::sequence(Value::Kind::List, {*out});
  std::string difference = looseDifference(loopVars, *out, "loop_vars");
  if (!difference.empty()) {
    error(loc, "the body of tf.while_loop must return the loop variables in the structure "
               "of loop_vars: " + difference);
    note(loc, "body takes the loop variables as arguments and returns their next values, "
              "as many as loop_vars holds (a tuple or list of them)");
    return std::nullopt;
  }
  std::vector<NestLeaf> outLeaves;
  flattenNest(*out, loopVars, "loop_vars", outLeaves);
  std::vector<Value> next;
  for (size_t k = 0; k < count; ++k) {
    const Value &v = outLeaves[k].value;
    const Value &before = entry[k];
    const std::string &path = outLeaves[k].path;
    if (before.kind == Value::Kind::TensorArray || v.kind == Value::Kind::TensorArray) {
      if (before.kind != v.kind)
        return error(loc, "'" + path + "' enters the loop as " + before.describe() +
                          " but is " + v.describe() + " after one iteration");
      next.push_back(v);
      continue;
    }
    if (!v.isTensorLike() && !v.isPyScalar())
      return error(loc, "'" + path + "' is " + v.describe() + " after one iteration; the "
                        "body of tf.while_loop returns tensors");
    std::optional<Value> t = asTensor(v, loc);
    if (!t)
      return std::nullopt;
    if (t->dtype != before.dtype)
      return error(loc, "loop variable '" + path + "' enters the loop with type " +
                        dtypeName(before.dtype) + " but has type " + dtypeName(t->dtype) +
                        " after 1 iteration; its type should remain constant");
    if (!before.shape.admits(t->shape)) {
      error(loc, "loop variable '" + path + "' enters the loop with shape " +
                     before.shape.str() + ", but has shape " + t->shape.str() +
                     " after one iteration");
      note(loc, "to allow the shape to vary across iterations, use the shape_invariants "
                "argument of tf.while_loop to specify a less-specific shape, such as " +
                before.shape.join(t->shape).pyList());
      return std::nullopt;
    }
    next.push_back(*t);
  }
  if (most) {
    std::optional<Value> counted = binary(ast::BinaryOp::Add, vars[count], Value::integer(1), loc);
    if (!counted)
      return std::nullopt;
    next.push_back(*counted);
  }
  std::vector<Value> results;
  for (const Value &e : entry) {
    results.push_back(e);
    results.back().ir = nullptr;
  }
  if (token && !emitter->endLoop(token, next, results)) {
    failed = true;
    return std::nullopt;
  }
  size_t at = 0;
  Value packed = packNest(loopVars, llvm::ArrayRef(results).take_front(count), at);
  packed.boundAt = loc;
  return packed;
}
