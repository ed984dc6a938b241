//===- TracerExpr.cpp - Expressions, as tracing evaluates them ------------===//
//
// Names, truth, conversion to tensors, and the expressions themselves; operators in
// TracerOperators.cpp, calls and subscripts in TracerCalls.cpp.
//
// Python values are computed exactly, with Python's semantics (int, float, bool, str,
// tuple, list, range, comparisons, `and`/`or`/`not`, conditional expressions). As soon as
// a tensor takes part the result is a tensor, typed by TensorFlow's rules: a Python
// number converts to the other operand's dtype, two tensors must share a dtype, shapes
// broadcast. `and`, `or`, `not` and `x if c else y` with a tensor test are staged (a
// Decision records it).
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <functional>
#include <utility>

using namespace ag;
using namespace ag::analysis;
using llvm::cast;
using llvm::dyn_cast;

/// The Python builtins traced code may call.
static const char *const kBuiltins[] = {
    "range", "len", "print", "int", "float", "bool", "abs", "min", "max", "str", "tuple",
    "list", "sum", "any", "all", "sorted", "reversed", "enumerate", "zip", "map", "filter",
    "callable", "isinstance", "dict", "round", "object", "property", "staticmethod",
    "classmethod", "super", "getattr", "hasattr", "setattr", "type", "set"};

std::nullopt_t Tracer::Impl::useOfRefused(const Value &v, const Location &loc,
                                          const llvm::Twine &what) {
  if (v.name.empty())
    error(loc, what + " cannot be used in compiled code: agc could not evaluate its "
                      "definition at the top level of the file");
  else
    error(loc, what + " cannot be used here: " + v.name);
  for (const StoredDiagnostic &why : *v.refusal)
    note(why.loc.isValid() ? why.loc : v.boundAt, why.message);
  return std::nullopt;
}

Value *Tracer::Impl::bindingOf(llvm::StringRef id) {
  // The call's own names, then those of the calls its function was defined in (as they
  // are now: a closure reads its cells when it runs), then the module's.
  for (const CallScope *scope = frame().scope.get(); scope; scope = scope->parent) {
    auto found = const_cast<CallScope *>(scope)->locals.find(id);
    if (found != scope->locals.end())
      return &found->second;
    if (scope->module) // an imported module's names are its last
      return nullptr;
  }
  Env &module = moduleNames();
  auto global = module.find(id);
  return global == module.end() ? nullptr : &global->second;
}

std::optional<Value> Tracer::Impl::lookup(const ast::NameExpr &name) {
  llvm::StringRef id = name.getId();
  const Value *bound = bindingOf(id);
  if (bound && bound->kind == Value::Kind::Refused)
    return useOfRefused(*bound, name.loc(), "'" + id + "'");
  if (bound)
    return *bound;
  if (llvm::is_contained(kBuiltins, id))
    return Value::builtin(id.str());
  if (const ast::FunctionDefStmt *function = frames.back().function)
    if (const ast::Expr *bound = findBinding(function->getBody(), id)) {
      // Python makes a name local to the whole function once it is assigned anywhere in it.
      error(name.loc(), "local variable '" + id + "' is used before it is assigned");
      note(bound->loc(), "'" + id + "' is assigned here, which makes it local to '" +
                             function->getName() + "'");
      return std::nullopt;
    }
  error(name.loc(), "name '" + id + "' is not defined");
  // A module-level statement agc refused (a wildcard import, a `with`) may be what
  // defines it in Python.
  for (const ast::StmtPtr &stmt : module.getBody())
    if (const auto *refused = dyn_cast<ast::UnsupportedStmt>(stmt.get());
        refused && refused->getBinds().empty()) {
      note(refused->getWhy().front().loc, "this statement may define it, but agc skipped it: " +
                                               refused->getWhy().front().message);
      break;
    }
  return std::nullopt;
}

std::optional<bool> Tracer::Impl::truth(const Value &v) const {
  switch (v.kind) {
  case Value::Kind::Int:
  case Value::Kind::Bool: return v.i != 0;
  case Value::Kind::Float: return v.f != 0;
  case Value::Kind::Str: return !v.text.empty();
  case Value::Kind::None: return false;
  case Value::Kind::Tuple:
  case Value::Kind::List:
  case Value::Kind::Dict:
  case Value::Kind::Set: return !v.items().empty();
  case Value::Kind::Range: return v.elements[0].i != v.elements[1].i;
  case Value::Kind::Tensor:
  case Value::Kind::Variable:
  case Value::Kind::Undefined: return std::nullopt;
  default: return true;
  }
}

