//===- TFOpRules.cpp - The typing rules of tf functions --------------------===//
//
// Each rule maps a call's arguments (evaluated: tensors, Python values, dtypes) to its
// result, with TensorFlow's dtype rules (no implicit promotion between tensors, Python
// numbers converted to the tensor's dtype), NumPy broadcasting, and TensorFlow's static
// shape inference. TFOps.def names the rule of each op (its TYPING).
//
//===----------------------------------------------------------------------------------===//
#include "TFOpTyper.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace ag;
using namespace ag::analysis;
using llvm::cast;
using llvm::dyn_cast;

std::optional<Value> TFOpTyper::typeUnary(bool (*accepts)(DType), llvm::StringRef takes) {
  std::optional<Value> x = tensorOf(0, "x");
  if (!x)
    return std::nullopt;
  if (!accepts(x->dtype))
    return badDtype(*x, takes);
  return Value::tensor(x->dtype, x->shape);
}

std::optional<Value> TFOpTyper::typeComplex() {
  std::optional<Value> re = tensorOf(0, "real");
  std::optional<Value> im = re ? tensorOf(1, "imag", re->dtype) : std::nullopt;
  if (!im)
    return std::nullopt;
  if (re->dtype != im->dtype || (re->dtype != DType::Float32 && re->dtype != DType::Float64))
    return error(loc, "TypeError: the `real` and `imag` components have incorrect types: " +
                          dtypeName(re->dtype) + " " + dtypeName(im->dtype) +
                          ". They must be consistent, and one of [tf.float32, tf.float64]");
  std::optional<Shape> s = broadcast(re->shape, im->shape, loc);
  if (!s)
    return std::nullopt;
  return Value::tensor(re->dtype == DType::Float32 ? DType::Complex64 : DType::Complex128, *s);
}

std::optional<Value> TFOpTyper::typeComplexPart() {
  std::optional<Value> x = tensorOf(0, op == TFOp::Conj ? "x" : "input");
  if (!x)
    return std::nullopt;
  bool numeric = isFloat(x->dtype) || isInteger(x->dtype) || isComplex(x->dtype);
  // TensorFlow's real, imag and angle of a real tensor: itself, zeros, 0 or pi (floats
  // only for angle); conj of a real tensor is itself.
  if (!numeric || (op == TFOp::Angle && !isFloat(x->dtype) && !isComplex(x->dtype)))
    return badDtype(*x, op == TFOp::Angle ? "float or complex tensors" : "number tensors");
  DType out = op == TFOp::Conj ? x->dtype : realPart(x->dtype);
  return Value::tensor(out, x->shape);
}

bool analysis::acceptsComplex(TFOp op) {
  switch (op) {
  // Elementwise.
  case TFOp::Add: case TFOp::Subtract: case TFOp::Multiply: case TFOp::Divide:
  case TFOp::Truediv: case TFOp::Pow: case TFOp::Equal: case TFOp::NotEqual:
  case TFOp::Exp: case TFOp::Log: case TFOp::Sqrt: case TFOp::Rsqrt: case TFOp::Tanh:
  case TFOp::Sin: case TFOp::Cos: case TFOp::Tan: case TFOp::Expm1: case TFOp::Log1p:
  case TFOp::Reciprocal: case TFOp::Sigmoid: case TFOp::Abs: case TFOp::Square:
  case TFOp::Negative: case TFOp::Sign: case TFOp::Identity: case TFOp::Cast:
  case TFOp::Where:
  // Complex numbers.
  case TFOp::Complex: case TFOp::Real: case TFOp::Imag: case TFOp::Conj: case TFOp::Angle:
  // Sums and products.
  case TFOp::ReduceSum: case TFOp::ReduceMean: case TFOp::ReduceProd:
  // Creating, shaping and rearranging.
  case TFOp::Constant: case TFOp::ConvertToTensor: case TFOp::Zeros: case TFOp::Ones:
  case TFOp::Fill: case TFOp::ZerosLike: case TFOp::OnesLike:
  case TFOp::Transpose: case TFOp::MatrixTranspose: case TFOp::Reshape: case TFOp::ExpandDims:
  case TFOp::Squeeze:
  case TFOp::Concat: case TFOp::Stack: case TFOp::Shape: case TFOp::Size: case TFOp::Rank:
  case TFOp::Gather: case TFOp::Tile: case TFOp::Reverse: case TFOp::Matmul:
  // State.
  case TFOp::Variable: case TFOp::TensorArray:
  // tf.print (TensorFlow prints each complex element as '?').
  case TFOp::Print:
    return true;
  default:
    return false;
  }
}

std::optional<std::pair<Value, Value>> TFOpTyper::binaryOperands() {
  const Value *a = need(0, "x"), *b = a ? need(1, "y") : nullptr;
  if (!b)
    return std::nullopt;
  // tf functions convert both arguments, even two Python numbers, in order: a Python
  // number or list first takes its own dtype (int32, float32), not y's, and y must then
  // have it (TensorFlow's op builder: a TypeError while tracing). Python's operators are
  // the other way round: `7 + y` converts 7 to y's dtype.
  bool pythonFirst = a->isPyScalar() || a->isPySequence();
  std::optional<Value> ta = a->isTensorLike() ? asTensor(*a, loc)
                            : toTensor(*a, loc, b->isTensorLike() && !pythonFirst
                                                    ? std::optional<DType>(b->dtype)
                                                    : std::nullopt);
  if (ta && pythonFirst && b->isTensorLike() && b->dtype != ta->dtype) {
    error(loc, name + "(): x, " + a->describe() + ", becomes " + aDtype(ta->dtype) +
                   " tensor before y is looked at, and y is " + b->describe() +
                   ": TensorFlow refuses the mismatch (TypeError)");
    impl.note(loc, "give x y's dtype (tf.constant(x, tf." + dtypeName(b->dtype) +
                       ")), pass the tensor first, or use the operator, which converts the "
                       "number to the tensor's dtype");
    return std::nullopt;
  }
  std::optional<Value> tb = ta ? (b->isTensorLike() ? asTensor(*b, loc) : toTensor(*b, loc, ta->dtype))
                               : std::nullopt;
  if (!tb)
    return std::nullopt;
  return std::pair{std::move(*ta), std::move(*tb)};
}

std::optional<Value> TFOpTyper::typeCompare() {
  std::optional<std::pair<Value, Value>> xy = binaryOperands();
  if (!xy)
    return std::nullopt;
  ast::CmpOp cmp = op == TFOp::Equal      ? ast::CmpOp::Eq
                   : op == TFOp::NotEqual ? ast::CmpOp::NotEq
                   : op == TFOp::Less     ? ast::CmpOp::Lt
                   : op == TFOp::LessEqual ? ast::CmpOp::LtE
                   : op == TFOp::Greater  ? ast::CmpOp::Gt
                                          : ast::CmpOp::GtE;
  return compare(cmp, xy->first, xy->second, loc);
}

std::optional<Value> TFOpTyper::typeSameDType() {
  std::optional<std::pair<Value, Value>> xy = binaryOperands();
  if (!xy)
    return std::nullopt;
  const auto &[ta, tb] = *xy;
  if (ta.dtype != tb.dtype)
    return error(loc, name + "() needs one dtype, got " + ta.describe() + " and " + tb.describe());
  std::optional<Shape> s = broadcast(ta.shape, tb.shape, loc);
  return s ? std::optional<Value>(Value::tensor(ta.dtype, *s)) : std::nullopt;
}

