//===- TracerComposite.cpp - tf functions TensorFlow writes over other ops --------===//
//
// Many of TensorFlow's functions are Python over its own ops: tf.nn.gelu is
// `0.5 * x * erfc(-x / sqrt(2))`, tf.math.reduce_variance a mean of squared deviations,
// tf.one_hot a comparison with a range. agc traces them the same way, from the ops it
// knows (TFOps.def), with the formulas TensorFlow 2.21 uses (python/ops/nn_impl.py,
// math_ops.py, nn_ops.py), so that their results round as TensorFlow's do. Each is one
// entry of kComposites: its path (every alias), its parameters, its dtypes (for the
// README's table of ops) and the function that traces it.
//
// A composite is traced as its ops: `to-code` prints the call as written, and the IR
// holds the ops it is made of.
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <cstdint>

using namespace ag;
using namespace ag::analysis;

namespace {

/// Builds a composite from TensorFlow calls and Python operators. After the first
/// failure (reported by what failed) every call returns an empty value and traces
/// nothing: `result` then gives nothing.
class Composer {
public:
  Composer(Tracer::Impl &impl, llvm::StringRef api, const Location &loc)
      : impl(impl), api(api.str()), loc(loc) {}

  Tracer::Impl &impl;
  std::string api; ///< "tf.nn.gelu", for errors.
  Location loc;
  bool ok = true;

  Value call(llvm::StringRef path, std::vector<Value> positional,
             std::vector<std::pair<std::string, Value>> keywords = {}) {
    if (!ok)
      return {};
    CallArgs args;
    args.positional = std::move(positional);
    args.keywords = std::move(keywords);
    args.loc = loc;
    return take(impl.callTF(path, args));
  }
  Value bin(ast::BinaryOp op, const Value &a, const Value &b) {
    return ok ? take(impl.binary(op, a, b, loc)) : Value{};
  }
  Value cmp(ast::CmpOp op, const Value &a, const Value &b) {
    return ok ? take(impl.compare(op, a, b, loc)) : Value{};
  }
  Value add(const Value &a, const Value &b) { return bin(ast::BinaryOp::Add, a, b); }
  Value sub(const Value &a, const Value &b) { return bin(ast::BinaryOp::Sub, a, b); }
  Value mul(const Value &a, const Value &b) { return bin(ast::BinaryOp::Mul, a, b); }
  Value div(const Value &a, const Value &b) { return bin(ast::BinaryOp::Div, a, b); }
  Value where(const Value &c, const Value &x, const Value &y) {
    return call("tf.where", {c, x, y});
  }
  /// `v` as a tensor (a Python value by TensorFlow's rules, or of `dtype`).
  Value tensor(const Value &v, std::optional<DType> dtype = std::nullopt) {
    if (!ok)
      return {};
    if (v.isTensorLike() && (!dtype || v.dtype == *dtype))
      return take(impl.asTensor(v, loc));
    if (v.isTensorLike())
      return call("tf.cast", {v, Value::dtypeOf(*dtype)});
    return take(impl.toTensor(v, loc, dtype));
  }
  /// A Python float of the dtype of `like`, as math_ops.cast(c, x.dtype) makes it.
  Value constant(double c, const Value &like) {
    return tensor(Value::floating(c), like.dtype);
  }
  /// Rows lo..hi (Python ints, or int scalar tensors) of `t` along `axis` (>= 0); with
  /// `knownSize` >= 0, the number of rows the caller has checked hi - lo to be (the static
  /// size of a result whose bounds are known only at run time).
  Value slice(const Value &t, int64_t axis, const Value &lo, const Value &hi,
              int64_t knownSize = -1) {
    if (!ok)
      return {};
    std::vector<IndexItem> items;
    for (int64_t d = 0; d <= axis; ++d) {
      IndexItem item;
      item.kind = IndexItem::Kind::Slice;
      item.loc = loc;
      if (d == axis) {
        for (auto [bound, python, staged] :
             {std::tuple{&lo, &item.lo, &item.loTensor}, std::tuple{&hi, &item.hi, &item.hiTensor}}) {
          if (bound->kind == Value::Kind::Int)
            *python = bound->i;
          else
            *staged = *bound;
        }
      }
      items.push_back(std::move(item));
    }
    Shape shape = t.shape;
    if (lo.kind == Value::Kind::Int && hi.kind == Value::Kind::Int && shape.dims[axis] >= 0)
      shape.dims[axis] = std::max<int64_t>(0, std::min(hi.i, shape.dims[axis]) - lo.i);
    else
      shape.dims[axis] = knownSize;
    Value out = Value::tensor(t.dtype, shape);
    return subscript(t, items, out);
  }
  /// Row `index` (a Python int) of `t` along `axis` (>= 0), without that axis.
  Value row(const Value &t, int64_t axis, int64_t index) {
    if (!ok)
      return {};
    std::vector<IndexItem> items;
    for (int64_t d = 0; d <= axis; ++d) {
      IndexItem item;
      item.kind = d == axis ? IndexItem::Kind::Index : IndexItem::Kind::Slice;
      item.index = Value::integer(index);
      item.loc = loc;
      items.push_back(std::move(item));
    }
    Shape shape = t.shape;
    shape.dims.erase(shape.dims.begin() + axis);
    Value out = Value::tensor(t.dtype, shape);
    return subscript(t, items, out);
  }
  /// Op `op` of `operands`, typed `out` by the caller: an op no tf function reaches
  /// (TFOps.def's Operator typing), such as the sequential scatter.
  Value emit(TFOp op, std::vector<Value> operands, Value out) {
    if (!ok)
      return {};
    if (impl.emitter && !impl.failed && !impl.emitOp(op, std::move(operands), out, loc)) {
      ok = false;
      return {};
    }
    return out;
  }
  /// Reports `message` (as TensorFlow's `kind` error, for the words) and fails.
  Value fail(const llvm::Twine &message) {
    if (ok)
      impl.error(loc, api + "(): " + message);
    ok = false;
    return {};
  }
  std::optional<Value> result(const Value &v) {
    if (!ok)
      return std::nullopt;
    return v;
  }

private:
  Value take(std::optional<Value> v) {
    if (!v) {
      ok = false;
      return {};
    }
    return std::move(*v);
  }
  Value subscript(const Value &t, llvm::ArrayRef<IndexItem> items, Value &out) {
    if (impl.emitter && !impl.failed && !impl.emitter->subscript(t, items, out, loc)) {
      impl.failed = true;
      ok = false;
      return {};
    }
    return out;
  }
};

using Params = std::vector<const Value *>;
using Trace = Value (*)(Composer &, const Params &);

/// One composite: its paths, its parameters (the first `required` of them required), the
/// dtypes it takes (words, for the README's table of ops), and what traces it.
struct Composite {
  std::vector<const char *> paths;
  std::vector<const char *> params;
  size_t required;
  const char *dtypes;
  Trace trace;
};

// --- Argument helpers -------------------------------------------------------------------

bool given(const Value *v) { return v && v->kind != Value::Kind::None; }

/// The first argument as a tensor, which must be a float (TensorFlow's rule for these
/// functions; `what` names it).
Value floatOperand(Composer &c, const Value *v, llvm::StringRef what = "x") {
  Value x = c.tensor(*v);
  if (c.ok && !isFloat(x.dtype))
    return c.fail("'" + what + "' must be a float tensor (float32 or float64), not " +
                  x.describe());
  return x;
}

/// A Python int argument (an axis, a count), or a failure naming it.
std::optional<int64_t> pythonInt(Composer &c, const Value *v, llvm::StringRef what) {
  if (v && v->kind == Value::Kind::Int)
    return v->i;
  c.fail("'" + what + "' must be a Python int here, not " + (v ? v->describe() : "None"));
  return std::nullopt;
}

/// `axis` of a tensor of `rank` made non-negative, or a failure.
std::optional<int64_t> normalAxis(Composer &c, int64_t axis, size_t rank) {
  int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r) {
    c.fail("axis " + llvm::Twine(axis) + " is out of range for a tensor of rank " +
           llvm::Twine(r));
    return std::nullopt;
  }
  return axis < 0 ? axis + r : axis;
}

Value ranked(Composer &c, const Value &x, llvm::StringRef what) {
  if (c.ok && !x.shape.rankKnown)
    return c.fail("'" + what + "' must have a known rank");
  return x;
}

/// tf.shape(x)[axis] as an int32 scalar (the static size where known).
Value dimOf(Composer &c, const Value &x, int64_t axis) {
  if (!c.ok)
    return {};
  if (x.shape.dims[axis] >= 0)
    return c.tensor(Value::integer(x.shape.dims[axis]), DType::Int32);
  return c.row(c.call("tf.shape", {x}), 0, axis);
}

// --- Activations (nn_ops.py, nn_impl.py; the kernels' formulas where TF has one) -------

Value leakyRelu(Composer &c, const Params &p) {
  // Integers are computed as float32 (nn_ops.leaky_relu); the kernel is x > 0 ? x : x*a.
  Value x = c.tensor(*p[0]);
  if (c.ok && isInteger(x.dtype))
    x = c.call("tf.cast", {x, Value::dtypeOf(DType::Float32)});
  if (c.ok && !isFloat(x.dtype))
    return c.fail("'features' must be a number, not " + x.describe());
  Value alpha = given(p[1]) ? *p[1] : Value::floating(0.2);
  Value zero = c.constant(0, x);
  return c.where(c.cmp(ast::CmpOp::Gt, x, zero), x, c.mul(x, c.tensor(alpha, x.dtype)));
}

Value elu(Composer &c, const Params &p) {
  Value x = floatOperand(c, p[0], "features");
  return c.where(c.cmp(ast::CmpOp::Lt, x, c.constant(0, x)), c.call("tf.math.expm1", {x}), x);
}

Value selu(Composer &c, const Params &p) {
  // The kernel's constants.
  Value x = floatOperand(c, p[0], "features");
  Value scaled = c.mul(c.constant(1.0507009873554804934193349852946, x), x);
  Value neg = c.mul(c.constant(1.7580993408473768599402175208123, x), c.call("tf.math.expm1", {x}));
  return c.where(c.cmp(ast::CmpOp::Lt, x, c.constant(0, x)), neg, scaled);
}

Value gelu(Composer &c, const Params &p) {
  Value x = floatOperand(c, p[0], "features");
  bool approximate = p[1] && p[1]->kind == Value::Kind::Bool && p[1]->i;
  if (p[1] && !approximate && p[1]->kind != Value::Kind::Bool)
    return c.fail("'approximate' must be a Python bool, not " + p[1]->describe());
  Value half = Value::floating(0.5);
  if (approximate) {
    // 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x**3)))
    Value cube = c.call("tf.math.pow", {x, c.tensor(Value::integer(3), x.dtype)});
    Value inner = c.add(x, c.mul(c.constant(0.044715, x), cube));
    Value t = c.call("tf.math.tanh", {c.mul(Value::floating(0.7978845608028654), inner)});
    return c.mul(c.mul(half, x), c.add(Value::floating(1.0), t));
  }
  // 0.5 * x * erfc(-x * 0.7071067811865476)
  Value arg = c.mul(c.call("tf.math.negative", {x}), c.constant(0.7071067811865476, x));
  return c.mul(c.mul(half, x), c.call("tf.math.erfc", {arg}));
}

Value swish(Composer &c, const Params &p) {
  Value x = floatOperand(c, p[0], "features");
  Value beta = c.tensor(given(p[1]) ? *p[1] : Value::floating(1.0), x.dtype);
  return c.mul(x, c.call("tf.math.sigmoid", {c.mul(beta, x)}));
}

Value softsign(Composer &c, const Params &p) {
  Value x = floatOperand(c, p[0], "features");
  return c.div(x, c.add(c.call("tf.math.abs", {x}), c.constant(1, x)));
}

Value logSigmoid(Composer &c, const Params &p) {
  // math_ops.log_sigmoid: -softplus(-x).
  Value x = floatOperand(c, p[0]);
  return c.call("tf.math.negative",
                {c.call("tf.math.softplus", {c.call("tf.math.negative", {x})})});
}

// --- Reductions (math_ops.py) ------------------------------------------------------------

Value reduceVariance(Composer &c, const Params &p) {
  Value x = c.tensor(*p[0]);
  if (c.ok && !isFloat(x.dtype))
    return c.fail("Input must be either real or complex. Received integer type " +
                  dtypeName(x.dtype));
  Value axis = p[1] ? *p[1] : Value::none();
  Value keep = p[2] ? *p[2] : Value::boolean(false);
  Value means = c.call("tf.math.reduce_mean", {x}, {{"axis", axis}, {"keepdims", Value::boolean(true)}});
  Value squared = c.call("tf.math.square", {c.sub(x, means)});
  return c.call("tf.math.reduce_mean", {squared}, {{"axis", axis}, {"keepdims", keep}});
}

Value reduceStd(Composer &c, const Params &p) {
  return c.call("tf.math.sqrt", {reduceVariance(c, p)});
}

Value reduceLogSumExp(Composer &c, const Params &p) {
  Value x = floatOperand(c, p[0], "input_tensor");
  Value axis = p[1] ? *p[1] : Value::none();
  Value keep = p[2] ? *p[2] : Value::boolean(false);
  Value rawMax = c.call("tf.math.reduce_max", {x}, {{"axis", axis}, {"keepdims", Value::boolean(true)}});
  Value finite = c.call("tf.math.is_finite", {rawMax});
  Value myMax = c.where(finite, rawMax, c.call("tf.zeros_like", {rawMax}));
  Value sum = c.call("tf.math.reduce_sum", {c.call("tf.math.exp", {c.sub(x, myMax)})},
                     {{"axis", axis}, {"keepdims", keep}});
  Value result = c.call("tf.math.log", {sum});
  if (!(keep.kind == Value::Kind::Bool && keep.i))
    myMax = c.call("tf.reshape", {myMax, c.call("tf.shape", {result})});
  return c.add(result, myMax);
}

Value reduceEuclideanNorm(Composer &c, const Params &p) {
  Value x = floatOperand(c, p[0], "input_tensor");
  Value axis = p[1] ? *p[1] : Value::none();
  Value keep = p[2] ? *p[2] : Value::boolean(false);
  return c.call("tf.math.sqrt", {c.call("tf.math.reduce_sum", {c.call("tf.math.square", {x})},
                                        {{"axis", axis}, {"keepdims", keep}})});
}

Value countNonzero(Composer &c, const Params &p) {
  Value x = c.tensor(*p[0]);
  Value axis = p[1] ? *p[1] : Value::none();
  Value keep = given(p[2]) ? *p[2] : Value::boolean(false);
  std::optional<DType> dtype = DType::Int64;
  if (given(p[3]) && !(dtype = c.impl.dtypeArg(p[3], c.loc)))
    return c.fail("'dtype' must be a dtype");
  Value zero = c.tensor(Value::integer(0), x.dtype);
  Value nonzero = c.call("tf.cast", {c.cmp(ast::CmpOp::NotEq, x, zero), Value::dtypeOf(*dtype)});
  return c.call("tf.math.reduce_sum", {nonzero}, {{"axis", axis}, {"keepdims", keep}});
}

/// tf.math.zero_fraction: (size - count_nonzero) / size in float32, as nn_impl.py computes
/// it (an empty tensor gives NaN).
Value zeroFraction(Composer &c, const Params &p) {
  Value x = c.tensor(*p[0]);
  Value zero = c.tensor(x.dtype == DType::Bool ? Value::boolean(false) : Value::integer(0), x.dtype);
  Value size = c.call("tf.size", {x}, {{"out_type", Value::dtypeOf(DType::Int64)}});
  Value nonzero = c.call("tf.math.reduce_sum",
                         {c.call("tf.cast", {c.cmp(ast::CmpOp::NotEq, x, zero),
                                             Value::dtypeOf(DType::Int64)})});
  auto f32 = [&](const Value &v) { return c.call("tf.cast", {v, Value::dtypeOf(DType::Float32)}); };
  return c.div(f32(c.sub(size, nonzero)), f32(size));
}

/// tf.math.in_top_k(targets, predictions, k): whether each row's target class is among its
/// k largest predictions, as TensorFlow's InTopK kernel decides: fewer than k predictions
/// strictly greater than the target's; false for a target out of range or a row holding a
/// value that is not finite.
Value inTopK(Composer &c, const Params &p) {
  Value targets = c.tensor(*p[0]);
  Value predictions = c.tensor(*p[1]);
  Value k = c.tensor(*p[2]);
  if (c.ok && predictions.dtype != DType::Float32)
    return c.fail("'predictions' must be a float32 tensor, not " + predictions.describe());
  if (c.ok && !(predictions.shape.rankKnown && predictions.shape.rank() == 2))
    return c.fail("'predictions' must be 2-D (batch, classes), not " + predictions.describe());
  if (c.ok && !(isIndexInteger(targets.dtype) && targets.shape.rankKnown && targets.shape.rank() == 1))
    return c.fail("'targets' must be a 1-D int32 or int64 tensor, not " + targets.describe());
  if (c.ok && !(isIndexInteger(k.dtype) && k.shape.rankKnown && k.shape.rank() == 0))
    return c.fail("'k' must be an int32 or int64 scalar, not " + k.describe());
  if (!c.ok)
    return {};
  Value classes = c.call("tf.shape", {predictions}, {{"out_type", Value::dtypeOf(targets.dtype)}});
  Value count = c.row(classes, 0, 1);
  Value zero = c.tensor(Value::integer(0), targets.dtype);
  Value inRange = c.call("tf.math.logical_and", {c.cmp(ast::CmpOp::GtE, targets, zero),
                                                 c.cmp(ast::CmpOp::Lt, targets, count)});
  // The target's prediction (0 where the target is out of range: the row is false then).
  Value mask = c.call("tf.one_hot", {targets, count}, {{"on_value", Value::boolean(true)},
                                                       {"off_value", Value::boolean(false)}});
  Value target = c.call("tf.math.reduce_sum",
                        {c.where(mask, predictions, c.constant(0, predictions))},
                        {{"axis", Value::integer(1)}, {"keepdims", Value::boolean(true)}});
  Value greater = c.call("tf.math.reduce_sum",
                         {c.call("tf.cast", {c.cmp(ast::CmpOp::Gt, predictions, target),
                                             Value::dtypeOf(k.dtype)})},
                         {{"axis", Value::integer(1)}});
  Value finite = c.call("tf.math.reduce_all", {c.call("tf.math.is_finite", {predictions})},
                        {{"axis", Value::integer(1)}});
  return c.call("tf.math.logical_and",
                {c.call("tf.math.logical_and", {inRange, finite}), c.cmp(ast::CmpOp::Lt, greater, k)});
}

// --- Classification of floats -----------------------------------------------------------

Value isNan(Composer &c, const Params &p) {
  Value x = floatOperand(c, p[0]);
  return c.cmp(ast::CmpOp::NotEq, x, x);
}

Value isInf(Composer &c, const Params &p) {
  Value x = floatOperand(c, p[0]);
  return c.cmp(ast::CmpOp::Eq, c.call("tf.math.abs", {x}), c.constant(INFINITY, x));
}

Value isFinite(Composer &c, const Params &p) {
  // |x| < inf is false for inf and NaN alike.
  Value x = floatOperand(c, p[0]);
  return c.cmp(ast::CmpOp::Lt, c.call("tf.math.abs", {x}), c.constant(INFINITY, x));
}

