//===- TFOps.cpp - The typing rules of tf.* functions and tensor methods --===//
//
// Each tf function agc knows maps its arguments (evaluated: tensors, Python values,
// dtypes) to its result, with TensorFlow's dtype rules (no implicit promotion between
// tensors, Python numbers converted to the tensor's dtype), NumPy broadcasting, and
// TensorFlow's static shape inference. Aliases resolve first (`tf.math.add` is `tf.add`,
// `tf.linalg.matmul` is `tf.matmul`); TFOpTyper::rules() then maps the op's name to its
// typing rule, one small method each (families of elementwise and reducing ops share
// one). A tf function not in the table is refused by name.
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace ag;
using namespace ag::analysis;
using llvm::cast;
using llvm::dyn_cast;

std::optional<Shape> Tracer::Impl::broadcast(const Shape &a, const Shape &b, const Location &loc) {
  if (!a.rankKnown || !b.rankKnown)
    return Shape::unknownRank();
  Shape out;
  unsigned rank = std::max(a.rank(), b.rank());
  out.dims.assign(rank, 1);
  for (unsigned i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.rank() ? 1 : a.dims[i - (rank - a.rank())];
    int64_t y = i < rank - b.rank() ? 1 : b.dims[i - (rank - b.rank())];
    if (x == 1)
      out.dims[i] = y;
    else if (y == 1)
      out.dims[i] = x;
    else if (x < 0 || y < 0)
      out.dims[i] = x < 0 ? y : x; // unknown: checked at run time
    else if (x != y)
      return error(loc, "incompatible shapes for broadcasting: " + a.str() + " and " + b.str());
    else
      out.dims[i] = x;
  }
  return out;
}

std::optional<Shape> Tracer::Impl::shapeFrom(const Value &value, const Location &loc) {
  if (value.kind == Value::Kind::Int)
    return Shape::of({value.i});
  if (value.isPySequence()) {
    Shape s;
    for (const Value &d : value.elements) {
      if (d.kind == Value::Kind::None)
        s.dims.push_back(-1);
      else if (d.kind == Value::Kind::Int && d.i >= -1)
        s.dims.push_back(d.i);
      else if (d.isTensorLike())
        s.dims.push_back(-1);
      else
        return error(loc, "a shape holds ints or None, not " + d.describe());
    }
    return s;
  }
  if (value.kind == Value::Kind::None)
    return Shape::unknownRank();
  if (value.isTensorLike() && isInteger(value.dtype) && value.shape.rankKnown &&
      value.shape.rank() == 1) {
    Shape s;
    if (value.shape.dims[0] < 0)
      return Shape::unknownRank();
    s.dims.assign(value.shape.dims[0], -1);
    return s;
  }
  return error(loc, "cannot use " + value.describe() + " as a shape");
}

std::optional<DType> Tracer::Impl::dtypeArg(const Value *value, const Location &loc) {
  if (!value || value->kind == Value::Kind::None)
    return std::nullopt;
  if (value->kind == Value::Kind::DTypeRef)
    return value->dtype;
  if (value->kind == Value::Kind::Str)
    if (std::optional<DType> d = dtypeFromName(value->s))
      return d;
  error(loc, "expected a dtype such as tf.float32, not " + value->describe());
  return std::nullopt;
}