std::optional<Value> TFOpTyper::typeArithmetic() {
  std::optional<std::pair<Value, Value>> xy = binaryOperands();
  if (!xy)
    return std::nullopt;
  // TensorFlow's kernels of the truncating division: TruncateDiv for every real number
  // dtype, TruncateMod for four.
  DType dtype = xy->first.dtype;
  if (op == TFOp::Truncatediv && isComplex(dtype))
    return badDtype(xy->first, "real number tensors (TensorFlow has no TruncateDiv kernel "
                               "for complex ones)");
  if (op == TFOp::Truncatemod && xy->first.dtype == xy->second.dtype &&
      dtype != DType::Int32 && dtype != DType::Int64 && dtype != DType::Float32 &&
      dtype != DType::Float64)
    return badDtype(xy->first, "int32, int64, float32 or float64 tensors (TensorFlow's "
                               "TruncateMod kernels)");
  ast::BinaryOp bop = op == TFOp::Add                                ? ast::BinaryOp::Add
                      : op == TFOp::Subtract                         ? ast::BinaryOp::Sub
                      : op == TFOp::Multiply                         ? ast::BinaryOp::Mul
                      : op == TFOp::Divide || op == TFOp::Truediv    ? ast::BinaryOp::Div
                      : op == TFOp::Floordiv || op == TFOp::Truncatediv
                                                                     ? ast::BinaryOp::FloorDiv
                      : op == TFOp::Pow                              ? ast::BinaryOp::Pow
                                                                     : ast::BinaryOp::Mod;
  return binary(bop, xy->first, xy->second, loc);
}

std::optional<Value> TFOpTyper::typeLogical() {
  std::optional<Value> a = tensorOf(0, "x", DType::Bool);
  std::optional<Value> b = a ? tensorOf(1, "y", DType::Bool) : std::nullopt;
  if (!b)
    return std::nullopt;
  if (a->dtype != DType::Bool || b->dtype != DType::Bool)
    return badDtype(a->dtype != DType::Bool ? *a : *b, "bool tensors");
  std::optional<Shape> s = broadcast(a->shape, b->shape, loc);
  return s ? std::optional<Value>(Value::tensor(DType::Bool, *s)) : std::nullopt;
}

std::optional<Value> TFOpTyper::typeReduce() {
  std::optional<Value> x = tensorOf(0, "input_tensor");
  if (!x)
    return std::nullopt;
  bool logical = op == TFOp::ReduceAny || op == TFOp::ReduceAll;
  if (logical != (x->dtype == DType::Bool))
    return badDtype(*x, logical ? "bool tensors" : "number tensors");
  if (isComplex(x->dtype) && !acceptsComplex(op))
    return badDtype(*x, "real number tensors");
  const Value *axis = args.get(1, "axis");
  const Value *keep = args.get(2, "keepdims");
  if (keep && keep->isTensorLike())
    return error(loc, name + "(): 'keepdims' must be a Python bool, not " + keep->describe() +
                          " (TensorFlow calls bool() on it, which a traced tensor refuses)");
  bool keepdims = keep && keep->i != 0;
  if (!x->shape.rankKnown)
    return Value::tensor(x->dtype, Shape::unknownRank());
  std::vector<int64_t> axes;
  if (!axis || axis->kind == Value::Kind::None) {
    for (unsigned i = 0; i < x->shape.rank(); ++i)
      axes.push_back(i);
  } else if (axis->kind == Value::Kind::Int) {
    axes.push_back(axis->i);
  } else if (axis->isPySequence()) {
    for (const Value &a : axis->items())
      axes.push_back(a.i);
  } else {
    return Value::tensor(x->dtype, Shape::unknownRank());
  }
  int64_t rank = x->shape.rank();
  std::vector<bool> reduced(rank, false);
  for (int64_t a : axes) {
    if (a < -rank || a >= std::max<int64_t>(rank, 1))
      return error(loc, name + "(): axis " + llvm::Twine(a) + " is out of range for " +
                            x->describe());
    if (rank)
      reduced[(a + rank) % rank] = true;
  }
  Shape out;
  for (int64_t i = 0; i < rank; ++i)
    if (!reduced[i])
      out.dims.push_back(x->shape.dims[i]);
    else if (keepdims)
      out.dims.push_back(1);
  return Value::tensor(x->dtype, out);
}

std::optional<Value> TFOpTyper::typeConstant() {
  const Value *v = need(0, "value");
  if (!v)
    return std::nullopt;
  std::optional<DType> want = dtypeArg(args.get(1, "dtype"), loc);
  if (failed)
    return std::nullopt;
  if (op == TFOp::ConvertToTensor) {
    // tf.convert_to_tensor(value, dtype, dtype_hint): a Python value takes the hint's dtype
    // where it converts to it (1 becomes float32 1.0), else its own (1.5 stays float32
    // for an int32 hint), as TensorFlow's preferred dtype does.
    const Value *hintArg = args.get(2, "dtype_hint");
    std::optional<DType> hint = hintArg && hintArg->kind != Value::Kind::None
                                    ? dtypeArg(hintArg, loc)
                                    : std::nullopt;
    if (failed)
      return std::nullopt;
    if (hint && !want && !v->isTensorLike()) {
      if (firstTensorIn(*v))
        return error(loc, name + "(): a dtype_hint for a list holding tensors is not "
                              "supported by agc; tf.cast the result");
      std::vector<const Value *> leaves;
      std::function<void(const Value &)> walk = [&](const Value &e) {
        if (e.isPySequence())
          for (const Value &i : e.items())
            walk(i);
        else
          leaves.push_back(&e);
      };
      walk(*v);
      bool converts = llvm::all_of(leaves, [&](const Value *e) {
        switch (e->kind) {
        case Value::Kind::Int: return isInteger(*hint) || isFloat(*hint) || isComplex(*hint);
        case Value::Kind::Float: return isFloat(*hint) || isComplex(*hint);
        case Value::Kind::Bool: return *hint == DType::Bool;
        case Value::Kind::Str: return *hint == DType::String;
        default: return false;
        }
      });
      if (converts)
        want = hint;
    }
  }
  std::optional<Value> t = v->isTensorLike() ? asTensor(*v, loc) : toTensor(*v, loc, want);
  if (!t)
    return std::nullopt;
  if (want && t->dtype != *want)
    return error(loc, name + "(): cannot give " + t->describe() + " the dtype " + dtypeName(*want));
  if (const Value *shape = op == TFOp::Constant ? args.get(2, "shape") : nullptr;
      shape && shape->kind != Value::Kind::None) {
    std::optional<Shape> s = shapeFrom(*shape, loc);
    if (!s)
      return std::nullopt;
    t->shape = *s;
  }
  return t;
}

/// The sizes of a new tensor given as Python ints must not be negative (-1 means "infer"
/// only to tf.reshape).
static bool checkNewSizes(const Value &shape, llvm::StringRef op, const Location &loc,
                          Tracer::Impl &impl) {
  llvm::ArrayRef<Value> sizes = shape.isPySequence() ? llvm::ArrayRef<Value>(shape.items())
                                                     : llvm::ArrayRef<Value>(&shape, 1);
  for (size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d].kind == Value::Kind::Int && sizes[d].i < 0) {
      impl.error(loc, "tf." + op + ": dimension " + llvm::Twine(d) + " has the negative size " +
                          llvm::Twine(sizes[d].i));
      return false;
    }
  return true;
}

std::optional<Value> TFOpTyper::typeZeros() {
  const Value *shape = need(0, "shape");
  if (!shape || !checkNewSizes(*shape, name, loc, impl))
    return std::nullopt;
  std::optional<Shape> s = shapeFrom(*shape, loc);
  std::optional<DType> d = dtypeArg(args.get(1, "dtype"), loc);
  if (!s || failed)
    return std::nullopt;
  return Value::tensor(d.value_or(DType::Float32), *s);
}