Value divideNoNan(Composer &c, const Params &p) {
  Value x = c.tensor(*p[0]);
  Value y = c.tensor(*p[1], x.dtype);
  if (c.ok && !isFloat(x.dtype))
    return c.fail("'x' must be a float tensor, not " + x.describe());
  Value zero = c.constant(0, x);
  Value safe = c.where(c.cmp(ast::CmpOp::Eq, y, zero), c.call("tf.ones_like", {y}), y);
  Value q = c.div(x, safe);
  return c.where(c.cmp(ast::CmpOp::Eq, y, zero), c.call("tf.zeros_like", {q}), q);
}

// --- Norms and clipping (linalg_ops.py, clip_ops.py, nn_impl.py) -----------------------

Value norm(Composer &c, const Params &p) {
  Value x = floatOperand(c, p[0], "tensor");
  Value ord = p[1] ? *p[1] : Value::str("euclidean");
  Value axis = p[2] ? *p[2] : Value::none();
  Value keep = given(p[3]) ? *p[3] : Value::boolean(false);
  bool matrix = axis.isPySequence() && axis.items().size() == 2;
  auto isOrd = [&](double want) {
    return (ord.kind == Value::Kind::Int && ord.i == want) ||
           (ord.kind == Value::Kind::Float && ord.f == want);
  };
  if (ord.kind == Value::Kind::Str && (ord.text == "euclidean" || ord.text == "fro") &&
      (ord.text == "euclidean" || matrix || axis.kind == Value::Kind::None)) {
    Value sum = c.call("tf.math.reduce_sum", {c.mul(x, x)}, {{"axis", axis}, {"keepdims", keep}});
    return c.call("tf.math.sqrt", {sum});
  }
  if (!matrix && isOrd(2))
    return c.call("tf.math.sqrt", {c.call("tf.math.reduce_sum", {c.mul(x, x)},
                                          {{"axis", axis}, {"keepdims", keep}})});
  if (!matrix && isOrd(1))
    return c.call("tf.math.reduce_sum", {c.call("tf.math.abs", {x})},
                  {{"axis", axis}, {"keepdims", keep}});
  if (!matrix && isOrd(INFINITY))
    return c.call("tf.math.reduce_max", {c.call("tf.math.abs", {x})},
                  {{"axis", axis}, {"keepdims", keep}});
  if (matrix && (isOrd(1) || isOrd(INFINITY))) {
    // The largest column sum (ord=1) or row sum (ord=inf) of |x|, as linalg_ops.norm.
    Value rowAxis = axis.items()[0], colAxis = axis.items()[1];
    if (isOrd(INFINITY))
      std::swap(rowAxis, colAxis);
    Value sums = c.call("tf.math.reduce_sum", {c.call("tf.math.abs", {x})},
                        {{"axis", rowAxis}, {"keepdims", Value::boolean(true)}});
    Value result = c.call("tf.math.reduce_max", {sums},
                          {{"axis", colAxis}, {"keepdims", Value::boolean(true)}});
    if (keep.kind == Value::Kind::Bool && keep.i)
      return result;
    return c.call("tf.squeeze", {result, axis});
  }
  std::string shown = ord.kind == Value::Kind::Int     ? std::to_string(ord.i)
                      : ord.kind == Value::Kind::Float ? pythonFloat(ord.f)
                      : ord.kind == Value::Kind::Str   ? "'" + ord.text + "'"
                                                       : ord.describe();
  return c.fail("ord=" + shown + (matrix ? " over two axes" : "") +
                " is not supported by agc (use 'euclidean', 'fro', 1, 2 or np.inf for a "
                "vector norm; 'fro', 'euclidean', 1 or np.inf for a matrix)");
}

Value clipByNorm(Composer &c, const Params &p) {
  Value t = floatOperand(c, p[0], "t");
  Value clip = c.tensor(*p[1], t.dtype);
  Value axes = p[2] ? *p[2] : Value::none();
  Value l2sum = c.call("tf.math.reduce_sum", {c.mul(t, t)},
                       {{"axis", axes}, {"keepdims", Value::boolean(true)}});
  Value pred = c.cmp(ast::CmpOp::Gt, l2sum, c.constant(0, t));
  Value safe = c.where(pred, l2sum, c.call("tf.ones_like", {l2sum}));
  Value l2norm = c.where(pred, c.call("tf.math.sqrt", {safe}), l2sum);
  Value scaled = c.mul(t, clip);
  return c.div(scaled, c.call("tf.math.maximum", {l2norm, clip}));
}

Value l2Normalize(Composer &c, const Params &p) {
  Value x = floatOperand(c, p[0]);
  // `dim` is TensorFlow's deprecated name for `axis` (both given: its ValueError).
  if (given(p[1]) && given(p[4]))
    c.fail("ValueError: Cannot specify both 'axis' and 'dim'");
  Value axis = given(p[1]) ? *p[1] : given(p[4]) ? *p[4] : Value::none();
  Value eps = c.tensor(given(p[2]) ? *p[2] : Value::floating(1e-12), x.dtype);
  Value sq = c.call("tf.math.reduce_sum", {c.call("tf.math.square", {x})},
                    {{"axis", axis}, {"keepdims", Value::boolean(true)}});
  return c.mul(x, c.call("tf.math.rsqrt", {c.call("tf.math.maximum", {sq, eps})}));
}

Value l2Loss(Composer &c, const Params &p) {
  Value t = floatOperand(c, p[0], "t");
  return c.div(c.call("tf.math.reduce_sum", {c.call("tf.math.square", {t})}), c.constant(2, t));
}

Value biasAdd(Composer &c, const Params &p) {
  Value x = c.tensor(*p[0]);
  Value bias = c.tensor(*p[1]);
  if (p[2] && p[2]->kind == Value::Kind::Str && p[2]->text != "NHWC" && p[2]->text != "N..C")
    return c.fail("data_format '" + p[2]->text + "' is not supported by agc (channels last is)");
  if (c.ok && (!bias.shape.rankKnown || bias.shape.rank() != 1))
    return c.fail("'bias' must be 1-D, not " + bias.describe());
  if (c.ok && x.dtype != bias.dtype)
    return c.fail("'value' and 'bias' must have one dtype, not " + x.describe() + " and " +
                  bias.describe());
  return c.add(x, bias);
}

Value moments(Composer &c, const Params &p) {
  Value x = floatOperand(c, p[0]);
  Value axes = *p[1];
  bool keep = p[3] && p[3]->kind == Value::Kind::Bool && p[3]->i;
  Value mean = c.call("tf.math.reduce_mean", {x}, {{"axis", axes}, {"keepdims", Value::boolean(true)}});
  Value variance = c.call("tf.math.reduce_mean", {c.call("tf.math.squared_difference", {x, mean})},
                          {{"axis", axes}, {"keepdims", Value::boolean(true)}});
  if (!keep) {
    mean = c.call("tf.squeeze", {mean, axes});
    variance = c.call("tf.squeeze", {variance, axes});
  }
  if (!c.ok)
    return {};
  return Value::sequence(Value::Kind::Tuple, {mean, variance});
}

Value batchNormalization(Composer &c, const Params &p) {
  // nn_impl.batch_normalization: inv = rsqrt(variance + epsilon) * scale;
  // x * inv + (offset - mean * inv), or + -mean * inv without an offset.
  Value x = floatOperand(c, p[0]);
  Value mean = c.tensor(*p[1], x.dtype), variance = c.tensor(*p[2], x.dtype);
  Value eps = c.tensor(*p[5], x.dtype);
  Value inv = c.call("tf.math.rsqrt", {c.add(variance, eps)});
  if (given(p[4]))
    inv = c.mul(inv, c.tensor(*p[4], x.dtype));
  Value shift = given(p[3]) ? c.sub(c.tensor(*p[3], x.dtype), c.mul(mean, inv))
                            : c.mul(c.call("tf.math.negative", {mean}), inv);
  return c.add(c.mul(x, inv), shift);
}

Value embeddingLookup(Composer &c, const Params &p) {
  if (given(p[2]))
    return c.fail("max_norm is not supported by agc");
  if (c.ok && p[0]->isPySequence())
    return c.fail("a list of sharded params is not supported by agc; pass one tensor");
  return c.call("tf.gather", {*p[0], *p[1]});
}

Value crelu(Composer &c, const Params &p) {
  Value x = c.tensor(*p[0]);
  Value axis = given(p[1]) ? *p[1] : Value::integer(-1);
  return c.call("tf.concat", {Value::list({c.call("tf.nn.relu", {x}),
                                           c.call("tf.nn.relu", {c.call("tf.math.negative", {x})})}),
                              axis});
}

Value xlogy(Composer &c, const Params &p) {
  // 0 where x is 0 (even where log(y) is not finite), else x * log(y).
  Value x = floatOperand(c, p[0]);
  Value y = c.tensor(*p[1], x.dtype);
  Value zero = c.constant(0, x);
  Value product = c.mul(x, c.call("tf.math.log", {y}));
  return c.where(c.cmp(ast::CmpOp::Eq, x, zero), c.call("tf.zeros_like", {product}), product);
}

// --- Losses (nn_impl.py, nn_ops.py) ------------------------------------------------------

Value sigmoidCrossEntropy(Composer &c, const Params &p) {
  if (!given(p[0]) || !given(p[1]))
    return c.fail("both labels and logits must be provided");
  Value logits = floatOperand(c, p[1], "logits");
  Value labels = c.tensor(*p[0], logits.dtype);
  if (c.ok && !labels.shape.isCompatibleWith(logits.shape))
    return c.fail("logits and labels must have the same shape, not " + logits.shape.str() +
                  " and " + labels.shape.str());
  Value zeros = c.call("tf.zeros_like", {logits});
  Value cond = c.cmp(ast::CmpOp::GtE, logits, zeros);
  Value reluLogits = c.where(cond, logits, zeros);
  Value negAbs = c.where(cond, c.call("tf.math.negative", {logits}), logits);
  return c.add(c.sub(reluLogits, c.mul(logits, labels)),
               c.call("tf.math.log1p", {c.call("tf.math.exp", {negAbs})}));
}

Value softmaxCrossEntropy(Composer &c, const Params &p) {
  Value logits = floatOperand(c, p[1], "logits");
  Value labels = c.tensor(*p[0], logits.dtype);
  Value axis = given(p[2]) ? *p[2] : Value::integer(-1);
  if (c.ok && !labels.shape.isCompatibleWith(logits.shape))
    return c.fail("labels and logits must have the same shape, not " + labels.shape.str() +
                  " and " + logits.shape.str());
  Value logp = c.call("tf.nn.log_softmax", {logits}, {{"axis", axis}});
  return c.call("tf.math.negative",
                {c.call("tf.math.reduce_sum", {c.mul(labels, logp)}, {{"axis", axis}})});
}

Value oneHot(Composer &c, const Params &p);

Value sparseSoftmaxCrossEntropy(Composer &c, const Params &p) {
  Value logits = ranked(c, floatOperand(c, p[1], "logits"), "logits");
  Value labels = c.tensor(*p[0]);
  if (c.ok && !isIndexInteger(labels.dtype))
    return c.fail("'labels' must be int32 or int64, not " + labels.describe());
  if (c.ok && labels.shape.rankKnown && labels.shape.rank() + 1 != logits.shape.rank())
    return c.fail("rank mismatch: rank of labels (received " +
                  llvm::Twine(labels.shape.rank()) +
                  ") should equal rank of logits minus 1 (received " +
                  llvm::Twine(logits.shape.rank()) + ")");
  if (!c.ok)
    return {};
  Value depth = dimOf(c, logits, logits.shape.rank() - 1);
  Value depthAs = c.call("tf.cast", {depth, Value::dtypeOf(labels.dtype)});
  Value zero = c.tensor(Value::integer(0), labels.dtype);
  Value inRange = c.call("tf.math.logical_and", {c.cmp(ast::CmpOp::GtE, labels, zero),
                                                 c.cmp(ast::CmpOp::Lt, labels, depthAs)});
  c.call("tf.debugging.Assert",
         {c.call("tf.math.reduce_all", {inRange}), Value::list({})},
         {{"message", Value::str("Received a label value which is outside the valid range of "
                                 "[0, the number of classes)")}});
  Value hot = c.call("tf.one_hot", {labels, depth},
                     {{"on_value", Value::boolean(true)}, {"off_value", Value::boolean(false)}});
  Value logp = c.call("tf.nn.log_softmax", {logits});
  Value picked = c.where(hot, logp, c.call("tf.zeros_like", {logp}));
  return c.call("tf.math.negative", {c.call("tf.math.reduce_sum", {picked}, {{"axis", Value::integer(-1)}})});
}

// --- Building tensors ---------------------------------------------------------------------

/// tf.one_hot: `indices` (expanded at `axis`) equal to a range of `depth` along it, then
/// on_value where equal and off_value elsewhere; an index out of [0, depth) is all off.
Value oneHot(Composer &c, const Params &p) {
  Value indices = ranked(c, c.tensor(*p[0]), "indices");
  if (c.ok && !isIndexInteger(indices.dtype))
    return c.fail("'indices' must be int32 or int64, not " + indices.describe());
  Value depth = c.tensor(*p[1], DType::Int32);
  if (c.ok && !(depth.shape.rankKnown && depth.shape.rank() == 0))
    return c.fail("'depth' must be a scalar, not " + depth.describe());
  const Value *on = given(p[2]) ? p[2] : nullptr, *off = given(p[3]) ? p[3] : nullptr;
  std::optional<DType> dtype;
  if (given(p[5]) && !(dtype = c.impl.dtypeArg(p[5], c.loc)))
    return c.fail("'dtype' must be a dtype");
  if (!dtype && on && on->isTensorLike())
    dtype = on->dtype;
  if (!dtype && off && off->isTensorLike())
    dtype = off->dtype;
  if (!dtype && on && on->kind != Value::Kind::Float && on->isPyScalar())
    dtype = on->kind == Value::Kind::Bool ? DType::Bool : DType::Int32;
  if (!dtype)
    dtype = DType::Float32;
  Value onV = c.tensor(on ? *on : Value::integer(1), *dtype);
  Value offV = c.tensor(off ? *off : Value::integer(0), *dtype);
  if (c.ok && (onV.dtype != *dtype || offV.dtype != *dtype))
    return c.fail("on_value, off_value and dtype must agree");
  int64_t rank = indices.shape.rank();
  std::optional<int64_t> axis = int64_t(-1);
  if (given(p[4]) && !(axis = pythonInt(c, p[4], "axis")))
    return {};
  if (*axis < -1 || *axis > rank)
    return c.fail("axis " + llvm::Twine(*axis) + " is out of range [-1, " + llvm::Twine(rank) +
                  "]");
  int64_t at = *axis == -1 ? rank : *axis;
  Value expanded = c.call("tf.expand_dims", {indices, Value::integer(at)});
  // range(depth) shaped [depth, 1, ..., 1] to line up with dimension `at`.
  Value range = c.call("tf.range", {c.call("tf.cast", {depth, Value::dtypeOf(indices.dtype)})});
  std::vector<Value> shape{Value::integer(-1)};
  for (int64_t d = at + 1; d <= rank; ++d)
    shape.push_back(Value::integer(1));
  Value positions = c.call("tf.reshape", {range, Value::list(shape)});
  Value hot = c.cmp(ast::CmpOp::Eq, expanded, positions);
  return c.where(hot, onV, offV);
}

/// A [rows, cols] bool mask of band part: (num_lower < 0 || i - j <= num_lower) and
/// (num_upper < 0 || j - i <= num_upper).
Value bandMask(Composer &c, const Value &rows, const Value &cols, const Value &lower,
               const Value &upper) {
  Value i = c.call("tf.reshape", {c.call("tf.range", {rows}), Value::list({Value::integer(-1), Value::integer(1)})});
  Value j = c.call("tf.reshape", {c.call("tf.range", {cols}), Value::list({Value::integer(1), Value::integer(-1)})});
  auto within = [&](const Value &bound, const Value &diff) {
    Value b = c.tensor(bound, DType::Int32);
    Value all = c.cmp(ast::CmpOp::Lt, b, c.tensor(Value::integer(0), DType::Int32));
    return c.call("tf.math.logical_or", {all, c.cmp(ast::CmpOp::LtE, diff, b)});
  };
  return c.call("tf.math.logical_and",
                {within(lower, c.sub(i, j)), within(upper, c.sub(j, i))});
}

/// `v` as a tensor of matrices (rank 2 or more), or a failure naming it `what`.
Value matrices(Composer &c, const Value &v, llvm::StringRef what) {
  Value x = ranked(c, c.tensor(v), what);
  if (c.ok && x.shape.rank() < 2)
    return c.fail("'" + what + "' must be at least 2-D, not " + x.describe());
  return x;
}

Value bandPart(Composer &c, const Params &p) {
  Value x = matrices(c, *p[0], "input");
  if (!c.ok)
    return {};
  int64_t r = x.shape.rank();
  Value mask = bandMask(c, dimOf(c, x, r - 2), dimOf(c, x, r - 1), *p[1], *p[2]);
  return c.where(mask, x, c.call("tf.zeros_like", {x}));
}

Value matrixDiag(Composer &c, const Params &p) {
  // The main diagonal only (k=0, square, padded with 0): d[..., i] at [..., i, i]. (p: diagonal,
  // name, k, num_rows, num_cols, padding_value, align; align does not matter for k=0.)
  auto is = [&](size_t k, int64_t v) {
    return !given(p[k]) || (p[k]->kind == Value::Kind::Int && p[k]->i == v);
  };
  if (!is(2, 0) || !is(3, -1) || !is(4, -1) || !is(5, 0))
    return c.fail("only the main diagonal (k=0) of a square matrix padded with 0 is supported "
                  "by agc");
  Value d = ranked(c, c.tensor(*p[0]), "diagonal");
  if (c.ok && d.shape.rank() < 1)
    return c.fail("'diagonal' must be at least 1-D, not " + d.describe());
  if (!c.ok)
    return {};
  Value n = dimOf(c, d, d.shape.rank() - 1);
  Value eye = c.call("tf.cast", {c.call("tf.eye", {n}), Value::dtypeOf(DType::Bool)});
  Value column = c.call("tf.expand_dims", {d, Value::integer(-1)});
  return c.where(eye, column, c.tensor(Value::integer(0), d.dtype));
}

Value diagPart(Composer &c, const Params &p) {
  // The main diagonal (k=0) of [..., M, N]: [..., min(M, N)], x[..., i, i] gathered from
  // each matrix flattened (exact for every dtype). (p: input, name, k, padding_value,
  // align; the last two do not matter for k=0.)
  if (given(p[2]) && !(p[2]->kind == Value::Kind::Int && p[2]->i == 0))
    return c.fail("only the main diagonal (k=0) is supported by agc");
  Value x = matrices(c, *p[0], "input");
  if (!c.ok)
    return {};
  int64_t r = x.shape.rank();
  Value rows = dimOf(c, x, r - 2), cols = dimOf(c, x, r - 1);
  Value n = c.call("tf.math.minimum", {rows, cols});
  Value batch = c.slice(c.call("tf.shape", {x}), 0, Value::integer(0), Value::integer(r - 2));
  Value area = c.call("tf.reshape", {c.mul(rows, cols), Value::list({Value::integer(1)})});
  Value flat = c.call("tf.reshape", {x, c.call("tf.concat", {Value::list({batch, area}), Value::integer(0)})});
  Value at = c.mul(c.call("tf.range", {n}), c.add(cols, c.tensor(Value::integer(1), DType::Int32)));
  return c.call("tf.gather", {flat, at}, {{"axis", Value::integer(r - 2)}});
}

