//===- TracerData.cpp - tf.data pipelines that a staged loop goes over ----------===//
//
// A tf.data.Dataset made while tracing is a description (Value::Kind::Dataset: `name`
// says which source or transformation, `elements` its input and arguments), not a tensor.
// AutoGraph turns `for x in ds` into ds.reduce; agc turns it into a staged loop over an
// index, as it does a for over a tensor: the pipeline gives its number of elements
// (datasetCount) before the loop and its element at an index (datasetElement) in the
// body. Sources: Dataset.range, Dataset.from_tensor_slices; transformations: zip, map,
// take, skip, enumerate, repeat(n), batch (over the rows of a source, with
// drop_remainder). A dataset that reads files or runs Python generators is refused, as is
// what this file does not know. filter finds the indices of the elements it keeps before
// the dataset is iterated; batch of what map or filter made gathers its elements one at a
// time (datasetStacked).
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

using namespace ag;
using namespace ag::analysis;

namespace {
Value dataset(std::string name, std::vector<Value> elements) {
  Value v;
  v.kind = Value::Kind::Dataset;
  v.name = std::move(name);
  v.elements = std::move(elements);
  return v;
}

/// An int32 scalar tensor of `v` (a Python int, or an integer tensor, cast).
std::optional<Value> int32Scalar(Tracer::Impl &impl, const Value &v, const Location &loc) {
  if (v.kind == Value::Kind::Int || v.kind == Value::Kind::Bool)
    return impl.toTensor(Value::integer(v.i), loc, DType::Int32);
  if (!v.isTensorLike() || !isIndexInteger(v.dtype) || (v.shape.rankKnown && v.shape.rank() != 0))
    return impl.error(loc, "expected a Python int or an integer scalar tensor, not " +
                               v.describe());
  if (v.dtype == DType::Int32)
    return impl.asTensor(v, loc);
  CallArgs cast;
  cast.positional = {v, Value::dtypeOf(DType::Int32)};
  cast.loc = loc;
  return impl.callTF("tf.cast", cast);
}

/// `nest` with each leaf replaced by what `f` gives for it.
std::optional<Value> mapLeaves(const Value &nest,
                               llvm::function_ref<std::optional<Value>(const Value &)> f) {
  std::vector<NestLeaf> leaves;
  flattenNest(nest, nest, "", leaves);
  std::vector<Value> out;
  for (const NestLeaf &leaf : leaves) {
    std::optional<Value> v = f(leaf.value);
    if (!v)
      return std::nullopt;
    out.push_back(std::move(*v));
  }
  size_t next = 0;
  return packNest(nest, out, next);
}

/// A dataset element as the arguments of the function map or filter calls on it: a
/// tuple's items, as tf.data unpacks it, else the element itself.
std::vector<Value> elementOperands(const Value &x) {
  return x.kind == Value::Kind::Tuple && !x.object ? std::vector<Value>(x.items())
                                                  : std::vector<Value>{x};
}

std::optional<Value> callOp(Tracer::Impl &impl, llvm::StringRef path, std::vector<Value> operands,
                            const Location &loc) {
  CallArgs args;
  args.positional = std::move(operands);
  args.loc = loc;
  return impl.callTF(path, args);
}
} // namespace

bool Tracer::Impl::isDatasetSource(llvm::StringRef path) {
  return path.starts_with("tf.data.");
}

