//===- TracerNumpy.cpp - NumPy arrays made while tracing -------------------------===//
//
// NumPy runs while TensorFlow traces: `np.array([...])`, `np.zeros(shape)`, `np.ones`,
// `np.full`, `np.arange` and `np.linspace` make arrays whose values the tracer knows, and
// an array that reaches a TensorFlow op becomes a constant there. Its dtype follows
// NumPy (float64 for floats, int64 for ints); an op that also takes a tensor converts the
// array to that tensor's dtype (NumPy's astype: floats truncate to ints), as TensorFlow's
// conversion does, and so does an operator (`x + np.array(...)`). NumPy arithmetic on
// arrays while tracing is refused, located: write it with TensorFlow ops.
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

#include <cmath>

using namespace ag;
using namespace ag::analysis;

/// A Python number as NumPy stores it in an array of `dtype`.
static Value asElement(const Value &v, DType dtype) {
  double x = v.kind == Value::Kind::Float ? v.f : double(v.i);
  switch (dtype) {
  case DType::Bool: return Value::boolean(v.kind == Value::Kind::Float ? x != 0 : v.i != 0);
  case DType::Int32:
  case DType::Int64: {
    int64_t i = v.kind == Value::Kind::Float ? int64_t(x) : v.i;
    return Value::integer(dtype == DType::Int32 ? int64_t(int32_t(i)) : i);
  }
  case DType::Float32: return Value::floating(double(float(x)));
  default: return Value::floating(x);
  }
}

static Value makeArray(DType dtype, llvm::ArrayRef<int64_t> dims, std::vector<Value> flat) {
  Value a;
  a.kind = Value::Kind::NDArray;
  a.dtype = dtype;
  a.shape = Shape::of(dims);
  for (Value &e : flat)
    e = asElement(e, dtype);
  a.elements = std::move(flat);
  return a;
}

/// The dtype NumPy gives Python values: bool, int64, or float64 if any is a float.
static DType inferred(llvm::ArrayRef<Value> flat) {
  bool anyFloat = false, allBool = !flat.empty();
  for (const Value &v : flat) {
    anyFloat |= v.kind == Value::Kind::Float;
    allBool &= v.kind == Value::Kind::Bool;
  }
  return anyFloat ? DType::Float64 : allBool ? DType::Bool : DType::Int64;
}

std::optional<DType> Tracer::Impl::numpyDType(const Value *value, const Location &loc) {
  if (!value || value->kind == Value::Kind::None)
    return std::nullopt;
  if (value->kind == Value::Kind::Builtin) { // float, int, bool
    if (value->name == "float")
      return DType::Float64;
    if (value->name == "int")
      return DType::Int64;
    if (value->name == "bool")
      return DType::Bool;
  }
  if (value->kind == Value::Kind::Module && llvm::StringRef(value->name).starts_with("numpy."))
    if (std::optional<DType> d = dtypeFromName(llvm::StringRef(value->name).drop_front(6));
        d && *d != DType::String)
      return d;
  if (value->kind == Value::Kind::Str || value->kind == Value::Kind::DTypeRef)
    return dtypeArg(value, loc);
  error(loc, "expected a NumPy dtype such as np.float32, not " + value->describe());
  failed = true;
  return std::nullopt;
}