Value trace(Composer &c, const Params &p) {
  // As TensorFlow: the sum of the main diagonal of each matrix.
  Value diagonal = c.call("tf.linalg.diag_part", {c.tensor(*p[0])});
  return c.call("tf.math.reduce_sum", {diagonal}, {{"axis", Value::integer(-1)}});
}

Value matvec(Composer &c, const Params &p) {
  Value a = c.tensor(*p[0]);
  Value b = c.tensor(*p[1]);
  bool transpose = (p[2] && p[2]->kind == Value::Kind::Bool && p[2]->i) ||
                   (p[3] && p[3]->kind == Value::Kind::Bool && p[3]->i);
  Value column = c.call("tf.expand_dims", {b, Value::integer(-1)});
  Value product = c.call("tf.linalg.matmul", {a, column}, {{"transpose_a", Value::boolean(transpose)}});
  return c.call("tf.squeeze", {product, Value::integer(-1)});
}

// --- Splitting -----------------------------------------------------------------------------

/// The axis (argument `axis`, 0 by default) of `x`, which tf.unstack and tf.split divide:
/// non-negative, of a tensor of rank 1 or more; nothing after failing.
std::optional<int64_t> splitAxis(Composer &c, const Value &x, const Value *axis) {
  std::optional<int64_t> a = int64_t(0);
  if (given(axis) && !(a = pythonInt(c, axis, "axis")))
    return std::nullopt;
  if (c.ok && x.shape.rank() == 0) {
    c.fail("'value' must be at least 1-D, not a scalar");
    return std::nullopt;
  }
  return c.ok ? normalAxis(c, *a, x.shape.rank()) : std::nullopt;
}

Value unstack(Composer &c, const Params &p) {
  Value x = ranked(c, c.tensor(*p[0]), "value");
  std::optional<int64_t> at = splitAxis(c, x, p[2]);
  if (!at)
    return {};
  int64_t n = x.shape.dims[*at];
  if (given(p[1])) {
    std::optional<int64_t> num = pythonInt(c, p[1], "num");
    if (!num)
      return {};
    if (n >= 0 && *num != n)
      return c.fail("num " + llvm::Twine(*num) + " does not match the dimension " +
                    llvm::Twine(n) + " of 'value'");
    if (n < 0) {
      // Checked where it runs.
      Value size = dimOf(c, x, *at);
      c.call("tf.debugging.assert_equal", {size, c.tensor(Value::integer(*num), DType::Int32)},
             {{"message", Value::str("tf.unstack: num does not match the dimension")}});
      n = *num;
    }
  }
  if (n < 0)
    return c.fail("cannot infer num from shape " + x.shape.str() +
                  " (the dimension is known only at run time; pass num=)");
  std::vector<Value> rows;
  for (int64_t k = 0; k < n && c.ok; ++k)
    rows.push_back(c.row(x, *at, k));
  if (!c.ok)
    return {};
  return Value::list(std::move(rows));
}

Value split(Composer &c, const Params &p) {
  Value x = ranked(c, c.tensor(*p[0]), "value");
  std::optional<int64_t> at = splitAxis(c, x, p[2]);
  if (!at)
    return {};
  int64_t n = x.shape.dims[*at];
  std::vector<int64_t> sizes;
  const Value &how = *p[1];
  if (how.kind == Value::Kind::Int) {
    if (how.i <= 0)
      return c.fail("num_or_size_splits must be positive, not " + llvm::Twine(how.i));
    if (n < 0)
      return c.fail("splitting a dimension known only at run time into " +
                    llvm::Twine(how.i) + " parts is not supported by agc; give the sizes");
    if (n % how.i != 0)
      return c.fail("Number of ways to split should evenly divide the split dimension, but "
                    "got split_dim " + llvm::Twine(*at) + " (size = " + llvm::Twine(n) +
                    ") and num_split " + llvm::Twine(how.i));
    sizes.assign(how.i, n / how.i);
  } else if (how.isPySequence()) {
    int64_t unknown = -1, total = 0;
    for (const Value &s : how.items()) {
      if (s.kind != Value::Kind::Int || s.i < -1)
        return c.fail("the sizes must be Python ints (one may be -1), not " + s.describe());
      if (s.i == -1) {
        if (unknown >= 0)
          return c.fail("only one size may be -1");
        unknown = sizes.size();
      } else {
        total += s.i;
      }
      sizes.push_back(s.i);
    }
    if (unknown >= 0 && n < 0) {
      // The part of size -1 takes what the others leave of a dimension known only at run
      // time: the parts after it are placed from the end.
      Value dim = dimOf(c, x, *at);
      c.call("tf.debugging.Assert",
             {c.cmp(ast::CmpOp::GtE, dim, c.tensor(Value::integer(total), DType::Int32)),
              Value::list({})},
             {{"message", Value::str("tf.split: the sizes given exceed the dimension")}});
      std::vector<Value> parts;
      int64_t lo = 0, after = total;
      for (size_t k = 0; k < sizes.size(); ++k) {
        if (int64_t(k) < unknown) {
          parts.push_back(c.slice(x, *at, Value::integer(lo), Value::integer(lo + sizes[k])));
          lo += sizes[k];
          after -= sizes[k];
          continue;
        }
        Value from = int64_t(k) == unknown
                         ? c.tensor(Value::integer(lo), DType::Int32)
                         : c.sub(dim, c.tensor(Value::integer(after), DType::Int32));
        if (int64_t(k) > unknown)
          after -= sizes[k];
        Value to = c.sub(dim, c.tensor(Value::integer(after), DType::Int32));
        parts.push_back(c.slice(x, *at, from, to));
      }
      if (!c.ok)
        return {};
      return Value::list(std::move(parts));
    }
    if (unknown >= 0) {
      sizes[unknown] = n - total;
      total = n;
    }
    if (n >= 0 && total != n)
      return c.fail("Determined shape must either match input shape along split_dim exactly "
                    "if fully specified, or be less than the size of the input along split_dim "
                    "if not fully specified: the sizes sum to " + llvm::Twine(total) +
                    ", the dimension is " + llvm::Twine(n));
    if (n < 0)
      c.call("tf.debugging.assert_equal",
             {dimOf(c, x, *at), c.tensor(Value::integer(total), DType::Int32)},
             {{"message", Value::str("tf.split: the sizes do not sum to the dimension")}});
  } else {
    return c.fail("num_or_size_splits must be a Python int or a list of ints, not " +
                  how.describe());
  }
  std::vector<Value> parts;
  int64_t lo = 0;
  for (int64_t s : sizes) {
    parts.push_back(c.slice(x, *at, Value::integer(lo), Value::integer(lo + s)));
    lo += s;
  }
  if (!c.ok)
    return {};
  return Value::list(std::move(parts));
}

// --- Sorting and masking -------------------------------------------------------------------

/// A namedtuple class of TensorFlow's (TopKV2), made once.
Value namedTupleClass(const char *name, std::vector<std::string> fields) {
  auto cls = std::make_shared<Object>();
  cls->name = name;
  cls->namedtuple = true;
  cls->mro = {cls};
  cls->fields = std::move(fields);
  Value v;
  v.kind = Value::Kind::Class;
  v.object = cls;
  return v;
}

Value topK(Composer &c, const Params &p) {
  // The k largest along the last axis, largest first; ties in index order.
  Value x = ranked(c, c.tensor(*p[0]), "input");
  if (c.ok && x.shape.rank() == 0)
    return c.fail("input must be at least 1-D, not a scalar");
  if (given(p[2]) && !(p[2]->kind == Value::Kind::Bool && p[2]->i))
    return c.fail("sorted=False is not supported by agc (its order is unspecified); the "
                  "results come sorted");
  if (given(p[3]) && !(p[3]->kind == Value::Kind::DTypeRef && p[3]->dtype == DType::Int32))
    return c.fail("index_type other than tf.int32 is not supported by agc");
  if (!c.ok)
    return {};
  Value k = given(p[1]) ? *p[1] : Value::integer(1);
  int64_t last = x.shape.rank() - 1, n = x.shape.dims[last];
  if (k.kind == Value::Kind::Int) {
    if (k.i < 0)
      return c.fail("Need k >= 0, got " + llvm::Twine(k.i));
    if (n >= 0 && k.i > n)
      return c.fail("input must have at least k columns. Had " + llvm::Twine(n) + ", needs " +
                    llvm::Twine(k.i));
  }
  if (k.kind != Value::Kind::Int || n < 0) {
    Value kt = c.tensor(k, DType::Int32);
    if (c.ok && !(kt.shape.rankKnown && kt.shape.rank() == 0))
      return c.fail("k must be a scalar, not " + kt.describe());
    Value zero = c.tensor(Value::integer(0), DType::Int32);
    c.call("tf.debugging.Assert",
           {c.call("tf.math.logical_and", {c.cmp(ast::CmpOp::GtE, kt, zero),
                                           c.cmp(ast::CmpOp::LtE, kt, dimOf(c, x, last))}),
            Value::list({})},
           {{"message", Value::str("tf.math.top_k: k must be in [0, the size of the last "
                                   "dimension]")}});
    k = kt;
  }
  Value values = c.call("tf.sort", {x}, {{"direction", Value::str("DESCENDING")}});
  Value indices = c.call("tf.argsort", {x}, {{"direction", Value::str("DESCENDING")}});
  values = c.slice(values, last, Value::integer(0), k);
  indices = c.slice(indices, last, Value::integer(0), k);
  if (!c.ok)
    return {};
  static const Value kTopK = namedTupleClass("TopKV2", {"values", "indices"});
  Value t = Value::sequence(Value::Kind::Tuple, {values, indices});
  t.object = kTopK.object;
  return t;
}

/// An index dtype argument (`what`: out_idx, out_type): tf.int32 where not given, or
/// tf.int64; else a failure.
std::optional<DType> indexDTypeArg(Composer &c, const Value *v, llvm::StringRef what) {
  if (!given(v))
    return DType::Int32;
  std::optional<DType> d = c.impl.dtypeArg(v, c.loc);
  if (d && isIndexInteger(*d))
    return d;
  c.fail(what + " must be tf.int32 or tf.int64");
  return std::nullopt;
}

/// tf.unique and tf.unique_with_counts: the distinct values of a vector in the order of
/// their first occurrence (TensorFlow's hash map: a NaN equals nothing, -0.0 equals 0.0
/// and the first kept), each element's index among them, and each value's count. Sorted
/// with tf.argsort (stable: a merge sort, n log n comparisons): the groups of equal neighbours,
/// each group's smallest original index (a segment min), the groups ordered by it.
Value uniqueOf(Composer &c, const Params &p, bool withCounts) {
  // (p: x, out_idx, name.)
  Value x = ranked(c, c.tensor(*p[0]), "x");
  if (!c.ok)
    return {};
  if (x.shape.rank() != 1)
    return c.fail("unique expects a 1D vector, not " + x.describe());
  if (!isFloat(x.dtype) && !isInteger(x.dtype) && x.dtype != DType::Bool)
    return c.fail("of " + x.describe() + " is not supported by agc (numbers and bools are)");
  std::optional<DType> outIdxArg = indexDTypeArg(c, p[1], "out_idx");
  if (!outIdxArg)
    return {};
  DType outIdx = *outIdxArg;
  Value keys = x.dtype == DType::Bool ? c.call("tf.cast", {x, Value::dtypeOf(DType::Int32)}) : x;
  Value order, nan;
  if (isFloat(x.dtype)) {
    // A NaN sorts as +inf, then all NaNs go last (agc's argsort is stable, and refuses
    // NaNs): each is a group of its own, after the infinities.
    nan = c.call("tf.math.is_nan", {x});
    keys = c.where(nan, c.call("tf.fill", {c.call("tf.shape", {x}), c.constant(INFINITY, x)}), x);
    Value byValue = c.call("tf.argsort", {keys});
    Value nanLast = c.call("tf.argsort", {c.call("tf.cast", {c.call("tf.gather", {nan, byValue}),
                                                             Value::dtypeOf(DType::Int32)})});
    order = c.call("tf.gather", {byValue, nanLast});
  } else {
    order = c.call("tf.argsort", {keys});
  }
  Value sorted = c.call("tf.gather", {keys, order});
  Value n = c.call("tf.size", {x});
  Value one = c.tensor(Value::integer(1), DType::Int32);
  Value differs = c.cmp(ast::CmpOp::NotEq, c.slice(sorted, 0, Value::integer(1), n),
                        c.slice(sorted, 0, Value::integer(0), c.sub(n, one)));
  if (isFloat(x.dtype))
    differs = c.call("tf.math.logical_or",
                     {differs, c.slice(c.call("tf.gather", {nan, order}), 0, Value::integer(1), n)});
  // A group starts at 0 and wherever a value differs from the one before it; cut to n
  // elements (none for an empty x).
  Value starts = c.slice(c.call("tf.concat", {Value::list({c.tensor(Value::list({Value::boolean(true)}), DType::Bool), differs}),
                                              Value::integer(0)}),
                         0, Value::integer(0), n);
  Value startInts = c.call("tf.cast", {starts, Value::dtypeOf(DType::Int32)});
  Value group = c.sub(c.call("tf.math.cumsum", {startInts}), one);
  Value groups = c.call("tf.math.reduce_sum", {startInts});
  Value first = c.call("tf.math.unsorted_segment_min", {order, group, groups});
  Value byFirst = c.call("tf.argsort", {first});
  Value y = c.call("tf.gather", {x, c.call("tf.gather", {first, byFirst})});
  // An element's group, in the order of first occurrences: through the inverses of the
  // two permutations.
  Value groupOf = c.call("tf.gather", {group, c.call("tf.argsort", {order})});
  Value idx = c.call("tf.gather", {c.call("tf.argsort", {byFirst}), groupOf});
  if (outIdx != DType::Int32)
    idx = c.call("tf.cast", {idx, Value::dtypeOf(outIdx)});
  if (!c.ok)
    return {};
  if (!withCounts) {
    static const Value kUnique = namedTupleClass("UniqueOutput", {"y", "idx"});
    Value t = Value::sequence(Value::Kind::Tuple, {y, idx});
    t.object = kUnique.object;
    return t;
  }
  Value count = c.call("tf.math.unsorted_segment_sum", {c.call("tf.ones_like", {idx}), idx, groups});
  if (!c.ok)
    return {};
  static const Value kUniqueCounts = namedTupleClass("UniqueWithCounts", {"y", "idx", "count"});
  Value t = Value::sequence(Value::Kind::Tuple, {y, idx, count});
  t.object = kUniqueCounts.object;
  return t;
}

Value unique(Composer &c, const Params &p) { return uniqueOf(c, p, false); }
Value uniqueWithCounts(Composer &c, const Params &p) { return uniqueOf(c, p, true); }

Value booleanMask(Composer &c, const Params &p) {
  // The rows of `tensor` (over the mask's dimensions from `axis`) where `mask` is true:
  // both flattened over those dimensions, then gathered at tf.where(mask).
  Value x = ranked(c, c.tensor(*p[0]), "tensor");
  Value mask = ranked(c, c.tensor(*p[1]), "mask");
  if (c.ok && mask.dtype != DType::Bool)
    return c.fail("mask must be a bool tensor, not " + mask.describe());
  std::optional<int64_t> axis = int64_t(0);
  if (given(p[2]) && !(axis = pythonInt(c, p[2], "axis")))
    return {};
  if (!c.ok)
    return {};
  int64_t m = mask.shape.rank(), r = x.shape.rank();
  if (*axis < 0)
    *axis += r;
  if (m == 0)
    return c.fail("mask cannot be scalar.");
  if (*axis < 0 || *axis + m > r)
    return c.fail("the mask's dimensions from axis " + llvm::Twine(*axis) +
                  " do not fit the tensor: " + x.describe() + ", mask " + mask.describe());
  for (int64_t d = 0; d < m; ++d) {
    int64_t a = x.shape.dims[*axis + d], b = mask.shape.dims[d];
    if (a >= 0 && b >= 0 && a != b)
      return c.fail("Shapes " + x.shape.str() + " and " + mask.shape.str() +
                    " are incompatible");
  }
  // The tensor's shape with the masked dimensions as one: [outer..., -1, inner...], a
  // Python list where the other dimensions are known (the result keeps them static).
  std::vector<Value> known;
  bool allKnown = true;
  for (int64_t d = 0; d < r; ++d) {
    if (d == *axis)
      known.push_back(Value::integer(-1));
    if (d >= *axis && d < *axis + m)
      continue;
    allKnown = allKnown && x.shape.dims[d] >= 0;
    known.push_back(Value::integer(x.shape.dims[d]));
  }
  Value shape = c.call("tf.shape", {x});
  Value flatShape = Value::list(known);
  if (!allKnown) {
    std::vector<Value> parts;
    if (*axis > 0)
      parts.push_back(c.slice(shape, 0, Value::integer(0), Value::integer(*axis)));
    Value masked = c.slice(shape, 0, Value::integer(*axis), Value::integer(*axis + m));
    parts.push_back(c.call("tf.reshape", {c.call("tf.math.reduce_prod", {masked}),
                                          Value::list({Value::integer(1)})}));
    if (*axis + m < r)
      parts.push_back(c.slice(shape, 0, Value::integer(*axis + m), Value::integer(r)));
    flatShape = c.call("tf.concat", {Value::list(parts), Value::integer(0)});
  }
  Value flat = c.call("tf.reshape", {x, flatShape});
  if (m > 1 || mask.shape.dims[0] < 0 || x.shape.dims[*axis] < 0)
    c.call("tf.debugging.assert_equal",
           {c.slice(shape, 0, Value::integer(*axis), Value::integer(*axis + m)), c.call("tf.shape", {mask})},
           {{"message", Value::str("tf.boolean_mask: the mask's shape must match the tensor's "
                                   "dimensions it masks")}});
  Value flatMask = c.call("tf.reshape", {mask, Value::list({Value::integer(-1)})});
  Value where = c.call("tf.where", {flatMask});
  Value rows = c.call("tf.reshape", {where, Value::list({Value::integer(-1)})});
  return c.call("tf.gather", {flat, rows}, {{"axis", Value::integer(*axis)}});
}

// --- Stateless random numbers: TensorFlow's Philox-4x32-10, as its CPU kernels use it ----

/// A uint32 or uint64 scalar constant.
Value unsignedConstant(Composer &c, uint64_t v, DType dtype) {
  // Through int64 (the bits), then reinterpreted: a Python int above int64 does not fit.
  return c.call("tf.cast", {c.tensor(Value::integer(int64_t(v)), DType::Int64),
                            Value::dtypeOf(dtype)});
}

/// The four 32-bit words of a Philox-4x32 block, as uint32 tensors of one shape.
struct PhiloxBlock {
  Value w[4];
};