namespace {
/// The op a tf path names, aliases resolved: "tf.math.reduce_sum" -> "reduce_sum".
std::string canonicalOp(llvm::StringRef path) {
  if (!path.consume_front("tf."))
    return "";
  for (llvm::StringRef prefix : {"math.", "linalg.", "nn.", "debugging.", "dtypes."})
    if (path.starts_with(prefix) && path.count('.') == 1) {
      llvm::StringRef rest = path.drop_front(prefix.size());
      if (prefix == "nn." && rest != "relu" && rest != "softmax" && rest != "sigmoid" &&
          rest != "tanh" && rest != "relu6" && rest != "log_softmax")
        break;
      return rest.str();
    }
  return path.str();
}

/// The elementwise and reducing tf functions, by family: each family shares one rule.
enum class Family { None, UnaryFloat, UnaryNumeric, UnaryBool, Binary, Compare, Logical, Reduce };

struct FamilyOps {
  Family family;
  std::initializer_list<llvm::StringRef> ops;
};

const FamilyOps kFamilies[] = {
    {Family::UnaryFloat,
     {"exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "sin", "cos", "tan", "floor", "ceil",
      "round", "log1p", "expm1", "softplus", "log_softmax", "softmax", "erf", "reciprocal"}},
    {Family::UnaryNumeric, {"abs", "square", "negative", "relu", "relu6", "sign", "identity"}},
    {Family::UnaryBool, {"logical_not"}},
    {Family::Binary,
     {"add", "subtract", "multiply", "divide", "truediv", "floordiv", "floormod", "mod", "pow",
      "maximum", "minimum", "squared_difference"}},
    {Family::Compare, {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}},
    {Family::Logical, {"logical_and", "logical_or", "logical_xor"}},
    {Family::Reduce,
     {"reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_any",
      "reduce_all"}},
};

Family familyOf(llvm::StringRef op) {
  for (const FamilyOps &entry : kFamilies)
    if (llvm::is_contained(entry.ops, op))
      return entry.family;
  return Family::None;
}
} // namespace

namespace {

/// One call of a tf function: its arguments and the helpers every typing rule uses. Each
/// rule is a method; TFOpTyper::rules() maps op names to them.
class TFOpTyper {
public:
  TFOpTyper(Tracer::Impl &impl, llvm::StringRef path, std::string op, const CallArgs &args)
      : impl(impl), args(args), loc(args.loc), name(path.str()), op(std::move(op)),
        failed(impl.failed) {}

  using Rule = std::optional<Value> (TFOpTyper::*)();
  /// The rule for every op agc types, by its canonical name.
  static const llvm::StringMap<Rule> &rules();

private:
  /// Elementwise one-operand functions (exp, abs, logical_not, ...): the same dtype and shape.
  std::optional<Value> typeUnary();
  /// Elementwise two-operand functions and comparisons: converted like operators.
  std::optional<Value> typeBinary();
  /// logical_and/or/xor: bool tensors, broadcast.
  std::optional<Value> typeLogical();
  /// reduce_sum/mean/max/min/prod/any/all with axis and keepdims.
  std::optional<Value> typeReduce();
  /// tf.constant, tf.convert_to_tensor.
  std::optional<Value> typeConstant();
  /// tf.zeros, tf.ones.
  std::optional<Value> typeZeros();
  /// tf.fill.
  std::optional<Value> typeFill();
  /// tf.zeros_like, tf.ones_like.
  std::optional<Value> typeZerosLike();
  /// tf.eye.
  std::optional<Value> typeEye();
  /// tf.range.
  std::optional<Value> typeRange();
  /// tf.cast.
  std::optional<Value> typeCast();
  /// tf.where.
  std::optional<Value> typeWhere();
  /// tf.clip_by_value.
  std::optional<Value> typeClipByValue();
  /// tf.argmax, tf.argmin.
  std::optional<Value> typeArgmax();
  /// tf.matmul.
  std::optional<Value> typeMatmul();
  /// tf.transpose.
  std::optional<Value> typeTranspose();
  /// tf.reshape.
  std::optional<Value> typeReshape();
  /// tf.concat, tf.stack.
  std::optional<Value> typeConcat();
  /// tf.expand_dims.
  std::optional<Value> typeExpandDims();
  /// tf.squeeze.
  std::optional<Value> typeSqueeze();
  /// tf.shape.
  std::optional<Value> typeShape();
  /// tf.size, tf.rank.
  std::optional<Value> typeSize();
  /// tf.print, run-time assertions and set_loop_options: effects, no value.
  std::optional<Value> typeEffect() { return Value::none(); }
  /// tf.function(f) inside traced code: only as a no-op around a function.
  std::optional<Value> typeFunction();
  /// tf.TensorSpec.
  std::optional<Value> typeTensorSpec();
  /// tf.TensorShape.
  std::optional<Value> typeTensorShape();
  /// tf.Variable.
  std::optional<Value> typeVariable();
  /// tf.TensorArray.
  std::optional<Value> typeTensorArray();
  /// tf.random.uniform, tf.random.normal.
  std::optional<Value> typeRandomUniform();