std::optional<Value> Tracer::Impl::datasetSource(llvm::StringRef path, const CallArgs &args) {
  const Location &loc = args.loc;
  if (path == "tf.data.Dataset.range") {
    // range(stop), range(start, stop[, step]), output_type=tf.int64.
    for (const auto &[key, value] : args.keywords)
      if (key != "output_type" && key != "name")
        return error(loc, "Dataset.range() got an unexpected keyword argument '" + key + "'");
    size_t n = args.positional.size();
    if (n < 1 || n > 3)
      return error(loc, "Dataset.range() takes 1 to 3 arguments, not " + llvm::Twine(n));
    for (const Value &v : args.positional)
      if (!(v.kind == Value::Kind::Int || v.kind == Value::Kind::Bool ||
            (v.isTensorLike() && isIndexInteger(v.dtype))))
        return error(loc, "Dataset.range() takes integers, not " + v.describe());
    Value start = n >= 2 ? args.positional[0] : Value::integer(0);
    Value stop = n >= 2 ? args.positional[1] : args.positional[0];
    Value step = n == 3 ? args.positional[2] : Value::integer(1);
    if (step.kind == Value::Kind::Int && step.i == 0)
      return error(loc, "Dataset.range(): step must not be zero");
    DType dtype = DType::Int64;
    for (const auto &[key, value] : args.keywords)
      if (key == "output_type") {
        std::optional<DType> d = dtypeArg(&value, loc);
        if (!d)
          return std::nullopt;
        dtype = *d;
      }
    Value out = dataset("range", {start, stop, step});
    out.dtype = dtype;
    return out;
  }
  if (path == "tf.data.Dataset.from_tensor_slices") {
    const Value *tensors = args.get(0, "tensors");
    if (!tensors)
      return error(loc, "Dataset.from_tensor_slices() takes the tensors to slice");
    // Leaves as tensors (a Python list is one tensor, as TensorFlow converts it).
    std::vector<NestLeaf> leaves;
    flattenNest(*tensors, *tensors, "tensors", leaves);
    std::vector<Value> converted;
    Value structure = *tensors;
    if (tensors->kind == Value::Kind::List) {
      std::optional<Value> t = asTensor(*tensors, loc);
      if (!t)
        return std::nullopt;
      structure = *t;
      converted.push_back(*t);
    } else {
      for (const NestLeaf &leaf : leaves) {
        std::optional<Value> t = asTensor(leaf.value, loc);
        if (!t)
          return std::nullopt;
        if (!t->shape.rankKnown || t->shape.rank() == 0)
          return error(loc, "Dataset.from_tensor_slices(): '" + leaf.path + "' is " +
                                t->describe() + "; it slices tensors of rank 1 or more");
        converted.push_back(*t);
      }
      size_t next = 0;
      structure = packNest(*tensors, converted, next);
    }
    for (const Value &t : converted)
      if (t.shape.dims[0] >= 0 && converted[0].shape.dims[0] >= 0 &&
          t.shape.dims[0] != converted[0].shape.dims[0])
        return error(loc, "Dataset.from_tensor_slices(): the tensors must have the same "
                          "first dimension, not " + llvm::Twine(converted[0].shape.dims[0]) +
                          " and " + llvm::Twine(t.shape.dims[0]));
    return dataset("slices", {structure});
  }
  if (path == "tf.data.Dataset.zip") {
    const Value *datasets = args.positional.size() == 1 ? &args.positional[0]
                                                        : args.get(0, "datasets");
    Value tuple;
    if (args.positional.size() > 1) {
      tuple = Value::sequence(Value::Kind::Tuple, args.positional);
      datasets = &tuple;
    }
    if (!datasets)
      return error(loc, "Dataset.zip() takes datasets");
    std::vector<NestLeaf> leaves;
    flattenNest(*datasets, *datasets, "datasets", leaves);
    for (const NestLeaf &leaf : leaves)
      if (leaf.value.kind != Value::Kind::Dataset)
        return error(loc, "Dataset.zip(): '" + leaf.path + "' is " + leaf.value.describe() +
                              ", not a tf.data.Dataset");
    return dataset("zip", {*datasets});
  }
  llvm::StringRef what = path.drop_front(std::strlen("tf.data."));
  if (what.contains("TextLine") || what.contains("TFRecord") || what.contains("FixedLength") ||
      what.contains("list_files") || what.contains("experimental.make_csv") ||
      what.contains("CsvDataset") || what.contains("load"))
    return error(loc, "'" + path + "' reads files while the graph runs; agc's compiled code "
                      "reads no files: pass the data in as tensors");
  if (what.contains("from_generator"))
    return error(loc, "'" + path + "' runs a Python generator while the graph runs; agc's "
                      "compiled code runs without Python: pass the data in as tensors");
  return error(loc, "'" + path + "' is not a part of tf.data agc knows (it knows "
                    "Dataset.range, from_tensor_slices and zip, and map, filter, take, skip, "
                    "enumerate, repeat, batch and reduce)");
}