std::optional<Value> TFOpTyper::typeFill() {
  const Value *dims = need(0, "dims"), *value = dims ? need(1, "value") : nullptr;
  if (!value || !checkNewSizes(*dims, name, loc, impl))
    return std::nullopt;
  std::optional<Shape> s = shapeFrom(*dims, loc);
  std::optional<Value> t = s ? asTensor(*value, loc) : std::nullopt;
  if (!t)
    return std::nullopt;
  return Value::tensor(t->dtype, *s);
}

std::optional<Value> TFOpTyper::typeZerosLike() {
  std::optional<Value> x = tensorOf(0, "input");
  std::optional<DType> d = x ? dtypeArg(args.get(1, "dtype"), loc) : std::nullopt;
  if (!x || failed)
    return std::nullopt;
  return Value::tensor(d.value_or(x->dtype), x->shape);
}

std::optional<Value> TFOpTyper::typeEye() {
  const Value *rows = need(0, "num_rows");
  if (!rows)
    return std::nullopt;
  const Value *cols = args.get(1, "num_columns");
  std::optional<DType> d = dtypeArg(args.get(3, "dtype"), loc);
  if (failed)
    return std::nullopt;
  if (const Value *batch = args.get(2, "batch_shape"); batch && batch->kind != Value::Kind::None)
    return error(loc, name + "(): batch_shape is not supported by agc; tf.tile or tf.broadcast_to "
                          "the identity");
  int64_t r = rows->kind == Value::Kind::Int ? rows->i : -1;
  int64_t c = cols && cols->kind == Value::Kind::Int ? cols->i : r;
  return Value::tensor(d.value_or(DType::Float32), Shape::of({r, c}));
}

std::optional<Value> TFOpTyper::typeRange() {
  const Value *a = need(0, "start");
  if (!a)
    return std::nullopt;
  const Value *b = args.get(1, "limit");
  const Value *c = args.get(2, "delta");
  std::optional<DType> want = dtypeArg(args.get(3, "dtype"), loc);
  if (failed)
    return std::nullopt;
  std::vector<const Value *> parts = {a};
  if (b && b->kind != Value::Kind::None)
    parts.push_back(b);
  if (c)
    parts.push_back(c);
  // As math_ops.range: each bound converted alone (a Python number to `dtype` where given,
  // else int32, int64 for an int int32 cannot hold, float32), then all cast to `dtype`,
  // or to the highest of their dtypes in int32 < int64 < float16 < bfloat16 < float32 <
  // float64 (tf.range(1, n, 0.5) of an int32 n is float32).
  static const DType kHierarchy[] = {DType::Int32,    DType::Int64,   DType::Float16,
                                     DType::BFloat16, DType::Float32, DType::Float64};
  auto rank = [](DType d) {
    return std::find(std::begin(kHierarchy), std::end(kHierarchy), d) - std::begin(kHierarchy);
  };
  DType dtype = DType::Int32;
  bool known = true;
  for (const Value *p : parts) {
    DType own;
    if (p->isTensorLike()) {
      own = p->dtype;
      known = false;
    } else if (p->kind == Value::Kind::Float) {
      if (want && !isFloat(*want))
        return error(loc, "tf.range(): cannot convert " + p->describe() + " to " +
                              aDtype(*want) + " tensor");
      own = want.value_or(DType::Float32);
    } else if (p->kind == Value::Kind::Int) {
      own = want.value_or(p->i == int32_t(p->i) ? DType::Int32 : DType::Int64);
    } else {
      return error(loc, "tf.range() takes numbers, not " + p->describe());
    }
    if (!want && rank(own) == int64_t(std::size(kHierarchy)))
      return error(loc, "tf.range() takes int32, int64, float16, bfloat16, float32 or float64 "
                        "bounds, not " + p->describe());
    if (rank(own) > rank(dtype))
      dtype = own;
  }
  if (want)
    dtype = *want;
  int64_t size = -1;
  if (known) {
    auto num = [](const Value *v) { return v->kind == Value::Kind::Float ? v->f : double(v->i); };
    double start = parts.size() > 1 ? num(parts[0]) : 0, limit = parts.size() > 1 ? num(parts[1]) : num(parts[0]);
    double delta = parts.size() > 2 ? num(parts[2]) : 1;
    if (delta == 0)
      return error(loc, "tf.range(): delta must not be zero");
    size = std::max<int64_t>(0, int64_t(std::ceil((limit - start) / delta)));
  }
  return Value::tensor(dtype, Shape::of({size}));
}

std::optional<Value> TFOpTyper::typeCast() {
  std::optional<Value> x = tensorOf(0, "x");
  const Value *d = x ? need(1, "dtype") : nullptr;
  std::optional<DType> dtype = d ? dtypeArg(d, loc) : std::nullopt;
  if (!dtype)
    return std::nullopt;
  if ((x->dtype == DType::String) != (*dtype == DType::String))
    return error(loc, "Cast " + dtypeName(x->dtype) + " to " + dtypeName(*dtype) +
                          " is not supported (use tf.strings.to_number or tf.strings.as_string)");
  return Value::tensor(*dtype, x->shape);
}

std::optional<Value> TFOpTyper::typeWhere() {
  std::optional<Value> cond = tensorOf(0, "condition");
  if (!cond)
    return std::nullopt;
  if (cond->dtype != DType::Bool)
    return badDtype(*cond, "a bool condition");
  const Value *x = args.get(1, "x"), *y = args.get(2, "y");
  if (!x && !y) {
    int64_t rank = cond->shape.rankKnown ? cond->shape.rank() : -1;
    return Value::tensor(DType::Int64, Shape::of({-1, rank}));
  }
  if (!x || !y)
    return error(loc, "tf.where() needs both x and y, or neither");
  DType d = x->isTensorLike() ? x->dtype : y->isTensorLike() ? y->dtype
                                                             : toTensor(*x, loc).value_or(Value()).dtype;
  std::optional<Value> tx = x->isTensorLike() ? asTensor(*x, loc) : toTensor(*x, loc, d);
  std::optional<Value> ty = tx ? (y->isTensorLike() ? asTensor(*y, loc) : toTensor(*y, loc, d)) : std::nullopt;
  if (!ty)
    return std::nullopt;
  if (tx->dtype != ty->dtype)
    return error(loc, "tf.where(): x and y must have one dtype, got " + tx->describe() +
                          " and " + ty->describe());
  std::optional<Shape> s = broadcast(tx->shape, ty->shape, loc);
  s = s ? broadcast(*s, cond->shape, loc) : std::nullopt;
  return s ? std::optional<Value>(Value::tensor(tx->dtype, *s)) : std::nullopt;
}

std::optional<Value> TFOpTyper::typeClipByValue() {
  std::optional<Value> t = tensorOf(0, "t");
  return t ? std::optional<Value>(Value::tensor(t->dtype, t->shape)) : std::nullopt;
}

std::optional<Value> TFOpTyper::typeArgmax() {
  std::optional<Value> x = tensorOf(0, "input");
  if (!x)
    return std::nullopt;
  const Value *axis = args.get(1, "axis");
  std::optional<DType> out = dtypeArg(args.get(2, "output_type"), loc);
  if (failed)
    return std::nullopt;
  if (!x->shape.rankKnown)
    return Value::tensor(out.value_or(DType::Int64), Shape::unknownRank());
  if (axis && axis->kind != Value::Kind::Int && axis->kind != Value::Kind::None)
    return error(loc, name + "(): 'axis' must be a Python int for agc, not " + axis->describe());
  int64_t rank = x->shape.rank(), a = axis && axis->kind == Value::Kind::Int ? axis->i : 0;
  if (rank == 0 || a < -rank || a >= rank)
    return error(loc, name + "(): axis " + llvm::Twine(a) + " is out of range for " + x->describe());
  Shape s = x->shape;
  s.dims.erase(s.dims.begin() + (a + rank) % rank);
  return Value::tensor(out.value_or(DType::Int64), s);
}