/// Ten rounds of Philox-4x32 on `counter` under key (`k0`, `k1`) (uint32 scalars), as
/// tensorflow/core/lib/random/philox_random.h computes them.
PhiloxBlock philox(Composer &c, PhiloxBlock x, Value k0, Value k1) {
  const uint64_t kMulA = 0xD2511F53, kMulB = 0xCD9E8D57;
  const uint64_t kRaiseA = 0x9E3779B9, kRaiseB = 0xBB67AE85;
  Value mulA = unsignedConstant(c, kMulA, DType::UInt64);
  Value mulB = unsignedConstant(c, kMulB, DType::UInt64);
  Value raiseA = unsignedConstant(c, kRaiseA, DType::UInt32);
  Value raiseB = unsignedConstant(c, kRaiseB, DType::UInt32);
  Value shift = unsignedConstant(c, 32, DType::UInt64);
  auto wide = [&](const Value &v) { return c.call("tf.cast", {v, Value::dtypeOf(DType::UInt64)}); };
  auto low = [&](const Value &v) { return c.call("tf.cast", {v, Value::dtypeOf(DType::UInt32)}); };
  auto high = [&](const Value &v) {
    return low(c.call("tf.bitwise.right_shift", {v, shift}));
  };
  for (int round = 0; round < 10 && c.ok; ++round) {
    Value p0 = c.mul(mulA, wide(x.w[0])), p1 = c.mul(mulB, wide(x.w[2]));
    PhiloxBlock next;
    next.w[0] = c.call("tf.bitwise.bitwise_xor",
                       {c.call("tf.bitwise.bitwise_xor", {high(p1), x.w[1]}), k0});
    next.w[1] = low(p1);
    next.w[2] = c.call("tf.bitwise.bitwise_xor",
                       {c.call("tf.bitwise.bitwise_xor", {high(p0), x.w[3]}), k1});
    next.w[3] = low(p0);
    x = next;
    if (round < 9) {
      k0 = c.add(k0, raiseA);
      k1 = c.add(k1, raiseB);
    }
  }
  return x;
}

/// `shape` and `seed` of a stateless op: the element count, and the Philox words of each
/// group of samples (one block per group, counters 0, 1, ... after TensorFlow's
/// StatelessRandomGetKeyCounter scrambles the seed).
struct RandomGroups {
  Value count;   ///< int32 scalar: the number of samples
  PhiloxBlock out; ///< one element per group
};

std::optional<RandomGroups> randomGroups(Composer &c, const Value &shape, const Value &seed,
                                         int64_t perGroup) {
  Value seedT = c.tensor(seed);
  if (c.ok && !(isIndexInteger(seedT.dtype) && seedT.shape.rankKnown &&
                seedT.shape.rank() == 1 && seedT.shape.dims[0] == 2)) {
    c.fail("seed must be a shape [2] int32 or int64 tensor, not " + seedT.describe());
    return std::nullopt;
  }
  Value shapeT = c.tensor(shape, DType::Int32);
  if (c.ok && !(isIndexInteger(shapeT.dtype) && shapeT.shape.rankKnown && shapeT.shape.rank() == 1)) {
    c.fail("shape must be a 1-D integer tensor or a list of ints, not " + shapeT.describe());
    return std::nullopt;
  }
  if (!c.ok)
    return std::nullopt;
  // The seeds as uint64 (an int32 seed is sign-extended, as C++ converts it).
  Value seeds = c.call("tf.cast", {c.call("tf.cast", {seedT, Value::dtypeOf(DType::Int64)}),
                                   Value::dtypeOf(DType::UInt64)});
  Value shift = unsignedConstant(c, 32, DType::UInt64);
  auto low = [&](const Value &v) { return c.call("tf.cast", {v, Value::dtypeOf(DType::UInt32)}); };
  Value s0 = c.row(seeds, 0, 0), s1 = c.row(seeds, 0, 1);
  PhiloxBlock scrambled{{low(s0), low(c.call("tf.bitwise.right_shift", {s0, shift})), low(s1),
                         low(c.call("tf.bitwise.right_shift", {s1, shift}))}};
  PhiloxBlock mix = philox(c, scrambled, unsignedConstant(c, 0x3ec8f720, DType::UInt32),
                           unsignedConstant(c, 0x02461e29, DType::UInt32));
  // Groups 0..G-1: counter (g, 0, mix[2], mix[3]) under key (mix[0], mix[1]).
  Value count = c.call("tf.math.reduce_prod", {c.call("tf.cast", {shapeT, Value::dtypeOf(DType::Int32)})});
  Value per = c.tensor(Value::integer(perGroup), DType::Int32);
  Value groups = c.call("tf.math.floordiv", {c.add(count, c.tensor(Value::integer(perGroup - 1), DType::Int32)), per});
  Value g = c.call("tf.cast", {c.call("tf.range", {groups}), Value::dtypeOf(DType::UInt32)});
  Value zeros = c.call("tf.zeros_like", {g});
  PhiloxBlock counters{{g, zeros, c.add(zeros, mix.w[2]), c.add(zeros, mix.w[3])}};
  PhiloxBlock out = philox(c, counters, mix.w[0], mix.w[1]);
  if (!c.ok)
    return std::nullopt;
  return RandomGroups{count, out};
}

/// The samples of the groups, in order (group by group, lane by lane), cut to `count` and
/// shaped as `shape`.
Value laidOut(Composer &c, llvm::ArrayRef<Value> lanes, const Value &count, const Value &shape) {
  Value stacked = c.call("tf.stack", {Value::list(lanes)}, {{"axis", Value::integer(1)}});
  Value flat = c.call("tf.reshape", {stacked, Value::list({Value::integer(-1)})});
  return c.call("tf.reshape", {c.slice(flat, 0, Value::integer(0), count), shape});
}

/// float32 samples in [0, 1): the word's 23 low bits as a mantissa (Uint32ToFloat).
Value unitFloat(Composer &c, const Value &word) {
  Value bits = c.call("tf.bitwise.bitwise_and", {word, unsignedConstant(c, 0x7FFFFF, DType::UInt32)});
  return c.mul(c.call("tf.cast", {bits, Value::dtypeOf(DType::Float32)}),
               c.tensor(Value::floating(1.0 / 8388608.0), DType::Float32));
}

/// float64 samples in [0, 1): 20 mantissa bits from `high`'s low bits and 32 from `low`
/// (Uint64ToDouble).
Value unitDouble(Composer &c, const Value &high, const Value &low) {
  auto as = [&](const Value &v, DType d) { return c.call("tf.cast", {v, Value::dtypeOf(d)}); };
  Value hi = c.call("tf.bitwise.bitwise_and", {high, unsignedConstant(c, 0xFFFFF, DType::UInt32)});
  Value man = c.call("tf.bitwise.bitwise_or",
                     {c.call("tf.bitwise.left_shift", {as(hi, DType::UInt64), unsignedConstant(c, 32, DType::UInt64)}),
                      as(low, DType::UInt64)});
  return c.mul(as(man, DType::Float64), c.tensor(Value::floating(std::ldexp(1.0, -52)), DType::Float64));
}

std::optional<DType> randomDType(Composer &c, const Value *given, bool normal) {
  std::optional<DType> dtype = DType::Float32;
  if (given && given->kind != Value::Kind::None && !(dtype = c.impl.dtypeArg(given, c.loc)))
    return std::nullopt;
  bool integer = *dtype == DType::Int32 || *dtype == DType::Int64 ||
                 *dtype == DType::UInt32 || *dtype == DType::UInt64;
  if (*dtype != DType::Float32 && *dtype != DType::Float64 && (normal || !integer)) {
    c.fail("dtype " + dtypeName(*dtype) + " is not supported by agc (" +
           (normal ? "float32 and float64" : "float32, float64, int32, int64, uint32 and uint64") + " are)");
    return std::nullopt;
  }
  return dtype;
}

/// tf.random.stateless_uniform of an integer dtype: TensorFlow's
/// UniformDistribution<PhiloxRandom, int32/int64> (lo + bits % (hi - lo), 32 bits of a word
/// per int32, two words per int64), or every bit (UniformFullIntDistribution) where
/// minval and maxval are both None.
Value statelessUniformInt(Composer &c, const Params &p, DType dtype) {
  bool wide = bitWidth(dtype) == 64;
  const Value *minval = p[2], *maxval = p[3];
  // minval defaults to 0 (not None), so a missing maxval is TensorFlow's ValueError.
  bool minNone = minval && minval->kind == Value::Kind::None;
  bool maxNone = !given(maxval);
  if (minNone != maxNone)
    return c.fail("ValueError: for integer dtype " + dtypeName(dtype) +
                  ", minval and maxval must be both None or both not None");
  if (!minNone && isUnsigned(dtype))
    return c.fail("ValueError: dtype " + dtypeName(dtype) + " is not supported by "
                  "tf.random.stateless_uniform when minval and maxval are not None");
  std::optional<RandomGroups> r = randomGroups(c, *p[0], *p[1], wide ? 2 : 4);
  if (!r)
    return {};
  DType bitsType = wide ? DType::UInt64 : DType::UInt32;
  auto as = [&](const Value &v, DType d) { return c.call("tf.cast", {v, Value::dtypeOf(d)}); };
  // The samples' bits: a word each, or two words (low, high) each.
  std::vector<Value> bits;
  for (int k = 0; k < (wide ? 2 : 4) && c.ok; ++k) {
    if (!wide) {
      bits.push_back(r->out.w[k]);
      continue;
    }
    Value high = c.call("tf.bitwise.left_shift", {as(r->out.w[2 * k + 1], DType::UInt64),
                                                  unsignedConstant(c, 32, DType::UInt64)});
    bits.push_back(c.call("tf.bitwise.bitwise_or", {as(r->out.w[2 * k], DType::UInt64), high}));
  }
  Value sampled = laidOut(c, bits, r->count, *p[0]);
  if (minNone)
    return as(sampled, dtype); // the bits as they are
  Value lo = c.tensor(minval ? *minval : Value::integer(0), dtype);
  Value hi = c.tensor(*maxval, dtype);
  for (const Value *v : {&lo, &hi})
    if (c.ok && !(v->shape.rankKnown && v->shape.rank() == 0))
      return c.fail("minval and maxval must be scalars here (TensorFlow's kernel takes 0-D "
                    "bounds), not " + v->describe());
  c.call("tf.debugging.Assert", {c.cmp(ast::CmpOp::Lt, lo, hi), Value::list({lo, hi})},
         {{"message", Value::str("Need minval < maxval")}});
  // In the unsigned bits, wrapping as C++ does: range = hi - lo; lo + bits % range.
  Value loBits = as(lo, bitsType), range = c.sub(as(hi, bitsType), loBits);
  Value offset = c.call("tf.math.floormod", {sampled, range});
  return as(c.add(loBits, offset), dtype);
}

Value statelessUniform(Composer &c, const Params &p) {
  std::optional<DType> dtype = randomDType(c, p[4], false);
  if (!dtype)
    return {};
  if (given(p[6]) && !(p[6]->kind == Value::Kind::Str && (p[6]->text == "auto_select" || p[6]->text == "philox")))
    return c.fail("alg other than 'auto_select' or 'philox' is not supported by agc");
  if (isInteger(*dtype))
    return statelessUniformInt(c, p, *dtype);
  bool f64 = *dtype == DType::Float64;
  std::optional<RandomGroups> r = randomGroups(c, *p[0], *p[1], f64 ? 2 : 4);
  if (!r)
    return {};
  std::vector<Value> lanes;
  if (!f64) {
    for (const Value &w : r->out.w)
      lanes.push_back(unitFloat(c, w));
  } else {
    // Two words per double.
    for (int k = 0; k < 2; ++k)
      lanes.push_back(unitDouble(c, r->out.w[2 * k], r->out.w[2 * k + 1]));
  }
  Value rnd = laidOut(c, lanes, r->count, *p[0]);
  // rnd * (maxval - minval) + minval, as stateless_random_ops.py computes it.
  Value lo = c.tensor(given(p[2]) ? *p[2] : Value::integer(0), *dtype);
  Value hi = c.tensor(given(p[3]) ? *p[3] : Value::integer(1), *dtype);
  return c.add(c.mul(rnd, c.sub(hi, lo)), lo);
}

Value statelessNormal(Composer &c, const Params &p) {
  std::optional<DType> dtype = randomDType(c, p[4], true);
  if (!dtype)
    return {};
  if (given(p[6]) && !(p[6]->kind == Value::Kind::Str && (p[6]->text == "auto_select" || p[6]->text == "philox")))
    return c.fail("alg other than 'auto_select' or 'philox' is not supported by agc");
  bool f64 = *dtype == DType::Float64;
  std::optional<RandomGroups> r = randomGroups(c, *p[0], *p[1], f64 ? 2 : 4);
  if (!r)
    return {};
  std::vector<Value> lanes;
  if (f64) {
    // BoxMullerDouble: one pair of doubles from the four words; u1 at least 1e-7.
    Value u1 = c.call("tf.math.maximum", {unitDouble(c, r->out.w[0], r->out.w[1]),
                                          c.tensor(Value::floating(1.0e-7), DType::Float64)});
    Value v1 = c.mul(c.tensor(Value::floating(2.0 * 3.14159265358979323846), DType::Float64),
                     unitDouble(c, r->out.w[2], r->out.w[3]));
    Value u2 = c.call("tf.math.sqrt", {c.mul(c.tensor(Value::floating(-2.0), DType::Float64),
                                             c.call("tf.math.log", {u1}))});
    lanes = {c.mul(c.call("tf.math.sin", {v1}), u2), c.mul(c.call("tf.math.cos", {v1}), u2)};
  }
  // Box-Muller on each pair of words (BoxMullerFloat): u1 at least 1e-7; the angle
  // 2*pi*u computed in double and rounded to float, as the C++ expression is.
  for (int k = 0; k < 2 && c.ok && !f64; ++k) {
    Value u1 = c.call("tf.math.maximum", {unitFloat(c, r->out.w[2 * k]),
                                          c.tensor(Value::floating(1.0e-7), DType::Float32)});
    Value u = c.call("tf.cast", {unitFloat(c, r->out.w[2 * k + 1]), Value::dtypeOf(DType::Float64)});
    Value v1 = c.call("tf.cast", {c.mul(c.tensor(Value::floating(2.0 * 3.14159265358979323846), DType::Float64), u),
                                  Value::dtypeOf(DType::Float32)});
    Value u2 = c.call("tf.math.sqrt", {c.mul(c.tensor(Value::floating(-2.0), DType::Float32),
                                             c.call("tf.math.log", {u1}))});
    lanes.push_back(c.mul(c.call("tf.math.sin", {v1}), u2));
    lanes.push_back(c.mul(c.call("tf.math.cos", {v1}), u2));
  }
  Value rnd = laidOut(c, lanes, r->count, *p[0]);
  Value mean = c.tensor(given(p[2]) ? *p[2] : Value::integer(0), *dtype);
  Value stddev = c.tensor(given(p[3]) ? *p[3] : Value::integer(1), *dtype);
  return c.add(c.mul(rnd, stddev), mean);
}

// --- Segments (each row combined into its segment's, in order) ---------------------------

/// How a segment reduction combines: TensorFlow's reduction, and what fills a segment no
/// id names (0, 1, or the lowest / highest value of the dtype, as TensorFlow's kernels).
enum class Combine { Sum, Prod, Max, Min };

/// A tensor of `shape` (an int32 vector) and `like`'s dtype filled with what a segment no
/// id names holds.
Value segmentFill(Composer &c, Combine how, const Value &like, const Value &shape) {
  DType d = like.dtype;
  auto limit = [&](bool lowest) -> Value {
    switch (d) {
    case DType::Float32: return Value::floating(lowest ? -3.4028234663852886e38 : 3.4028234663852886e38);
    case DType::Float64: return Value::floating(lowest ? -1.7976931348623157e308 : 1.7976931348623157e308);
    case DType::Int32: return Value::integer(lowest ? INT32_MIN : INT32_MAX);
    case DType::Int64: return Value::integer(lowest ? INT64_MIN : INT64_MAX);
    default: return {};
    }
  };
  Value v = how == Combine::Sum ? Value::integer(0)
            : how == Combine::Prod ? Value::integer(1)
                                   : limit(how == Combine::Max);
  if (v.kind == Value::Kind::Undefined)
    return c.fail("segment maxima and minima take float32, float64, int32 or int64 data, not " +
                  like.describe());
  return c.call("tf.fill", {shape, c.tensor(v, d)});
}

/// The name of `how` for the sequential scatter (MLIRGen::emitScatterRows).
Value scatterHow(Combine how) {
  static const char *const kHow[] = {"add", "multiply", "segment_max", "segment_min"};
  return Value::str(kHow[int(how)]);
}

/// The segment reduction of `data` by `ids` (data.shape starts with ids.shape; a
/// negative id names no segment) into `count` segments.
Value segmentReduce(Composer &c, Value data, Value ids, const Value &count,
                    Combine how = Combine::Sum) {
  if (c.ok && !isIndexInteger(ids.dtype))
    return c.fail("'segment_ids' must be int32 or int64, not " + ids.describe());
  if (c.ok && !(ids.shape.rankKnown && ids.shape.rank() >= 1))
    return c.fail("'segment_ids' must have a known rank of 1 or more here, not " + ids.describe());
  if (c.ok && !(data.shape.rankKnown && data.shape.rank() >= ids.shape.rank()))
    return c.fail("'data' must have at least the rank of 'segment_ids' (" +
                  llvm::Twine(ids.shape.rank()) + "), not " + data.describe());
  if (c.ok && !isFloat(data.dtype) && !isInteger(data.dtype) && !isComplex(data.dtype))
    return c.fail("'data' must be a number tensor, not " + data.describe());
  if (!c.ok)
    return {};
  Value countAs = c.tensor(count, ids.dtype);
  c.call("tf.debugging.Assert",
         {c.call("tf.math.reduce_all", {c.cmp(ast::CmpOp::Lt, ids, countAs)}), Value::list({})},
         {{"message", Value::str("segment_ids is out of range [0, num_segments)")}});
  size_t k = ids.shape.rank();
  for (size_t d = 0; d < k; ++d)
    if (data.shape.dims[d] >= 0 && ids.shape.dims[d] >= 0 && data.shape.dims[d] != ids.shape.dims[d])
      return c.fail("data.shape " + data.shape.str() + " must start with segment_ids.shape " +
                    ids.shape.str() + " (ValueError)");
  for (size_t d = 0; d < k && c.ok; ++d)
    c.call("tf.debugging.Assert",
           {c.cmp(ast::CmpOp::Eq, dimOf(c, data, int64_t(d)), dimOf(c, ids, int64_t(d))), Value::list({})},
           {{"message", Value::str("data.shape does not start with segment_ids.shape")}});
  // Ids of rank k: both flattened over their first k dimensions.
  Shape out = Shape::of({count.kind == Value::Kind::Int ? count.i : int64_t(-1)});
  std::vector<Value> inner; // data.shape[k:]
  for (size_t d = k; d < data.shape.rank(); ++d) {
    out.dims.push_back(data.shape.dims[d]);
    inner.push_back(dimOf(c, data, int64_t(d)));
  }
  auto stacked = [&](const Value &first) {
    std::vector<Value> shape{first};
    shape.insert(shape.end(), inner.begin(), inner.end());
    return c.call("tf.stack", {Value::list(shape)});
  };
  if (k > 1) {
    Value rows = dimOf(c, ids, 0);
    for (size_t d = 1; d < k; ++d)
      rows = c.mul(rows, dimOf(c, ids, int64_t(d)));
    ids = c.call("tf.reshape", {ids, Value::list({Value::integer(-1)})});
    data = c.call("tf.reshape", {data, stacked(rows)});
  }
  // Each row of data combined into its segment's, in order (TensorFlow's CPU kernels run
  // through the ids so: their floats round alike).
  Value init = segmentFill(c, how, data, stacked(c.tensor(count, DType::Int32)));
  if (!c.ok)
    return {};
  return c.emit(TFOp::ScatterRows, {init, ids, data, scatterHow(how)}, Value::tensor(data.dtype, out));
}