std::optional<Value> Tracer::Impl::numpyFunction(llvm::StringRef path, const CallArgs &args) {
  auto [module, name] = path.rsplit('.');
  static const char *const kMakers[] = {"array", "asarray", "zeros", "ones", "full",
                                        "arange", "linspace", "zeros_like", "ones_like"};
  if (module != "numpy" || !llvm::is_contained(kMakers, name))
    return std::nullopt;
  const Location &loc = args.loc;
  const Value *dtypeValue = args.get(99, "dtype");
  std::optional<DType> dtype = numpyDType(dtypeValue, loc);
  if (failed)
    return std::nullopt;
  // A shape: an int or a sequence of ints.
  auto shapeOf = [&](const Value *v) -> std::optional<std::vector<int64_t>> {
    std::vector<int64_t> dims;
    std::vector<Value> parts = v && v->kind == Value::Kind::Int ? std::vector<Value>{*v}
                               : v && v->isPySequence()         ? v->items()
                                                                : std::vector<Value>{};
    if (!v || (v->kind != Value::Kind::Int && !v->isPySequence()))
      return error(loc, "np." + name + "() needs a shape (an int or a tuple of ints)");
    int64_t count = 1;
    for (const Value &d : parts) {
      if (d.kind != Value::Kind::Int || d.i < 0)
        return error(loc, "np." + name + "() needs a shape of non-negative Python ints, not " +
                              v->describe());
      dims.push_back(d.i);
      count = d.i && count > kMaxSequence / d.i ? kMaxSequence + 1 : count * d.i;
    }
    if (count > kMaxSequence)
      return error(loc, "this array has more than " + llvm::Twine(kMaxSequence) +
                            " elements, agc's limit for values made while tracing");
    return dims;
  };
  auto count = [](llvm::ArrayRef<int64_t> dims) {
    int64_t n = 1;
    for (int64_t d : dims)
      n *= d;
    return size_t(n);
  };
  if (name == "array" || name == "asarray") {
    const Value *object = args.get(0, "object");
    if (!object)
      return error(loc, "np." + name + "() needs the values of the array");
    if (object->kind == Value::Kind::NDArray)
      return dtype ? makeArray(*dtype, object->shape.dims, object->elements) : *object;
    // Nested Python sequences of numbers, all of one length at each level.
    std::vector<int64_t> dims;
    for (const Value *v = object; v->isPySequence(); v = &v->items()[0]) {
      dims.push_back(v->items().size());
      if (v->items().empty())
        break;
    }
    std::vector<Value> flat;
    std::function<bool(const Value &, size_t)> walk = [&](const Value &v, size_t depth) {
      if (depth == dims.size()) {
        if (!v.isPyScalar())
          return false;
        flat.push_back(v);
        return true;
      }
      if (!v.isPySequence() || int64_t(v.items().size()) != dims[depth])
        return false;
      return llvm::all_of(v.items(), [&](const Value &e) { return walk(e, depth + 1); });
    };
    if (!walk(*object, 0)) {
      if (object->isTensorLike())
        return error(loc, "np." + name + "() of " + object->describe() + " needs its values, "
                          "which a tensor has only at run time; use TensorFlow ops");
      return error(loc, "np." + name + "() of " + object->describe() + " is not supported by "
                        "agc: it takes (nested, rectangular) lists or tuples of Python numbers");
    }
    if (int64_t(flat.size()) > kMaxSequence)
      return error(loc, "this array has more than " + llvm::Twine(kMaxSequence) + " elements");
    return makeArray(dtype.value_or(flat.empty() ? DType::Float64 : inferred(flat)), dims, flat);
  }
  if (name == "zeros_like" || name == "ones_like") {
    const Value *like = args.get(0, "a");
    if (!like || like->kind != Value::Kind::NDArray)
      return error(loc, "np." + name + "() of " + (like ? like->describe() : "nothing") +
                            " is not supported by agc (it takes a NumPy array)");
    std::vector<Value> flat(like->elements.size(), Value::integer(name == "ones_like"));
    return makeArray(dtype.value_or(like->dtype), like->shape.dims, flat);
  }
  if (name == "zeros" || name == "ones" || name == "full") {
    std::optional<std::vector<int64_t>> dims = shapeOf(args.get(0, "shape"));
    if (!dims)
      return std::nullopt;
    Value fill = Value::integer(name == "ones");
    DType d = dtype.value_or(DType::Float64);
    if (name == "full") {
      const Value *v = args.get(1, "fill_value");
      if (!v || !v->isPyScalar())
        return error(loc, "np.full() needs a Python number to fill with");
      fill = *v;
      d = dtype.value_or(inferred({*v}));
    }
    return makeArray(d, *dims, std::vector<Value>(count(*dims), fill));
  }
  // arange(stop), arange(start, stop[, step]); linspace(start, stop, num=50, endpoint=True).
  std::vector<Value> nums;
  for (const Value &v : args.positional) {
    if (!v.isPyScalar())
      return error(loc, "np." + name + "() takes Python numbers here, not " + v.describe());
    nums.push_back(v);
  }
  auto num = [](const Value &v) { return v.kind == Value::Kind::Float ? v.f : double(v.i); };
  std::vector<Value> flat;
  if (name == "arange") {
    if (nums.empty() || nums.size() > 3)
      return error(loc, "np.arange() takes a stop, or a start, a stop and a step");
    Value start = nums.size() >= 2 ? nums[0] : Value::integer(0);
    Value stop = nums.size() >= 2 ? nums[1] : nums[0];
    Value step = nums.size() == 3 ? nums[2] : Value::integer(1);
    DType d = dtype.value_or(inferred({start, stop, step}));
    if (num(step) == 0)
      return error(loc, "ZeroDivisionError: np.arange() with a step of 0");
    double n = std::ceil((num(stop) - num(start)) / num(step));
    if (!(n <= double(kMaxSequence)))
      return error(loc, "np.arange() here makes more than " + llvm::Twine(kMaxSequence) +
                            " elements");
    for (int64_t k = 0; k < int64_t(std::max(0.0, n)); ++k) {
      if (isInteger(d) && start.kind != Value::Kind::Float && step.kind != Value::Kind::Float)
        flat.push_back(Value::integer(start.i + k * step.i));
      else
        flat.push_back(Value::floating(num(start) + double(k) * num(step)));
    }
    return makeArray(d, {int64_t(flat.size())}, flat);
  }
  // linspace
  if (nums.size() < 2 || nums.size() > 3)
    return error(loc, "np.linspace() takes a start, a stop and a number of samples");
  const Value *numArg = nums.size() == 3 ? &nums[2] : args.get(99, "num");
  int64_t n = numArg ? (numArg->kind == Value::Kind::Int ? numArg->i : -1) : 50;
  if (n < 0 || n > kMaxSequence)
    return error(loc, "np.linspace() needs a number of samples from 0 to " +
                          llvm::Twine(kMaxSequence));
  const Value *endpointArg = args.get(99, "endpoint");
  std::optional<bool> endpoint = endpointArg ? truth(*endpointArg) : std::optional<bool>(true);
  if (!endpoint)
    return error(loc, "np.linspace()'s endpoint= must be a Python bool");
  double a = num(nums[0]), b = num(nums[1]);
  int64_t div = *endpoint ? n - 1 : n;
  double step = div > 0 ? (b - a) / double(div) : 0;
  for (int64_t k = 0; k < n; ++k)
    flat.push_back(Value::floating(div > 0 ? a + double(k) * step : a));
  if (*endpoint && n > 1)
    flat.back() = Value::floating(b);
  return makeArray(dtype.value_or(DType::Float64), {n}, flat);
}