  /// Argument `i` or keyword `param`, reported when missing.
  const Value *need(unsigned i, llvm::StringRef param) {
    const Value *v = args.get(i, param);
    if (!v)
      error(loc, name + "() is missing its argument '" + param + "'");
    return v;
  }
  /// Argument `i` or keyword `param` as a tensor (a Python value converts, as `want`).
  std::optional<Value> tensorOf(unsigned i, llvm::StringRef param,
                                std::optional<DType> want = std::nullopt) {
    const Value *v = need(i, param);
    if (!v)
      return std::nullopt;
    if (v->isTensorLike())
      return asTensor(*v, loc);
    return toTensor(*v, loc, want);
  }
  std::nullopt_t badDtype(const Value &t, llvm::StringRef allowed) {
    return error(loc, name + "() does not accept " + t.describe() + " (it takes " + allowed + ")");
  }
  // The tracer's helpers, under the names the rules use.
  std::nullopt_t error(const Location &at, const llvm::Twine &message) {
    return impl.error(at, message);
  }
  std::optional<Value> asTensor(const Value &v, const Location &at) { return impl.asTensor(v, at); }
  std::optional<Value> toTensor(const Value &v, const Location &at,
                                std::optional<DType> want = std::nullopt) {
    return impl.toTensor(v, at, want);
  }
  std::optional<Shape> broadcast(const Shape &a, const Shape &b, const Location &at) {
    return impl.broadcast(a, b, at);
  }
  std::optional<Shape> shapeFrom(const Value &v, const Location &at) { return impl.shapeFrom(v, at); }
  std::optional<DType> dtypeArg(const Value *v, const Location &at) { return impl.dtypeArg(v, at); }
  std::optional<Value> binary(ast::BinaryOp o, const Value &a, const Value &b, const Location &at) {
    return impl.binary(o, a, b, at);
  }
  std::optional<Value> compare(ast::CmpOp o, const Value &a, const Value &b, const Location &at) {
    return impl.compare(o, a, b, at);
  }

  Tracer::Impl &impl;
  const CallArgs &args;
  const Location &loc;
  std::string name; ///< As written: tf.math.reduce_sum.
  std::string op;   ///< Canonical: reduce_sum.
  bool &failed;     ///< Set once an error was reported.
};

} // namespace

const llvm::StringMap<TFOpTyper::Rule> &TFOpTyper::rules() {
  static const llvm::StringMap<Rule> table = [] {
    llvm::StringMap<Rule> t;
    auto family = [&](std::initializer_list<llvm::StringRef> ops, Rule rule) {
      for (llvm::StringRef op : ops)
        t[op] = rule;
    };
    for (const FamilyOps &entry : kFamilies) {
      switch (entry.family) {
      case Family::UnaryFloat:
      case Family::UnaryNumeric:
      case Family::UnaryBool: family(entry.ops, &TFOpTyper::typeUnary); break;
      case Family::Binary:
      case Family::Compare: family(entry.ops, &TFOpTyper::typeBinary); break;
      case Family::Logical: family(entry.ops, &TFOpTyper::typeLogical); break;
      case Family::Reduce: family(entry.ops, &TFOpTyper::typeReduce); break;
      case Family::None: break;
      }
    }
    t["constant"] = &TFOpTyper::typeConstant;
    t["convert_to_tensor"] = &TFOpTyper::typeConstant;
    t["zeros"] = &TFOpTyper::typeZeros;
    t["ones"] = &TFOpTyper::typeZeros;
    t["fill"] = &TFOpTyper::typeFill;
    t["zeros_like"] = &TFOpTyper::typeZerosLike;
    t["ones_like"] = &TFOpTyper::typeZerosLike;
    t["eye"] = &TFOpTyper::typeEye;
    t["range"] = &TFOpTyper::typeRange;
    t["cast"] = &TFOpTyper::typeCast;
    t["where"] = &TFOpTyper::typeWhere;
    t["clip_by_value"] = &TFOpTyper::typeClipByValue;
    t["argmax"] = &TFOpTyper::typeArgmax;
    t["argmin"] = &TFOpTyper::typeArgmax;
    t["matmul"] = &TFOpTyper::typeMatmul;
    t["transpose"] = &TFOpTyper::typeTranspose;
    t["reshape"] = &TFOpTyper::typeReshape;
    t["concat"] = &TFOpTyper::typeConcat;
    t["stack"] = &TFOpTyper::typeConcat;
    t["expand_dims"] = &TFOpTyper::typeExpandDims;
    t["squeeze"] = &TFOpTyper::typeSqueeze;
    t["shape"] = &TFOpTyper::typeShape;
    t["size"] = &TFOpTyper::typeSize;
    t["rank"] = &TFOpTyper::typeSize;
    family({"print", "assert_equal", "assert_greater", "assert_less", "assert_positive",
            "assert_non_negative", "Assert", "autograph.experimental.set_loop_options"},
           &TFOpTyper::typeEffect);
    t["function"] = &TFOpTyper::typeFunction;
    t["TensorSpec"] = &TFOpTyper::typeTensorSpec;
    t["TensorShape"] = &TFOpTyper::typeTensorShape;
    t["Variable"] = &TFOpTyper::typeVariable;
    t["TensorArray"] = &TFOpTyper::typeTensorArray;
    t["random.uniform"] = &TFOpTyper::typeRandomUniform;
    t["random.normal"] = &TFOpTyper::typeRandomUniform;
    return t;
  }();
  return table;
}