template <Combine how>
Value unsortedSegment(Composer &c, const Params &p) {
  Value data = c.tensor(*p[0]);
  Value ids = c.tensor(*p[1]);
  return segmentReduce(c, data, ids, *p[2], how);
}

/// tf.math.unsorted_segment_mean (`sqrtN` false) and unsorted_segment_sqrt_n, as
/// math_ops.py writes them: the segment sum over N (or its square root), N each segment's
/// count (a sum of ones of data's dtype, at least 1), broadcast over data's other axes.
template <bool sqrtN>
Value unsortedSegmentMean(Composer &c, const Params &p) {
  Value data = c.tensor(*p[0]);
  Value ids = c.tensor(*p[1]);
  if (!c.ok)
    return {};
  Value ones = c.call("tf.ones", {c.call("tf.shape", {ids})}, {{"dtype", Value::dtypeOf(data.dtype)}});
  Value n = segmentReduce(c, ones, ids, *p[2]);
  if (!c.ok)
    return {};
  std::vector<Value> shape{Value::integer(-1)};
  for (size_t d = ids.shape.rank(); d < data.shape.rank(); ++d)
    shape.push_back(Value::integer(1));
  n = c.call("tf.math.maximum", {c.call("tf.reshape", {n, Value::list(shape)}), c.tensor(Value::integer(1), data.dtype)});
  Value summed = segmentReduce(c, data, ids, *p[2]);
  return c.div(summed, sqrtN ? c.call("tf.math.sqrt", {n}) : n);
}

/// The number of segments of sorted ids (the last plus one), the ids checked sorted and
/// non-negative; nothing after failing.
Value sortedSegmentCount(Composer &c, const Value &ids);

template <Combine how>
Value sortedSegment(Composer &c, const Params &p) {
  // As the unsorted ones, but a segment no id names is 0 for a maximum or a minimum (the
  // sorted kernels' rule), not the dtype's lowest or highest.
  Value data = c.tensor(*p[0]);
  Value ids = c.tensor(*p[1]);
  Value count = sortedSegmentCount(c, ids);
  Value r = segmentReduce(c, data, ids, count, how);
  if (how != Combine::Max && how != Combine::Min)
    return r;
  Value members = segmentReduce(c, c.call("tf.ones_like", {data}), ids, count);
  Value zero = c.call("tf.zeros_like", {r});
  return c.where(c.cmp(ast::CmpOp::Eq, members, zero), zero, r);
}

Value segmentMean(Composer &c, const Params &p) {
  // The sum over the count of each segment; 0 for a segment no id names.
  Value data = c.tensor(*p[0]);
  Value ids = c.tensor(*p[1]);
  if (c.ok && !isFloat(data.dtype))
    return c.fail("'data' must be a float tensor here, not " + data.describe());
  Value count = sortedSegmentCount(c, ids);
  Value sum = segmentReduce(c, data, ids, count);
  Value ones = c.call("tf.ones_like", {data});
  Value n = segmentReduce(c, ones, ids, count);
  Value zero = c.call("tf.zeros_like", {sum});
  Value empty = c.cmp(ast::CmpOp::Eq, n, zero);
  return c.where(empty, zero, c.div(sum, c.where(empty, c.call("tf.ones_like", {n}), n)));
}

/// The largest of the 1-D integer tensor `ids` plus one; 0 when it has no elements.
Value onePastLargest(Composer &c, const Value &ids) {
  Value none = c.call("tf.constant", {Value::list({Value::integer(-1)})},
                      {{"dtype", Value::dtypeOf(ids.dtype)}});
  Value last = c.call("tf.math.reduce_max", {c.call("tf.concat", {Value::list({ids, none}), Value::integer(0)})});
  return c.add(last, c.tensor(Value::integer(1), ids.dtype));
}

Value sortedSegmentCount(Composer &c, const Value &ids) {
  // The number of segments is the last id plus one; the ids must be sorted (checked).
  if (c.ok && !(ids.shape.rankKnown && ids.shape.rank() == 1))
    return c.fail("'segment_ids' must be 1-D, not " + ids.describe());
  if (!c.ok)
    return {};
  Value n = dimOf(c, ids, 0);
  Value zero = c.tensor(Value::integer(0), ids.dtype);
  Value one = c.tensor(Value::integer(1), DType::Int32);
  Value tail = c.slice(ids, 0, Value::integer(1), n);
  Value head = c.slice(ids, 0, Value::integer(0), c.sub(n, one));
  c.call("tf.debugging.Assert",
         {c.call("tf.math.reduce_all", {c.cmp(ast::CmpOp::LtE, head, tail)}), Value::list({})},
         {{"message", Value::str("segment ids are not increasing")}});
  c.call("tf.debugging.Assert",
         {c.call("tf.math.reduce_all", {c.cmp(ast::CmpOp::GtE, ids, zero)}), Value::list({})},
         {{"message", Value::str("segment ids must be >= 0")}});
  return onePastLargest(c, ids);
}

Value bincount(Composer &c, const Params &p) {
  // Counts (or sums of weights) of each value of arr, in max(max(arr) + 1, minlength)
  // bins, at most maxlength (values beyond it dropped), as segment sums. (p: arr, weights,
  // minlength, maxlength, dtype, name, axis, binary_output.)
  if (given(p[6]) && !(p[6]->kind == Value::Kind::Int && p[6]->i == 0))
    return c.fail("only axis=None (all of arr) is supported by agc");
  if (given(p[7]) && !(p[7]->kind == Value::Kind::Bool && !p[7]->i))
    return c.fail("binary_output=True is not supported by agc");
  Value arr = ranked(c, c.tensor(*p[0]), "arr");
  if (c.ok && !isIndexInteger(arr.dtype))
    return c.fail("'arr' must be int32 or int64, not " + arr.describe());
  if (!c.ok)
    return {};
  Value flat = c.call("tf.reshape", {arr, Value::list({Value::integer(-1)})});
  Value zero = c.tensor(Value::integer(0), arr.dtype);
  c.call("tf.debugging.Assert",
         {c.call("tf.math.reduce_all", {c.cmp(ast::CmpOp::GtE, flat, zero)}), Value::list({})},
         {{"message", Value::str("Input arr must be non-negative!")}});
  Value size = onePastLargest(c, flat);
  if (given(p[2]))
    size = c.call("tf.math.maximum", {size, c.tensor(*p[2], arr.dtype)});
  DType out = DType::Int32;
  if (given(p[4]) && p[4]->kind == Value::Kind::DTypeRef)
    out = p[4]->dtype;
  Value data = given(p[1]) ? c.call("tf.reshape", {c.tensor(*p[1]), Value::list({Value::integer(-1)})})
                           : c.call("tf.ones_like", {flat}, {{"dtype", Value::dtypeOf(out)}});
  Value ids = flat;
  if (given(p[3])) { // values at or beyond maxlength fall in no bin
    size = c.call("tf.math.minimum", {size, c.tensor(*p[3], arr.dtype)});
    Value kept = c.cmp(ast::CmpOp::Lt, flat, size);
    ids = c.where(kept, flat, c.call("tf.zeros_like", {flat}));
    data = c.where(kept, data, c.call("tf.zeros_like", {data}));
  }
  return segmentReduce(c, data, ids, size);
}

/// tf.histogram_fixed_width: the count of `values` in each of nbins equal bins of
/// value_range, as TensorFlow's HistogramFixedWidth kernel computes a value's bin
/// (histogram_op.cc): int32(min(double(max(v, lo) - lo) / step, nbins - 1)), with step =
/// double(hi - lo) / nbins and max(v, lo) - lo in the values' dtype; a NaN is its
/// run-time error. (p: values, value_range, nbins, dtype, name.)
Value histogramFixedWidth(Composer &c, const Params &p) {
  Value values = ranked(c, c.tensor(*p[0]), "values");
  if (c.ok && values.dtype != DType::Float32 && values.dtype != DType::Float64 &&
      values.dtype != DType::Int32 && values.dtype != DType::Int64)
    return c.fail("'values' must be float32, float64, int32 or int64, not " + values.describe());
  if (c.ok && p[1]->isTensorLike() && p[1]->dtype != values.dtype)
    return c.fail("'value_range' must have the dtype of 'values' (" + dtypeName(values.dtype) +
                  "), not " + p[1]->describe());
  Value range = ranked(c, c.tensor(*p[1], values.dtype), "value_range");
  if (c.ok && !(range.shape.rank() == 1 && range.shape.dims[0] == 2))
    return c.fail("'value_range' must be a vector of 2 values, not " + range.describe());
  std::optional<DType> outArg = indexDTypeArg(c, p[3], "dtype");
  if (!outArg)
    return {};
  DType out = *outArg;
  Value bins = given(p[2]) ? *p[2] : Value::integer(100);
  Value nbins = c.tensor(bins, DType::Int32);
  if (!c.ok)
    return {};
  Value lo = c.row(range, 0, 0), hi = c.row(range, 0, 1);
  c.call("tf.debugging.Assert", {c.cmp(ast::CmpOp::Lt, lo, hi), Value::list({})},
         {{"message", Value::str("value_range should satisfy value_range[0] < value_range[1]")}});
  c.call("tf.debugging.Assert", {c.cmp(ast::CmpOp::Gt, nbins, c.tensor(Value::integer(0), DType::Int32)), Value::list({})},
         {{"message", Value::str("nbins should be a positive number")}});
  Value flat = c.call("tf.reshape", {values, Value::list({Value::integer(-1)})});
  if (isFloat(values.dtype))
    c.call("tf.debugging.Assert",
           {c.call("tf.math.reduce_all", {c.cmp(ast::CmpOp::Eq, flat, flat)}), Value::list({})},
           {{"message", Value::str("Histogram values must not contain NaN")}});
  Value f64 = Value::dtypeOf(DType::Float64);
  Value step = c.div(c.call("tf.cast", {c.sub(hi, lo), f64}), c.call("tf.cast", {nbins, f64}));
  Value shifted = c.call("tf.cast", {c.sub(c.call("tf.math.maximum", {flat, lo}), lo), f64});
  Value last = c.call("tf.cast", {c.sub(nbins, c.tensor(Value::integer(1), DType::Int32)), f64});
  Value bin = c.call("tf.cast", {c.call("tf.math.minimum", {c.div(shifted, step), last}),
                                 Value::dtypeOf(DType::Int32)});
  Value ones = c.call("tf.ones_like", {bin}, {{"dtype", Value::dtypeOf(out)}});
  return segmentReduce(c, ones, bin, bins);
}

/// tf.histogram_fixed_width_bins, as histogram_ops.py writes it: floor(nbins * (v - lo) /
/// (hi - lo)) clipped to [0, nbins - 1], an int32 of the values' shape. (p: values,
/// value_range, nbins, dtype (unused, as TensorFlow leaves it), name.)
Value histogramFixedWidthBins(Composer &c, const Params &p) {
  Value values = ranked(c, c.tensor(*p[0]), "values");
  Value range = ranked(c, c.tensor(*p[1]), "value_range");
  if (c.ok && !(range.shape.rank() == 1 && range.shape.dims[0] == 2))
    return c.fail("'value_range' must be a vector of 2 values, not " + range.describe());
  Value nbins = c.tensor(given(p[2]) ? *p[2] : Value::integer(100), DType::Int32);
  if (!c.ok)
    return {};
  Value shape = c.call("tf.shape", {values});
  Value flat = c.call("tf.reshape", {values, Value::list({Value::integer(-1)})});
  Value nbinsFloat = c.call("tf.cast", {nbins, Value::dtypeOf(values.dtype)});
  Value lo = c.row(range, 0, 0), hi = c.row(range, 0, 1);
  Value scaled = c.call("tf.math.truediv", {c.sub(flat, lo), c.sub(hi, lo)});
  Value indices = c.call("tf.math.floor", {c.mul(nbinsFloat, scaled)});
  Value clipped = c.call("tf.clip_by_value",
                         {indices, c.tensor(Value::integer(0), indices.dtype),
                          c.sub(nbinsFloat, c.tensor(Value::integer(1), nbinsFloat.dtype))});
  return c.call("tf.reshape", {c.call("tf.cast", {clipped, Value::dtypeOf(DType::Int32)}), shape});
}

/// tf.math.confusion_matrix, as confusion_matrix.py writes it: labels and predictions
/// (a trailing dimension of 1 squeezed from the longer) as int64, checked non-negative
/// and below num_classes (or num_classes their largest plus one), each pair's weight (or
/// 1) summed into [num_classes, num_classes] in order (tf.scatter_nd). (p: labels,
/// predictions, num_classes, weights, dtype, name.)
Value confusionMatrix(Composer &c, const Params &p) {
  Value labels = ranked(c, c.tensor(*p[0]), "labels");
  Value predictions = ranked(c, c.tensor(*p[1]), "predictions");
  if (!c.ok)
    return {};
  auto squeezeLast = [&](Value &x) {
    x = c.call("tf.squeeze", {x, Value::list({Value::integer(-1)})});
  };
  if (labels.shape.rank() == predictions.shape.rank() + 1 && labels.shape.dims.back() == 1)
    squeezeLast(labels);
  else if (predictions.shape.rank() == labels.shape.rank() + 1 && predictions.shape.dims.back() == 1)
    squeezeLast(predictions);
  if (c.ok && (labels.shape.rank() != 1 || predictions.shape.rank() != 1))
    return c.fail("labels and predictions must be vectors here (agc), not " + labels.describe() +
                  " and " + predictions.describe());
  Value i64 = Value::dtypeOf(DType::Int64);
  labels = c.call("tf.cast", {labels, i64});
  predictions = c.call("tf.cast", {predictions, i64});
  c.call("tf.debugging.assert_non_negative", {labels}, {{"message", Value::str("`labels` contains negative values")}});
  c.call("tf.debugging.assert_non_negative", {predictions}, {{"message", Value::str("`predictions` contains negative values")}});
  Value shape;
  if (!given(p[2])) {
    Value n = c.add(c.call("tf.math.maximum", {c.call("tf.math.reduce_max", {predictions}),
                                               c.call("tf.math.reduce_max", {labels})}),
                    c.tensor(Value::integer(1), DType::Int64));
    shape = c.call("tf.stack", {Value::list({n, n})});
  } else {
    Value n = c.tensor(*p[2], DType::Int64);
    c.call("tf.debugging.assert_less", {labels, n}, {{"message", Value::str("`labels` out of bound")}});
    c.call("tf.debugging.assert_less", {predictions, n}, {{"message", Value::str("`predictions` out of bound")}});
    shape = p[2]->kind == Value::Kind::Int ? Value::list({*p[2], *p[2]}) : c.call("tf.stack", {Value::list({n, n})});
  }
  DType out = DType::Int32;
  if (given(p[4])) {
    std::optional<DType> d = c.impl.dtypeArg(p[4], c.loc); // reports a bad one
    if (!d) {
      c.ok = false;
      return {};
    }
    out = *d;
  }
  Value weights = given(p[3]) ? c.call("tf.cast", {c.tensor(*p[3]), Value::dtypeOf(out)})
                              : c.call("tf.ones_like", {predictions}, {{"dtype", Value::dtypeOf(out)}});
  Value indices = c.call("tf.stack", {Value::list({labels, predictions})}, {{"axis", Value::integer(1)}});
  return c.call("tf.scatter_nd", {indices, weights, shape});
}

// --- Moving and repeating elements ----------------------------------------------------------

Value roll(Composer &c, const Params &p) {
  // Each axis in turn: x[n - s:] then x[:n - s] along it, s = shift mod n (0 for an empty
  // dimension). (p: input, shift, axis, name; shift and axis ints or lists of them.)
  Value x = ranked(c, c.tensor(*p[0]), "input");
  if (!c.ok)
    return {};
  std::vector<Value> shifts = p[1]->isPySequence() ? p[1]->items() : std::vector<Value>{*p[1]};
  std::vector<Value> axes = p[2]->isPySequence() ? p[2]->items() : std::vector<Value>{*p[2]};
  if (shifts.size() != axes.size())
    return c.fail("shift and axis must have the same size");
  for (size_t k = 0; k < axes.size() && c.ok; ++k) {
    std::optional<int64_t> a = pythonInt(c, &axes[k], "axis");
    std::optional<int64_t> axis = a ? normalAxis(c, *a, x.shape.rank()) : std::nullopt;
    if (!axis)
      return {};
    int64_t n = x.shape.dims[*axis];
    Value cut;
    if (n >= 0 && shifts[k].kind == Value::Kind::Int) {
      int64_t s = n == 0 ? 0 : ((shifts[k].i % n) + n) % n;
      cut = Value::integer(n - s);
    } else {
      Value size = dimOf(c, x, *axis);
      Value one = c.tensor(Value::integer(1), DType::Int32);
      Value s = c.call("tf.math.floormod", {c.tensor(shifts[k], DType::Int32),
                                            c.call("tf.math.maximum", {size, one})});
      cut = c.sub(size, s);
    }
    Value end = n >= 0 ? Value::integer(n) : dimOf(c, x, *axis);
    x = c.call("tf.concat", {Value::list({c.slice(x, *axis, cut, end),
                                          c.slice(x, *axis, Value::integer(0), cut)}),
                             Value::integer(*axis)});
  }
  return x;
}

Value repeat(Composer &c, const Params &p) {
  // An int number of repeats: each element (axis=None: of x flattened) or each slice
  // along axis, repeated in place, as a tile of a new axis after it, merged back.
  // (p: input, repeats, axis, name.)
  Value x = ranked(c, c.tensor(*p[0]), "input");
  std::optional<int64_t> r = c.ok ? pythonInt(c, p[1], "repeats") : std::nullopt;
  if (!r)
    return c.fail("'repeats' must be a Python int for agc (a list of counts is not supported)");
  if (*r < 0)
    return c.fail("repeats must be non-negative, not " + llvm::Twine(*r));
  if (!given(p[2]))
    x = c.call("tf.reshape", {x, Value::list({Value::integer(-1)})});
  std::optional<int64_t> a = given(p[2]) ? pythonInt(c, p[2], "axis") : int64_t(0);
  std::optional<int64_t> axis = a && c.ok ? normalAxis(c, *a, x.shape.rank()) : std::nullopt;
  if (!axis)
    return {};
  int64_t rank = x.shape.rank();
  Value expanded = c.call("tf.expand_dims", {x, Value::integer(*axis + 1)});
  std::vector<Value> multiples(rank + 1, Value::integer(1));
  multiples[*axis + 1] = Value::integer(*r);
  Value tiled = c.call("tf.tile", {expanded, Value::list(multiples)});
  // The shape: x's, with dimension `axis` times r.
  std::vector<Value> scale(rank, Value::integer(1));
  scale[*axis] = Value::integer(*r);
  Value shape = c.mul(c.call("tf.shape", {x}), c.tensor(Value::list(scale), DType::Int32));
  return c.call("tf.reshape", {tiled, shape});
}

