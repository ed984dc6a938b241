//===- TracerExpr.cpp - Expressions, as tracing evaluates them ------------===//
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
#include <utility>

using namespace ag;
using namespace ag::analysis;
using llvm::cast;
using llvm::dyn_cast;

/// The Python builtins traced code may call.
static const char *const kBuiltins[] = {"range", "len", "print", "int", "float", "bool",
                                        "abs", "min", "max", "str", "tuple", "list"};

/// Whether `function` is defined inside `outer` (a closure over its frame).
static bool isNestedIn(const ast::FunctionDefStmt &function, const ast::FunctionDefStmt &outer) {
  bool found = false;
  forEachFunction(outer.getBody(), [&](const ast::FunctionDefStmt &f) { found |= &f == &function; });
  return found;
}

std::optional<Value> Tracer::Impl::lookup(const ast::NameExpr &name) {
  llvm::StringRef id = name.getId();
  // The innermost frame, then the frames of the functions it is lexically nested in
  // (a closure reads their current bindings), then the module.
  for (size_t i = frames.size(); i-- > 0;) {
    auto found = frames[i].locals.find(id);
    if (found != frames[i].locals.end())
      return found->second;
    if (i == 0 || !frames[i].function || !frames[i - 1].function ||
        !isNestedIn(*frames[i].function, *frames[i - 1].function))
      break;
  }
  auto global = globals.find(id);
  if (global != globals.end())
    return global->second;
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
  return error(name.loc(), "name '" + id + "' is not defined");
}