std::optional<Value> TFOpTyper::typeMatmul() {
  std::optional<Value> a = tensorOf(0, "a"), b = a ? tensorOf(1, "b") : std::nullopt;
  if (!b)
    return std::nullopt;
  if (a->dtype != b->dtype)
    return error(loc, "tf.matmul() needs one dtype, got " + a->describe() + " and " + b->describe());
  if (a->dtype == DType::Int8 || a->dtype == DType::Int16 || a->dtype == DType::Bool ||
      a->dtype == DType::String)
    return error(loc, "TypeError: Value passed to parameter 'a' has DataType " +
                          dtypeName(a->dtype) + " not in list of allowed values (tf.matmul "
                          "takes floats, int32, int64 and unsigned integers)");
  if (!a->shape.rankKnown || !b->shape.rankKnown)
    return Value::tensor(a->dtype, Shape::unknownRank());
  if (a->shape.rank() < 2 || b->shape.rank() < 2)
    return error(loc, "tf.matmul() needs tensors of rank 2 or more, got " + a->describe() +
                          " and " + b->describe());
  // transpose_x or adjoint_x (the same for the real dtypes tf.matmul takes here), each a
  // Python bool.
  std::optional<bool> flags[4];
  const char *flagNames[4] = {"transpose_a", "transpose_b", "adjoint_a", "adjoint_b"};
  for (unsigned k = 0; k < 4; ++k) {
    const Value *f = args.get(2 + k, flagNames[k]);
    if (f && f->kind != Value::Kind::Bool)
      return error(loc, "TypeError: Expected bool for argument '" + llvm::Twine(flagNames[k]) +
                            "' of " + name + "(), not " + f->describe());
    flags[k] = f && f->i != 0;
  }
  if (*flags[0] && *flags[2])
    return error(loc, "ValueError: Only one of transpose_a and adjoint_a can be True.");
  if (*flags[1] && *flags[3])
    return error(loc, "ValueError: Only one of transpose_b and adjoint_b can be True.");
  if (const Value *o = args.get(8, "output_type"); o && o->kind != Value::Kind::None) {
    std::optional<DType> d = dtypeArg(o, loc);
    if (!d)
      return std::nullopt;
    if (*d != a->dtype)
      return error(loc, name + "(): an output_type other than the operands' dtype is not "
                            "supported by agc (TensorFlow takes one only for int8 operands)");
  }
  bool ta = *flags[0] || *flags[2], tb = *flags[1] || *flags[3];
  unsigned ra = a->shape.rank(), rb = b->shape.rank();
  int64_t m = a->shape.dims[ra - (ta ? 1 : 2)], k1 = a->shape.dims[ra - (ta ? 2 : 1)];
  int64_t k2 = b->shape.dims[rb - (tb ? 1 : 2)], n = b->shape.dims[rb - (tb ? 2 : 1)];
  if (k1 >= 0 && k2 >= 0 && k1 != k2)
    return error(loc, "Matrix size-incompatible: In[0]: " + a->shape.str() + ", In[1]: " +
                          b->shape.str());
  Shape batchA = a->shape, batchB = b->shape;
  batchA.dims.resize(ra - 2);
  batchB.dims.resize(rb - 2);
  std::optional<Shape> s = broadcast(batchA, batchB, loc);
  if (!s)
    return std::nullopt;
  s->dims.push_back(m);
  s->dims.push_back(n);
  return Value::tensor(a->dtype, *s);
}

std::optional<Value> TFOpTyper::typeTranspose() {
  std::optional<Value> x = tensorOf(0, "a");
  if (!x)
    return std::nullopt;
  if (op == TFOp::MatrixTranspose && (!x->shape.rankKnown || x->shape.rank() < 2))
    return error(loc, name + "() transposes the last two axes of a tensor of rank 2 or "
                          "more, not of " + x->describe() +
                          (x->shape.rankKnown ? "" : " (agc needs its rank when compiling)"));
  if (!x->shape.rankKnown)
    return *x;
  if (const Value *conj = args.get(2, "conjugate");
      conj && isComplex(x->dtype) && (conj->isTensorLike() || conj->i != 0))
    return error(loc, name + "(): conjugate=True is not supported by agc; apply tf.math.conj "
                          "to the result");
  if (op == TFOp::MatrixTranspose) {
    Shape s = x->shape;
    std::swap(s.dims[s.dims.size() - 1], s.dims[s.dims.size() - 2]);
    return Value::tensor(x->dtype, s);
  }
  const Value *perm = args.get(1, "perm");
  Shape s;
  unsigned rank = x->shape.rank();
  if (!perm || perm->kind == Value::Kind::None) {
    for (unsigned i = rank; i-- > 0;)
      s.dims.push_back(x->shape.dims[i]);
    return Value::tensor(x->dtype, s);
  }
  if (!perm->isPySequence() || perm->items().size() != rank)
    return error(loc, "tf.transpose(): perm must list " + llvm::Twine(rank) + " axes for " +
                          x->describe());
  for (const Value &p : perm->items()) {
    if (p.kind != Value::Kind::Int || p.i < 0 || p.i >= int64_t(rank))
      return error(loc, "tf.transpose(): bad axis in perm");
    s.dims.push_back(x->shape.dims[p.i]);
  }
  return Value::tensor(x->dtype, s);
}

std::optional<Value> TFOpTyper::typeReshape() {
  std::optional<Value> x = tensorOf(0, "tensor");
  const Value *shape = x ? need(1, "shape") : nullptr;
  std::optional<Shape> s = shape ? shapeFrom(*shape, loc) : std::nullopt;
  if (!s)
    return std::nullopt;
  // One -1 is inferred from the element count when everything else is known.
  if (x->shape.isFullyKnown() && s->rankKnown) {
    int64_t total = 1, known = 1, unknown = 0;
    for (int64_t d : x->shape.dims)
      total *= d;
    for (int64_t d : s->dims)
      d < 0 ? ++unknown : known *= d;
    if (unknown == 0 && known != total)
      return error(loc, "tf.reshape(): cannot reshape " + x->describe() + " (" +
                            llvm::Twine(total) + " elements) to shape " + s->str());
    if (unknown == 1 && known && total % known == 0)
      for (int64_t &d : s->dims)
        if (d < 0)
          d = total / known;
  }
  return Value::tensor(x->dtype, *s);
}