/// The dtype and shape of a nested Python list of scalars; false when ragged or mixed.
static bool inferLiteral(const Value &v, std::optional<DType> &dtype, Shape &shape,
                         unsigned depth) {
  if (v.isPySequence()) {
    if (depth == shape.dims.size())
      shape.dims.push_back(v.items().size());
    else if (shape.dims[depth] != int64_t(v.items().size()))
      return false;
    for (const Value &e : v.items())
      if (!inferLiteral(e, dtype, shape, depth + 1))
        return false;
    return true;
  }
  if (depth != shape.dims.size())
    return false;
  DType d;
  switch (v.kind) {
  case Value::Kind::Int: // TensorFlow: int32, or int64 for a value int32 cannot hold
    d = v.i == int32_t(v.i) ? DType::Int32 : DType::Int64;
    break;
  case Value::Kind::Float: d = DType::Float32; break;
  case Value::Kind::Bool: d = DType::Bool; break;
  case Value::Kind::Str: d = DType::String; break;
  default: return false;
  }
  // Ints widen to int64, and ints and floats together make float32.
  if (!dtype || (isInteger(*dtype) && (d == DType::Float32 || d == DType::Int64)))
    dtype = d;
  else if (*dtype != d && !(*dtype == DType::Float32 && isInteger(d)) &&
           !(*dtype == DType::Int64 && d == DType::Int32))
    return false;
  return true;
}

std::optional<Shape> Tracer::Impl::packedShape(const Value &v, DType dtype, bool castTensors,
                                               const Location &loc) {
  if (v.isTensorLike()) {
    // Without a dtype asked for, TensorFlow casts nothing: the tensors must agree.
    if (v.dtype != dtype && (!castTensors || v.dtype == DType::String || dtype == DType::String))
      return error(loc, "cannot convert a list holding " + aDtype(dtype) + " tensor and " +
                            v.describe() + " to one tensor (TensorFlow packs the list's "
                            "items in the dtype of its first tensor); tf.cast one of them");
    return v.shape;
  }
  if (v.isPySequence()) {
    std::optional<Shape> inner;
    for (const Value &e : v.items()) {
      std::optional<Shape> s = packedShape(e, dtype, castTensors, loc);
      if (!s)
        return std::nullopt;
      if (inner && !inner->isCompatibleWith(*s))
        return error(loc, "cannot pack a list whose items have shapes " + inner->str() +
                              " and " + s->str() + " into one tensor");
      inner = inner ? inner->join(*s) : *s;
    }
    if (!inner) // an empty list among the items: shape [0]
      return Shape::of({0});
    if (inner->rankKnown)
      inner->dims.insert(inner->dims.begin(), int64_t(v.items().size()));
    return inner;
  }
  // A Python scalar, converted to `dtype` as tf.constant(x, dtype) converts it.
  bool fits = false;
  switch (v.kind) {
  case Value::Kind::Int: fits = isInteger(dtype) || isFloat(dtype) || isComplex(dtype); break;
  case Value::Kind::Float: fits = isFloat(dtype) || isComplex(dtype); break;
  case Value::Kind::Bool: fits = dtype != DType::String; break;
  case Value::Kind::Str: fits = dtype == DType::String; break;
  default:
    return error(loc, "cannot convert " + v.describe() + " to a tensor");
  }
  if (!fits)
    return error(loc, "cannot convert " + v.describe() + " to " + aDtype(dtype) +
                          " tensor, the dtype of the tensors in its list");
  return Shape::scalar();
}