std::optional<Value> Tracer::Impl::datasetMethod(const Value &self, llvm::StringRef name,
                                                 const CallArgs &args) {
  const Location &loc = args.loc;
  auto arg = [&](unsigned i, llvm::StringRef key) { return args.get(i, key); };
  if (name == "map") {
    const Value *fn = arg(0, "map_func");
    if (!fn)
      return error(loc, "Dataset.map() takes a function");
    return dataset("map", {self, *fn});
  }
  if (name == "take" || name == "skip" || name == "repeat") {
    const Value *n = arg(0, "count");
    Value count = n ? *n : Value::integer(-1);
    if (count.kind == Value::Kind::None)
      count = Value::integer(-1);
    if (name == "repeat" && count.kind == Value::Kind::Int && count.i < 0)
      return error(loc, "Dataset.repeat() without a count repeats forever; agc needs the "
                        "number of elements: give repeat(n)");
    if (count.kind != Value::Kind::Int && !(count.isTensorLike() && isIndexInteger(count.dtype)))
      return error(loc, "Dataset." + name + "() takes an integer count, not " +
                            count.describe());
    if (name == "repeat" && count.isTensorLike())
      return error(loc, "Dataset.repeat() takes a Python int count in agc");
    return dataset(name.str(), {self, count});
  }
  if (name == "enumerate") {
    const Value *start = arg(0, "start");
    return dataset("enumerate", {self, start ? *start : Value::integer(0)});
  }
  if (name == "batch") {
    const Value *size = arg(0, "batch_size");
    const Value *drop = arg(1, "drop_remainder");
    if (!size || size->kind != Value::Kind::Int || size->i < 1)
      return error(loc, "Dataset.batch() takes a positive Python int batch_size");
    if (drop && drop->kind != Value::Kind::Bool && drop->kind != Value::Kind::None)
      return error(loc, "Dataset.batch(): drop_remainder must be a Python bool");
    return dataset("batch", {self, *size, Value::boolean(drop && drop->kind == Value::Kind::Bool && drop->i)});
  }
  if (name == "reduce") {
    const Value *init = arg(0, "initial_state");
    const Value *fn = arg(1, "reduce_func");
    if (!init || !fn)
      return error(loc, "Dataset.reduce() takes initial_state and reduce_func");
    // TensorFlow relaxes the shape of a state that changes from one element to the next
    // (to the most specific shape that admits both) until it holds: traces of
    // reduce_func that emit nothing find those shapes, the loop's invariants.
    std::vector<NestLeaf> leaves;
    flattenNest(*init, *init, "", leaves);
    std::vector<Value> types;
    for (const NestLeaf &leaf : leaves) {
      std::optional<Value> t = leaf.value.isTensorLike() || leaf.value.isPyScalar()
                                   ? tensorTypeOf(leaf.value, loc)
                                   : std::optional<Value>(leaf.value);
      if (!t)
        return std::nullopt;
      types.push_back(*t);
    }
    for (unsigned round = 0; round < 8; ++round) {
      std::optional<Value> out;
      {
        TypingOnly typing(*this, /*quiet=*/true);
        size_t next = 0;
        Value state = packNest(*init, types, next);
        std::optional<Value> x =
            datasetElement(self, Value::tensor(DType::Int32, Shape::scalar()), loc);
        if (x)
          out = callValue(*fn, {state, *x}, loc);
      }
      if (!out || !nestDifference(*init, *out, "").empty())
        break; // the loop reports it
      std::vector<NestLeaf> after;
      flattenNest(*out, *init, "", after);
      bool changed = false;
      for (size_t k = 0; k < types.size(); ++k) {
        std::optional<Value> t = after[k].value.isTensorLike() || after[k].value.isPyScalar()
                                     ? tensorTypeOf(after[k].value, loc)
                                     : std::nullopt;
        if (!t || !types[k].isTensorLike() || t->dtype != types[k].dtype ||
            types[k].shape.admits(t->shape))
          continue;
        types[k].shape = types[k].shape.join(t->shape);
        changed = true;
      }
      if (!changed)
        break;
    }
    // (A TensorArray's entry is not read.)
    std::vector<Value> invariants = {shapeValue(Shape::scalar())};
    for (const Value &t : types)
      invariants.push_back(shapeValue(t.isTensorLike() ? t.shape : Shape::scalar()));
    std::optional<Value> count = datasetCount(self, loc);
    if (!count)
      return std::nullopt;
    Value n = *count;
    std::optional<Value> done = stagedWhileLoop(
        Value::sequence(Value::Kind::Tuple, {Value::integer(0), *init}), invariants, std::nullopt,
        [&](const std::vector<Value> &v) { return compare(ast::CmpOp::Lt, v[0], n, loc); },
        [&](const std::vector<Value> &v) -> std::optional<Value> {
          std::optional<Value> x = datasetElement(self, v[0], loc);
          std::optional<Value> state = x ? callValue(*fn, {v[1], *x}, loc) : std::nullopt;
          std::optional<Value> i =
              state ? binary(ast::BinaryOp::Add, v[0], Value::integer(1), loc) : std::nullopt;
          if (!i)
            return std::nullopt;
          return Value::sequence(Value::Kind::Tuple, {*i, *state});
        },
        loc);
    if (!done)
      return std::nullopt;
    return done->items()[1];
  }
  if (name == "filter") {
    // The indices of the elements the predicate keeps, found before the dataset is
    // iterated (a staged loop over every element writing a TensorArray of bools): then the
    // filtered dataset is at known indices, as every other one is.
    std::optional<std::vector<const Value *>> p =
        bindParams(*this, "Dataset.filter", args, {"predicate", "name"}, 1);
    if (!p)
      return std::nullopt;
    const Value &predicate = *(*p)[0];
    std::optional<Value> count = datasetCount(self, loc);
    std::optional<Value> flags =
        count ? tensorArrayFor(*this, Value::tensor(DType::Bool, Shape::scalar()), *count, loc)
              : std::nullopt;
    if (!flags)
      return std::nullopt;
    unsigned effectsBefore = effectsTraced;
    Value n = *count;
    std::optional<Value> done = stagedWhileLoop(
        Value::sequence(Value::Kind::Tuple, {Value::integer(0), *flags}), {}, std::nullopt,
        [&](const std::vector<Value> &v) { return compare(ast::CmpOp::Lt, v[0], n, loc); },
        [&](const std::vector<Value> &v) -> std::optional<Value> {
          std::optional<Value> x = datasetElement(self, v[0], loc);
          std::optional<Value> keep = x ? callValue(predicate, elementOperands(*x), loc)
                                        : std::nullopt;
          if (!keep)
            return std::nullopt;
          std::optional<Value> t = keep->isPyScalar() ? toTensor(*keep, loc) : asTensor(*keep, loc);
          if (!t)
            return std::nullopt;
          if (t->dtype != DType::Bool || !(t->shape.rankKnown && t->shape.rank() == 0))
            return error(loc, "Dataset.filter(): the predicate must return a scalar bool "
                              "tensor, not " + t->describe());
          std::optional<Value> written = writeAt(*this, v[1], v[0], *t, DType::Bool, loc);
          std::optional<Value> i =
              written ? binary(ast::BinaryOp::Add, v[0], Value::integer(1), loc) : std::nullopt;
          if (!i)
            return std::nullopt;
          return Value::sequence(Value::Kind::Tuple, {*i, *written});
        },
        loc);
    if (!done)
      return std::nullopt;
    if (effectsTraced != effectsBefore)
      return error(loc, "Dataset.filter(): a predicate that prints or asserts is not supported "
                        "by agc, which runs it on every element before the dataset is "
                        "iterated (TensorFlow runs it as elements are consumed)");
    CallArgs none;
    none.loc = loc;
    std::optional<Value> keep = callTensorArray(done->items()[1], "stack", none);
    std::optional<Value> where = keep ? callOp(*this, "tf.where", {*keep}, loc) : std::nullopt;
    std::optional<Value> flat =
        where ? callOp(*this, "tf.reshape", {*where, Value::list({Value::integer(-1)})}, loc)
              : std::nullopt;
    std::optional<Value> indices =
        flat ? callOp(*this, "tf.cast", {*flat, Value::dtypeOf(DType::Int32)}, loc) : std::nullopt;
    if (!indices)
      return std::nullopt;
    return dataset("filter", {self, *indices});
  }
  if (name == "shuffle" || name == "prefetch" || name == "cache")
    return error(loc, "Dataset." + name + "() is not supported by agc (" +
                          (name == "shuffle" ? "its order is random" : "it is about I/O") + ")");
  return error(loc, "tf.data.Dataset has no method '" + name + "' agc knows");
}