std::optional<Value> TFOpTyper::typeConcat() {
  const Value *values = need(0, "values");
  if (!values)
    return std::nullopt;
  if (!values->isPySequence() || values->items().empty())
    return error(loc, name + "() takes a non-empty list of tensors");
  const Value *axisV = args.get(1, "axis");
  if (axisV && axisV->kind != Value::Kind::Int)
    return error(loc, name + "(): 'axis' must be a Python int for agc, not " + axisV->describe());
  int64_t axis = axisV ? axisV->i : 0;
  if (op == TFOp::Concat && !axisV)
    return error(loc, "tf.concat() is missing its argument 'axis'");
  // tf.stack along axis 0 converts its list first, as tf.convert_to_tensor does: Python
  // numbers among tensors take the first tensor's dtype (tf.stack([0, x]) of a float32 x).
  if (op == TFOp::Stack && axis == 0 &&
      llvm::any_of(values->items(), [](const Value &e) { return e.isTensorLike(); }))
    return asTensor(*values, loc);
  std::vector<Value> parts;
  for (const Value &e : values->items()) {
    std::optional<Value> t = asTensor(e, loc);
    if (!t)
      return std::nullopt;
    if (!parts.empty() && t->dtype != parts[0].dtype)
      return error(loc, name + "(): all values must have one dtype, got " +
                            parts[0].describe() + " and " + t->describe());
    parts.push_back(*t);
  }
  Shape s = parts[0].shape;
  if (!s.rankKnown)
    return Value::tensor(parts[0].dtype, Shape::unknownRank());
  int64_t rank = s.rank() + (op == TFOp::Stack ? 1 : 0);
  if (axis < -rank || axis >= rank)
    return error(loc, name + "(): axis " + llvm::Twine(axis) + " is out of range");
  axis = (axis + rank) % rank;
  if (op == TFOp::Stack) {
    for (const Value &p : parts) {
      if (!p.shape.isCompatibleWith(s))
        return error(loc, "tf.stack(): shapes " + s.str() + " and " + p.shape.str() +
                              " differ");
      s = s.join(p.shape).rankKnown ? Shape(s) : s;
    }
    s.dims.insert(s.dims.begin() + axis, parts.size());
    return Value::tensor(parts[0].dtype, s);
  }
  int64_t along = 0;
  for (const Value &p : parts) {
    if (!p.shape.rankKnown || p.shape.rank() != s.rank())
      return error(loc, "tf.concat(): ranks of " + parts[0].describe() + " and " +
                            p.describe() + " differ");
    for (int64_t i = 0; i < rank; ++i) {
      if (i == axis)
        continue;
      int64_t a = s.dims[i], b = p.shape.dims[i];
      if (a >= 0 && b >= 0 && a != b)
        return error(loc, "tf.concat(): dimension " + llvm::Twine(i) + " of " +
                              parts[0].describe() + " and " + p.describe() + " differ");
      if (a < 0)
        s.dims[i] = b;
    }
    along = (along < 0 || p.shape.dims[axis] < 0) ? -1 : along + p.shape.dims[axis];
  }
  s.dims[axis] = along;
  return Value::tensor(parts[0].dtype, s);
}

std::optional<Value> TFOpTyper::typeExpandDims() {
  std::optional<Value> x = tensorOf(0, "input");
  const Value *axis = x ? need(1, "axis") : nullptr;
  if (!axis)
    return std::nullopt;
  if (axis->kind != Value::Kind::Int)
    return error(loc, "tf.expand_dims(): the axis must be a Python int for agc, not " +
                          axis->describe());
  if (!x->shape.rankKnown)
    return *x;
  int64_t rank = x->shape.rank() + 1, a = axis->i;
  if (a < -rank || a >= rank)
    return error(loc, "tf.expand_dims(): axis " + llvm::Twine(a) + " is out of range");
  Shape s = x->shape;
  s.dims.insert(s.dims.begin() + (a + rank) % rank, 1);
  return Value::tensor(x->dtype, s);
}

std::optional<Value> TFOpTyper::typeSqueeze() {
  std::optional<Value> x = tensorOf(0, "input");
  if (!x)
    return std::nullopt;
  if (!x->shape.rankKnown)
    return *x;
  std::string why;
  std::optional<llvm::SmallVector<bool, 4>> squeezed =
      squeezedDims(x->shape, args.get(1, "axis"), why);
  if (!squeezed)
    return error(loc, why);
  Shape s;
  for (size_t d = 0; d < x->shape.rank(); ++d)
    if (!(*squeezed)[d])
      s.dims.push_back(x->shape.dims[d]);
  return Value::tensor(x->dtype, s);
}

std::optional<Value> TFOpTyper::typeShape() {
  std::optional<Value> x = tensorOf(0, "input");
  if (!x)
    return std::nullopt;
  std::optional<DType> d = dtypeArg(args.get(1, "out_type"), loc);
  return Value::tensor(d.value_or(DType::Int32),
                       Shape::of({x->shape.rankKnown ? int64_t(x->shape.rank()) : -1}));
}

std::optional<Value> TFOpTyper::typeSize() {
  std::optional<Value> x = tensorOf(0, "input");
  if (!x)
    return std::nullopt;
  // tf.size(input, out_type=tf.int32); tf.rank(input) is int32.
  std::optional<DType> d = op == TFOp::Size ? dtypeArg(args.get(1, "out_type"), loc) : std::nullopt;
  if (failed)
    return std::nullopt;
  if (d && !isIndexInteger(*d))
    return error(loc, name + "(): out_type must be int32 or int64, not " + dtypeName(*d));
  return Value::tensor(d.value_or(DType::Int32), Shape::scalar());
}

std::optional<Value> TFOpTyper::typeFunction() {
  const Value *fn = args.get(0, "func");
  if (fn && fn->kind == Value::Kind::Function)
    return *fn;
  return error(loc, "tf.function() inside traced code is not supported by agc");
}

std::optional<Value> TFOpTyper::typeTensorSpec() {
  const Value *shape = args.get(0, "shape");
  std::optional<Shape> s = shape ? shapeFrom(*shape, loc) : Shape::unknownRank();
  std::optional<DType> d = s ? dtypeArg(args.get(1, "dtype"), loc) : std::nullopt;
  if (!s || failed)
    return std::nullopt;
  Value v = Value::tensor(d.value_or(DType::Float32), *s);
  v.kind = Value::Kind::TensorSpec;
  return v;
}

std::optional<Value> TFOpTyper::typeTensorShape() {
  const Value *dims = need(0, "dims");
  if (!dims)
    return std::nullopt;
  std::optional<Shape> s = shapeFrom(*dims, loc);
  if (!s)
    return std::nullopt;
  // tf.TensorShape(None), of unknown rank: None, which shapes read as such (as a tuple it
  // would be the scalar shape ()).
  return shapeValue(*s);
}

std::optional<Value> TFOpTyper::typeVariable() {
  const Value *init = need(0, "initial_value");
  if (!init)
    return std::nullopt;
  std::optional<DType> want = dtypeArg(args.get(6, "dtype"), loc);
  if (failed)
    return std::nullopt;
  std::optional<Value> t = init->isTensorLike() ? asTensor(*init, loc) : toTensor(*init, loc, want);
  if (!t)
    return std::nullopt;
  Value v = *t;
  v.kind = Value::Kind::Variable;
  v.object = std::make_shared<Object>(); // its identity (`is`, tf.Module.variables)
  return v;
}

std::optional<Value> TFOpTyper::typeTensorArray() {
  const Value *d = need(0, "dtype");
  std::optional<DType> dtype = d ? dtypeArg(d, loc) : std::nullopt;
  if (!dtype)
    return std::nullopt;
  Value v;
  v.kind = Value::Kind::TensorArray;
  v.dtype = *dtype;
  v.shape = Shape::unknownRank();
  const Value *size = args.get(1, "size");
  v.size = size && size->kind == Value::Kind::Int ? size->i : -1;
  const Value *dyn = args.get(2, "dynamic_size");
  v.dynamicSize = dyn && dyn->i;
  if (const Value *es = args.get(5, "element_shape"); es && es->kind != Value::Kind::None) {
    std::optional<Shape> s = shapeFrom(*es, loc);
    if (!s)
      return std::nullopt;
    v.shape = *s;
  }
  // The element shape an earlier trace learnt from the writes, when none is given.
  v.createdAt = loc;
  auto known = impl.tensorArrayShapes.find({loc.begin.line, loc.begin.column});
  if (!v.shape.rankKnown && known != impl.tensorArrayShapes.end())
    v.shape = known->second;
  return v;
}