std::optional<Value> Tracer::Impl::tensorTypeOf(const Value &value, const Location &loc,
                                                std::optional<DType> want) {
  if (value.isTensorLike()) {
    if (want && value.dtype != *want)
      return error(loc, "expected " + aDtype(*want) + " tensor, but got " + value.describe());
    Value t = Value::tensor(value.dtype, value.shape);
    t.ir = value.ir; // a Variable's is its storage, not a value: toTensor reads it
    return t;
  }
  if (const Value *first = firstTensorIn(value)) {
    // A list holding tensors, at any depth, packs them as TensorFlow converts it (its
    // autopacking: tf.stack of the items, level by level): of the first tensor's dtype,
    // or `want`, to which the tensors are then cast; Python numbers converted to it.
    DType dtype = want.value_or(first->dtype);
    std::optional<Shape> packed = packedShape(value, dtype, /*castTensors=*/dtype != first->dtype,
                                              loc);
    if (!packed)
      return std::nullopt;
    return Value::tensor(dtype, *packed);
  }
  std::optional<DType> dtype;
  Shape shape;
  if (!inferLiteral(value, dtype, shape, 0))
    return error(loc, "cannot convert " + value.describe() + " to a tensor");
  if (!dtype) // an empty list
    dtype = DType::Float32;
  if (want) {
    bool hasFloat = false;
    std::function<void(const Value &)> scan = [&](const Value &v) {
      hasFloat |= v.kind == Value::Kind::Float;
      for (const Value &e : v.items())
        scan(e);
    };
    scan(value);
    if (isInteger(*want) && hasFloat)
      return error(loc, "cannot convert " + value.describe() + " to a tensor of dtype " +
                            dtypeName(*want) + " (it holds a float)");
    // A bool converts to a number (True is 1, as TensorFlow 2.21 converts it), but a number
    // does not convert to a bool.
    if (*want == DType::Bool && *dtype != DType::Bool && value.kind != Value::Kind::List &&
        value.kind != Value::Kind::Tuple)
      return error(loc, "cannot convert " + value.describe() + " to a tensor of dtype " +
                            dtypeName(*want));
    // A str is a string and nothing else; nothing else is a string (TensorFlow's
    // "Cannot convert 1 to EagerTensor of dtype string").
    if ((*want == DType::String) != (*dtype == DType::String))
      return error(loc, "cannot convert " + value.describe() + " to a tensor of dtype " +
                            dtypeName(*want));
    dtype = want;
  }
  return Value::tensor(*dtype, shape);
}

std::optional<Value> Tracer::Impl::toTensor(const Value &value, const Location &loc,
                                            std::optional<DType> want) {
  std::optional<Value> t = tensorTypeOf(value, loc, want);
  if (!t || !emitter || value.kind == Value::Kind::Tensor)
    return t;
  bool emitted = value.kind == Value::Kind::Variable ? emitter->readVariable(value, *t, loc)
                                                     : emitter->constant(*t, value, loc);
  if (!emitted) {
    failed = true;
    return std::nullopt;
  }
  return t;
}

//===----------------------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------------------===//

/// `-x`, `+x`, `~x`, `not x`: Python on Python values, TensorFlow on tensors; a tensor `not` is staged.
std::optional<Value> Tracer::Impl::evalUnary(const ast::Expr &expr) {
  const auto &u = cast<ast::UnaryExpr>(expr);
  std::optional<Value> v = eval(u.getOperand());
  if (!v)
    return std::nullopt;
  if (u.getOp() == ast::UnaryOp::Not) {
    if (v->isTensorLike() && !frame().unconverted.empty())
      return refuseUnconverted(expr.loc(), "this 'not'");
    if (v->isTensorLike()) {
      Decision &d = exprDecision(expr, "not");
      d.staged = true;
      d.reason = "the operand is " + aDtype(v->dtype) + " tensor";
      if (v->dtype != DType::Bool)
        return error(expr.loc(), "'not' of " + v->describe() + ": a staged 'not' "
                                 "(tf.logical_not) needs a bool tensor");
      std::optional<Value> t = asTensor(*v, expr.loc());
      Value r = Value::tensor(DType::Bool, v->shape);
      if (!t || !emitOp(TFOp::LogicalNot, {*t}, r, expr.loc()))
        return std::nullopt;
      return r;
    }
    std::optional<bool> t = truth(*v);
    return Value::boolean(!*t);
  }
  if (v->isTensorLike()) {
    // A bool tensor's ~ is tf.logical_not (Tensor.__invert__ dispatches on the dtype).
    if (v->dtype == DType::Bool && u.getOp() == ast::UnaryOp::Invert) {
      CallArgs args;
      args.positional = {*v};
      args.loc = expr.loc();
      return callTF("tf.math.logical_not", args);
    }
    if (v->dtype == DType::Bool || v->dtype == DType::String)
      return error(expr.loc(), "unary " + ast::spelling(u.getOp()) + " is not defined on " +
                                   v->describe());
    if (u.getOp() == ast::UnaryOp::Invert && !isInteger(v->dtype))
      return error(expr.loc(), "~ needs an integer tensor, not " + v->describe());
    if (u.getOp() == ast::UnaryOp::Minus && isUnsigned(v->dtype))
      return error(expr.loc(), "TypeError: Value passed to parameter 'x' has DataType " +
                                   dtypeName(v->dtype) + " not in list of allowed values "
                                   "(tf.math.negative takes signed numbers)");
    std::optional<Value> t = asTensor(*v, expr.loc());
    if (!t || u.getOp() == ast::UnaryOp::Plus)
      return t;
    Value r = Value::tensor(v->dtype, v->shape);
    if (!emitOp(u.getOp() == ast::UnaryOp::Minus ? TFOp::Negative : TFOp::Invert, {*t}, r,
                expr.loc()))
      return std::nullopt;
    return r;
  }
  if (!v->isPyScalar())
    return error(expr.loc(), "bad operand for unary " + ast::spelling(u.getOp()) + ": " +
                                 v->describe());
  switch (u.getOp()) {
  case ast::UnaryOp::Plus: return v->kind == Value::Kind::Bool ? Value::integer(v->i) : *v;
  case ast::UnaryOp::Minus:
    if (v->kind == Value::Kind::Float)
      return Value::floating(-v->f);
    if (v->i == INT64_MIN)
      return error(expr.loc(), intOverflow("-(" + std::to_string(v->i) + ")"));
    return Value::integer(-v->i);
  case ast::UnaryOp::Invert:
    if (v->kind == Value::Kind::Float)
      return error(expr.loc(), "bad operand for ~: a float");
    return Value::integer(~v->i);
  case ast::UnaryOp::Not: break;
  }
  return std::nullopt;
}