std::optional<Value> Tracer::Impl::datasetCount(const Value &ds, const Location &loc) {
  auto zero = [&] { return toTensor(Value::integer(0), loc, DType::Int32); };
  if (ds.name == "filter")
    return callOp(*this, "tf.size", {ds.elements[1]}, loc);
  if (ds.name == "range") {
    // max(0, ceil((stop - start) / step)), in int32.
    std::optional<Value> start = int32Scalar(*this, ds.elements[0], loc);
    std::optional<Value> stop = start ? int32Scalar(*this, ds.elements[1], loc) : std::nullopt;
    std::optional<Value> step = stop ? int32Scalar(*this, ds.elements[2], loc) : std::nullopt;
    if (!step)
      return std::nullopt;
    // ceil(d / s) = floor((d + s - sign(s)) / s); TensorFlow's range counts the same.
    std::optional<Value> span = binary(ast::BinaryOp::Sub, *stop, *start, loc);
    std::optional<Value> sign = span ? callOp(*this, "tf.sign", {*step}, loc) : std::nullopt;
    std::optional<Value> adjusted =
        sign ? binary(ast::BinaryOp::Add, *span, *step, loc) : std::nullopt;
    adjusted = adjusted ? binary(ast::BinaryOp::Sub, *adjusted, *sign, loc) : std::nullopt;
    std::optional<Value> count =
        adjusted ? binary(ast::BinaryOp::FloorDiv, *adjusted, *step, loc) : std::nullopt;
    std::optional<Value> z = count ? zero() : std::nullopt;
    return z ? callOp(*this, "tf.maximum", {*count, *z}, loc) : std::nullopt;
  }
  if (ds.name == "slices") {
    std::vector<NestLeaf> leaves;
    flattenNest(ds.elements[0], ds.elements[0], "", leaves);
    Value rows = Value::tensor(DType::Int32, Shape::scalar());
    if (emitter && !emitter->rowCount(leaves.front().value, rows, loc)) {
      failed = true;
      return std::nullopt;
    }
    return rows;
  }
  if (ds.name == "zip") {
    std::vector<NestLeaf> leaves;
    flattenNest(ds.elements[0], ds.elements[0], "", leaves);
    std::optional<Value> count;
    for (const NestLeaf &leaf : leaves) {
      std::optional<Value> c = datasetCount(leaf.value, loc);
      if (!c)
        return std::nullopt;
      count = count ? callOp(*this, "tf.minimum", {*count, *c}, loc) : c;
      if (!count)
        return std::nullopt;
    }
    return count;
  }
  std::optional<Value> in = datasetCount(ds.elements[0], loc);
  if (!in)
    return std::nullopt;
  if (ds.name == "map" || ds.name == "enumerate")
    return in;
  if (ds.name == "take" || ds.name == "skip") {
    // take(n): min(count, n), all for n < 0; skip(n): max(count - n, 0), none for n < 0.
    std::optional<Value> n = int32Scalar(*this, ds.elements[1], loc);
    std::optional<Value> z = n ? zero() : std::nullopt;
    std::optional<Value> negative = z ? compare(ast::CmpOp::Lt, *n, *z, loc) : std::nullopt;
    if (!negative)
      return std::nullopt;
    if (ds.name == "take") {
      std::optional<Value> least = callOp(*this, "tf.minimum", {*in, *n}, loc);
      return least ? callOp(*this, "tf.where", {*negative, *in, *least}, loc) : std::nullopt;
    }
    std::optional<Value> rest = binary(ast::BinaryOp::Sub, *in, *n, loc);
    rest = rest ? callOp(*this, "tf.maximum", {*rest, *z}, loc) : std::nullopt;
    return rest ? callOp(*this, "tf.where", {*negative, *z, *rest}, loc) : std::nullopt;
  }
  if (ds.name == "repeat")
    return binary(ast::BinaryOp::Mul, *in, ds.elements[1], loc);
  if (ds.name == "batch") {
    // drop_remainder: count // size; else ceil(count / size).
    int64_t size = ds.elements[1].i;
    if (ds.elements[2].i)
      return binary(ast::BinaryOp::FloorDiv, *in, Value::integer(size), loc);
    std::optional<Value> up = binary(ast::BinaryOp::Add, *in, Value::integer(size - 1), loc);
    return up ? binary(ast::BinaryOp::FloorDiv, *up, Value::integer(size), loc) : std::nullopt;
  }
  return error(loc, "internal error: a dataset '" + ds.name + "' agc cannot count");
}