std::optional<Value> TFOpTyper::typeRandomUniform() {
  const Value *shape = need(0, "shape");
  std::optional<Shape> s = shape ? shapeFrom(*shape, loc) : std::nullopt;
  std::optional<DType> d = s ? dtypeArg(args.get(3, "dtype"), loc)
                             : std::nullopt;
  if (!s || failed)
    return std::nullopt;
  return Value::tensor(d.value_or(DType::Float32), *s);
}

// --- Indexing and rearranging: gather, tile, pad, reverse, cumulative sums --------------

std::optional<int64_t> TFOpTyper::axisOf(unsigned i, llvm::StringRef param, int64_t byDefault,
                                         int64_t rank) {
  const Value *v = args.get(i, param);
  int64_t a = byDefault;
  if (v && v->kind != Value::Kind::None) {
    if (v->kind != Value::Kind::Int)
      return error(loc, name + "(): '" + param + "' must be a Python int for agc, not " +
                            v->describe());
    a = v->i;
  }
  if (a < -rank || a >= rank)
    return error(loc, name + "(): " + param + " " + llvm::Twine(a) +
                          " is out of range for a tensor of rank " + llvm::Twine(rank));
  return a < 0 ? a + rank : a;
}

std::optional<std::vector<int64_t>> TFOpTyper::intsOf(unsigned i, llvm::StringRef param,
                                                      size_t length) {
  const Value *v = need(i, param);
  if (!v)
    return std::nullopt;
  std::vector<int64_t> out;
  if (v->isPySequence()) {
    for (const Value &e : v->items()) {
      if (e.kind == Value::Kind::Int)
        out.push_back(e.i);
      else if (e.isTensorLike() && isIndexInteger(e.dtype) && e.shape.rankKnown && e.shape.rank() == 0)
        out.push_back(-1);
      else
        return error(loc, name + "(): '" + param + "' holds ints, not " + e.describe());
    }
  } else if (v->isTensorLike() && isIndexInteger(v->dtype) && v->shape.rankKnown &&
             v->shape.rank() == 1 && v->shape.dims[0] >= 0) {
    out.assign(v->shape.dims[0], -1);
  } else {
    return error(loc, name + "(): '" + param + "' must be a list of ints or a 1-D int tensor "
                          "of known length, not " + v->describe());
  }
  if (out.size() != length)
    return error(loc, name + "(): Expected " + param + " argument to be a vector of length " +
                          llvm::Twine(length) + " but got length " + llvm::Twine(out.size()));
  return out;
}

std::optional<Value> TFOpTyper::typeGather() {
  std::optional<Value> params = tensorOf(0, "params");
  std::optional<Value> indices = params ? tensorOf(1, "indices", DType::Int32) : std::nullopt;
  if (!indices)
    return std::nullopt;
  if (!isIndexInteger(indices->dtype))
    return error(loc, name + "(): indices must be int32 or int64, not " + indices->describe());
  if (!params->shape.rankKnown || !indices->shape.rankKnown)
    return error(loc, name + "(): params and indices must have known ranks for agc");
  if (params->shape.rank() == 0)
    return error(loc, name + "(): params must be at least 1-D, not a scalar");
  // batch_dims = b: the first b dimensions of params and indices are a batch, each
  // gathering from its own params (axis, by default b, is at least b).
  int64_t ri = indices->shape.rank(), batchDims = 0;
  if (const Value *batch = args.get(4, "batch_dims"); batch && batch->kind != Value::Kind::None) {
    if (batch->kind != Value::Kind::Int)
      return error(loc, name + "(): batch_dims must be a Python int for agc, not " +
                            batch->describe());
    batchDims = batch->i < 0 ? batch->i + ri : batch->i;
    if (batchDims < 0 || batchDims > ri)
      return error(loc, name + "(): batch_dims " + llvm::Twine(batch->i) +
                            " is out of range for indices of rank " + llvm::Twine(ri));
  }
  std::optional<int64_t> axis = axisOf(3, "axis", batchDims, params->shape.rank());
  if (!axis)
    return std::nullopt;
  if (batchDims > *axis)
    return error(loc, name + "(): batch_dims (" + llvm::Twine(batchDims) +
                          ") must be less than or equal to axis (" + llvm::Twine(*axis) + ")");
  for (int64_t d = 0; d < batchDims; ++d) {
    int64_t p = params->shape.dims[d], i = indices->shape.dims[d];
    if (p >= 0 && i >= 0 && p != i)
      return error(loc, name + "(): params.shape[" + llvm::Twine(d) + "]: " + llvm::Twine(p) +
                            " should be equal to indices.shape[" + llvm::Twine(d) +
                            "]: " + llvm::Twine(i));
  }
  Shape s;
  for (int64_t d = 0; d < *axis; ++d)
    s.dims.push_back(params->shape.dims[d]);
  for (int64_t d = batchDims; d < ri; ++d)
    s.dims.push_back(indices->shape.dims[d]);
  for (size_t d = *axis + 1; d < params->shape.rank(); ++d)
    s.dims.push_back(params->shape.dims[d]);
  return Value::tensor(params->dtype, s);
}

std::optional<Value> TFOpTyper::typeTile() {
  std::optional<Value> x = tensorOf(0, "input");
  if (!x)
    return std::nullopt;
  if (!x->shape.rankKnown)
    return error(loc, name + "(): input must have a known rank for agc");
  std::optional<std::vector<int64_t>> m = intsOf(1, "multiples", x->shape.rank());
  if (!m)
    return std::nullopt;
  Shape s = x->shape;
  for (size_t d = 0; d < s.rank(); ++d) {
    if ((*m)[d] < -1)
      return error(loc, name + "(): Expected multiples[" + llvm::Twine(d) + "] >= 0, but got " +
                            llvm::Twine((*m)[d]));
    s.dims[d] = s.dims[d] >= 0 && (*m)[d] >= 0 ? s.dims[d] * (*m)[d] : -1;
  }
  return Value::tensor(x->dtype, s);
}