/// `a and b`, `a or b`: Python short-circuit; from a tensor operand on, staged (tf.cond).
std::optional<Value> Tracer::Impl::evalBoolOp(const ast::Expr &expr) {
  // Python: the first operand deciding the result, evaluated left to right. A tensor
  // operand stages the rest (tf.cond), and the result is a tensor.
  const auto &b = cast<ast::BoolOpExpr>(expr);
  bool isAnd = b.getOp() == ast::BoolOpKind::And;
  const ast::ExprList &operands = b.getValues();
  std::optional<Value> acc = eval(*operands[0]);
  for (size_t k = 1; acc && k < operands.size(); ++k) {
    if (acc->isTensorLike() && !frame().unconverted.empty())
      return refuseUnconverted(operands[k - 1]->loc(), isAnd ? "this 'and'" : "this 'or'");
    if (acc->isTensorLike())
      return stagedBoolOp(b, k, *acc);
    std::optional<bool> t = truth(*acc);
    if (t && *t != isAnd)
      return acc; // short circuit
    acc = eval(*operands[k]);
  }
  return acc;
}

std::optional<Value> Tracer::Impl::stagedBoolOp(const ast::BoolOpExpr &b, size_t k, Value acc) {
  bool isAnd = b.getOp() == ast::BoolOpKind::And;
  Decision &d = exprDecision(b, isAnd ? "and" : "or");
  d.staged = true;
  d.reason = "an operand before the last is " + aDtype(acc.dtype) + " tensor";
  const ast::ExprList &operands = b.getValues();
  for (; k < operands.size(); ++k) {
    const ast::Expr &operand = *operands[k];
    std::optional<Value> lhs = asTensor(acc, operand.loc());
    if (!lhs)
      return std::nullopt;
    if (emitter && (lhs->dtype != DType::Bool || !lhs->shape.canBeScalar()))
      return error(operand.loc(), "a staged '" + ast::spelling(b.getOp()) + "' (tf.cond) needs "
                                  "a scalar bool tensor before it, not " + lhs->describe());
    // `and` evaluates the operand when the left side holds; `or` when it does not.
    void *token = emitter ? emitter->beginCond(*lhs, operand.loc()) : nullptr;
    if (token && !isAnd)
      emitter->beginElse(token);
    std::optional<Value> v;
    {
      StagingScope staged(*this, b.loc(), isAnd ? "'and' (tf.cond)" : "'or' (tf.cond)");
      v = eval(operand);
    }
    if (!v)
      return std::nullopt;
    if (token && isAnd)
      emitter->beginElse(token);
    // Its type only: the value converts inside its branch (endCond).
    std::optional<Value> t = tensorTypeOf(*v, operand.loc());
    if (!t)
      return std::nullopt;
    if (t->dtype != lhs->dtype)
      return error(operand.loc(), "the operands of a staged '" + ast::spelling(b.getOp()) +
                                      "' must have one dtype: " + lhs->describe() + " and " +
                                      t->describe());
    if (lhs->shape.rankKnown && t->shape.rankKnown && lhs->shape.rank() != t->shape.rank())
      return error(operand.loc(), "the operands of a staged '" + ast::spelling(b.getOp()) +
                                      "' have shapes " + lhs->shape.str() + " and " +
                                      t->shape.str() + ", so its result has no known rank; "
                                      "for elementwise logic use tf.logical_" +
                                      ast::spelling(b.getOp()) + ", or reduce this operand "
                                      "with tf.reduce_all / tf.reduce_any");
    Value r = Value::tensor(lhs->dtype, lhs->shape.join(t->shape));
    if (token) {
      Value results[] = {r};
      if (!emitter->endCond(token, {isAnd ? *v : *lhs}, {isAnd ? *lhs : *v}, results)) {
        failed = true;
        return std::nullopt;
      }
      r = results[0];
    }
    acc = r;
  }
  return acc;
}

