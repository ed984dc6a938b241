//===- TracerOperators.cpp - Binary operators and comparisons -------------------===//
//
// On Python values, Python's semantics, exactly (ints in 64 bits: a result beyond is a
// located refusal, never a wrapped number); with a tensor, TensorFlow's op (`a + b` is
// tf.add), its dtype rules and broadcasting.
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace ag;
using namespace ag::analysis;
using llvm::cast;
using llvm::dyn_cast;

//===----------------------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------------------===//

/// Why a Python int operation has no result agc can hold: Python's ints are unbounded,
/// agc evaluates them in 64 bits, and a result outside that range is refused rather than
/// wrapped.
std::string analysis::intOverflow(llvm::StringRef what) {
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
    if (lhs.kind == Value::Kind::Set && rhs.kind == Value::Kind::Set)
      return setOperator(op, lhs, rhs, loc);
    if (lhs.kind == Value::Kind::NDArray || rhs.kind == Value::Kind::NDArray) {
      error(loc, "NumPy arithmetic ('" + ast::spelling(op) + "' of " + lhs.describe() + " and " +
                     rhs.describe() + ") while tracing is not supported by agc");
      note(loc, "make the array a tensor first (tf.constant(array)), or compute it with "
                "TensorFlow ops");
      return std::nullopt;
    }
    if (op == B::Add && lhs.kind == rhs.kind &&
        (lhs.kind == Value::Kind::Str || lhs.isPySequence())) {
      if (lhs.kind == Value::Kind::Str)
        return Value::str(lhs.text + rhs.text);
      std::vector<Value> items = lhs.items();
      items.insert(items.end(), rhs.items().begin(), rhs.items().end());
      return Value::sequence(lhs.kind, std::move(items)); // a new list
    }
    if (op == B::Mul && (lhs.isPySequence() || lhs.kind == Value::Kind::Str) &&
        rhs.kind == Value::Kind::Int) {
      size_t unit = std::max<size_t>(1, std::max(lhs.text.size(), lhs.items().size()));
      if (rhs.i > 0 && uint64_t(rhs.i) > uint64_t(kMaxSequence) / unit)
        return error(loc, "repeating a Python " + lhs.typeString() + " " + llvm::Twine(rhs.i) +
                              " times makes more than " + llvm::Twine(kMaxSequence) +
                              " elements (agc's limit)");
      std::string text;
      std::vector<Value> items;
      for (int64_t k = 0; k < rhs.i; ++k) {
        text += lhs.text;
        items.insert(items.end(), lhs.items().begin(), lhs.items().end());
      }
      if (lhs.kind == Value::Kind::Str)
        return Value::str(std::move(text));
      return Value::sequence(lhs.kind, std::move(items));
    }
    return error(loc, "unsupported operand types for " + ast::spelling(op) + ": " +
                          lhs.describe() + " and " + rhs.describe());
  }
  // A tensor takes part: the other side converts to its dtype (a NumPy array as its astype
  // does).
  const Value &tensorSide = lhs.isTensorLike() ? lhs : rhs;
  DType dtype = tensorSide.dtype;
  auto convert = [&](const Value &v) {
    return v.isTensorLike()                   ? asTensor(v, loc)
           : v.kind == Value::Kind::NDArray ? arrayToTensor(v, dtype, loc)
                                              : toTensor(v, loc, dtype);
  };
  std::optional<Value> a = convert(lhs);
  if (!a)
    return std::nullopt;
  std::optional<Value> b = convert(rhs);
  if (!b)
    return std::nullopt;
  if (op == B::MatMul) {
    if (a->dtype != b->dtype)
      return tensorBinaryType(op, *a, *b, loc); // its error
    CallArgs args;
    args.positional = {*a, *b};
    args.loc = loc;
    return callTF("tf.linalg.matmul", args);
  }
  // A bool tensor's &, | and ^ are TensorFlow's logical_and, logical_or and logical_xor
  // (Tensor.__and__ and the others dispatch on the dtype).
  if (a->dtype == DType::Bool && b->dtype == DType::Bool &&
      (op == B::BitAnd || op == B::BitOr || op == B::BitXor)) {
    CallArgs args;
    args.positional = {*a, *b};
    args.loc = loc;
    return callTF(op == B::BitAnd  ? "tf.math.logical_and"
                  : op == B::BitOr ? "tf.math.logical_or"
                                   : "tf.math.logical_xor",
                  args);
  }
  std::optional<Value> r = tensorBinaryType(op, *a, *b, loc);
  if (!r || !emitOp(tfOpOf(op), {*a, *b}, *r, loc))
    return std::nullopt;
  return r;
}