std::optional<Value> Tracer::Impl::datasetElement(const Value &ds, const Value &index,
                                                  const Location &loc) {
  if (ds.name == "range") {
    // start + index * step, in the range's dtype.
    auto as = [&](const Value &v) -> std::optional<Value> {
      if (!v.isTensorLike())
        return toTensor(Value::integer(v.i), loc, ds.dtype);
      if (v.dtype == ds.dtype)
        return asTensor(v, loc);
      return callOp(*this, "tf.cast", {v, Value::dtypeOf(ds.dtype)}, loc);
    };
    std::optional<Value> i = as(index);
    std::optional<Value> start = i ? as(ds.elements[0]) : std::nullopt;
    std::optional<Value> step = start ? as(ds.elements[2]) : std::nullopt;
    std::optional<Value> scaled = step ? binary(ast::BinaryOp::Mul, *i, *step, loc) : std::nullopt;
    return scaled ? binary(ast::BinaryOp::Add, *start, *scaled, loc) : std::nullopt;
  }
  if (ds.name == "slices")
    return mapLeaves(ds.elements[0], [&](const Value &t) -> std::optional<Value> {
      Shape inner = t.shape;
      inner.dims.erase(inner.dims.begin());
      Value row = Value::tensor(t.dtype, inner);
      IndexItem at;
      at.index = index;
      at.loc = loc;
      if (emitter && !emitter->subscript(t, {at}, row, loc)) {
        failed = true;
        return std::nullopt;
      }
      return row;
    });
  if (ds.name == "zip")
    return mapLeaves(ds.elements[0],
                     [&](const Value &in) { return datasetElement(in, index, loc); });
  const Value &in = ds.elements[0];
  if (ds.name == "map") {
    std::optional<Value> x = datasetElement(in, index, loc);
    if (!x)
      return std::nullopt;
    return callValue(ds.elements[1], elementOperands(*x), loc);
  }
  if (ds.name == "filter") {
    // The index-th kept element of the source.
    std::optional<Value> at = callOp(*this, "tf.gather", {ds.elements[1], index}, loc);
    return at ? datasetElement(in, *at, loc) : std::nullopt;
  }
  if (ds.name == "take")
    return datasetElement(in, index, loc);
  if (ds.name == "skip") {
    // Past the first n (none skipped for n < 0).
    std::optional<Value> n = int32Scalar(*this, ds.elements[1], loc);
    std::optional<Value> z = n ? toTensor(Value::integer(0), loc, DType::Int32) : std::nullopt;
    std::optional<Value> skipped = z ? callOp(*this, "tf.maximum", {*n, *z}, loc) : std::nullopt;
    std::optional<Value> at = skipped ? binary(ast::BinaryOp::Add, index, *skipped, loc) : std::nullopt;
    return at ? datasetElement(in, *at, loc) : std::nullopt;
  }
  if (ds.name == "enumerate") {
    std::optional<Value> x = datasetElement(in, index, loc);
    std::optional<Value> i64 = x ? callOp(*this, "tf.cast", {index, Value::dtypeOf(DType::Int64)}, loc)
                                 : std::nullopt;
    std::optional<Value> start =
        i64 ? (ds.elements[1].isTensorLike()
                   ? callOp(*this, "tf.cast", {ds.elements[1], Value::dtypeOf(DType::Int64)}, loc)
                   : toTensor(Value::integer(ds.elements[1].i), loc, DType::Int64))
            : std::nullopt;
    std::optional<Value> i = start ? binary(ast::BinaryOp::Add, *start, *i64, loc) : std::nullopt;
    if (!i)
      return std::nullopt;
    return Value::sequence(Value::Kind::Tuple, {*i, *x});
  }
  if (ds.name == "repeat") {
    std::optional<Value> count = datasetCount(in, loc);
    std::optional<Value> at =
        count ? binary(ast::BinaryOp::Mod, index, *count, loc) : std::nullopt;
    return at ? datasetElement(in, *at, loc) : std::nullopt;
  }
  if (ds.name == "batch") {
    // Rows [index * size, min(count, index * size + size)) of the input, a slice of its
    // source's tensors: the input must be a source read at a contiguous range of rows.
    int64_t size = ds.elements[1].i;
    std::optional<Value> count = datasetCount(in, loc);
    std::optional<Value> lo = count ? binary(ast::BinaryOp::Mul, index, Value::integer(size), loc)
                                    : std::nullopt;
    std::optional<Value> hi = lo ? binary(ast::BinaryOp::Add, *lo, Value::integer(size), loc)
                                 : std::nullopt;
    hi = hi ? callOp(*this, "tf.minimum", {*hi, *count}, loc) : std::nullopt;
    if (!hi)
      return std::nullopt;
    return datasetRows(in, *lo, *hi, ds.elements[2].i ? size : -1, loc);
  }
  return error(loc, "internal error: a dataset '" + ds.name + "' agc cannot index");
}