/// `a < b <= c`: chained comparisons, tensors compared elementwise.
std::optional<Value> Tracer::Impl::evalCompare(const ast::Expr &expr) {
  const auto &c = cast<ast::CompareExpr>(expr);
  std::optional<Value> left = eval(c.getLeft());
  if (!left)
    return std::nullopt;
  std::optional<Value> acc;
  for (size_t i = 0; i < c.getOps().size(); ++i) {
    std::optional<Value> right = eval(*c.getComparators()[i]);
    if (!right)
      return std::nullopt;
    std::optional<Value> r = compare(c.getOps()[i], *left, *right, expr.loc());
    if (!r)
      return std::nullopt;
    if (!acc) {
      acc = r;
    } else if (acc->isTensorLike() || r->isTensorLike()) {
      // A chained comparison on tensors: AutoGraph makes it `and` of the comparisons.
      Decision &d = exprDecision(expr, "chained comparison");
      d.staged = true;
      d.reason = "a comparison in the chain is a bool tensor";
      std::optional<Value> a = asTensor(*acc, expr.loc()), bb = asTensor(*r, expr.loc());
      if (!a || !bb)
        return std::nullopt;
      std::optional<Shape> shape = broadcast(a->shape, bb->shape, expr.loc());
      if (!shape)
        return std::nullopt;
      Value both = Value::tensor(DType::Bool, *shape);
      if (!emitOp(TFOp::LogicalAnd, {*a, *bb}, both, expr.loc()))
        return std::nullopt;
      acc = both;
    } else if (!truth(*acc).value_or(true)) {
      return acc;
    } else {
      acc = r;
    }
    left = right;
  }
  return acc;
}

/// A call: the callee and arguments evaluated, then call().
std::optional<Value> Tracer::Impl::evalCall(const ast::Expr &expr) {
  const auto &c = cast<ast::CallExpr>(expr);
  std::optional<Value> callee = eval(c.getCallee());
  if (!callee)
    return std::nullopt;
  CallArgs args;
  args.loc = expr.loc();
  for (const ast::ExprPtr &arg : c.getArgs()) {
    // f(*xs) passes the items of xs.
    const auto *starred = dyn_cast<ast::StarredExpr>(arg.get());
    std::optional<Value> v = eval(starred ? starred->getValue() : *arg);
    if (!v)
      return std::nullopt;
    if (!starred) {
      args.positional.push_back(std::move(*v));
      continue;
    }
    std::optional<std::vector<Value>> items = pythonItems(*v, starred->getValue().loc());
    if (!items)
      return std::nullopt;
    args.positional.insert(args.positional.end(), items->begin(), items->end());
  }
  for (const ast::Keyword &keyword : c.getKeywords()) {
    std::optional<Value> v = eval(*keyword.value);
    if (!v)
      return std::nullopt;
    if (keyword.name.empty()) { // f(**d)
      if (!unpackKeywords(*v, keyword.loc, args))
        return std::nullopt;
      continue;
    }
    if (llvm::any_of(args.keywords, [&](const auto &kw) { return kw.first == keyword.name; }))
      return error(keyword.loc, "got multiple values for keyword argument '" + keyword.name + "'");
    args.keywords.push_back({keyword.name, std::move(*v)});
  }
  // int(), float(), len() and range() of a tensor are AutoGraph's int_, float_, len_ and
  // range_ (a cast, the first dimension, tf.range): to-code writes them so, from this
  // decision.
  if (callee->kind == Value::Kind::Builtin &&
      (callee->name == "int" || callee->name == "float" || callee->name == "range" ||
       callee->name == "len") &&
      llvm::any_of(args.positional, [](const Value &v) { return v.isTensorLike(); })) {
    const Value &first = args.positional[0];
    bool staticLen = first.shape.rankKnown && first.shape.rank() > 0 && first.shape.dims[0] >= 0;
    Decision &d = exprDecision(expr, callee->name == "int"     ? "int"
                                     : callee->name == "float" ? "float"
                                     : callee->name == "range" ? "range"
                                     : staticLen               ? "len (static)"
                                                               : "len");
    d.staged = true;
    d.reason = "an argument is a tensor";
  }
  return call(*callee, args, c);
}