std::optional<Value> Tracer::Impl::arrayAttribute(const Value &array, llvm::StringRef attr,
                                                  const Location &loc) {
  if (attr == "shape") {
    std::vector<Value> dims;
    for (int64_t d : array.shape.dims)
      dims.push_back(Value::integer(d));
    return Value::sequence(Value::Kind::Tuple, std::move(dims));
  }
  if (attr == "ndim")
    return Value::integer(array.shape.rank());
  if (attr == "size")
    return Value::integer(array.elements.size());
  if (attr == "dtype") {
    Value d;
    d.kind = Value::Kind::DTypeRef;
    d.dtype = array.dtype;
    return d;
  }
  return error(loc, "the NumPy array attribute '" + attr + "' is not supported by agc; use "
                    "TensorFlow ops on tf.constant(array)");
}

std::optional<Value> Tracer::Impl::arrayToTensor(const Value &array, DType dtype,
                                                 const Location &loc) {
  if (array.elements.empty()) {
    // No elements to write out (a nested list cannot say the shape (0, 3)): tf.zeros.
    std::vector<Value> dims;
    for (int64_t d : array.shape.dims)
      dims.push_back(Value::integer(d));
    Value dtypeRef;
    dtypeRef.kind = Value::Kind::DTypeRef;
    dtypeRef.dtype = dtype;
    CallArgs zeros;
    zeros.positional = {Value::list(std::move(dims)), dtypeRef};
    zeros.loc = loc;
    return callTF("tf.zeros", zeros);
  }
  // The nested Python list of its elements, as NumPy's astype converts them.
  std::function<Value(size_t, size_t &)> nest = [&](size_t depth, size_t &next) -> Value {
    if (depth == array.shape.rank())
      return asElement(array.elements[next++], dtype);
    std::vector<Value> items;
    for (int64_t k = 0; k < array.shape.dims[depth]; ++k)
      items.push_back(nest(depth + 1, next));
    return Value::list(std::move(items));
  };
  size_t next = 0;
  Value list = nest(0, next);
  std::optional<Value> t = tensorTypeOf(list, loc, dtype);
  if (!t)
    return std::nullopt;
  t->shape = array.shape; // an empty dimension keeps its place
  if (emitter && !emitter->constant(*t, list, loc)) {
    failed = true;
    return std::nullopt;
  }
  return t;
}

bool Tracer::Impl::convertArrays(CallArgs &args, bool hintFromTensors) {
  // The dtype of the first tensor among the arguments (or dtype=): TensorFlow converts
  // the arrays beside a tensor to its dtype.
  std::optional<DType> hint;
  std::function<void(const Value &)> findTensor = [&](const Value &v) {
    if (hint || !hintFromTensors)
      return;
    if (v.isTensorLike())
      hint = v.dtype;
    else if (v.isPySequence())
      for (const Value &e : v.items())
        findTensor(e);
  };
  for (const Value &v : args.positional)
    findTensor(v);
  for (const auto &[key, v] : args.keywords)
    if (key == "dtype" && v.kind == Value::Kind::DTypeRef && !hint)
      hint = v.dtype;
    else
      findTensor(v);
  for (Value &v : args.positional)
    if (!arraysToConstants(v, hint, args.loc))
      return false;
  for (auto &[key, v] : args.keywords)
    if (!arraysToConstants(v, hint, args.loc))
      return false;
  return true;
}

bool Tracer::Impl::arraysToConstants(Value &v, std::optional<DType> dtype, const Location &loc) {
  if (v.kind == Value::Kind::NDArray) {
    std::optional<Value> t = arrayToTensor(v, dtype.value_or(v.dtype), loc);
    if (!t)
      return false;
    v = *t;
    return true;
  }
  auto convert = [&](Value &e) { return arraysToConstants(e, dtype, loc); };
  if (v.kind == Value::Kind::Tuple)
    return llvm::all_of(v.elements, convert);
  if ((v.kind == Value::Kind::List || v.kind == Value::Kind::Dict) &&
      llvm::any_of(v.items(), [](const Value &e) { return e.kind == Value::Kind::NDArray; })) {
    // A new list or dict: the user's keeps its arrays.
    Value copy = v.kind == Value::Kind::List ? Value::list(v.items())
                                             : Value::dict(v.object->keys, v.items());
    if (!llvm::all_of(copy.object->items, convert))
      return false;
    v = copy;
  }
  return true;
}