// --- Products and reciprocals that ignore NaN where a factor is zero --------------------

Value multiplyNoNan(Composer &c, const Params &p) {
  // 0 where y is 0, even where x is NaN or infinite; x * y elsewhere.
  Value x = floatOperand(c, p[0], "x");
  Value y = c.ok ? c.tensor(*p[1], x.dtype) : Value{};
  Value product = c.mul(x, y);
  return c.where(c.cmp(ast::CmpOp::Eq, y, c.constant(0, y)), c.call("tf.zeros_like", {product}),
                 product);
}

Value reciprocalNoNan(Composer &c, const Params &p) {
  // 0 where x is 0, 1 / x elsewhere.
  Value x = floatOperand(c, p[0], "x");
  Value inverse = c.div(c.constant(1, x), x);
  return c.where(c.cmp(ast::CmpOp::Eq, x, c.constant(0, x)), c.call("tf.zeros_like", {x}), inverse);
}

Value linspace(Composer &c, const Params &p) {
  // TensorFlow's LinSpace kernel: start + i * ((stop - start) / (num - 1)), the last
  // element stop itself; num = 1 gives [start]. (p: start, stop, num, name, axis.)
  if (given(p[4]) && !(p[4]->kind == Value::Kind::Int && p[4]->i == 0))
    return c.fail("only axis=0 is supported by agc");
  Value start = floatOperand(c, p[0], "start");
  Value stop = c.ok ? c.tensor(*p[1], start.dtype) : Value{};
  if (c.ok && (start.shape.rank() != 0 || stop.shape.rank() != 0))
    return c.fail("start and stop must be scalars here (agc does not batch them)");
  Value num = c.tensor(*p[2], DType::Int32);
  if (!c.ok)
    return {};
  Value one = c.tensor(Value::integer(1), DType::Int32);
  Value steps = c.call("tf.cast", {c.call("tf.math.maximum", {c.sub(num, one), one}),
                                   Value::dtypeOf(start.dtype)});
  Value step = c.div(c.sub(stop, start), steps);
  Value i = c.call("tf.range", {num}, {{"dtype", Value::dtypeOf(DType::Int32)}});
  Value values = c.add(start, c.mul(c.call("tf.cast", {i, Value::dtypeOf(start.dtype)}), step));
  Value last = c.call("tf.math.logical_and", {c.cmp(ast::CmpOp::Eq, i, c.sub(num, one)),
                                               c.cmp(ast::CmpOp::Gt, num, one)});
  return c.where(last, c.call("tf.fill", {c.call("tf.shape", {values}), stop}), values);
}

// --- Scatters (each update applied in order, as the segments) ------------------------------

/// tensor_scatter_nd_update (`how` "update": the last update of a position wins, as
/// TensorFlow's CPU kernel applies them in order), _add, _sub, _max and _min (each update
/// of a position combined with what is there, in order; see MLIRGen::emitScatterRows):
/// indices [..., D] name positions of the first D dimensions of `tensor`; updates hold
/// one slice tensor.shape[D:] for each.
Value scatterInto(Composer &c, Value tensor, const Value &indicesArg, const Value &updatesArg,
                  llvm::StringRef how) {
  tensor = ranked(c, tensor, "tensor");
  if (c.ok && how != "update" && !isFloat(tensor.dtype) && !isInteger(tensor.dtype) &&
      !(isComplex(tensor.dtype) && (how == "add" || how == "subtract")))
    return c.fail("'tensor' must be a number tensor here, not " + tensor.describe());
  Value indices = ranked(c, c.tensor(indicesArg, DType::Int32), "indices");
  if (c.ok && !isIndexInteger(indices.dtype))
    return c.fail("'indices' must be int32 or int64, not " + indices.describe());
  if (c.ok && (indices.shape.rank() < 1 || indices.shape.dims.back() < 0))
    return c.fail("'indices' must have a last dimension known while compiling, not " +
                  indices.describe());
  if (!c.ok)
    return {};
  int64_t depth = indices.shape.dims.back(), rank = tensor.shape.rank();
  if (depth > rank)
    return c.fail("the index depth (" + llvm::Twine(depth) + ") exceeds the rank of 'tensor' (" +
                  llvm::Twine(rank) + ")");
  Value updates = c.tensor(updatesArg, tensor.dtype);
  Value flat = c.call("tf.reshape", {indices, Value::list({Value::integer(-1), Value::integer(depth)})});
  // The updates as [K, tensor.shape[D:]...].
  std::vector<Value> sliceShape{dimOf(c, flat, 0)};
  for (int64_t d = depth; d < rank; ++d)
    sliceShape.push_back(dimOf(c, tensor, d));
  Value rows = c.call("tf.reshape", {updates, c.call("tf.stack", {Value::list(sliceShape)})});
  if (depth == 0)
    return c.fail("an index depth of 0 is not supported by agc");
  // Each index checked in range (TensorFlow's error); then each update applied in order,
  // as TensorFlow's CPU kernel applies them (a sum rounds alike).
  for (int64_t d = 0; d < depth && c.ok; ++d) {
    Value size = c.tensor(dimOf(c, tensor, d), indices.dtype);
    Value column = c.call("tf.gather", {flat, Value::integer(d)}, {{"axis", Value::integer(1)}});
    c.call("tf.debugging.Assert",
           {c.call("tf.math.reduce_all", {c.call("tf.math.logical_and",
                                                 {c.cmp(ast::CmpOp::GtE, column, c.tensor(Value::integer(0), indices.dtype)),
                                                  c.cmp(ast::CmpOp::Lt, column, size)})}),
            Value::list({})},
           {{"message", Value::str("indices do not index into the shape of 'tensor'")}});
  }
  return c.emit(TFOp::ScatterRows, {tensor, flat, rows, Value::str(how.str())},
                Value::tensor(tensor.dtype, tensor.shape));
}

// --- tf.slice ------------------------------------------------------------------------------

/// The elements of tf.slice's `begin` or `size` (`what`) for an input of rank `rank`: a
/// Python int stays one, the others are int32/int64 scalar tensors, all of `*dtype` (set
/// by the first tensor of the two: TensorFlow's Slice has one index dtype, and converts
/// Python ints to it).
std::optional<std::vector<Value>> sliceVector(Composer &c, const Value &v, size_t rank,
                                              llvm::StringRef what,
                                              std::optional<DType> &dtype) {
  auto sameDType = [&](const Value &t) {
    if (!isIndexInteger(t.dtype)) {
      c.fail("'" + what + "' must hold int32 or int64 values, not " + t.describe());
      return false;
    }
    if (dtype && *dtype != t.dtype) {
      c.fail("'begin' and 'size' must have one dtype, int32 or int64: " + what + " is " +
             dtypeName(t.dtype) + ", the other " + dtypeName(*dtype) + " (TypeError)");
      return false;
    }
    dtype = t.dtype;
    return true;
  };
  std::vector<Value> out;
  if (v.isPySequence()) {
    for (const Value &e : v.items()) {
      if (e.kind == Value::Kind::Int) {
        out.push_back(e);
        continue;
      }
      if (!e.isTensorLike() || !e.shape.rankKnown || e.shape.rank() != 0) {
        c.fail("the elements of '" + what + "' must be ints or int scalar tensors, not " +
               e.describe());
        return std::nullopt;
      }
      Value t = c.tensor(e);
      if (!c.ok || !sameDType(t))
        return std::nullopt;
      out.push_back(t);
    }
  } else if (v.isTensorLike()) {
    Value t = c.tensor(v);
    if (!c.ok || !sameDType(t))
      return std::nullopt;
    if (!t.shape.rankKnown || t.shape.rank() != 1 || t.shape.dims[0] < 0) {
      c.fail("'" + what + "' must be a 1-D tensor of a length known when compiling, not " +
             t.describe());
      return std::nullopt;
    }
    for (int64_t i = 0; i < t.shape.dims[0]; ++i)
      out.push_back(c.row(t, 0, i));
  } else {
    c.fail("'" + what + "' must be a list of ints or a 1-D int tensor, one element per "
           "axis of the input, not " + v.describe());
    return std::nullopt;
  }
  if (c.ok && out.size() != rank) {
    c.fail("'" + what + "' has " + llvm::Twine(out.size()) + " elements for an input of "
           "rank " + llvm::Twine(rank) + " (TensorFlow: Shape must be rank " +
           llvm::Twine(rank) + ")");
    return std::nullopt;
  }
  return c.ok ? std::optional<std::vector<Value>>(std::move(out)) : std::nullopt;
}

Value sliceOp(Composer &c, const Params &p) {
  // size[i] elements from begin[i] along each axis (size -1: to the end). TensorFlow's
  // Slice kernel, unlike Python's slices, neither counts a negative begin from the end
  // nor clips: a begin outside [0, dim] or a size past the end is its run-time error
  // (InvalidArgumentError), checked here as it runs; a size below -1, or a begin past a
  // known dimension with size -1, it refuses while tracing, as agc does.
  // (p: input_, begin, size, name.)
  Value x = ranked(c, c.tensor(*p[0]), "input_");
  if (!c.ok)
    return {};
  size_t rank = x.shape.rank();
  std::optional<DType> dtype;
  std::optional<std::vector<Value>> begin = sliceVector(c, *p[1], rank, "begin", dtype);
  std::optional<std::vector<Value>> size =
      begin ? sliceVector(c, *p[2], rank, "size", dtype) : std::nullopt;
  if (!size)
    return {};
  DType index = dtype.value_or(DType::Int32);
  for (size_t axis = 0; axis < rank && c.ok; ++axis) {
    const Value &b = (*begin)[axis], &s = (*size)[axis];
    int64_t n = x.shape.dims[axis];
    bool staticB = b.kind == Value::Kind::Int, staticS = s.kind == Value::Kind::Int;
    if (staticS && s.i < -1)
      return c.fail("size[" + llvm::Twine(axis) + "] is " + llvm::Twine(s.i) +
                    ": a size is -1 (to the end) or at least 0");
    if (staticB && staticS && s.i == -1 && n >= 0 && b.i > n)
      return c.fail("begin[" + llvm::Twine(axis) + "] is " + llvm::Twine(b.i) +
                    ", past the end of dimension " + llvm::Twine(axis) + " (size " +
                    llvm::Twine(n) + ")");
    if (staticB && staticS && b.i == 0 && s.i == -1)
      continue; // the whole axis
    // The bounds as index tensors where anything is known only at run time.
    bool known = staticB && staticS && n >= 0;
    if (known && b.i >= 0 && b.i <= n && (s.i == -1 || b.i + s.i <= n)) {
      x = c.slice(x, axis, b, Value::integer(s.i == -1 ? n : b.i + s.i));
      continue;
    }
    Value dim = c.tensor(dimOf(c, x, axis), index);
    Value lo = c.tensor(b, index);
    Value zero = c.tensor(Value::integer(0), index);
    Value count = staticS ? (s.i == -1 ? c.sub(dim, lo) : c.tensor(s, index))
                          : c.where(c.cmp(ast::CmpOp::Eq, s, c.tensor(Value::integer(-1), index)),
                                    c.sub(dim, lo), s);
    Value hi = c.add(lo, count);
    Value inRange = c.call(
        "tf.math.logical_and",
        {c.call("tf.math.logical_and", {c.cmp(ast::CmpOp::LtE, zero, lo), c.cmp(ast::CmpOp::LtE, lo, dim)}),
         c.call("tf.math.logical_and", {c.cmp(ast::CmpOp::LtE, zero, count), c.cmp(ast::CmpOp::LtE, hi, dim)})});
    c.call("tf.debugging.Assert", {inRange, Value::list({})},
           {{"message", Value::str("tf.slice: begin[" + std::to_string(axis) + "] or size[" +
                                   std::to_string(axis) + "] out of range for dimension " +
                                   std::to_string(axis) + " of the input (Expected begin in [0, "
                                   "dim] and size in [0, dim - begin])")}});
    // The static size TensorFlow's shape function gives: a size given as an int (the
    // check above makes it so), or what -1 leaves of a known dimension after an int begin.
    int64_t knownSize = staticS && s.i >= 0            ? s.i
                        : staticS && staticB && n >= 0 ? n - b.i
                                                       : -1;
    // A statically wrong slice fails its check before it is taken; its shape is then
    // Python's (clipped), which extract_slice can hold.
    if (known)
      knownSize = -1;
    x = c.slice(x, axis, lo, hi, knownSize);
  }
  return x;
}

// --- tf.math.polyval, tf.sequence_mask, tf.tensordot, tf.meshgrid -------------------------

Value polyval(Composer &c, const Params &p) {
  // Horner's rule as math_ops.polyval writes it: p = coeffs[0], then p = c + p * x for
  // each next coefficient, each converted alone (a Python float is a float32 tensor).
  // (p: coeffs, x, name.)
  if (!p[0]->isPySequence() || p[0]->kind != Value::Kind::List)
    return c.fail("Argument coeffs must be list type, not " + p[0]->describe() + " (ValueError)");
  Value x = c.tensor(*p[1]);
  const std::vector<Value> &coeffs = p[0]->items();
  if (coeffs.empty())
    return c.call("tf.zeros_like", {x});
  Value acc = c.tensor(coeffs[0]);
  for (size_t i = 1; i < coeffs.size() && c.ok; ++i)
    acc = c.add(c.tensor(coeffs[i]), c.mul(acc, x));
  return acc;
}

Value sequenceMask(Composer &c, const Params &p) {
  // array_ops.sequence_mask: range(maxlen) < lengths[..., None], maxlen by default the
  // largest length (at least 0), then cast to dtype unless bool. (p: lengths, maxlen,
  // dtype, name.)
  Value lengths = c.tensor(*p[0]);
  if (!c.ok)
    return {};
  Value row;
  DType index;
  if (given(p[1]) && p[1]->kind == Value::Kind::Int) {
    // A Python int: the row's length is known when compiling, as TensorFlow's shape.
    index = DType::Int32;
    row = c.call("tf.range", {Value::integer(0), *p[1], Value::integer(1)});
  } else {
    Value maxlen;
    if (given(p[1])) {
      maxlen = c.tensor(*p[1]);
      if (c.ok && (!maxlen.shape.rankKnown || maxlen.shape.rank() != 0))
        return c.fail("Argument `maxlen` must be scalar for sequence_mask, not " +
                      maxlen.describe() + " (ValueError)");
    } else {
      maxlen = c.call("tf.math.reduce_max", {lengths});
      maxlen = c.call("tf.math.maximum", {c.tensor(Value::integer(0), maxlen.dtype), maxlen});
    }
    if (!c.ok)
      return {};
    index = maxlen.dtype;
    row = c.call("tf.range", {c.tensor(Value::integer(0), index), maxlen,
                              c.tensor(Value::integer(1), index)});
  }
  Value matrix = c.call("tf.cast", {c.call("tf.expand_dims", {lengths, Value::integer(-1)}),
                                    Value::dtypeOf(index)});
  Value result = c.cmp(ast::CmpOp::Lt, row, matrix);
  if (!given(p[2]))
    return result;
  std::optional<DType> dtype = c.ok ? c.impl.dtypeArg(p[2], c.loc) : std::nullopt;
  if (!dtype) {
    c.ok = false;
    return {};
  }
  return *dtype == DType::Bool ? result : c.call("tf.cast", {result, Value::dtypeOf(*dtype)});
}

/// The axes tf.tensordot contracts in a and in b, from its `axes` argument (an int N: a's
/// last N and b's first N; a pair of ints or of lists), made non-negative; or a failure.
std::optional<std::pair<std::vector<int64_t>, std::vector<int64_t>>>
tensordotAxes(Composer &c, const Value &axes, size_t rankA, size_t rankB) {
  std::vector<int64_t> a, b;
  if (axes.kind == Value::Kind::Int) {
    if (axes.i < 0) {
      c.fail("'axes' must be at least 0, not " + llvm::Twine(axes.i) + " (ValueError)");
      return std::nullopt;
    }
    if (size_t(axes.i) > rankA || size_t(axes.i) > rankB) {
      c.fail("'axes' must not be larger than the number of dimensions of tensor (" +
             llvm::Twine(axes.i) + " axes, ranks " + llvm::Twine(rankA) + " and " +
             llvm::Twine(rankB) + ")");
      return std::nullopt;
    }
    for (int64_t i = 0; i < axes.i; ++i) {
      a.push_back(int64_t(rankA) - axes.i + i);
      b.push_back(i);
    }
    return std::make_pair(a, b);
  }
  if (!axes.isPySequence() || axes.items().size() != 2) {
    c.fail("'axes' must be a Python int, or a list of two ints or of two lists of ints, "
           "not " + axes.describe());
    return std::nullopt;
  }
  for (auto [side, rank, out] : {std::tuple{&axes.items()[0], rankA, &a},
                                 std::tuple{&axes.items()[1], rankB, &b}}) {
    std::vector<Value> list = side->isPySequence() ? side->items() : std::vector<Value>{*side};
    for (const Value &v : list) {
      if (v.kind != Value::Kind::Int) {
        c.fail("the axes must be Python ints, not " + v.describe());
        return std::nullopt;
      }
      std::optional<int64_t> axis = normalAxis(c, v.i, rank);
      if (!axis)
        return std::nullopt;
      out->push_back(*axis);
    }
  }
  if (a.size() != b.size()) {
    c.fail("Different number of contraction axes 'a' and 'b', " + llvm::Twine(a.size()) +
           " != " + llvm::Twine(b.size()) + " (ValueError)");
    return std::nullopt;
  }
  return std::make_pair(a, b);
}

/// tf.tensordot's operand `t` as a matrix: its free axes first (the contracted ones first
/// where `flipped`, b's), transposed only if that moves an axis, then reshaped to
/// [free, contracted] sizes; and the sizes of its free axes (ints where known, else
/// scalar int32 tensors).
std::pair<Value, std::vector<Value>> tensordotMatrix(Composer &c, const Value &t,
                                                     const std::vector<int64_t> &axes,
                                                     bool flipped) {
  size_t rank = t.shape.rank();
  std::vector<int64_t> freeAxes;
  for (size_t i = 0; i < rank; ++i)
    if (!llvm::is_contained(axes, int64_t(i)))
      freeAxes.push_back(i);
  std::vector<int64_t> perm = flipped ? axes : freeAxes;
  llvm::append_range(perm, flipped ? freeAxes : axes);
  Value moved = t;
  bool identity = true;
  for (size_t i = 0; i < rank; ++i)
    identity &= perm[i] == int64_t(i);
  if (!identity) {
    std::vector<Value> p;
    for (int64_t d : perm)
      p.push_back(Value::integer(d));
    moved = c.call("tf.transpose", {t, Value::list(p)});
  }
  // The product of the sizes of `dims`: a Python int where all are known.
  auto product = [&](const std::vector<int64_t> &dims) {
    int64_t known = 1;
    bool all = true;
    for (int64_t d : dims) {
      if (t.shape.dims[d] < 0)
        all = false;
      else
        known *= t.shape.dims[d];
    }
    if (all)
      return Value::integer(known);
    Value prod = c.tensor(Value::integer(1), DType::Int32);
    for (int64_t d : dims)
      prod = c.mul(prod, dimOf(c, t, d));
    return prod;
  };
  std::vector<Value> freeSizes;
  for (int64_t d : freeAxes)
    freeSizes.push_back(t.shape.dims[d] >= 0 ? Value::integer(t.shape.dims[d]) : dimOf(c, t, d));
  Value free = product(freeAxes), contracted = product(axes);
  std::vector<Value> shape = flipped ? std::vector<Value>{contracted, free}
                                     : std::vector<Value>{free, contracted};
  bool same = rank == 2 && shape[0].kind == Value::Kind::Int && shape[1].kind == Value::Kind::Int &&
              moved.shape.dims[0] == shape[0].i && moved.shape.dims[1] == shape[1].i;
  Value matrix = same ? moved : c.call("tf.reshape", {moved, Value::list(shape)});
  return {matrix, freeSizes};
}