/// `x if c else y`: a tensor test is staged (both sides evaluated, one dtype).
std::optional<Value> Tracer::Impl::evalIfExp(const ast::Expr &expr) {
  const auto &e = cast<ast::IfExpExpr>(expr);
  std::optional<Value> test = eval(e.getTest());
  if (!test)
    return std::nullopt;
  Decision &d = exprDecision(expr, "conditional expression");
  if (!test->isTensorLike()) {
    std::optional<bool> t = truth(*test);
    if (!t)
      return error(e.getTest().loc(), "cannot use " + test->describe() + " as a test");
    (*t ? d.tookTrue : d.tookFalse) = true;
    d.reason = "the test is " + test->describe();
    return eval(*t ? e.getBody() : e.getOrElse());
  }
  if (!frame().unconverted.empty())
    return refuseUnconverted(e.getTest().loc(), "this conditional expression");
  if (unconvertedIfExp > 0) {
    error(e.getTest().loc(), "using a tensor as a Python bool is not allowed: AutoGraph does "
                             "not convert a conditional expression inside a branch of another "
                             "staged conditional expression");
    note(stagedIfExpAt, "the enclosing staged conditional expression");
    note(expr.loc(), "use an if statement, tf.where, or a helper function (which AutoGraph "
                     "converts)");
    return std::nullopt;
  }
  d.staged = true;
  d.reason = "the test is " + aDtype(test->dtype) + " tensor";
  if (test->dtype != DType::Bool || !test->shape.canBeScalar())
    return error(e.getTest().loc(), "the test of a staged conditional expression must be "
                                    "a scalar bool tensor, not " + test->describe());
  void *token = emitter ? emitter->beginCond(*test, e.getTest().loc()) : nullptr;
  ++unconvertedIfExp;
  Location outerAt = std::exchange(stagedIfExpAt, expr.loc());
  std::optional<Value> x, y;
  {
    StagingScope staged(*this, expr.loc(), "conditional expression (tf.cond)");
    x = eval(e.getBody());
    if (x && token)
      emitter->beginElse(token);
    y = x ? eval(e.getOrElse()) : std::nullopt;
  }
  --unconvertedIfExp;
  stagedIfExpAt = outerAt;
  if (!y)
    return std::nullopt;
  // Types only: the values convert inside their branches (endCond).
  std::optional<Value> tx = tensorTypeOf(*x, e.getBody().loc());
  std::optional<Value> ty = tx ? tensorTypeOf(*y, e.getOrElse().loc()) : std::nullopt;
  if (!ty)
    return std::nullopt;
  if (tx->dtype != ty->dtype)
    return error(expr.loc(), "the branches of this staged conditional expression have "
                             "dtypes " + dtypeName(tx->dtype) + " and " +
                             dtypeName(ty->dtype) + "; tf.cond needs one dtype");
  Value r = Value::tensor(tx->dtype, tx->shape.join(ty->shape));
  if (token) {
    Value results[] = {r};
    if (!emitter->endCond(token, {*x}, {*y}, results)) {
      failed = true;
      return std::nullopt;
    }
    r = results[0];
  }
  return r;
}