std::optional<Value> Tracer::Impl::datasetRows(const Value &ds, const Value &lo, const Value &hi,
                                               int64_t rows, const Location &loc) {
  if (ds.name == "range") {
    // start + tf.range(lo, hi) * step.
    std::optional<Value> span = callOp(*this, "tf.range", {lo, hi}, loc);
    std::optional<Value> element = span ? datasetElement(ds, *span, loc) : std::nullopt;
    if (!element || rows < 0)
      return element;
    Value fixed = Value::tensor(element->dtype, Shape::of({rows}));
    if (emitter && !emitter->castTo(fixed, *element, loc)) {
      failed = true;
      return std::nullopt;
    }
    return fixed;
  }
  if (ds.name == "slices")
    return mapLeaves(ds.elements[0], [&](const Value &t) -> std::optional<Value> {
      // t[lo:hi], of `rows` rows where known.
      Shape shape = t.shape;
      shape.dims[0] = -1;
      Value sliced = Value::tensor(t.dtype, shape);
      shape.dims[0] = rows;
      Value part = Value::tensor(t.dtype, shape);
      IndexItem slice;
      slice.kind = IndexItem::Kind::Slice;
      slice.loTensor = lo;
      slice.hiTensor = hi;
      slice.loc = loc;
      if (emitter && (!emitter->subscript(t, {slice}, sliced, loc) ||
                      !emitter->castTo(part, sliced, loc))) {
        failed = true;
        return std::nullopt;
      }
      return part;
    });
  if (ds.name == "zip")
    return mapLeaves(ds.elements[0],
                     [&](const Value &in) { return datasetRows(in, lo, hi, rows, loc); });
  if (ds.name == "take")
    return datasetRows(ds.elements[0], lo, hi, rows, loc);
  if (ds.name == "skip") {
    std::optional<Value> n = int32Scalar(*this, ds.elements[1], loc);
    std::optional<Value> z = n ? toTensor(Value::integer(0), loc, DType::Int32) : std::nullopt;
    std::optional<Value> skipped = z ? callOp(*this, "tf.maximum", {*n, *z}, loc) : std::nullopt;
    std::optional<Value> a = skipped ? binary(ast::BinaryOp::Add, lo, *skipped, loc) : std::nullopt;
    std::optional<Value> b = a ? binary(ast::BinaryOp::Add, hi, *skipped, loc) : std::nullopt;
    return b ? datasetRows(ds.elements[0], *a, *b, rows, loc) : std::nullopt;
  }
  return datasetStacked(ds, lo, hi, loc);
}