std::optional<Value> TFOpTyper::typePad() {
  std::optional<Value> x = tensorOf(0, "tensor");
  const Value *paddings = x ? need(1, "paddings") : nullptr;
  if (!paddings)
    return std::nullopt;
  if (!x->shape.rankKnown)
    return error(loc, name + "(): tensor must have a known rank for agc");
  size_t rank = x->shape.rank();
  const Value *mode = args.get(2, "mode");
  std::string m = mode && mode->kind == Value::Kind::Str ? llvm::StringRef(mode->text).upper()
                                                         : "CONSTANT";
  if (mode && mode->kind != Value::Kind::Str && mode->kind != Value::Kind::None)
    return error(loc, name + "(): mode must be a str, not " + mode->describe());
  if (m != "CONSTANT" && m != "REFLECT" && m != "SYMMETRIC")
    return error(loc, name + "(): mode must be one of 'CONSTANT', 'REFLECT' or 'SYMMETRIC', "
                          "not '" + m + "'");
  if (const Value *c = args.get(3, "constant_values"); c && c->kind != Value::Kind::None) {
    std::optional<Value> cv = c->isTensorLike() ? asTensor(*c, loc) : toTensor(*c, loc, x->dtype);
    if (!cv)
      return std::nullopt;
    if (cv->dtype != x->dtype || !(cv->shape.rankKnown && cv->shape.rank() == 0))
      return error(loc, name + "(): constant_values must be a scalar of the tensor's dtype (" +
                            dtypeName(x->dtype) + "), not " + cv->describe());
  }
  Shape s = x->shape;
  // [[lo, hi], ...] of Python ints, or an int tensor of shape [rank, 2].
  if (paddings->isPySequence()) {
    if (paddings->items().size() != rank)
      return error(loc, name + "(): The first dimension of paddings must be the rank of inputs" +
                            llvm::Twine(rank) + ", not " + llvm::Twine(paddings->items().size()));
    for (size_t d = 0; d < rank; ++d) {
      const Value &pair = paddings->items()[d];
      if (!pair.isPySequence() || pair.items().size() != 2)
        return error(loc, name + "(): each padding is a pair [before, after]");
      int64_t add = 0;
      for (const Value &e : pair.items()) {
        if (e.kind != Value::Kind::Int)
          return error(loc, name + "(): paddings must be Python ints for agc, not " + e.describe());
        if (e.i < 0)
          return error(loc, name + "(): Paddings must be non-negative: " + llvm::Twine(e.i));
        add += e.i;
      }
      s.dims[d] = s.dims[d] >= 0 ? s.dims[d] + add : -1;
    }
    return Value::tensor(x->dtype, s);
  }
  return error(loc, name + "(): paddings must be a list of [before, after] pairs of Python "
                        "ints for agc, not " + paddings->describe());
}

std::optional<Value> TFOpTyper::typeReverse() {
  std::optional<Value> x = tensorOf(0, "tensor");
  const Value *axis = x ? need(1, "axis") : nullptr;
  if (!axis)
    return std::nullopt;
  if (!x->shape.rankKnown)
    return error(loc, name + "(): tensor must have a known rank for agc");
  int64_t rank = x->shape.rank();
  std::vector<Value> axes = axis->isPySequence() ? axis->items() : std::vector<Value>{*axis};
  std::vector<bool> seen(rank);
  for (const Value &a : axes) {
    if (a.kind != Value::Kind::Int)
      return error(loc, name + "(): the axes must be Python ints for agc, not " + a.describe());
    if (a.i < -rank || a.i >= rank)
      return error(loc, name + "(): axis " + llvm::Twine(a.i) + " is out of range for " +
                            x->describe());
    int64_t k = a.i < 0 ? a.i + rank : a.i;
    if (seen[k])
      return error(loc, name + "(): axis " + llvm::Twine(k) + " is specified more than once");
    seen[k] = true;
  }
  return *x;
}

std::optional<Value> TFOpTyper::vectorOfNumbers(unsigned i, llvm::StringRef param) {
  std::optional<Value> x = tensorOf(i, param);
  if (!x)
    return std::nullopt;
  if (x->dtype == DType::Bool || x->dtype == DType::String)
    return badDtype(*x, "numbers");
  if (!x->shape.rankKnown || x->shape.rank() == 0)
    return error(loc, name + "(): " + param + " must be at least 1-D with a known rank, not " +
                          x->describe());
  return x;
}

std::optional<Value> TFOpTyper::typeCumulative() {
  std::optional<Value> x = vectorOfNumbers(0, "x");
  if (!x)
    return std::nullopt;
  if (!axisOf(1, "axis", 0, x->shape.rank()))
    return std::nullopt;
  for (auto [i, flag] : {std::pair{2u, "exclusive"}, std::pair{3u, "reverse"}}) {
    const Value *v = args.get(i, flag);
    if (v && v->kind != Value::Kind::Bool && v->kind != Value::Kind::None)
      return error(loc, name + "(): '" + flag + "' must be a Python bool, not " + v->describe());
  }
  return *x;
}

std::optional<Value> TFOpTyper::typeSort() {
  std::optional<Value> x = vectorOfNumbers(0, "values");
  if (!x)
    return std::nullopt;
  if (!axisOf(1, "axis", -1, x->shape.rank()))
    return std::nullopt;
  if (const Value *d = args.get(2, "direction"); d && d->kind != Value::Kind::None) {
    if (d->kind != Value::Kind::Str || (d->text != "ASCENDING" && d->text != "DESCENDING"))
      return error(loc, name + "(): `direction` must be one of \"ASCENDING\" or \"DESCENDING\", "
                            "not " + d->describe());
  }
  if (op == TFOp::Argsort) {
    // stable: agc's sort always is (ties keep their order), which either value allows.
    const Value *stable = args.get(3, "stable");
    if (stable && stable->kind != Value::Kind::Bool && stable->kind != Value::Kind::None)
      return error(loc, name + "(): 'stable' must be a Python bool, not " + stable->describe());
    return Value::tensor(DType::Int32, x->shape);
  }
  return *x;
}

std::optional<Value> TFOpTyper::typeGatherNd() {
  std::optional<Value> params = tensorOf(0, "params");
  std::optional<Value> indices = params ? tensorOf(1, "indices", DType::Int32) : std::nullopt;
  if (!indices)
    return std::nullopt;
  if (!isIndexInteger(indices->dtype))
    return error(loc, name + "(): indices must be int32 or int64, not " + indices->describe());
  if (!params->shape.rankKnown || !indices->shape.rankKnown || indices->shape.rank() == 0)
    return error(loc, name + "(): params and indices must have known ranks, indices at least 1");
  const Value *batch = args.get(2, "batch_dims");
  if (batch && !(batch->kind == Value::Kind::Int && batch->i == 0) &&
      batch->kind != Value::Kind::None)
    return error(loc, name + "(): batch_dims other than 0 is not supported by agc");
  int64_t m = indices->shape.dims.back();
  if (m < 0)
    return error(loc, name + "(): the last dimension of indices must be known");
  if (m > int64_t(params->shape.rank()))
    return error(loc, name + "(): index innermost dimension length must be <= params rank; saw: " +
                          llvm::Twine(m) + " vs. " + llvm::Twine(params->shape.rank()));
  Shape s;
  for (size_t d = 0; d + 1 < indices->shape.rank(); ++d)
    s.dims.push_back(indices->shape.dims[d]);
  for (size_t d = m; d < params->shape.rank(); ++d)
    s.dims.push_back(params->shape.dims[d]);
  return Value::tensor(params->dtype, s);
}

// --- Strings ---------------------------------------------------------------------------

std::optional<Value> TFOpTyper::typeStringJoin() {
  const Value *inputs = need(0, "inputs");
  if (!inputs)
    return std::nullopt;
  if (!inputs->isPySequence())
    return error(loc, name + "(): inputs must be a list of string tensors, not " +
                          inputs->describe());
  if (const Value *sep = args.get(1, "separator");
      sep && sep->kind != Value::Kind::Str && sep->kind != Value::Kind::None)
    return error(loc, name + "(): separator must be a Python str for agc, not " + sep->describe());
  Shape shape = Shape::scalar();
  for (const Value &e : inputs->items()) {
    std::optional<Value> t = e.isTensorLike() ? asTensor(e, loc) : toTensor(e, loc, DType::String);
    if (!t)
      return std::nullopt;
    if (t->dtype != DType::String)
      return error(loc, name + "(): the inputs must be strings, not " + t->describe());
    std::optional<Shape> s = broadcast(shape, t->shape, loc);
    if (!s)
      return std::nullopt;
    shape = *s;
  }
  return Value::tensor(DType::String, shape);
}