std::optional<Value> Tracer::Impl::eval(const ast::Expr &expr) {
  using K = ast::Expr::Kind;
  switch (expr.getKind()) {
  case K::Name:
    return lookup(cast<ast::NameExpr>(expr));
  case K::IntLit: {
    const auto &lit = cast<ast::IntLitExpr>(expr);
    if (!lit.getValue())
      return error(expr.loc(), "the integer " + lit.getSpelling() + " does not fit in 64 bits");
    return Value::integer(*lit.getValue());
  }
  case K::FloatLit:
    return Value::floating(cast<ast::FloatLitExpr>(expr).getValue());
  case K::StrLit:
    return Value::str(cast<ast::StrLitExpr>(expr).getValue().str());
  case K::BoolLit:
    return Value::boolean(cast<ast::BoolLitExpr>(expr).getValue());
  case K::NoneLit:
    return Value::none();
  case K::EllipsisLit: {
    Value v;
    v.kind = Value::Kind::Builtin;
    v.name = "...";
    return v;
  }
  case K::Unary:
    return evalUnary(expr);
  case K::Binary: {
    const auto &b = cast<ast::BinaryExpr>(expr);
    std::optional<Value> l = eval(b.getLHS());
    std::optional<Value> r = l ? eval(b.getRHS()) : std::nullopt;
    if (!r)
      return std::nullopt;
    return binary(b.getOp(), *l, *r, expr.loc());
  }
  case K::BoolOp:
    return evalBoolOp(expr);
  case K::Compare:
    return evalCompare(expr);
  case K::Call: {
    std::optional<Value> v = evalCall(expr);
    if (v && v->kind == Value::Kind::Refused)
      return useOfRefused(*v, expr.loc(), "what this call returns");
    return v;
  }
  case K::Attribute: {
    const auto &a = cast<ast::AttributeExpr>(expr);
    std::optional<Value> base = eval(a.getValue());
    if (!base)
      return std::nullopt;
    std::optional<Value> v = attribute(*base, a.getAttr(), a.getAttrLoc());
    if (v && v->kind == Value::Kind::Refused)
      return useOfRefused(*v, expr.loc(), "'" + a.getAttr() + "'");
    return v;
  }
  case K::Subscript: {
    const auto &s = cast<ast::SubscriptExpr>(expr);
    std::optional<Value> base = eval(s.getValue());
    if (!base)
      return std::nullopt;
    std::optional<Value> v = subscript(*base, s.getIndex(), expr.loc());
    if (v && v->kind == Value::Kind::Refused)
      return useOfRefused(*v, expr.loc(), "this item");
    return v;
  }
  case K::Slice:
    return error(expr.loc(), "a slice is only allowed inside '[]'");
  case K::Tuple:
  case K::List:
  case K::Set: {
    std::vector<Value> items;
    for (const ast::ExprPtr &e : cast<ast::SequenceExpr>(expr).getElements()) {
      const auto *starred = dyn_cast<ast::StarredExpr>(e.get());
      std::optional<Value> v = eval(starred ? starred->getValue() : *e);
      if (!v)
        return std::nullopt;
      if (!starred) {
        items.push_back(std::move(*v));
        continue;
      }
      std::optional<std::vector<Value>> more = pythonItems(*v, starred->getValue().loc());
      if (!more)
        return std::nullopt;
      items.insert(items.end(), more->begin(), more->end());
    }
    if (expr.getKind() == K::Set)
      return makeSet(items, expr.loc());
    return Value::sequence(expr.getKind() == K::Tuple ? Value::Kind::Tuple : Value::Kind::List,
                           std::move(items));
  }
  case K::Dict: {
    // {k: v, **other}: later keys replace earlier ones, in first-insertion order.
    const auto &d = cast<ast::DictExpr>(expr);
    Value out = Value::dict({}, {});
    Object &object = *out.object;
    for (size_t k = 0; k < d.getKeys().size(); ++k) {
      const ast::Expr *keyExpr = d.getKeys()[k].get();
      std::optional<Value> key = keyExpr ? eval(*keyExpr) : Value::none();
      std::optional<Value> value = key ? eval(*d.getValues()[k]) : std::nullopt;
      if (!value)
        return std::nullopt;
      if (!keyExpr) {
        if (value->kind != Value::Kind::Dict)
          return error(d.getValues()[k]->loc(), "'**' in a dict display needs a dict, not " +
                                                    value->describe());
        Object other = *value->object;
        for (size_t j = 0; j < other.keys.size(); ++j)
          object.put(other.keys[j], other.items[j]);
        continue;
      }
      if (!checkHashable(*key, keyExpr->loc()))
        return std::nullopt;
      object.put(*key, *value);
    }
    return out;
  }
  case K::IfExp:
    return evalIfExp(expr);
  case K::Lambda:
    return functionValue(cast<ast::LambdaExpr>(expr).getDef());
  case K::ListComp:
  case K::GeneratorExp:
  case K::DictComp:
  case K::SetComp:
    return evalComprehension(cast<ast::ComprehensionExpr>(expr));
  case K::JoinedStr:
    return evalJoinedStr(cast<ast::JoinedStrExpr>(expr));
  case K::Starred:
    return error(expr.loc(), "can't use starred expression here");
  }
  return std::nullopt;
}