Value tensordot(Composer &c, const Params &p) {
  // math_ops.tensordot: each operand transposed and reshaped to a matrix, one matmul,
  // reshaped to a's free dimensions then b's. (p: a, b, axes, name.)
  Value a = ranked(c, c.tensor(*p[0]), "a");
  Value b = ranked(c, c.tensor(*p[1]), "b");
  if (!c.ok)
    return {};
  auto axes = tensordotAxes(c, *p[2], a.shape.rank(), b.shape.rank());
  if (!axes)
    return {};
  auto [ma, freeA] = tensordotMatrix(c, a, axes->first, /*flipped=*/false);
  auto [mb, freeB] = tensordotMatrix(c, b, axes->second, /*flipped=*/true);
  Value product = c.call("tf.linalg.matmul", {ma, mb});
  if (!c.ok)
    return {};
  std::vector<Value> shape = freeA;
  llvm::append_range(shape, freeB);
  bool same = shape.size() == 2 && llvm::all_of(llvm::enumerate(shape), [&](auto e) {
    return e.value().kind == Value::Kind::Int && product.shape.dims[e.index()] == e.value().i;
  });
  return same ? product : c.call("tf.reshape", {product, Value::list(shape)});
}

Value meshgrid(Composer &c, const CallArgs &args) {
  // array_ops.meshgrid: each argument flattened and reshaped to -1 on its own axis, 1 on
  // the others (xy indexing: the first two axes swapped), times ones of the full shape.
  std::string indexing = "xy";
  for (const auto &[key, v] : args.keywords) {
    if (key == "indexing") {
      indexing = v.kind == Value::Kind::Str ? v.text : v.describe();
    } else if (key != "name") {
      c.fail("'" + key + "' is an invalid keyword argument for this function (TypeError)");
      return {};
    }
  }
  if (indexing != "xy" && indexing != "ij")
    return c.fail("Argument `indexing` parameter must be either 'xy' or 'ij', got '" +
                  indexing + "' (ValueError)");
  size_t ndim = args.positional.size();
  if (ndim == 0)
    return Value::list({});
  std::vector<Value> flat, sizes;
  for (const Value &v : args.positional) {
    Value x = c.call("tf.reshape", {c.tensor(v), Value::list({Value::integer(-1)})});
    if (!c.ok)
      return {};
    flat.push_back(x);
    sizes.push_back(x.shape.dims[0] >= 0 ? Value::integer(x.shape.dims[0])
                                         : c.call("tf.size", {x}));
  }
  bool xy = indexing == "xy" && ndim > 1;
  if (xy)
    std::swap(sizes[0], sizes[1]);
  Value ones = c.call("tf.ones", {Value::list(sizes)}, {{"dtype", Value::dtypeOf(flat[0].dtype)}});
  std::vector<Value> out;
  for (size_t i = 0; i < ndim && c.ok; ++i) {
    size_t at = xy && i < 2 ? 1 - i : i;
    std::vector<Value> shape(ndim, Value::integer(1));
    shape[at] = Value::integer(-1);
    out.push_back(c.mul(c.call("tf.reshape", {flat[i], Value::list(shape)}), ones));
  }
  return Value::list(std::move(out));
}

// --- tf.linalg.global_norm, tf.clip_by_global_norm -----------------------------------------

/// The tensors of a t_list (a list or tuple; None entries stay None), or a failure.
std::optional<std::vector<Value>> tensorList(Composer &c, const Value &list) {
  if (!list.isPySequence()) {
    c.fail("`t_list` should be a sequence of tensors, not " + list.describe() + " (TypeError)");
    return std::nullopt;
  }
  std::vector<Value> out;
  for (const Value &t : list.items())
    out.push_back(t.kind == Value::Kind::None ? t : c.tensor(t));
  return c.ok ? std::optional<std::vector<Value>>(std::move(out)) : std::nullopt;
}

/// clip_ops.global_norm: sqrt(2 * the sum of each tensor's l2_loss).
Value globalNormOf(Composer &c, const std::vector<Value> &values) {
  std::vector<Value> halves;
  for (const Value &v : values)
    if (v.kind != Value::Kind::None)
      halves.push_back(c.call("tf.nn.l2_loss", {v}));
  if (halves.empty())
    return c.fail("no tensor in t_list (TensorFlow's stack of no values fails)");
  Value half = c.call("tf.math.reduce_sum", {c.call("tf.stack", {Value::list(halves)})});
  return c.call("tf.math.sqrt", {c.mul(half, c.constant(2.0, half))});
}

Value globalNorm(Composer &c, const Params &p) {
  // (p: t_list, name.)
  std::optional<std::vector<Value>> values = tensorList(c, *p[0]);
  return values ? globalNormOf(c, *values) : Value{};
}

Value clipByGlobalNorm(Composer &c, const Params &p) {
  // clip_ops.clip_by_global_norm: each tensor times clip_norm * min(1 / norm, 1 / clip_norm)
  // (NaN where the norm is not finite), and the norm. (p: t_list, clip_norm, use_norm,
  // name.)
  std::optional<std::vector<Value>> values = tensorList(c, *p[0]);
  if (!values)
    return {};
  Value norm = given(p[2]) ? c.tensor(*p[2]) : globalNormOf(c, *values);
  if (!c.ok)
    return {};
  Value scaleForFinite = c.mul(
      *p[1], c.call("tf.math.minimum", {c.div(Value::floating(1.0), norm),
                                        c.div(c.constant(1.0, norm), *p[1])}));
  Value scale = c.add(scaleForFinite, c.sub(norm, norm));
  std::vector<Value> clipped;
  for (const Value &v : *values)
    clipped.push_back(v.kind == Value::Kind::None
                          ? v
                          : c.mul(v, c.call("tf.cast", {scale, Value::dtypeOf(v.dtype)})));
  if (!c.ok)
    return {};
  return Value::sequence(Value::Kind::Tuple, {Value::list(std::move(clipped)), norm});
}

// --- tf.searchsorted --------------------------------------------------------------------------

Value searchsorted(Composer &c, const Params &p) {
  // array_ops.searchsorted: both tensors as rows (their leading dimensions flattened),
  // each value's position in its row found as TensorFlow's LowerBound (side='left') or
  // UpperBound ('right') kernel finds it: std::lower_bound / upper_bound's probes
  // (MLIRGen::emitBinarySearch), so that an unsorted row gives its answer too. (p:
  // sorted_sequence, values, side, out_type, name.)
  Value seq = ranked(c, c.tensor(*p[0]), "sorted_sequence");
  Value v = ranked(c, c.tensor(*p[1]), "values");
  if (!c.ok)
    return {};
  if (seq.shape.rank() == 0 || v.shape.rank() == 0)
    return c.fail("sorted_sequence and values must be at least 1-D, not " +
                  (seq.shape.rank() == 0 ? seq : v).describe());
  if (seq.dtype != v.dtype)
    return c.fail("sorted_sequence is " + seq.describe() + " and values " + v.describe() +
                  ": they must have one dtype (TypeError)");
  if (!isFloat(seq.dtype) && !isInteger(seq.dtype))
    return c.fail("of " + seq.describe() + " is not supported by agc (numbers are)");
  std::string side = "left";
  if (given(p[2])) {
    if (p[2]->kind != Value::Kind::Str || (p[2]->text != "left" && p[2]->text != "right"))
      return c.fail("side must be 'left' or 'right', not " + p[2]->describe() + " (ValueError)");
    side = p[2]->text;
  }
  std::optional<DType> outTypeArg = indexDTypeArg(c, p[3], "out_type");
  if (!outTypeArg)
    return {};
  DType outType = *outTypeArg;
  auto rows = [&](const Value &t) {
    if (t.shape.rank() == 1) // one row (a reshape to [-1, 0] of an empty one could not tell)
      return c.call("tf.expand_dims", {t, Value::integer(0)});
    if (t.shape.rank() == 2)
      return t;
    int64_t last = t.shape.rank() - 1;
    Value size = t.shape.dims[last] >= 0 ? Value::integer(t.shape.dims[last]) : dimOf(c, t, last);
    return c.call("tf.reshape", {t, Value::list({Value::integer(-1), size})});
  };
  Value s2 = rows(seq), v2 = rows(v);
  if (!c.ok)
    return {};
  // TensorFlow's kernel checks the rows when it runs, even where both counts are known.
  c.call("tf.debugging.assert_equal", {dimOf(c, s2, 0), dimOf(c, v2, 0)},
         {{"message", Value::str("tf.searchsorted: Leading dim_size of both tensors must match")}});
  std::vector<Value> shape;
  for (size_t d = 0; d < v.shape.rank(); ++d)
    shape.push_back(v.shape.dims[d] >= 0 ? Value::integer(v.shape.dims[d]) : dimOf(c, v, d));
  if (s2.shape.dims[0] >= 0 && v2.shape.dims[0] >= 0 && s2.shape.dims[0] != v2.shape.dims[0])
    return c.call("tf.zeros", {Value::list(shape)}, {{"dtype", Value::dtypeOf(outType)}}); // never returned
  Value found = c.emit(TFOp::BinarySearch, {s2, v2, Value::str(side)},
                       Value::tensor(outType, v2.shape));
  if (!c.ok)
    return {};
  return c.call("tf.reshape", {found, Value::list(shape)});
}

// --- tf.saturate_cast ----------------------------------------------------------------------

const llvm::fltSemantics &semanticsOf(DType d) {
  switch (d) {
  case DType::Float16: return llvm::APFloat::IEEEhalf();
  case DType::BFloat16: return llvm::APFloat::BFloat();
  case DType::Float32: return llvm::APFloat::IEEEsingle();
  default: return llvm::APFloat::IEEEdouble();
  }
}

double toDouble(llvm::APFloat v) {
  bool lost;
  v.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return v.convertToDouble();
}

/// A real dtype's .min or .max as TensorFlow's DType gives it, exactly (a long double
/// holds every int64 and uint64, and every float of these dtypes).
long double dtypeLimit(DType d, bool max) {
  if (isFloat(d))
    return toDouble(llvm::APFloat::getLargest(semanticsOf(d), /*Negative=*/!max));
  unsigned bits = bitWidth(d);
  if (isUnsigned(d))
    return max ? std::ldexp((long double)1, bits) - 1 : 0;
  return max ? std::ldexp((long double)1, bits - 1) - 1 : -std::ldexp((long double)1, bits - 1);
}

/// Whether NumPy compares numbers of dtypes `a` and `b` as float64 (np.promote_types; a
/// bfloat16 it cannot promote, and saturate_cast falls back to Python's float): there
/// 2**63 - 1 is 2**63. Every other promotion holds both dtypes' numbers exactly (where
/// this says float64 for one, int16 with float16 say, float64 holds them exactly too).
bool comparesAsFloat64(DType a, DType b) {
  if (a == DType::BFloat16 || b == DType::BFloat16 || a == DType::Float64 || b == DType::Float64)
    return true;
  if (isFloat(a) && isFloat(b))
    return false;
  if (!isFloat(a) && !isFloat(b)) // uint64 with a signed integer: float64
    return (a == DType::UInt64 && !isUnsigned(b)) || (b == DType::UInt64 && !isUnsigned(a));
  DType integer = isFloat(a) ? b : a, real = isFloat(a) ? a : b;
  unsigned needs = bitWidth(integer) <= 8 ? 16 : bitWidth(integer) <= 16 ? 32 : 64;
  return needs > bitWidth(real);
}

Value saturateCast(Composer &c, const Params &p) {
  // math_ops.saturate_cast: the value clipped (ClipByValue) to the limits of the output
  // dtype as NumPy computes them in the input's dtype (min(in.max, out.max) made an
  // input number, one step toward 0 where it rounded past out.max), then cast; a complex
  // input gives its real part to a real dtype. (p: value, dtype, name.)
  Value x = c.tensor(*p[0]);
  std::optional<DType> to = c.ok ? c.impl.dtypeArg(p[1], c.loc) : std::nullopt;
  if (!to) {
    c.ok = false;
    return {};
  }
  DType in = x.dtype;
  if (isComplex(in) && isComplex(*to)) {
    if (bitWidth(in) > bitWidth(*to))
      return c.fail("from " + dtypeName(in) + " to " + dtypeName(*to) + " is not supported "
                    "by agc (TensorFlow clips the parts with ClipByValue, which has no "
                    "complex kernel)");
    return c.call("tf.cast", {x, Value::dtypeOf(*to)});
  }
  if (isComplex(in)) {
    x = c.call("tf.math.real", {x});
    in = realPart(in);
  }
  DType out = realPart(*to);
  for (DType d : {in, out})
    if (!isFloat(d) && !isInteger(d))
      return c.fail("TypeError: Cannot find minimum value of " + dtypeName(d));
  // TensorFlow 2.21 has no CPU kernel of ClipByValue for uint32 and uint64: the graph
  // builds, and running it fails, whatever the limits.
  if (in == DType::UInt32 || in == DType::UInt64) {
    c.call("tf.debugging.Assert", {c.tensor(Value::boolean(false), DType::Bool), Value::list({})},
           {{"message", Value::str("No OpKernel was registered to support Op 'ClipByValue' "
                                   "with these attrs: [T=DT_" + dtypeName(in).upper() + "]")}});
    return c.call("tf.cast", {x, Value::dtypeOf(*to)});
  }
  bool asFloat64 = comparesAsFloat64(in, out);
  auto exceeds = [&](long double a, long double b) { // a > b as NumPy compares them
    return asFloat64 ? double(a) > double(b) : a > b;
  };
  // NumPy's np_dtype(v) of a float64 v: rounded to a float dtype, truncated to an integer
  // one (where it does not fit, NumPy's integer is not a limit at all: every value of
  // int64 -> int64 becomes -2**63 in TensorFlow 2.21; refused).
  auto inNumber = [&](double v) -> std::optional<long double> {
    if (isFloat(in)) {
      llvm::APFloat f(v);
      bool lost;
      f.convert(semanticsOf(in), llvm::APFloat::rmNearestTiesToEven, &lost);
      return toDouble(f);
    }
    long double t = std::trunc((long double)v);
    if (t < dtypeLimit(in, false) || t > dtypeLimit(in, true))
      return std::nullopt;
    return t;
  };
  auto towardZero = [&](long double v) -> std::optional<long double> {
    if (!isFloat(in))
      return std::nullopt; // np.nextafter has no integer loop: TensorFlow's TypeError
    llvm::APFloat f{double(v)};
    bool lost;
    f.convert(semanticsOf(in), llvm::APFloat::rmNearestTiesToEven, &lost);
    f.next(/*nextDown=*/v > 0);
    return toDouble(f);
  };
  std::optional<long double> lo = inNumber(
      std::max(double(dtypeLimit(in, false)), double(dtypeLimit(out, false))));
  if (lo && exceeds(dtypeLimit(out, false), *lo))
    lo = towardZero(*lo);
  std::optional<long double> hi = inNumber(
      std::min(double(dtypeLimit(in, true)), double(dtypeLimit(out, true))));
  if (hi && exceeds(*hi, dtypeLimit(out, true)))
    hi = towardZero(*hi);
  if (!lo || !hi)
    return c.fail("from " + dtypeName(in) + " to " + dtypeName(*to) + " is refused: "
                  "TensorFlow 2.21 makes its upper limit, min(float(" + dtypeName(in) +
                  ".max), float(" + dtypeName(out) + ".max)), an " + dtypeName(in) +
                  " number, which " + dtypeName(in) + " cannot hold, so that its results "
                  "are not saturated values (use tf.cast, or tf.clip_by_value then tf.cast)");
  // The input is not uint32 or uint64 here: an integer limit fits int64.
  auto constant = [&](long double v) {
    return isFloat(in) ? c.tensor(Value::floating(double(v)), in)
                       : c.tensor(Value::integer(int64_t(v)), in);
  };
  x = c.call("tf.clip_by_value", {x, constant(*lo), constant(*hi)});
  return c.call("tf.cast", {x, Value::dtypeOf(*to)});
}

/// tf.linalg.adjoint: the conjugate transpose of the last two axes (the transpose of a
/// real matrix).
Value adjoint(Composer &c, const Params &p) {
  Value x = c.tensor(*p[0]);
  if (c.ok && isComplex(x.dtype))
    x = c.call("tf.math.conj", {x});
  return c.call("tf.linalg.matrix_transpose", {x});
}

Value broadcastTo(Composer &c, const Params &p) {
  // x at every point of `shape`, as tf.where broadcasts its operands (exact for every
  // dtype), the result's shape checked to be `shape` (x may not be larger).
  Value x = c.tensor(*p[0]);
  Value shape = c.tensor(*p[1], DType::Int32);
  if (!c.ok)
    return {};
  Value all = c.call("tf.fill", {shape, c.tensor(Value::boolean(true), DType::Bool)});
  Value r = c.where(all, x, x);
  c.call("tf.debugging.assert_equal", {c.call("tf.shape", {r}), shape},
         {{"message", Value::str("tf.broadcast_to: the input's shape does not broadcast to the shape given")}});
  return r;
}

/// tf.tensor_scatter_nd_update, _add, _sub, _max, _min: `how` for emitScatterRows.
template <const char *how>
Value tensorScatter(Composer &c, const Params &p) {
  return scatterInto(c, c.tensor(*p[0]), *p[1], *p[2], how);
}
constexpr char kUpdate[] = "update", kAdd[] = "add", kSubtract[] = "subtract", kMax[] = "max",
               kMin[] = "min";

Value scatterNd(Composer &c, const Params &p) {
  // The updates summed into zeros of `shape`, as tensor_scatter_nd_add.
  Value updates = c.tensor(*p[1]);
  if (!c.ok)
    return {};
  Value zeros = c.call("tf.zeros", {*p[2]}, {{"dtype", Value::dtypeOf(updates.dtype)}});
  return scatterInto(c, zeros, *p[0], updates, "add");
}

// --- einsum: the operands broadcast over every label, multiplied, summed ---------------------

/// Labels of one operand's subscripts ("ij"), or a failure.
std::optional<std::string> labelsOf(Composer &c, llvm::StringRef s) {
  std::string out;
  for (char ch : s) {
    if (ch == ' ')
      continue;
    if (!std::isalpha(static_cast<unsigned char>(ch))) {
      c.fail("subscripts with '" + std::string(1, ch) +
             "' are not supported by agc (letters are; no ellipsis)");
      return std::nullopt;
    }
    if (out.find(ch) != std::string::npos) {
      c.fail("a label repeated in one operand ('" + s + "': a diagonal) is not supported by agc");
      return std::nullopt;
    }
    out += ch;
  }
  return out;
}