std::optional<Value> TFOpTyper::typeStringUnary() {
  std::optional<Value> x = tensorOf(0, "input", DType::String);
  if (!x)
    return std::nullopt;
  if (x->dtype != DType::String)
    return badDtype(*x, "strings");
  if (op == TFOp::StringLength) {
    const Value *unit = args.get(2, "unit");
    if (unit && unit->kind != Value::Kind::None &&
        !(unit->kind == Value::Kind::Str && (unit->text == "BYTE" || unit->text == "UTF8_CHAR")))
      return error(loc, name + "(): unit must be 'BYTE' or 'UTF8_CHAR', not " + unit->describe());
    return Value::tensor(DType::Int32, x->shape);
  }
  const Value *encoding = args.get(1, "encoding");
  if (encoding && !(encoding->kind == Value::Kind::None ||
                    (encoding->kind == Value::Kind::Str && encoding->text.empty())))
    return error(loc, name + "(): only the default encoding ('': ASCII letters) is supported by agc");
  return *x;
}

std::optional<Value> TFOpTyper::typeSubstr() {
  std::optional<Value> x = tensorOf(0, "input", DType::String);
  if (!x)
    return std::nullopt;
  if (x->dtype != DType::String)
    return badDtype(*x, "strings");
  for (auto [i, param] : {std::pair{1u, "pos"}, std::pair{2u, "len"}}) {
    std::optional<Value> v = tensorOf(i, param, DType::Int32);
    if (!v)
      return std::nullopt;
    if (!isIndexInteger(v->dtype) || !(v->shape.rankKnown && v->shape.rank() == 0))
      return error(loc, name + "(): agc takes " + param + " as an int scalar, not " +
                            v->describe());
  }
  const Value *unit = args.get(4, "unit");
  if (unit && unit->kind != Value::Kind::None &&
      !(unit->kind == Value::Kind::Str && unit->text == "BYTE"))
    return error(loc, name + "(): only unit='BYTE' is supported by agc");
  return *x;
}

std::optional<Value> TFOpTyper::typeAsString() {
  std::optional<Value> x = tensorOf(0, "input");
  if (!x)
    return std::nullopt;
  if (x->dtype == DType::String)
    return badDtype(*x, "numbers and bools");
  for (auto [i, param] : {std::pair{1u, "precision"}, std::pair{4u, "width"}}) {
    const Value *v = args.get(i, param);
    if (v && v->kind != Value::Kind::Int && v->kind != Value::Kind::None)
      return error(loc, name + "(): " + param + " must be a Python int, not " + v->describe());
  }
  const Value *fill = args.get(5, "fill");
  if (fill && fill->kind == Value::Kind::Str && fill->text.size() > 1)
    return error(loc, name + "(): Fill string must be one or fewer characters");
  if (fill && fill->kind == Value::Kind::Str && fill->text.size() == 1 &&
      !llvm::StringRef(" +-0#").contains(fill->text[0]))
    return error(loc, name + "(): Fill argument not supported: \"" + fill->text + "\"");
  if (fill && fill->kind != Value::Kind::Str && fill->kind != Value::Kind::None)
    return error(loc, name + "(): fill must be a Python str, not " + fill->describe());
  auto flag = [&](unsigned i, llvm::StringRef param) {
    const Value *v = args.get(i, param);
    return v && v->kind == Value::Kind::Bool && v->i;
  };
  if (flag(2, "scientific") && flag(3, "shortest"))
    return error(loc, name + "(): Cannot select both scientific and shortest notation");
  const Value *precision = args.get(1, "precision");
  if (precision && precision->kind == Value::Kind::Int && precision->i > -1 && !isFloat(x->dtype))
    return error(loc, name + "(): precision not supported for datatype " + dtypeName(x->dtype));
  return Value::tensor(DType::String, x->shape);
}

std::optional<Value> TFOpTyper::typeToNumber() {
  std::optional<Value> x = tensorOf(0, "string_tensor", DType::String);
  if (!x)
    return std::nullopt;
  if (x->dtype != DType::String)
    return badDtype(*x, "strings");
  std::optional<DType> out = DType::Float32;
  if (const Value *t = args.get(1, "out_type"); t && t->kind != Value::Kind::None)
    out = dtypeArg(t, loc);
  if (!out)
    return std::nullopt;
  if (*out == DType::Bool || *out == DType::String)
    return error(loc, name + "(): out_type must be float32, float64, int32 or int64");
  return Value::tensor(*out, x->shape);
}

std::optional<Value> TFOpTyper::typeBitwise() {
  std::optional<std::pair<Value, Value>> xy = binaryOperands();
  if (!xy)
    return std::nullopt;
  const auto &[a, b] = *xy;
  if (a.dtype != b.dtype)
    return error(loc, name + "() needs one dtype, got " + a.describe() + " and " + b.describe());
  if (!isInteger(a.dtype))
    return badDtype(a, "integer tensors");
  std::optional<Shape> s = broadcast(a.shape, b.shape, loc);
  return s ? std::optional<Value>(Value::tensor(a.dtype, *s)) : std::nullopt;
}

std::optional<std::string> analysis::missingKernel(TFOp op, DType dtype) {
  // TensorFlow 2.21's CPU kernels: an op its definition allows for a dtype, but no kernel
  // computes. The graph builds, and running it fails.
  bool none = false;
  if (op == TFOp::Matmul)
    none = isUnsigned(dtype);
  else if (op == TFOp::Range)
    none = dtype == DType::Int8 || dtype == DType::Int16 || isUnsigned(dtype) ||
           dtype == DType::Float16;
  if (!none)
    return std::nullopt;
  std::string name = dtypeName(dtype).upper();
  return "No OpKernel was registered to support Op '" +
         std::string(op == TFOp::Matmul ? "MatMul" : "Range") + "' with these attrs: [" +
         (op == TFOp::Matmul ? "T" : "Tidx") + "=DT_" + name + "]";
}

std::optional<Value> TFOpTyper::typeStringFormat() {
  const Value *templ = need(0, "template");
  const Value *inputs = templ ? need(1, "inputs") : nullptr;
  if (!inputs)
    return std::nullopt;
  if (templ->kind != Value::Kind::Str)
    return error(loc, name + "(): the template must be a Python str, not " + templ->describe());
  if (inputs->isPyScalar())
    return error(loc, "TypeError: object of type '" + inputs->typeString() + "' has no len() "
                      "(tf.strings.format takes a tensor or a list of them)");
  std::string placeholder = "{}";
  if (const Value *p = args.get(2, "placeholder"); p && p->kind != Value::Kind::None) {
    if (p->kind != Value::Kind::Str || p->text.empty())
      return error(loc, name + "(): placeholder must be a non-empty Python str");
    placeholder = p->text;
  }
  if (const Value *n = args.get(3, "summarize");
      n && n->kind != Value::Kind::Int && n->kind != Value::Kind::None)
    return error(loc, name + "(): summarize must be a Python int, not " + n->describe());
  // One input per placeholder: a tensor (or Python value) alone, or a list or tuple.
  size_t count = inputs->isPySequence() && !llvm::any_of(inputs->items(), [](const Value &e) {
                   return e.isPySequence();
                 }) ? inputs->items().size() : 1;
  if (inputs->isPySequence())
    for (const Value &e : inputs->items())
      if (!(e.isTensorLike() || e.isPyScalar() || e.kind == Value::Kind::Str))
        return error(loc, name + "(): the inputs must be tensors, not " + e.describe());
  size_t found = 0;
  for (size_t at = templ->text.find(placeholder); at != std::string::npos;
       at = templ->text.find(placeholder, at + placeholder.size()))
    ++found;
  if (found != count)
    return error(loc, name + "(): num placeholders in template and num inputs must match: " +
                          llvm::Twine(found) + " vs. " + llvm::Twine(count));
  return Value::tensor(DType::String, Shape::scalar());
}