std::optional<Value> Tracer::Impl::tensorBinaryType(ast::BinaryOp op, const Value &a,
                                                    const Value &b, const Location &loc) {
  using B = ast::BinaryOp;
  // TensorFlow's tensors have no << or >> (TypeError: unsupported operand type(s)).
  if (op == B::LShift || op == B::RShift)
    return error(loc, "TypeError: unsupported operand type(s) for " + ast::spelling(op) +
                          ": a tensor has no '" + ast::spelling(op) + "' operator; use " +
                          (op == B::LShift ? "tf.bitwise.left_shift" : "tf.bitwise.right_shift"));
  if (a.dtype != b.dtype)
    return error(loc, "'" + ast::spelling(op) + "' of " + aDtype(a.dtype) + " tensor and " +
                          aDtype(b.dtype) + " tensor: TensorFlow converts neither to the "
                          "other's dtype (" + tfKernelName(op) + " needs one); tf.cast one of them");
  if (a.dtype == DType::String && op != B::Add)
    return error(loc, "operator " + ast::spelling(op) + " is not defined on string tensors");
  if (a.dtype == DType::Bool)
    return error(loc, "cannot compute " + tfKernelName(op) + " on bool tensors (their &, | "
                      "and ^ are tf.logical_and/or/xor); tf.cast to a number type first");
  if (isComplex(a.dtype) && (op == B::FloorDiv || op == B::Mod))
    return error(loc, "cannot compute " + tfKernelName(op) + " on " + dtypeName(a.dtype) +
                      " tensors: TensorFlow has no kernel for it");
  if ((op == B::BitAnd || op == B::BitOr || op == B::BitXor || op == B::LShift ||
       op == B::RShift) && !isInteger(a.dtype))
    return error(loc, "operator " + ast::spelling(op) + " needs integer tensors, not " +
                          dtypeName(a.dtype));
  std::optional<Shape> shape = broadcast(a.shape, b.shape, loc);
  if (!shape)
    return std::nullopt;
  DType out = a.dtype;
  // True division of integer tensors, as TensorFlow does it: in float32 for 8 and 16 bits,
  // float64 above.
  if (op == B::Div && isInteger(out))
    out = bitWidth(out) <= 16 ? DType::Float32 : DType::Float64;
  return Value::tensor(out, *shape);
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
    else if (lhs.object || rhs.object)
      same = lhs.object == rhs.object;
    else
      same = false;
    return Value::boolean(op == C::Is ? same : !same);
  }
  if (op == C::In || op == C::NotIn) {
    bool found = false;
    if (rhs.kind == Value::Kind::Dict || rhs.kind == Value::Kind::Set) {
      if (!isHashable(lhs))
        return error(loc, "unhashable type: " + lhs.describe() + " cannot be " +
                              (rhs.kind == Value::Kind::Set ? "in a set" : "a dict key") +
                              (lhs.isTensorLike() ? " (use tensor.ref() as the key)" : ""));
      found = rhs.kind == Value::Kind::Set ? rhs.object->findElement(lhs).has_value()
                                           : rhs.object->find(lhs).has_value();
    } else if (rhs.kind == Value::Kind::Str) {
      if (lhs.kind != Value::Kind::Str)
        return error(loc, "'in <string>' requires a string as left operand, not " +
                              lhs.describe());
      found = rhs.text.find(lhs.text) != std::string::npos;
    } else if (rhs.isPySequence() || rhs.kind == Value::Kind::Range) {
      std::optional<std::vector<Value>> items = pythonItems(rhs, loc);
      if (!items)
        return std::nullopt;
      for (const Value &e : *items) {
        // Python tests identity first.
        if (lhs.object && lhs.object == e.object) {
          found = true;
          break;
        }
        std::optional<bool> eq = pyEquals(lhs, e);
        if (!eq)
          return error(loc, "'in' compares " + lhs.describe() + " with " + e.describe() +
                                ", whose values exist only at run time");
        if (*eq) {
          found = true;
          break;
        }
      }
    } else {
      return error(loc, "'in' needs a Python sequence or dict on the right, not " +
                            rhs.describe());
    }
    return Value::boolean(op == C::In ? found : !found);
  }
  if (!lhs.isTensorLike() && !rhs.isTensorLike()) {
    if (lhs.isPyScalar() && rhs.isPyScalar()) {
      if (lhs.kind != Value::Kind::Float && rhs.kind != Value::Kind::Float) {
        // Ints exactly (a double holds 53 bits).
        int64_t x = lhs.i, y = rhs.i;
        return Value::boolean(op == C::Lt ? x < y : op == C::LtE ? x <= y : op == C::Gt ? x > y
                              : op == C::GtE ? x >= y : op == C::Eq ? x == y : x != y);
      }
      double x = lhs.kind == Value::Kind::Float ? lhs.f : double(lhs.i);
      double y = rhs.kind == Value::Kind::Float ? rhs.f : double(rhs.i);
      bool r = op == C::Lt ? x < y : op == C::LtE ? x <= y : op == C::Gt ? x > y
             : op == C::GtE ? x >= y : op == C::Eq ? x == y : x != y;
      return Value::boolean(r);
    }
    if (op == C::Eq || op == C::NotEq) {
      std::optional<bool> eq = pyEquals(lhs, rhs);
      if (!eq)
        return error(loc, "comparing " + lhs.describe() + " and " + rhs.describe() +
                              " with " + ast::spelling(op) + " compares the tensors they hold, "
                              "whose values exist only at run time");
      return Value::boolean(op == C::Eq ? *eq : !*eq);
    }
    if (std::optional<bool> r = setCompare(op, lhs, rhs))
      return Value::boolean(*r);
    if (lhs.kind == Value::Kind::Str && rhs.kind == Value::Kind::Str) {
      int c = lhs.text.compare(rhs.text);
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
  std::optional<Value> r = tensorCompareType(op, *a, *b, loc);
  TFOp tfOp = op == C::Eq ? TFOp::Equal : op == C::NotEq ? TFOp::NotEqual
              : op == C::Lt ? TFOp::Less : op == C::LtE ? TFOp::LessEqual
              : op == C::Gt ? TFOp::Greater : TFOp::GreaterEqual;
  if (!r || !emitOp(tfOp, {*a, *b}, *r, loc))
    return std::nullopt;
  return r;
}

std::optional<Value> Tracer::Impl::tensorCompareType(ast::CmpOp op, const Value &a,
                                                     const Value &b, const Location &loc) {
  using C = ast::CmpOp;
  if (a.dtype != b.dtype)
    return error(loc, "cannot compare " + aDtype(a.dtype) + " tensor with " +
                          aDtype(b.dtype) + " tensor; tf.cast one of them first");
  if (a.dtype == DType::Bool && op != C::Eq && op != C::NotEq)
    return error(loc, "'" + ast::spelling(op) + "' is not defined on bool tensors (TensorFlow's "
                      "ordering comparisons take numbers); tf.cast them to a number type first");
  if (isComplex(a.dtype) && op != C::Eq && op != C::NotEq)
    return error(loc, "'" + ast::spelling(op) + "' is not defined on " + dtypeName(a.dtype) +
                      " tensors (complex numbers have no order); compare tf.math.real or "
                      "tf.abs of them");
  std::optional<Shape> shape = broadcast(a.shape, b.shape, loc);
  if (!shape)
    return std::nullopt;
  return Value::tensor(DType::Bool, *shape);
}