Value einsum(Composer &c, const CallArgs &args) {
  if (args.positional.empty() || args.positional[0].kind != Value::Kind::Str)
    return c.fail("the first argument must be the equation, a str");
  for (const auto &[key, value] : args.keywords)
    if (key != "name" && key != "optimize")
      return c.fail("got an unexpected keyword argument '" + key + "'");
  llvm::StringRef equation = args.positional[0].text;
  std::vector<Value> operands;
  for (size_t k = 1; k < args.positional.size(); ++k)
    operands.push_back(ranked(c, c.tensor(args.positional[k]), "inputs"));
  auto [lhs, rhs] = equation.split("->");
  llvm::SmallVector<llvm::StringRef> specs;
  lhs.split(specs, ',');
  if (c.ok && specs.size() != operands.size())
    return c.fail("the equation '" + equation + "' has " + llvm::Twine(specs.size()) +
                  " operands, but " + llvm::Twine(operands.size()) + " were given");
  if (operands.empty() || operands.size() > 2)
    return c.fail("one or two operands are supported by agc");
  std::vector<std::string> labels;
  std::string all;
  for (size_t k = 0; k < specs.size() && c.ok; ++k) {
    std::optional<std::string> l = labelsOf(c, specs[k]);
    if (!l)
      return {};
    if (l->size() != operands[k].shape.rank())
      return c.fail("operand " + llvm::Twine(k) + " has rank " +
                    llvm::Twine(operands[k].shape.rank()) + " but the subscripts '" + *l +
                    "' name " + llvm::Twine(l->size()) + " dimensions");
    for (char ch : *l)
      if (all.find(ch) == std::string::npos)
        all += ch;
    labels.push_back(*l);
  }
  if (!c.ok)
    return {};
  if (c.ok && operands.size() == 2 && operands[0].dtype != operands[1].dtype)
    return c.fail("the operands must have one dtype, not " + operands[0].describe() + " and " +
                  operands[1].describe());
  std::string out;
  if (equation.contains("->")) {
    std::optional<std::string> o = labelsOf(c, rhs);
    if (!o)
      return {};
    for (char ch : *o)
      if (all.find(ch) == std::string::npos)
        return c.fail("output label '" + std::string(1, ch) + "' is in no operand");
    out = *o;
  } else {
    // Implicit output: the labels used once, in alphabetical order.
    for (char ch : all) {
      int uses = 0;
      for (const std::string &l : labels)
        uses += llvm::count(l, ch);
      if (uses == 1)
        out += ch;
    }
    llvm::sort(out);
  }
  // Matrix products as tf.matmul: "ij,jk->ik" and "bij,bjk->bik" (transposes included).
  if (operands.size() == 2 && labels[0].size() == labels[1].size() &&
      (labels[0].size() == 2 || labels[0].size() == 3) && out.size() == labels[0].size()) {
    size_t r = labels[0].size();
    std::string batch = r == 3 ? std::string(1, labels[0][0]) : "";
    const std::string &a = labels[0], &b = labels[1];
    bool batchOk = r == 2 || (b[0] == a[0] && out[0] == a[0]);
    char i = a[r - 2], j = a[r - 1];
    for (bool ta : {false, true})
      for (bool tb : {false, true}) {
        char ai = ta ? j : i, ak = ta ? i : j;
        char bk = tb ? b[r - 1] : b[r - 2], bj = tb ? b[r - 2] : b[r - 1];
        if (batchOk && ak == bk && out[r - 2] == ai && out[r - 1] == bj && ai != ak &&
            bj != bk && ai != bj && batch.find(ak) == std::string::npos)
          return c.call("tf.linalg.matmul", {operands[0], operands[1]},
                        {{"transpose_a", Value::boolean(ta)}, {"transpose_b", Value::boolean(tb)}});
      }
  }
  // General: each operand transposed to `all`'s order and expanded, multiplied, summed over
  // the labels not in the output, then transposed to the output's order.
  Value product;
  for (size_t k = 0; k < operands.size(); ++k) {
    std::vector<Value> perm;
    std::string order;
    for (char ch : all)
      if (labels[k].find(ch) != std::string::npos) {
        perm.push_back(Value::integer(labels[k].find(ch)));
        order += ch;
      }
    Value t = operands[k];
    if (order != labels[k])
      t = c.call("tf.transpose", {t, Value::list(perm)});
    for (size_t pos = 0; pos < all.size(); ++pos)
      if (labels[k].find(all[pos]) == std::string::npos)
        t = c.call("tf.expand_dims", {t, Value::integer(pos)});
    product = k == 0 ? t : c.mul(product, t);
  }
  std::vector<Value> summed;
  std::string kept;
  for (size_t pos = 0; pos < all.size(); ++pos) {
    if (out.find(all[pos]) == std::string::npos)
      summed.push_back(Value::integer(pos));
    else
      kept += all[pos];
  }
  if (!summed.empty())
    product = c.call("tf.math.reduce_sum", {product}, {{"axis", Value::list(summed)}});
  if (kept != out) {
    std::vector<Value> perm;
    for (char ch : out)
      perm.push_back(Value::integer(kept.find(ch)));
    product = c.call("tf.transpose", {product, Value::list(perm)});
  }
  return product;
}

// --- The table -----------------------------------------------------------------------------

const std::vector<Composite> &composites() {
  static const std::vector<Composite> kTable = {
      {{"tf.nn.leaky_relu"}, {"features", "alpha", "name"}, 1, "floats (ints as float32)", leakyRelu},
      {{"tf.nn.elu"}, {"features", "name"}, 1, "floats", elu},
      {{"tf.nn.selu"}, {"features", "name"}, 1, "floats", selu},
      {{"tf.nn.gelu"}, {"features", "approximate", "name"}, 1, "floats", gelu},
      {{"tf.nn.silu", "tf.nn.swish"}, {"features", "beta"}, 1, "floats", swish},
      {{"tf.nn.softsign", "tf.math.softsign"}, {"features", "name"}, 1, "floats", softsign},
      {{"tf.math.log_sigmoid"}, {"x", "name"}, 1, "floats", logSigmoid},
      {{"tf.math.reduce_variance"}, {"input_tensor", "axis", "keepdims", "name"}, 1, "floats", reduceVariance},
      {{"tf.math.reduce_std"}, {"input_tensor", "axis", "keepdims", "name"}, 1, "floats", reduceStd},
      {{"tf.math.reduce_logsumexp", "tf.reduce_logsumexp"}, {"input_tensor", "axis", "keepdims", "name"}, 1, "floats", reduceLogSumExp},
      {{"tf.math.reduce_euclidean_norm"}, {"input_tensor", "axis", "keepdims", "name"}, 1, "floats", reduceEuclideanNorm},
      {{"tf.math.count_nonzero"}, {"input", "axis", "keepdims", "dtype", "name"}, 1, "all", countNonzero},
      {{"tf.math.zero_fraction", "tf.nn.zero_fraction"}, {"value", "name"}, 1, "numbers, bool", zeroFraction},
      {{"tf.math.in_top_k", "tf.nn.in_top_k"}, {"targets", "predictions", "k", "name"}, 3, "float32 (targets int32, int64)", inTopK},
      {{"tf.math.is_nan", "tf.debugging.is_nan"}, {"x", "name"}, 1, "floats", isNan},
      {{"tf.math.is_inf", "tf.debugging.is_inf"}, {"x", "name"}, 1, "floats", isInf},
      {{"tf.math.is_finite", "tf.debugging.is_finite"}, {"x", "name"}, 1, "floats", isFinite},
      {{"tf.math.divide_no_nan", "tf.div_no_nan"}, {"x", "y", "name"}, 2, "floats", divideNoNan},
      {{"tf.norm", "tf.linalg.norm"}, {"tensor", "ord", "axis", "keepdims", "name"}, 1, "floats", norm},
      {{"tf.clip_by_norm"}, {"t", "clip_norm", "axes", "name"}, 2, "floats", clipByNorm},
      {{"tf.math.l2_normalize", "tf.linalg.l2_normalize", "tf.nn.l2_normalize"}, {"x", "axis", "epsilon", "name", "dim"}, 1, "floats", l2Normalize},
      {{"tf.nn.batch_normalization"}, {"x", "mean", "variance", "offset", "scale", "variance_epsilon", "name"}, 6, "floats", batchNormalization},
      {{"tf.nn.embedding_lookup"}, {"params", "ids", "max_norm", "name"}, 2, "all (ids int32, int64)", embeddingLookup},
      {{"tf.nn.crelu"}, {"features", "axis", "name"}, 1, "floats, ints", crelu},
      {{"tf.math.xlogy"}, {"x", "y", "name"}, 2, "floats", xlogy},
      {{"tf.nn.l2_loss"}, {"t", "name"}, 1, "floats", l2Loss},
      {{"tf.nn.bias_add"}, {"value", "bias", "data_format", "name"}, 2, "numbers", biasAdd},
      {{"tf.nn.moments"}, {"x", "axes", "shift", "keepdims", "name"}, 2, "floats", moments},
      {{"tf.nn.sigmoid_cross_entropy_with_logits"}, {"labels", "logits", "name"}, 0, "floats", sigmoidCrossEntropy},
      {{"tf.nn.softmax_cross_entropy_with_logits"}, {"labels", "logits", "axis", "name"}, 2, "floats", softmaxCrossEntropy},
      {{"tf.nn.sparse_softmax_cross_entropy_with_logits"}, {"labels", "logits", "name"}, 2, "floats (labels int32, int64)", sparseSoftmaxCrossEntropy},
      {{"tf.one_hot"}, {"indices", "depth", "on_value", "off_value", "axis", "dtype", "name"}, 2, "indices int32, int64; any dtype out", oneHot},
      {{"tf.linalg.band_part"}, {"input", "num_lower", "num_upper", "name"}, 3, "all", bandPart},
      {{"tf.linalg.diag"}, {"diagonal", "name", "k", "num_rows", "num_cols", "padding_value", "align"}, 1, "all", matrixDiag},
      {{"tf.linalg.diag_part"}, {"input", "name", "k", "padding_value", "align"}, 1, "all", diagPart},
      {{"tf.linalg.trace"}, {"x", "name"}, 1, "numbers", trace},
      {{"tf.roll"}, {"input", "shift", "axis", "name"}, 3, "all", roll},
      {{"tf.repeat"}, {"input", "repeats", "axis", "name"}, 2, "all", repeat},
      {{"tf.math.multiply_no_nan"}, {"x", "y", "name"}, 2, "floats", multiplyNoNan},
      {{"tf.math.reciprocal_no_nan"}, {"x", "name"}, 1, "floats", reciprocalNoNan},
      {{"tf.linspace", "tf.lin_space"}, {"start", "stop", "num", "name", "axis"}, 3, "floats", linspace},
      {{"tf.broadcast_to"}, {"input", "shape", "name"}, 2, "all", broadcastTo},
      {{"tf.slice"}, {"input_", "begin", "size", "name"}, 3, "all (begin, size int32, int64)", sliceOp},
      {{"tf.linalg.adjoint"}, {"matrix", "name"}, 1, "all", adjoint},
      {{"tf.math.polyval"}, {"coeffs", "x", "name"}, 2, "numbers", polyval},
      {{"tf.searchsorted"}, {"sorted_sequence", "values", "side", "out_type", "name"}, 2, "numbers (out_type int32, int64)", searchsorted},
      {{"tf.unique"}, {"x", "out_idx", "name"}, 1, "numbers, bool (out_idx int32, int64)", unique},
      {{"tf.unique_with_counts"}, {"x", "out_idx", "name"}, 1, "numbers, bool (out_idx int32, int64)", uniqueWithCounts},
      {{"tf.linalg.global_norm"}, {"t_list", "name"}, 1, "floats", globalNorm},
      {{"tf.clip_by_global_norm"}, {"t_list", "clip_norm", "use_norm", "name"}, 2, "floats", clipByGlobalNorm},
      {{"tf.sequence_mask"}, {"lengths", "maxlen", "dtype", "name"}, 1, "lengths ints; any dtype out", sequenceMask},
      {{"tf.tensordot", "tf.linalg.tensordot"}, {"a", "b", "axes", "name"}, 3, "floats, ints", tensordot},
      {{"tf.saturate_cast", "tf.dtypes.saturate_cast"}, {"value", "dtype", "name"}, 2, "numbers (from uint32, uint64: TensorFlow's run-time error)", saturateCast},
      {{"tf.tensor_scatter_nd_update"}, {"tensor", "indices", "updates", "name"}, 3, "all but strings (indices int32, int64)", tensorScatter<kUpdate>},
      {{"tf.tensor_scatter_nd_add"}, {"tensor", "indices", "updates", "name"}, 3, "numbers (indices int32, int64)", tensorScatter<kAdd>},
      {{"tf.tensor_scatter_nd_sub"}, {"tensor", "indices", "updates", "name"}, 3, "numbers (indices int32, int64)", tensorScatter<kSubtract>},
      {{"tf.tensor_scatter_nd_max"}, {"tensor", "indices", "updates", "name"}, 3, "floats, ints (indices int32, int64)", tensorScatter<kMax>},
      {{"tf.tensor_scatter_nd_min"}, {"tensor", "indices", "updates", "name"}, 3, "floats, ints (indices int32, int64)", tensorScatter<kMin>},
      {{"tf.scatter_nd"}, {"indices", "updates", "shape", "name"}, 3, "numbers (indices int32, int64)", scatterNd},
      {{"tf.math.bincount"}, {"arr", "weights", "minlength", "maxlength", "dtype", "name", "axis", "binary_output"}, 1, "arr int32, int64; weights numbers", bincount},
      {{"tf.histogram_fixed_width"}, {"values", "value_range", "nbins", "dtype", "name"}, 2, "float32, float64, int32, int64", histogramFixedWidth},
      {{"tf.histogram_fixed_width_bins"}, {"values", "value_range", "nbins", "dtype", "name"}, 2, "floats", histogramFixedWidthBins},
      {{"tf.math.confusion_matrix"}, {"labels", "predictions", "num_classes", "weights", "dtype", "name"}, 2, "ints (labels, predictions); weights numbers", confusionMatrix},
      {{"tf.linalg.matvec"}, {"a", "b", "transpose_a", "adjoint_a", "a_is_sparse", "b_is_sparse", "name"}, 2, "floats, ints", matvec},
      {{"tf.unstack"}, {"value", "num", "axis", "name"}, 1, "all", unstack},
      {{"tf.split"}, {"value", "num_or_size_splits", "axis", "num", "name"}, 2, "all", split},
      {{"tf.math.top_k", "tf.nn.top_k"}, {"input", "k", "sorted", "index_type", "name"}, 1, "floats, ints", topK},
      {{"tf.boolean_mask"}, {"tensor", "mask", "axis", "name"}, 2, "all (mask bool)", booleanMask},
      {{"tf.random.stateless_uniform"}, {"shape", "seed", "minval", "maxval", "dtype", "name", "alg"}, 2, "float32, float64, int32, int64, uint32, uint64", statelessUniform},
      {{"tf.random.stateless_normal"}, {"shape", "seed", "mean", "stddev", "dtype", "name", "alg"}, 2, "float32, float64", statelessNormal},
      {{"tf.math.unsorted_segment_sum"}, {"data", "segment_ids", "num_segments", "name"}, 3, "numbers (ids int32, int64)", unsortedSegment<Combine::Sum>},
      {{"tf.math.unsorted_segment_prod"}, {"data", "segment_ids", "num_segments", "name"}, 3, "numbers (ids int32, int64)", unsortedSegment<Combine::Prod>},
      {{"tf.math.unsorted_segment_max"}, {"data", "segment_ids", "num_segments", "name"}, 3, "float32, float64, int32, int64 (ids int32, int64)", unsortedSegment<Combine::Max>},
      {{"tf.math.unsorted_segment_min"}, {"data", "segment_ids", "num_segments", "name"}, 3, "float32, float64, int32, int64 (ids int32, int64)", unsortedSegment<Combine::Min>},
      {{"tf.math.unsorted_segment_mean"}, {"data", "segment_ids", "num_segments", "name"}, 3, "numbers (ids int32, int64)", unsortedSegmentMean<false>},
      {{"tf.math.unsorted_segment_sqrt_n"}, {"data", "segment_ids", "num_segments", "name"}, 3, "floats (ids int32, int64)", unsortedSegmentMean<true>},
      {{"tf.math.segment_sum"}, {"data", "segment_ids", "name"}, 2, "numbers (ids int32, int64)", sortedSegment<Combine::Sum>},
      {{"tf.math.segment_prod"}, {"data", "segment_ids", "name"}, 2, "numbers (ids int32, int64)", sortedSegment<Combine::Prod>},
      {{"tf.math.segment_max"}, {"data", "segment_ids", "name"}, 2, "float32, float64, int32, int64 (ids int32, int64)", sortedSegment<Combine::Max>},
      {{"tf.math.segment_min"}, {"data", "segment_ids", "name"}, 2, "float32, float64, int32, int64 (ids int32, int64)", sortedSegment<Combine::Min>},
      {{"tf.math.segment_mean"}, {"data", "segment_ids", "name"}, 2, "floats (ids int32, int64)", segmentMean},
  };
  return kTable;
}

const Composite *findComposite(llvm::StringRef path) {
  for (const Composite &c : composites())
    for (const char *p : c.paths)
      if (path == p)
        return &c;
  return nullptr;
}

} // namespace

bool Tracer::Impl::isComposite(llvm::StringRef path) {
  return path == "tf.einsum" || path == "tf.linalg.einsum" || path == "tf.meshgrid" ||
         findComposite(path);
}

std::optional<Value> Tracer::Impl::composite(llvm::StringRef path, const CallArgs &args) {
  // TensorFlow's composites treat complex numbers their own way (tf.norm and
  // reduce_variance take |z|, l2_normalize z * conj(z)): only a matrix product, a slice
  // and the adjoint (conjugated, as TensorFlow's) are the same for them here.
  if (path != "tf.linalg.matvec" && path != "tf.slice" && path != "tf.linalg.adjoint" &&
      path != "tf.saturate_cast" && path != "tf.dtypes.saturate_cast")
    if (const Value *z = complexTensorIn(args))
      return error(args.loc, path + "() of " + z->describe() + " is not supported by agc");
  Composer c(*this, path, args.loc);
  if (path == "tf.einsum" || path == "tf.linalg.einsum")
    return c.result(einsum(c, args));
  if (path == "tf.meshgrid")
    return c.result(meshgrid(c, args));
  const Composite *entry = findComposite(path);
  std::optional<Params> params =
      bindParams(*this, path.rsplit('.').second, args, entry->params, entry->required);
  if (!params)
    return std::nullopt;
  return c.result(entry->trace(c, *params));
}

void analysis::listCompositeOps(std::vector<std::pair<std::string, std::string>> &out) {
  for (const Composite &c : composites())
    for (const char *p : c.paths)
      out.emplace_back(p, c.dtypes);
  out.emplace_back("tf.einsum", "floats, ints");
  out.emplace_back("tf.meshgrid", "numbers");
}