std::optional<std::vector<Value>> Tracer::Impl::pythonItems(const Value &iter,
                                                            const Location &loc) {
  std::vector<Value> items;
  if (iter.kind == Value::Kind::Range) {
    int64_t start = iter.elements[0].i, step = iter.elements[2].i;
    int64_t count = rangeLength(iter).value_or(INT64_MAX);
    if (count > kMaxSequence)
      return error(loc, "this range has " + llvm::Twine(count) + " items, more than agc "
                        "iterates over while tracing (" + llvm::Twine(kMaxSequence) + ")");
    for (int64_t k = 0; k < count; ++k)
      items.push_back(Value::integer(start + k * step));
  } else if (iter.isPySequence()) {
    items = iter.items();
  } else if (iter.kind == Value::Kind::Dict) {
    items = iter.object->keys;
  } else if (iter.kind == Value::Kind::Set) {
    std::optional<std::vector<Value>> ordered = setItemsInOrder(iter, loc);
    if (!ordered)
      return std::nullopt;
    items = std::move(*ordered);
  } else if (iter.kind == Value::Kind::Str) {
    for (char c : iter.text)
      items.push_back(Value::str(std::string(1, c)));
  } else if (iter.isTensorLike()) {
    // TensorFlow refuses it too, whatever the shape (OperatorNotAllowedInGraphError:
    // "Iterating over a symbolic tf.Tensor is not allowed"), even through enumerate or zip.
    error(loc, "iterating over " + iter.describe() + " in Python code AutoGraph does not "
               "convert (a comprehension, an unpacking, enumerate or zip) is not allowed: "
               "TensorFlow refuses it too (\"Iterating over a symbolic tf.Tensor is not "
               "allowed\")");
    note(loc, "use a for statement (staged as a loop), tf.unstack, or tf.map_fn");
    return std::nullopt;
  } else {
    return error(loc, "cannot iterate over " + iter.describe());
  }
  return items;
}

std::optional<Value> Tracer::Impl::evalComprehension(const ast::ComprehensionExpr &c) {
  const std::vector<ast::Comprehension> &gens = c.getGenerators();
  // The first iterable is evaluated where the comprehension is; the rest in its scope,
  // whose names (the targets) do not outlive it, as in Python 3.
  std::optional<Value> first = eval(*gens[0].iter);
  if (!first)
    return std::nullopt;
  std::vector<ast::Identifier> targets;
  for (const ast::Comprehension &g : gens)
    assignedNames(*g.target, targets);
  std::vector<std::pair<std::string, std::optional<Value>>> saved;
  for (const ast::Identifier &target : targets) {
    auto it = frame().locals.find(target.name);
    saved.push_back({target.name, it == frame().locals.end() ? std::nullopt
                                                             : std::optional<Value>(it->second)});
  }
  std::vector<Value> out;
  Value dict = Value::dict({}, {});
  std::function<bool(size_t)> run = [&](size_t k) -> bool {
    if (k == gens.size()) {
      std::optional<Value> v = eval(c.getElement());
      if (!v)
        return false;
      if (const ast::Expr *valueExpr = c.getValue()) { // {key: value for ...}
        std::optional<Value> value = eval(*valueExpr);
        if (!value || !checkHashable(*v, c.getElement().loc()))
          return false;
        dict.object->put(*v, std::move(*value));
        return true;
      }
      if (int64_t(out.size()) >= kMaxSequence) {
        error(c.loc(), "this comprehension makes more than " + llvm::Twine(kMaxSequence) +
                           " items, agc's limit while tracing");
        return false;
      }
      out.push_back(std::move(*v));
      return true;
    }
    const ast::Comprehension &g = gens[k];
    std::optional<Value> iter = k == 0 ? first : eval(*g.iter);
    // A set comprehension's result has no order, so it may read a set in any order.
    bool anyOrder = c.getKind() == ast::Expr::Kind::SetComp;
    std::optional<std::vector<Value>> items =
        !iter ? std::nullopt
        : anyOrder ? itemsInAnyOrder(*iter, g.iter->loc())
                   : pythonItems(*iter, g.iter->loc());
    if (!items)
      return false;
    for (const Value &item : *items) {
      if (!assign(*g.target, item))
        return false;
      bool keep = true;
      for (const ast::ExprPtr &test : g.ifs) {
        std::optional<Value> t = eval(*test);
        if (!t)
          return false;
        std::optional<bool> holds = truth(*t);
        if (!holds) {
          error(test->loc(), "the condition of a comprehension must be a Python bool, not " +
                                 t->describe() + ": AutoGraph does not convert "
                                 "comprehensions, so it would use a tensor as a Python bool");
          note(test->loc(), "filter with tf.boolean_mask, or write a for statement");
          return false;
        }
        if (!*holds) {
          keep = false;
          break;
        }
      }
      if (keep && !run(k + 1))
        return false;
    }
    return true;
  };
  bool ok = run(0);
  for (auto &[name, value] : saved) {
    if (value)
      frame().locals[name] = std::move(*value);
    else
      frame().locals.erase(name);
  }
  if (!ok)
    return std::nullopt;
  if (c.getValue())
    return dict;
  if (c.getKind() == ast::Expr::Kind::SetComp)
    return makeSet(out, c.loc());
  return Value::sequence(Value::Kind::List, std::move(out));
}