std::optional<Value> Tracer::Impl::datasetStacked(const Value &ds, const Value &lo,
                                                  const Value &hi, const Location &loc) {
  // The element's structure and types, from a trace that emits nothing.
  std::optional<Value> probe;
  {
    TypingOnly typing(*this, /*quiet=*/false);
    probe = datasetElement(ds, Value::tensor(DType::Int32, Shape::scalar()), loc);
  }
  if (!probe)
    return std::nullopt;
  std::vector<NestLeaf> leaves;
  flattenNest(*probe, *probe, "", leaves);
  std::optional<Value> n = binary(ast::BinaryOp::Sub, hi, lo, loc);
  if (!n)
    return std::nullopt;
  std::vector<Value> elements;
  for (const NestLeaf &leaf : leaves) {
    std::optional<Value> t = tensorTypeOf(leaf.value, loc);
    if (!t)
      return std::nullopt;
    elements.push_back(Value::tensor(t->dtype, t->shape));
  }
  return stackedLoop(
      *this, *n, elements, *probe,
      [&](const Value &k) -> std::optional<Value> {
        std::optional<Value> at = binary(ast::BinaryOp::Add, lo, k, loc);
        std::optional<Value> x = at ? datasetElement(ds, *at, loc) : std::nullopt;
        if (x && !nestDifference(*probe, *x, "the element").empty())
          return error(loc, "Dataset.batch(): the elements differ in structure: " +
                                nestDifference(*probe, *x, "the element"));
        return x;
      },
      loc);
}