std::optional<Value> TFOpTyper::typeUnary() {
  std::optional<Value> x = tensorOf(0, "x");
  if (!x)
    return std::nullopt;
  Family f = familyOf(op);
  if (f == Family::UnaryFloat && !isFloat(x->dtype))
    return badDtype(*x, "float32 or float64 tensors; tf.cast integers first");
  if (f == Family::UnaryNumeric && (x->dtype == DType::Bool || x->dtype == DType::String) &&
      op != "identity")
    return badDtype(*x, "number tensors");
  if (f == Family::UnaryBool && x->dtype != DType::Bool)
    return badDtype(*x, "bool tensors");
  return Value::tensor(x->dtype, x->shape);
}

std::optional<Value> TFOpTyper::typeBinary() {
  const Value *a = need(0, "x"), *b = a ? need(1, "y") : nullptr;
  if (!b)
    return std::nullopt;
  // tf functions convert both arguments, even two Python numbers.
  std::optional<Value> ta = a->isTensorLike() ? asTensor(*a, loc)
                                              : toTensor(*a, loc, b->isTensorLike()
                                                                      ? std::optional<DType>(b->dtype)
                                                                      : std::nullopt);
  std::optional<Value> tb = ta ? (b->isTensorLike() ? asTensor(*b, loc) : toTensor(*b, loc, ta->dtype))
                               : std::nullopt;
  if (!tb)
    return std::nullopt;
  if (familyOf(op) == Family::Compare) {
    ast::CmpOp cmp = llvm::StringSwitch<ast::CmpOp>(op)
                         .Case("equal", ast::CmpOp::Eq).Case("not_equal", ast::CmpOp::NotEq)
                         .Case("less", ast::CmpOp::Lt).Case("less_equal", ast::CmpOp::LtE)
                         .Case("greater", ast::CmpOp::Gt).Default(ast::CmpOp::GtE);
    return compare(cmp, *ta, *tb, loc);
  }
  if (op == "maximum" || op == "minimum" || op == "squared_difference") {
    if (ta->dtype != tb->dtype)
      return error(loc, name + "() needs one dtype, got " + ta->describe() + " and " + tb->describe());
    std::optional<Shape> s = broadcast(ta->shape, tb->shape, loc);
    return s ? std::optional<Value>(Value::tensor(ta->dtype, *s)) : std::nullopt;
  }
  ast::BinaryOp bop = llvm::StringSwitch<ast::BinaryOp>(op)
                          .Case("add", ast::BinaryOp::Add).Case("subtract", ast::BinaryOp::Sub)
                          .Case("multiply", ast::BinaryOp::Mul).Case("divide", ast::BinaryOp::Div)
                          .Case("truediv", ast::BinaryOp::Div).Case("floordiv", ast::BinaryOp::FloorDiv)
                          .Case("pow", ast::BinaryOp::Pow).Default(ast::BinaryOp::Mod);
  return binary(bop, *ta, *tb, loc);
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
  bool logical = op == "reduce_any" || op == "reduce_all";
  if (logical != (x->dtype == DType::Bool))
    return badDtype(*x, logical ? "bool tensors" : "number tensors");
  const Value *axis = args.get(1, "axis");
  const Value *keep = args.get(2, "keepdims");
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
    for (const Value &a : axis->elements)
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
  std::optional<Value> t = v->isTensorLike() ? asTensor(*v, loc) : toTensor(*v, loc, want);
  if (!t)
    return std::nullopt;
  if (want && t->dtype != *want)
    return error(loc, name + "(): cannot give " + t->describe() + " the dtype " + dtypeName(*want));
  if (const Value *shape = args.get(2, "shape"); shape && shape->kind != Value::Kind::None) {
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
  llvm::ArrayRef<Value> sizes = shape.isPySequence() ? llvm::ArrayRef<Value>(shape.elements)
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
  DType dtype = DType::Int32;
  bool known = true;
  for (const Value *p : parts) {
    if (p->isTensorLike()) {
      dtype = p->dtype;
      known = false;
    } else if (p->kind == Value::Kind::Float && isInteger(dtype)) {
      dtype = DType::Float32;
    } else if (p->kind == Value::Kind::Int && p->i != int32_t(p->i) && dtype == DType::Int32) {
      dtype = DType::Int64;
    } else if (!p->isPyScalar()) {
      return error(loc, "tf.range() takes numbers, not " + p->describe());
    }
  }
  for (const Value *p : parts)
    if (p->isTensorLike() && p->dtype != dtype)
      return error(loc, "tf.range() arguments have different dtypes");
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
  if (!a->shape.rankKnown || !b->shape.rankKnown)
    return Value::tensor(a->dtype, Shape::unknownRank());
  if (a->shape.rank() < 2 || b->shape.rank() < 2)
    return error(loc, "tf.matmul() needs tensors of rank 2 or more, got " + a->describe() +
                          " and " + b->describe());
  bool ta = args.get(2, "transpose_a") && args.get(2, "transpose_a")->i;
  bool tb = args.get(3, "transpose_b") && args.get(3, "transpose_b")->i;
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
  if (!x->shape.rankKnown)
    return *x;
  const Value *perm = args.get(1, "perm");
  Shape s;
  unsigned rank = x->shape.rank();
  if (!perm || perm->kind == Value::Kind::None) {
    for (unsigned i = rank; i-- > 0;)
      s.dims.push_back(x->shape.dims[i]);
    return Value::tensor(x->dtype, s);
  }
  if (!perm->isPySequence() || perm->elements.size() != rank)
    return error(loc, "tf.transpose(): perm must list " + llvm::Twine(rank) + " axes for " +
                          x->describe());
  for (const Value &p : perm->elements) {
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
  if (!values->isPySequence() || values->elements.empty())
    return error(loc, name + "() takes a non-empty list of tensors");
  const Value *axisV = args.get(1, "axis");
  int64_t axis = axisV && axisV->kind == Value::Kind::Int ? axisV->i : 0;
  if (op == "concat" && !axisV)
    return error(loc, "tf.concat() is missing its argument 'axis'");
  std::vector<Value> parts;
  for (const Value &e : values->elements) {
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
  int64_t rank = s.rank() + (op == "stack" ? 1 : 0);
  if (axis < -rank || axis >= rank)
    return error(loc, name + "(): axis " + llvm::Twine(axis) + " is out of range");
  axis = (axis + rank) % rank;
  if (op == "stack") {
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
  return x ? std::optional<Value>(Value::tensor(DType::Int32, Shape::scalar())) : std::nullopt;
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
  std::vector<Value> out;
  for (int64_t d : s->dims)
    out.push_back(d < 0 ? Value::none() : Value::integer(d));
  return Value::sequence(Value::Kind::Tuple, std::move(out));
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
  std::optional<DType> d = s ? dtypeArg(args.get(op == "random.uniform" ? 3 : 3, "dtype"), loc)
                             : std::nullopt;
  if (!s || failed)
    return std::nullopt;
  return Value::tensor(d.value_or(DType::Float32), *s);
}

std::optional<Value> Tracer::Impl::callTF(llvm::StringRef path, const CallArgs &args) {
  std::string op = canonicalOp(path);
  const llvm::StringMap<TFOpTyper::Rule> &rules = TFOpTyper::rules();
  auto rule = rules.find(op);
  if (rule != rules.end()) {
    TFOpTyper typer(*this, path, op, args);
    std::optional<Value> v = (typer.*(rule->second))();
    if (!v || !emitter || failed)
      return v;
    // What the code generator hears of: ops on tensors, tf.print and assertions; the
    // Python-level helpers (tf.function, TensorSpec, TensorShape, set_loop_options) and
    // the state objects (their own hooks) are not ops.
    if (op == "function" || op == "TensorSpec" || op == "TensorShape" ||
        op == "autograph.experimental.set_loop_options")
      return v;
    if (op == "Variable") {
      if (frame().function)
        return error(args.loc, "a tf.Variable created inside a traced function is not "
                               "supported by agc; create it at module level");
      const Value *name = args.get(4, "name");
      if (!emitter->variable(*v, *args.get(0, "initial_value"),
                             name && name->kind == Value::Kind::Str ? name->s : "", args.loc)) {
        failed = true;
        return std::nullopt;
      }
      return v;
    }
    if (op == "TensorArray") {
      if (!emitter->tensorArray("new", *v, args, *v)) {
        failed = true;
        return std::nullopt;
      }
      return v;
    }
    if (!emitOp(op, args, *v))
      return std::nullopt;
    return v;
  }
  if (path.starts_with("tf."))
    return error(args.loc, "'" + path + "' is not a TensorFlow function agc knows");
  return error(args.loc, "'" + path + "' is not supported in traced code: agc compiles "
                         "TensorFlow functions and Python, not other libraries");
}

std::optional<Value> Tracer::Impl::callMethod(const Value &method, const CallArgs &args,
                                              const ast::CallExpr &expr) {
  const Value &self = method.elements[0];
  llvm::StringRef name = method.s;
  const Location &loc = args.loc;
  // The receiver's name, for methods that rebind it (set_shape, list.append).
  const auto *callee = dyn_cast<ast::AttributeExpr>(&expr.getCallee());
  const auto *receiver = callee ? dyn_cast<ast::NameExpr>(&callee->getValue()) : nullptr;
  auto rebind = [&](Value v) {
    if (!receiver)
      return;
    for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
      auto found = it->locals.find(receiver->getId());
      if (found != it->locals.end()) {
        v.boundAt = found->second.boundAt;
        found->second = std::move(v);
        return;
      }
    }
  };

  if (self.kind == Value::Kind::Tensor) {
    if (name == "set_shape") {
      const Value *shape = args.get(0, "shape");
      std::optional<Shape> s = shape ? shapeFrom(*shape, loc) : std::nullopt;
      if (!s)
        return std::nullopt;
      if (!self.shape.isCompatibleWith(*s))
        return error(loc, "set_shape(): shapes " + self.shape.str() + " and " + s->str() +
                              " are incompatible");
      Shape refined = *s;
      if (self.shape.rankKnown && s->rankKnown)
        for (unsigned i = 0; i < refined.rank(); ++i)
          if (refined.dims[i] < 0)
            refined.dims[i] = self.shape.dims[i];
      Value narrowed = Value::tensor(self.dtype, refined);
      if (emitter && !emitter->castTo(narrowed, self, loc)) {
        failed = true;
        return std::nullopt;
      }
      rebind(std::move(narrowed));
      return Value::none();
    }
    if (name == "get_shape")
      return attribute(self, "shape", loc);
    if (name == "numpy")
      return error(loc, ".numpy() needs the tensor's value, which exists only at run time");
    CallArgs withSelf = args;
    withSelf.positional.insert(withSelf.positional.begin(), self);
    return callTF("tf." + name.str(), withSelf);
  }
  if (self.kind == Value::Kind::Variable) {
    if (name == "assign" || name == "assign_add" || name == "assign_sub") {
      const Value *v = args.get(0, "value");
      if (!v)
        return error(loc, name + "() is missing its value");
      std::optional<Value> t = v->isTensorLike() ? asTensor(*v, loc) : toTensor(*v, loc, self.dtype);
      if (!t)
        return std::nullopt;
      if (t->dtype != self.dtype)
        return error(loc, "cannot " + name + " " + t->describe() + " to " + self.describe());
      if (!self.shape.isCompatibleWith(t->shape))
        return error(loc, "cannot " + name + " a value of shape " + t->shape.str() + " to " +
                              self.describe());
      if (emitter && !emitter->assignVariable(name, self, *t, loc)) {
        failed = true;
        return std::nullopt;
      }
      return self;
    }
    if (name == "read_value" || name == "value")
      return asTensor(self, loc);
    return error(loc, "tf.Variable has no method '" + name + "' agc knows");
  }
  if (self.kind == Value::Kind::TensorArray) {
    std::optional<Value> out = tensorArrayMethod(self, name, args);
    if (out && emitter && !emitter->tensorArray(name, self, args, *out)) {
      failed = true;
      return std::nullopt;
    }
    return out;
  }
  if (self.kind == Value::Kind::List && name == "append") {
    if (args.positional.size() != 1)
      return error(loc, "list.append() takes one argument");
    Value out = self;
    out.elements.push_back(args.positional[0]);
    rebind(std::move(out));
    return Value::none();
  }
  return error(loc, self.describe() + " has no method '" + name + "' agc knows");
}

std::optional<Value> Tracer::Impl::tensorArrayMethod(const Value &self, llvm::StringRef name,
                                                     const CallArgs &args) {
  const Location &loc = args.loc;
  if (name == "write") {
    const Value *i = args.get(0, "index"), *v = args.get(1, "value");
    if (!i || !v)
      return error(loc, "TensorArray.write() takes an index and a value");
    std::optional<Value> t = v->isTensorLike() ? asTensor(*v, loc) : toTensor(*v, loc, self.dtype);
    if (!t)
      return std::nullopt;
    if (t->dtype != self.dtype)
      return error(loc, "TensorArray.write(): the array holds " + dtypeName(self.dtype) +
                            " but the value is " + t->describe());
    if (!self.shape.isCompatibleWith(t->shape))
      return error(loc, "TensorArray.write(): the array holds elements of shape " +
                            self.shape.str() + " but the value has shape " + t->shape.str());
    // The element shape: the first write's, relaxed where later writes differ.
    Value out = self;
    out.shape = self.shape.rankKnown ? self.shape.join(t->shape) : t->shape;
    auto [slot, fresh] = tensorArrayShapes.insert(
        {{self.createdAt.begin.line, self.createdAt.begin.column}, out.shape});
    if (!fresh)
      slot->second = slot->second.join(out.shape);
    return out;
  }
  if (name == "read")
    return Value::tensor(self.dtype, self.shape);
  if (name == "stack") {
    Shape s = self.shape;
    if (s.rankKnown)
      s.dims.insert(s.dims.begin(), self.dynamicSize ? -1 : self.size);
    return Value::tensor(self.dtype, s);
  }
  if (name == "size")
    return Value::tensor(DType::Int32, Shape::scalar());
  if (name == "unstack") {
    const Value *v = args.get(0, "value");
    std::optional<Value> t = v ? asTensor(*v, loc) : std::nullopt;
    if (!t)
      return std::nullopt;
    Value out = self;
    out.shape = t->shape;
    if (out.shape.rankKnown && out.shape.rank() > 0)
      out.shape.dims.erase(out.shape.dims.begin());
    auto [slot, fresh] = tensorArrayShapes.insert(
        {{self.createdAt.begin.line, self.createdAt.begin.column}, out.shape});
    if (!fresh)
      slot->second = slot->second.join(out.shape);
    return out;
  }
  return error(loc, "tf.TensorArray has no method '" + name + "' agc knows");
}