std::optional<bool> Tracer::Impl::truth(const Value &v) const {
  switch (v.kind) {
  case Value::Kind::Int:
  case Value::Kind::Bool: return v.i != 0;
  case Value::Kind::Float: return v.f != 0;
  case Value::Kind::Str: return !v.s.empty();
  case Value::Kind::None: return false;
  case Value::Kind::Tuple:
  case Value::Kind::List: return !v.elements.empty();
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
      shape.dims.push_back(v.elements.size());
    else if (shape.dims[depth] != int64_t(v.elements.size()))
      return false;
    for (const Value &e : v.elements)
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

std::optional<Value> Tracer::Impl::toTensor(const Value &value, const Location &loc,
                                            std::optional<DType> want) {
  if (value.isTensorLike()) {
    if (want && value.dtype != *want)
      return error(loc, "expected " + aDtype(*want) + " tensor, but got " + value.describe());
    Value t = Value::tensor(value.dtype, value.shape);
    t.ir = value.ir;
    if (value.kind == Value::Kind::Variable && emitter && !emitter->readVariable(value, t, loc)) {
      failed = true;
      return std::nullopt;
    }
    return t;
  }
  std::optional<DType> dtype;
  Shape shape;
  bool hasFloat = false;
  std::function<void(const Value &)> scan = [&](const Value &v) {
    if (v.kind == Value::Kind::Float)
      hasFloat = true;
    for (const Value &e : v.elements)
      scan(e);
  };
  if (value.isPySequence() &&
      llvm::any_of(value.elements, [](const Value &e) { return e.isTensorLike(); })) {
    // [t0, t1] of tensors packs them (tf.stack).
    std::optional<Value> first = asTensor(value.elements[0], loc);
    if (!first)
      return std::nullopt;
    Shape packed = first->shape;
    for (const Value &e : value.elements) {
      std::optional<Value> t = asTensor(e, loc);
      if (!t)
        return std::nullopt;
      if (t->dtype != first->dtype)
        return error(loc, "cannot pack tensors of dtypes " + dtypeName(first->dtype) + " and " +
                              dtypeName(t->dtype) + " into one tensor");
      packed = packed.join(t->shape);
    }
    if (packed.rankKnown)
      packed.dims.insert(packed.dims.begin(), value.elements.size());
    Value t = Value::tensor(want.value_or(first->dtype), packed);
    if (emitter && !emitter->constant(t, value, loc)) {
      failed = true;
      return std::nullopt;
    }
    return t;
  }
  if (!inferLiteral(value, dtype, shape, 0))
    return error(loc, "cannot convert " + value.describe() + " to a tensor");
  if (!dtype) // an empty list
    dtype = DType::Float32;
  scan(value);
  if (want) {
    if (isInteger(*want) && hasFloat)
      return error(loc, "cannot convert " + value.describe() + " to a tensor of dtype " +
                            dtypeName(*want) + " (it holds a float)");
    if ((*want == DType::Bool) != (*dtype == DType::Bool) && value.kind != Value::Kind::List &&
        value.kind != Value::Kind::Tuple)
      return error(loc, "cannot convert " + value.describe() + " to a tensor of dtype " +
                            dtypeName(*want));
    dtype = want;
  }
  Value t = Value::tensor(*dtype, shape);
  if (emitter && !emitter->constant(t, value, loc)) {
    failed = true;
    return std::nullopt;
  }
  return t;
}

//===----------------------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------------------===//

/// Why a Python int operation has no result agc can hold: Python's ints are unbounded,
/// agc evaluates them in 64 bits, and a result outside that range is refused rather than
/// wrapped.
static std::string intOverflow(llvm::StringRef what) {
  return "the Python int result of " + what.str() +
         " does not fit in 64 bits, the range in which agc evaluates Python ints while "
         "compiling";
}

/// Python's `i ** j` for ints, j >= 0, by repeated squaring; nullopt when it overflows.
static std::optional<int64_t> checkedPow(int64_t base, int64_t exp) {
  int64_t result = 1;
  while (true) {
    if (exp & 1)
      if (__builtin_mul_overflow(result, base, &result))
        return std::nullopt;
    exp >>= 1;
    if (!exp)
      return result;
    if (__builtin_mul_overflow(base, base, &base))
      return std::nullopt;
  }
}

/// Python arithmetic on two Python ints (bools count as ints), exact or refused.
static std::optional<Value> pyIntArith(ast::BinaryOp op, int64_t i, int64_t j,
                                       std::string &failure) {
  using B = ast::BinaryOp;
  std::string what = (llvm::Twine(i) + " " + ast::spelling(op) + " " + llvm::Twine(j)).str();
  int64_t r = 0;
  switch (op) {
  case B::Add:
    if (__builtin_add_overflow(i, j, &r)) break;
    return Value::integer(r);
  case B::Sub:
    if (__builtin_sub_overflow(i, j, &r)) break;
    return Value::integer(r);
  case B::Mul:
    if (__builtin_mul_overflow(i, j, &r)) break;
    return Value::integer(r);
  case B::FloorDiv:
  case B::Mod: {
    if (j == 0) { failure = "integer division or modulo by zero"; return std::nullopt; }
    if (j == -1) { // i / -1 overflows for INT64_MIN in C++; the remainder is 0
      if (op == B::Mod) return Value::integer(0);
      if (__builtin_sub_overflow(int64_t(0), i, &r)) break;
      return Value::integer(r);
    }
    int64_t q = i / j, m = i % j;
    if (m != 0 && ((m < 0) != (j < 0))) { // Python rounds the quotient toward -inf
      --q;
      m += j;
    }
    return Value::integer(op == B::FloorDiv ? q : m);
  }
  case B::Pow:
    if (std::optional<int64_t> p = checkedPow(i, j))
      return Value::integer(*p);
    break;
  case B::BitAnd: return Value::integer(i & j);
  case B::BitOr: return Value::integer(i | j);
  case B::BitXor: return Value::integer(i ^ j);
  case B::LShift:
    if (j < 0) { failure = "negative shift count"; return std::nullopt; }
    if (i == 0) return Value::integer(0);
    // i * 2**j, checked (shifting a negative int left is undefined in C++17).
    if (j >= 63 || __builtin_mul_overflow(i, int64_t(1) << j, &r)) break;
    return Value::integer(r);
  case B::RShift:
    if (j < 0) { failure = "negative shift count"; return std::nullopt; }
    return Value::integer(i >> std::min<int64_t>(j, 63));
  case B::Div:
  case B::MatMul:
    llvm_unreachable("not an int-to-int operator");
  }
  failure = intOverflow(what);
  return std::nullopt;
}

/// Python arithmetic on two Python numbers (bools count as ints).
static std::optional<Value> pyArith(ast::BinaryOp op, const Value &a, const Value &b,
                                    std::string &failure) {
  bool isFloat = a.kind == Value::Kind::Float || b.kind == Value::Kind::Float;
  double x = a.kind == Value::Kind::Float ? a.f : double(a.i);
  double y = b.kind == Value::Kind::Float ? b.f : double(b.i);
  using B = ast::BinaryOp;
  if (op == B::MatMul) {
    failure = "unsupported operand types for @: " + a.typeString() + " and " + b.typeString();
    return std::nullopt;
  }
  if (op == B::Div) {
    if (y == 0) { failure = "division by zero"; return std::nullopt; }
    return Value::floating(x / y);
  }
  // int ** negative int is a float in Python.
  if (!isFloat && !(op == B::Pow && b.i < 0))
    return pyIntArith(op, a.i, b.i, failure);
  switch (op) {
  case B::Add: return Value::floating(x + y);
  case B::Sub: return Value::floating(x - y);
  case B::Mul: return Value::floating(x * y);
  case B::FloorDiv:
  case B::Mod: {
    if (y == 0) { failure = "float division or modulo by zero"; return std::nullopt; }
    double q = std::floor(x / y);
    return op == B::FloorDiv ? Value::floating(q) : Value::floating(x - q * y);
  }
  case B::Pow:
    if (x == 0 && y < 0) {
      failure = "0.0 cannot be raised to a negative power";
      return std::nullopt;
    }
    if (x < 0 && y != std::floor(y)) {
      failure = "a negative number raised to a fractional power is a complex number, "
                "which agc does not support";
      return std::nullopt;
    }
    return Value::floating(std::pow(x, y));
  default:
    break;
  }
  failure = "unsupported operand types for " + ast::spelling(op).str() + ": " + a.typeString() +
            " and " + b.typeString();
  return std::nullopt;
}

/// TensorFlow's name of the kernel behind a Python operator, for messages.
static llvm::StringRef tfKernelName(ast::BinaryOp op) {
  using B = ast::BinaryOp;
  switch (op) {
  case B::Add: return "AddV2";
  case B::Sub: return "Sub";
  case B::Mul: return "Mul";
  case B::Div: return "RealDiv";
  case B::FloorDiv: return "FloorDiv";
  case B::Mod: return "FloorMod";
  case B::Pow: return "Pow";
  case B::MatMul: return "MatMul";
  case B::BitAnd: return "BitwiseAnd";
  case B::BitOr: return "BitwiseOr";
  case B::BitXor: return "BitwiseXor";
  case B::LShift: return "LeftShift";
  case B::RShift: return "RightShift";
  }
  return "?";
}

/// The tf function behind a Python operator on tensors: `a // b` is tf.math.floordiv.
static TFOp tfOpOf(ast::BinaryOp op) {
  using B = ast::BinaryOp;
  switch (op) {
  case B::Add: return TFOp::Add;
  case B::Sub: return TFOp::Subtract;
  case B::Mul: return TFOp::Multiply;
  case B::Div: return TFOp::Truediv;
  case B::FloorDiv: return TFOp::Floordiv;
  case B::Mod: return TFOp::Floormod;
  case B::Pow: return TFOp::Pow;
  case B::MatMul: return TFOp::Matmul;
  case B::BitAnd: return TFOp::BitwiseAnd;
  case B::BitOr: return TFOp::BitwiseOr;
  case B::BitXor: return TFOp::BitwiseXor;
  case B::LShift: return TFOp::LeftShift;
  case B::RShift: return TFOp::RightShift;
  }
  llvm_unreachable("every binary operator is an op");
}

std::optional<Value> Tracer::Impl::binary(ast::BinaryOp op, const Value &lhs, const Value &rhs,
                                          const Location &loc) {
  using B = ast::BinaryOp;
  if (!lhs.isTensorLike() && !rhs.isTensorLike()) {
    if (lhs.isPyScalar() && rhs.isPyScalar()) {
      std::string failure;
      if (std::optional<Value> v = pyArith(op, lhs, rhs, failure))
        return v;
      return error(loc, failure);
    }
    if (op == B::Add && lhs.kind == rhs.kind &&
        (lhs.kind == Value::Kind::Str || lhs.isPySequence())) {
      Value out = lhs;
      out.s += rhs.s;
      out.elements.insert(out.elements.end(), rhs.elements.begin(), rhs.elements.end());
      return out;
    }
    if (op == B::Mul && (lhs.isPySequence() || lhs.kind == Value::Kind::Str) &&
        rhs.kind == Value::Kind::Int) {
      size_t unit = std::max<size_t>(1, std::max(lhs.s.size(), lhs.elements.size()));
      if (rhs.i > 0 && uint64_t(rhs.i) > uint64_t(kMaxSequence) / unit)
        return error(loc, "repeating a Python " + lhs.typeString() + " " + llvm::Twine(rhs.i) +
                              " times makes more than " + llvm::Twine(kMaxSequence) +
                              " elements (agc's limit)");
      Value out = lhs;
      out.s.clear();
      out.elements.clear();
      for (int64_t k = 0; k < rhs.i; ++k) {
        out.s += lhs.s;
        out.elements.insert(out.elements.end(), lhs.elements.begin(), lhs.elements.end());
      }
      return out;
    }
    return error(loc, "unsupported operand types for " + ast::spelling(op) + ": " +
                          lhs.describe() + " and " + rhs.describe());
  }
  // A tensor takes part: the other side converts to its dtype.
  const Value &tensorSide = lhs.isTensorLike() ? lhs : rhs;
  DType dtype = tensorSide.dtype;
  std::optional<Value> a = lhs.isTensorLike() ? asTensor(lhs, loc) : toTensor(lhs, loc, dtype);
  if (!a)
    return std::nullopt;
  std::optional<Value> b = rhs.isTensorLike() ? asTensor(rhs, loc) : toTensor(rhs, loc, dtype);
  if (!b)
    return std::nullopt;
  if (a->dtype != b->dtype)
    return error(loc, "'" + ast::spelling(op) + "' of " + aDtype(a->dtype) + " tensor and " +
                          aDtype(b->dtype) + " tensor: TensorFlow converts neither to the "
                          "other's dtype (" + tfKernelName(op) + " needs one); tf.cast one of them");
  if (op == B::MatMul) {
    CallArgs args;
    args.positional = {*a, *b};
    args.loc = loc;
    return callTF("tf.linalg.matmul", args);
  }
  if (a->dtype == DType::String && op != B::Add)
    return error(loc, "operator " + ast::spelling(op) + " is not defined on string tensors");
  if (a->dtype == DType::Bool)
    return error(loc, "cannot compute " + tfKernelName(op) + " on bool tensors; use "
                      "tf.logical_and/or/xor, or tf.cast to a number type first");
  if ((op == B::BitAnd || op == B::BitOr || op == B::BitXor || op == B::LShift ||
       op == B::RShift) && !isInteger(a->dtype))
    return error(loc, "operator " + ast::spelling(op) + " needs integer tensors, not " +
                          dtypeName(a->dtype));
  std::optional<Shape> shape = broadcast(a->shape, b->shape, loc);
  if (!shape)
    return std::nullopt;
  DType out = a->dtype;
  if (op == B::Div && isInteger(out))
    out = DType::Float64; // true division of integer tensors, as TensorFlow does it
  Value r = Value::tensor(out, *shape);
  if (!emitOp(tfOpOf(op), {*a, *b}, r, loc))
    return std::nullopt;
  return r;
}

std::optional<Value> Tracer::Impl::compare(ast::CmpOp op, const Value &lhs, const Value &rhs,
                                           const Location &loc) {
  using C = ast::CmpOp;
  if (op == C::Is || op == C::IsNot) {
    bool same;
    if (lhs.kind == Value::Kind::None || rhs.kind == Value::Kind::None)
      same = lhs.kind == rhs.kind;
    else if (lhs.isTensorLike() || rhs.isTensorLike())
      same = false; // distinct objects
    else if (lhs.isPyScalar() && rhs.isPyScalar())
      same = lhs.kind == rhs.kind && lhs.i == rhs.i && lhs.f == rhs.f;
    else
      same = false;
    return Value::boolean(op == C::Is ? same : !same);
  }
  if (op == C::In || op == C::NotIn) {
    if (!rhs.isPySequence() && rhs.kind != Value::Kind::Str)
      return error(loc, "'in' needs a Python sequence on the right, not " + rhs.describe());
    bool found = false;
    for (const Value &e : rhs.elements)
      if (e.isPyScalar() && lhs.isPyScalar() && (e.kind == Value::Kind::Float ? e.f : e.i) ==
                                                    (lhs.kind == Value::Kind::Float ? lhs.f : lhs.i))
        found = true;
    if (rhs.kind == Value::Kind::Str && lhs.kind == Value::Kind::Str)
      found = rhs.s.find(lhs.s) != std::string::npos;
    return Value::boolean(op == C::In ? found : !found);
  }
  if (!lhs.isTensorLike() && !rhs.isTensorLike()) {
    if (lhs.isPyScalar() && rhs.isPyScalar()) {
      double x = lhs.kind == Value::Kind::Float ? lhs.f : double(lhs.i);
      double y = rhs.kind == Value::Kind::Float ? rhs.f : double(rhs.i);
      bool r = op == C::Lt ? x < y : op == C::LtE ? x <= y : op == C::Gt ? x > y
             : op == C::GtE ? x >= y : op == C::Eq ? x == y : x != y;
      return Value::boolean(r);
    }
    if (op == C::Eq || op == C::NotEq) {
      bool eq = lhs.kind == rhs.kind && lhs.s == rhs.s && lhs.kind != Value::Kind::Tuple &&
                lhs.kind != Value::Kind::List;
      if (lhs.kind == Value::Kind::None && rhs.kind == Value::Kind::None)
        eq = true;
      return Value::boolean(op == C::Eq ? eq : !eq);
    }
    if (lhs.kind == Value::Kind::Str && rhs.kind == Value::Kind::Str) {
      int c = lhs.s.compare(rhs.s);
      return Value::boolean(op == C::Lt ? c < 0 : op == C::LtE ? c <= 0 : op == C::Gt ? c > 0 : c >= 0);
    }
    return error(loc, "cannot compare " + lhs.describe() + " with " + rhs.describe());
  }
  if ((op == C::Eq || op == C::NotEq) &&
      (lhs.kind == Value::Kind::None || rhs.kind == Value::Kind::None))
    return Value::boolean(op == C::NotEq); // a tensor is never None
  const Value &tensorSide = lhs.isTensorLike() ? lhs : rhs;
  std::optional<Value> a = lhs.isTensorLike() ? asTensor(lhs, loc) : toTensor(lhs, loc, tensorSide.dtype);
  std::optional<Value> b = a ? (rhs.isTensorLike() ? asTensor(rhs, loc) : toTensor(rhs, loc, tensorSide.dtype))
                             : std::nullopt;
  if (!b)
    return std::nullopt;
  if (a->dtype != b->dtype)
    return error(loc, "cannot compare " + aDtype(a->dtype) + " tensor with " +
                          aDtype(b->dtype) + " tensor; tf.cast one of them first");
  if (a->dtype == DType::Bool && op != C::Eq && op != C::NotEq)
    return error(loc, "'" + ast::spelling(op) + "' is not defined on bool tensors (TensorFlow's "
                      "ordering comparisons take numbers); tf.cast them to a number type first");
  std::optional<Shape> shape = broadcast(a->shape, b->shape, loc);
  if (!shape)
    return std::nullopt;
  Value r = Value::tensor(DType::Bool, *shape);
  TFOp tfOp = op == C::Eq ? TFOp::Equal : op == C::NotEq ? TFOp::NotEqual
              : op == C::Lt ? TFOp::Less : op == C::LtE ? TFOp::LessEqual
              : op == C::Gt ? TFOp::Greater : TFOp::GreaterEqual;
  if (!emitOp(tfOp, {*a, *b}, r, loc))
    return std::nullopt;
  return r;
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
    if (v->dtype == DType::Bool || v->dtype == DType::String)
      return error(expr.loc(), "unary " + ast::spelling(u.getOp()) + " is not defined on " +
                                   v->describe());
    if (u.getOp() == ast::UnaryOp::Invert && !isInteger(v->dtype))
      return error(expr.loc(), "~ needs an integer tensor, not " + v->describe());
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
    std::optional<Value> v = eval(operand);
    if (!v)
      return std::nullopt;
    if (token && isAnd)
      emitter->beginElse(token);
    // Its type only: the value converts inside its branch (endCond).
    Emitter *saved = std::exchange(emitter, nullptr);
    std::optional<Value> t = asTensor(*v, operand.loc());
    emitter = saved;
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
    std::optional<Value> v = eval(*arg);
    if (!v)
      return std::nullopt;
    args.positional.push_back(std::move(*v));
  }
  for (const ast::Keyword &keyword : c.getKeywords()) {
    std::optional<Value> v = eval(*keyword.value);
    if (!v)
      return std::nullopt;
    args.keywords.push_back({keyword.name, std::move(*v)});
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
  std::optional<Value> x = eval(e.getBody());
  if (x && token)
    emitter->beginElse(token);
  std::optional<Value> y = x ? eval(e.getOrElse()) : std::nullopt;
  --unconvertedIfExp;
  stagedIfExpAt = outerAt;
  if (!y)
    return std::nullopt;
  // Types only: the values convert inside their branches (endCond).
  std::optional<Value> tx, ty;
  {
    Emitter *saved = std::exchange(emitter, nullptr);
    tx = asTensor(*x, e.getBody().loc());
    ty = tx ? asTensor(*y, e.getOrElse().loc()) : std::nullopt;
    emitter = saved;
  }
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
    v.s = "...";
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
  case K::Call:
    return evalCall(expr);
  case K::Attribute: {
    const auto &a = cast<ast::AttributeExpr>(expr);
    std::optional<Value> base = eval(a.getValue());
    if (!base)
      return std::nullopt;
    return attribute(*base, a.getAttr(), a.getAttrLoc());
  }
  case K::Subscript: {
    const auto &s = cast<ast::SubscriptExpr>(expr);
    std::optional<Value> base = eval(s.getValue());
    if (!base)
      return std::nullopt;
    return subscript(*base, s.getIndex(), expr.loc());
  }
  case K::Slice:
    return error(expr.loc(), "a slice is only allowed inside '[]'");
  case K::Tuple:
  case K::List: {
    std::vector<Value> items;
    for (const ast::ExprPtr &e : cast<ast::SequenceExpr>(expr).getElements()) {
      std::optional<Value> v = eval(*e);
      if (!v)
        return std::nullopt;
      items.push_back(std::move(*v));
    }
    return Value::sequence(expr.getKind() == K::Tuple ? Value::Kind::Tuple : Value::Kind::List,
                           std::move(items));
  }
  case K::Dict:
    return error(expr.loc(), "dicts are not supported in traced code by agc yet");
  case K::IfExp:
    return evalIfExp(expr);
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------------------===//
// Calls, attributes, subscripts
//===----------------------------------------------------------------------------------===//

std::optional<Value> Tracer::Impl::call(const Value &callee, const CallArgs &args,
                                        const ast::CallExpr &expr) {
  switch (callee.kind) {
  case Value::Kind::Function:
    return callFunction(*callee.function, args);
  case Value::Kind::Module:
    return callTF(callee.s, args);
  case Value::Kind::Method:
    return callMethod(callee, args, expr);
  case Value::Kind::Builtin:
    return callBuiltin(callee.s, args);
  default:
    return error(expr.getCallee().loc(), callee.describe() + " is not callable");
  }
}

/// Python's float(str) and int(str): decimal text with optional sign and surrounding
/// white space; float also takes "nan", "inf" and "infinity" in any case.
std::optional<Value> Tracer::Impl::parseNumber(llvm::StringRef name, llvm::StringRef text,
                                               const Location &loc) {
  std::string trimmed = text.trim().str();
  std::string lower = llvm::StringRef(trimmed).lower();
  llvm::StringRef body = llvm::StringRef(lower).ltrim("+-");
  bool decimal = !body.empty() && body.find_first_not_of("0123456789._e+-") == llvm::StringRef::npos;
  if (name == "int") {
    int64_t i = 0;
    llvm::StringRef digits = llvm::StringRef(trimmed).starts_with("+") ? llvm::StringRef(trimmed).drop_front() : llvm::StringRef(trimmed);
    if (!digits.empty() && digits.find_first_not_of("-0123456789") == llvm::StringRef::npos &&
        !digits.getAsInteger(10, i))
      return Value::integer(i);
    return error(loc, "invalid literal for int() with base 10: '" + text + "' (or one outside "
                      "the 64 bits in which agc evaluates Python ints)");
  }
  if (decimal || body == "nan" || body == "inf" || body == "infinity") {
    char *end = nullptr;
    double x = std::strtod(trimmed.c_str(), &end);
    if (end && *end == '\0')
      return Value::floating(x);
  }
  return error(loc, "could not convert string to float: '" + text + "'");
}

std::optional<Value> Tracer::Impl::callBuiltin(llvm::StringRef name, const CallArgs &args) {
  auto py = [&](size_t i) -> const Value & { return args.positional[i]; };
  size_t n = args.positional.size();
  if (name == "print") {
    std::string line;
    for (size_t i = 0; i < n; ++i)
      line += (i ? " " : "") + py(i).pyStr(false);
    if (result)
      result->printed.push_back(line);
    return Value::none();
  }
  if (name == "range") {
    if (n < 1 || n > 3)
      return error(args.loc, "range expected 1 to 3 arguments, got " + llvm::Twine(n));
    if (llvm::any_of(args.positional, [](const Value &v) { return v.isTensorLike(); })) {
      // range over a tensor bound is tf.range: a staged loop.
      return callTF("tf.range", args);
    }
    for (size_t i = 0; i < n; ++i)
      if (py(i).kind != Value::Kind::Int && py(i).kind != Value::Kind::Bool)
        return error(args.loc, "range() arguments must be integers, not " + py(i).describe());
    int64_t start = n >= 2 ? py(0).i : 0, stop = n >= 2 ? py(1).i : py(0).i,
            step = n == 3 ? py(2).i : 1;
    if (step == 0)
      return error(args.loc, "range() arg 3 must not be zero");
    return Value::sequence(Value::Kind::Range,
                           {Value::integer(start), Value::integer(stop), Value::integer(step)});
  }
  if (name == "len") {
    if (n != 1)
      return error(args.loc, "len() takes exactly one argument");
    const Value &v = py(0);
    if (v.isPySequence())
      return Value::integer(v.elements.size());
    if (v.kind == Value::Kind::Str)
      return Value::integer(v.s.size());
    if (v.kind == Value::Kind::Range) {
      std::optional<int64_t> count = rangeLength(v);
      if (!count)
        return error(args.loc, intOverflow("len() of this range"));
      return Value::integer(*count);
    }
    if (v.isTensorLike()) {
      if (!v.shape.rankKnown || v.shape.rank() == 0)
        return error(args.loc, "len() of " + v.describe() + " is not defined");
      if (v.shape.dims[0] >= 0)
        return Value::integer(v.shape.dims[0]);
      return Value::tensor(DType::Int32, Shape::scalar()); // tf.shape(x)[0]
    }
    return error(args.loc, "len() of " + v.describe() + " is not defined");
  }
  if (name == "int" || name == "float" || name == "bool" || name == "abs" || name == "str") {
    if (n != 1)
      return error(args.loc, name + "() takes one argument here");
    const Value &v = py(0);
    if (v.isTensorLike()) {
      if (name == "abs")
        return callTF("tf.math.abs", args);
      return error(args.loc, name + "() of " + v.describe() + " needs its value, which a "
                             "tensor has only at run time; use tf.cast");
    }
    if (name == "str")
      return Value::str(v.pyStr(false));
    if (v.kind == Value::Kind::Str && (name == "float" || name == "int"))
      return parseNumber(name, v.s, args.loc);
    if (!v.isPyScalar())
      return error(args.loc, name + "() of " + v.describe() + " is not supported");
    double x = v.kind == Value::Kind::Float ? v.f : double(v.i);
    if (name == "int") {
      if (v.kind != Value::Kind::Float)
        return Value::integer(v.i);
      if (std::isnan(x))
        return error(args.loc, "cannot convert float NaN to integer");
      // Every double in [-2^63, 2^63) truncates to an int64.
      if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0))
        return error(args.loc, intOverflow("int(" + pythonFloat(x) + ")"));
      return Value::integer(int64_t(x));
    }
    if (name == "float")
      return Value::floating(x);
    if (name == "bool")
      return Value::boolean(x != 0);
    if (v.kind == Value::Kind::Float)
      return Value::floating(std::fabs(v.f));
    if (v.i == INT64_MIN)
      return error(args.loc, intOverflow("abs(" + std::to_string(v.i) + ")"));
    return Value::integer(v.i < 0 ? -v.i : v.i);
  }
  if (name == "min" || name == "max") {
    std::vector<Value> items = n == 1 && py(0).isPySequence() ? py(0).elements
                                                              : args.positional;
    if (items.empty())
      return error(args.loc, name + "() of an empty sequence");
    if (llvm::any_of(items, [](const Value &v) { return v.isTensorLike(); }))
      return error(args.loc, name + "() compares values, which tensors have only at run "
                             "time; use tf.minimum / tf.maximum");
    Value best = items[0];
    for (const Value &v : items) {
      std::optional<Value> less = compare(ast::CmpOp::Lt, v, best, args.loc);
      if (!less)
        return std::nullopt;
      if ((less->i != 0) == (name == "min"))
        best = v;
    }
    return best;
  }
  if (name == "tuple" || name == "list") {
    if (n == 0)
      return Value::sequence(name == "tuple" ? Value::Kind::Tuple : Value::Kind::List, {});
    Value v = py(0);
    if (v.kind == Value::Kind::Range) {
      std::optional<int64_t> count = rangeLength(v);
      if (!count || *count > kMaxSequence)
        return error(args.loc, name + "() of a range of more than " +
                                   llvm::Twine(kMaxSequence) + " elements (agc's limit)");
      std::vector<Value> items;
      for (int64_t k = 0; k < *count; ++k)
        items.push_back(Value::integer(v.elements[0].i + k * v.elements[2].i));
      v.elements = std::move(items);
    } else if (!v.isPySequence()) {
      return error(args.loc, name + "() of " + v.describe() + " is not supported");
    }
    v.kind = name == "tuple" ? Value::Kind::Tuple : Value::Kind::List;
    return v;
  }
  return error(args.loc, "the builtin '" + name + "' is not supported in traced code");
}

std::optional<Value> Tracer::Impl::attribute(const Value &base, llvm::StringRef attr,
                                             const Location &loc) {
  switch (base.kind) {
  case Value::Kind::Module: {
    if (std::optional<DType> d = dtypeFromName(attr); d && base.s == "tf") {
      Value v;
      v.kind = Value::Kind::DTypeRef;
      v.dtype = *d;
      return v;
    }
    if (base.s == "tf" && attr == "newaxis")
      return Value::none();
    return Value::module(base.s + "." + attr.str());
  }
  case Value::Kind::Tensor:
  case Value::Kind::Variable:
    if (attr == "shape") {
      if (!base.shape.rankKnown)
        return error(loc, "the shape of " + base.describe() + " has an unknown rank");
      std::vector<Value> dims;
      for (int64_t d : base.shape.dims)
        dims.push_back(d < 0 ? Value::none() : Value::integer(d));
      return Value::sequence(Value::Kind::Tuple, std::move(dims));
    }
    if (attr == "dtype") {
      Value v;
      v.kind = Value::Kind::DTypeRef;
      v.dtype = base.dtype;
      return v;
    }
    if (attr == "ndim") {
      if (!base.shape.rankKnown)
        return error(loc, "the rank of " + base.describe() + " is unknown");
      return Value::integer(base.shape.rank());
    }
    break;
  case Value::Kind::TensorArray:
  case Value::Kind::List:
  case Value::Kind::DTypeRef:
    break;
  default:
    return error(loc, base.describe() + " has no attribute '" + attr + "'");
  }
  if (base.kind == Value::Kind::DTypeRef && attr == "name")
    return Value::str(dtypeName(base.dtype).str());
  Value method;
  method.kind = Value::Kind::Method;
  method.s = attr.str();
  method.elements.push_back(base);
  return method;
}

std::optional<Value> Tracer::Impl::subscript(const Value &base, const ast::Expr &index,
                                             const Location &loc) {
  if (base.isPySequence() || base.kind == Value::Kind::Str)
    return subscriptSequence(base, index);
  if (!base.isTensorLike())
    return error(loc, base.describe() + " cannot be indexed");
  return subscriptTensor(base, index, loc);
}

/// A Python list, tuple or str indexed with an int, or sliced with Python bounds.
std::optional<Value> Tracer::Impl::subscriptSequence(const Value &base, const ast::Expr &index) {
  size_t size = base.kind == Value::Kind::Str ? base.s.size() : base.elements.size();
  if (const auto *slice = dyn_cast<ast::SliceExpr>(&index)) {
    int64_t bounds[3] = {0, int64_t(size), 1};
    bool given[3] = {false, false, false};
    const ast::Expr *parts[3] = {slice->getLower(), slice->getUpper(), slice->getStep()};
    for (int k = 0; k < 3; ++k) {
      if (!parts[k])
        continue;
      std::optional<Value> v = eval(*parts[k]);
      if (!v)
        return std::nullopt;
      if (v->kind == Value::Kind::None)
        continue;
      if (v->kind != Value::Kind::Int)
        return error(parts[k]->loc(), "slice indices of a Python sequence must be ints, not " +
                                          v->describe());
      bounds[k] = v->i;
      given[k] = true;
    }
    if (bounds[2] != 1)
      return error(slice->loc(), "slices with a step are not supported on Python sequences by agc");
    auto clamp = [&](int64_t i) {
      if (i < 0)
        i += size;
      return std::clamp<int64_t>(i, 0, size);
    };
    int64_t lo = given[0] ? clamp(bounds[0]) : 0, hi = given[1] ? clamp(bounds[1]) : size;
    Value out = base;
    if (base.kind == Value::Kind::Str)
      out.s = lo < hi ? base.s.substr(lo, hi - lo) : "";
    else
      out.elements.assign(base.elements.begin() + std::min(lo, hi), base.elements.begin() + hi);
    return out;
  }
  std::optional<Value> i = eval(index);
  if (!i)
    return std::nullopt;
  if (i->kind != Value::Kind::Int && i->kind != Value::Kind::Bool)
    return error(index.loc(), "a Python " + base.typeString() + " is indexed with an int, not " +
                                  i->describe());
  int64_t k = i->i < 0 ? i->i + int64_t(size) : i->i;
  if (k < 0 || k >= int64_t(size))
    return error(index.loc(), base.typeString() + " index " + llvm::Twine(i->i) + " out of range");
  if (base.kind == Value::Kind::Str)
    return Value::str(std::string(1, base.s[k]));
  return base.elements[k];
}

static IndexItem indexItem(IndexItem::Kind kind, Value index, const Location &loc) {
  IndexItem item;
  item.kind = kind;
  item.index = std::move(index);
  item.loc = loc;
  return item;
}

/// A tensor indexed: each index item drops (int), keeps (slice) or adds (None) a dimension,
/// and `...` stands for the dimensions the others leave.
std::optional<Value> Tracer::Impl::subscriptTensor(const Value &base, const ast::Expr &index,
                                                   const Location &loc) {
  std::vector<const ast::Expr *> items;
  if (const auto *tuple = dyn_cast<ast::TupleExpr>(&index))
    for (const ast::ExprPtr &e : tuple->getElements())
      items.push_back(e.get());
  else
    items.push_back(&index);
  if (!base.shape.rankKnown) {
    if (emitter)
      return error(loc, "indexing a tensor of unknown rank is not supported by agc's code "
                        "generator; give the tensor a rank (an input signature, or set_shape)");
    return Value::tensor(base.dtype, Shape::unknownRank());
  }
  std::vector<IndexItem> evaluated; // for the emitter
  Shape out;
  unsigned dim = 0;
  unsigned consumed = llvm::count_if(items, [](const ast::Expr *e) {
    return !llvm::isa<ast::EllipsisLitExpr, ast::NoneLitExpr>(e);
  });
  if (consumed > base.shape.rank())
    return error(loc, "too many indices (" + llvm::Twine(consumed) + ") for " + base.describe());
  for (const ast::Expr *item : items) {
    if (llvm::isa<ast::EllipsisLitExpr>(item)) {
      // `...` stands for every dimension the other items do not index.
      for (unsigned k = 0; k < base.shape.rank() - consumed; ++k)
        out.dims.push_back(base.shape.dims[dim++]);
      evaluated.push_back(indexItem(IndexItem::Kind::Ellipsis, {}, item->loc()));
      continue;
    }
    if (llvm::isa<ast::NoneLitExpr>(item)) {
      out.dims.push_back(1);
      evaluated.push_back(indexItem(IndexItem::Kind::NewAxis, {}, item->loc()));
      continue;
    }
    int64_t size = base.shape.dims[dim++];
    if (const auto *slice = dyn_cast<ast::SliceExpr>(item)) {
      const ast::Expr *parts[3] = {slice->getLower(), slice->getUpper(), slice->getStep()};
      std::optional<int64_t> bounds[3];
      Value tensorBounds[3];
      bool dynamic = false;
      for (int k = 0; k < 3; ++k) {
        if (!parts[k])
          continue;
        std::optional<Value> v = eval(*parts[k]);
        if (!v)
          return std::nullopt;
        if (v->kind == Value::Kind::Int)
          bounds[k] = v->i;
        else if (v->isTensorLike() && isInteger(v->dtype) && k < 2) {
          dynamic = true;
          std::optional<Value> t = asTensor(*v, parts[k]->loc());
          if (!t)
            return std::nullopt;
          tensorBounds[k] = *t;
        } else if (v->isTensorLike() && isInteger(v->dtype))
          dynamic = true;
        else if (v->kind != Value::Kind::None)
          return error(parts[k]->loc(), "a slice bound must be an int or an integer tensor, not " +
                                            v->describe());
      }
      int64_t step = bounds[2].value_or(1);
      if (step == 0)
        return error(item->loc(), "slice step cannot be zero");
      if (dynamic && emitter && (parts[2] && !bounds[2]))
        return error(item->loc(), "slices with a tensor step are not supported by agc's code "
                                  "generator; use a Python int step");
      IndexItem sliceItem = indexItem(IndexItem::Kind::Slice, {}, item->loc());
      sliceItem.lo = bounds[0];
      sliceItem.hi = bounds[1];
      sliceItem.step = bounds[2];
      sliceItem.loTensor = tensorBounds[0];
      sliceItem.hiTensor = tensorBounds[1];
      evaluated.push_back(std::move(sliceItem));
      if (dynamic || size < 0) {
        out.dims.push_back(-1);
        continue;
      }
      auto clamp = [&](int64_t i, int64_t lo, int64_t hi) {
        if (i < 0)
          i += size;
        return std::clamp<int64_t>(i, lo, hi);
      };
      int64_t lo, hi;
      if (step > 0) {
        lo = bounds[0] ? clamp(*bounds[0], 0, size) : 0;
        hi = bounds[1] ? clamp(*bounds[1], 0, size) : size;
        out.dims.push_back(hi > lo ? (hi - lo + step - 1) / step : 0);
      } else {
        lo = bounds[0] ? clamp(*bounds[0], -1, size - 1) : size - 1;
        hi = bounds[1] ? clamp(*bounds[1], -1, size - 1) : -1;
        out.dims.push_back(lo > hi ? (lo - hi - step - 1) / -step : 0);
      }
      continue;
    }
    std::optional<Value> v = eval(*item);
    if (!v)
      return std::nullopt;
    if (v->kind == Value::Kind::Int) {
      if (size >= 0 && (v->i >= size || v->i < -size))
        return error(item->loc(), "index " + llvm::Twine(v->i) + " is out of bounds for a "
                                  "dimension of size " + llvm::Twine(size));
      evaluated.push_back(indexItem(IndexItem::Kind::Index, *v, item->loc()));
      continue;
    }
    if (v->isTensorLike() && isInteger(v->dtype) && v->shape.rankKnown && v->shape.rank() == 0) {
      std::optional<Value> t = asTensor(*v, item->loc());
      if (!t)
        return std::nullopt;
      evaluated.push_back(indexItem(IndexItem::Kind::Index, *t, item->loc()));
      continue;
    }
    return error(item->loc(), "a tensor is indexed with ints, slices, None, ... or scalar "
                              "integer tensors, not " + v->describe());
  }
  for (; dim < base.shape.rank(); ++dim)
    out.dims.push_back(base.shape.dims[dim]);
  Value r = Value::tensor(base.dtype, out);
  if (emitter) {
    std::optional<Value> t = asTensor(base, loc);
    if (!t)
      return std::nullopt;
    if (!emitter->subscript(*t, evaluated, r, loc)) {
      failed = true;
      return std::nullopt;
    }
  }
  return r;
}
