//===- TracerFunctional.cpp - tf.map_fn, tf.scan, tf.foldl, tf.foldr -----------===//
//
// TensorFlow's higher-order functions over the first dimension of tensors, each a staged
// while loop (Tracer::Impl::stagedWhileLoop) as TensorFlow builds it: the elements are
// read with the loop's index, and the outputs of map_fn and scan are written to
// TensorArrays and stacked after the loop. `elems` is a tensor or a nest of them (their
// first dimensions agree); `fn` is traced once in the loop's body. map_fn's TensorArrays
// need the shapes of fn's outputs before the loop: a first trace of fn that emits nothing
// gives them (TypingOnly). tf.vectorized_map is map_fn with the signature fn gives.
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

using namespace ag;
using namespace ag::analysis;

namespace {
/// The sequence a functional op goes over: `elems`' structure and its leaves as tensors
/// of rank 1 or more, and the number of rows (an int32 scalar tensor).
struct Rows {
  Value structure;
  std::vector<Value> leaves;
  Value count;
};
} // namespace

/// `elems` as rows: its leaves converted, each of rank 1 or more, with one first dimension.
static std::optional<Rows> rowsOf(Tracer::Impl &impl, const Value &elems, llvm::StringRef api,
                                  const Location &loc) {
  Rows rows;
  rows.structure = elems;
  std::vector<NestLeaf> leaves;
  flattenNest(elems, elems, "elems", leaves);
  if (leaves.empty())
    return impl.error(loc, api + ": elems must hold at least one tensor");
  for (const NestLeaf &leaf : leaves) {
    if (!leaf.value.isTensorLike() && !leaf.value.isPyScalar())
      return impl.error(loc, api + ": '" + leaf.path + "' is " + leaf.value.describe() +
                                 "; elems holds tensors");
    std::optional<Value> t = impl.asTensor(leaf.value, loc);
    if (!t)
      return std::nullopt;
    if (t->shape.rankKnown && t->shape.rank() == 0)
      return impl.error(loc, api + ": '" + leaf.path + "' is " + t->describe() + "; elems "
                                 "must be tensors of rank 1 or more, whose first dimension "
                                 "it goes over");
    if (!t->shape.rankKnown)
      return impl.error(loc, api + ": '" + leaf.path + "' has an unknown rank");
    if (!rows.leaves.empty()) {
      int64_t a = rows.leaves[0].shape.dims[0], b = t->shape.dims[0];
      if (a >= 0 && b >= 0 && a != b)
        return impl.error(loc, api + ": the tensors in elems must have the same first "
                                   "dimension, not " + llvm::Twine(a) + " and " +
                                   llvm::Twine(b));
    }
    rows.leaves.push_back(*t);
  }
  rows.count = Value::tensor(DType::Int32, Shape::scalar());
  if (impl.emitter && !impl.emitter->rowCount(rows.leaves[0], rows.count, loc)) {
    impl.failed = true;
    return std::nullopt;
  }
  // Where first dimensions are known only at run time, they are checked equal there.
  for (size_t k = 1; k < rows.leaves.size(); ++k) {
    if (rows.leaves[k].shape.dims[0] >= 0 && rows.leaves[0].shape.dims[0] >= 0)
      continue;
    Value other = Value::tensor(DType::Int32, Shape::scalar());
    if (impl.emitter && !impl.emitter->rowCount(rows.leaves[k], other, loc)) {
      impl.failed = true;
      return std::nullopt;
    }
    CallArgs check;
    check.positional = {rows.count, other};
    check.keywords.push_back(
        {"message", Value::str(api.str() + ": the tensors in elems must have the same first "
                                           "dimension")});
    check.loc = loc;
    if (!impl.callTF("tf.debugging.assert_equal", check))
      return std::nullopt;
  }
  return rows;
}

/// Row `index` (an int32 scalar tensor, or a Python int) of every leaf, packed in elems'
/// structure.
static std::optional<Value> rowAt(Tracer::Impl &impl, const Rows &rows, const Value &index,
                                  const Location &loc) {
  std::vector<Value> items;
  for (const Value &leaf : rows.leaves) {
    Shape inner = leaf.shape;
    inner.dims.erase(inner.dims.begin());
    Value item = Value::tensor(leaf.dtype, inner);
    if (impl.emitter) {
      std::optional<Value> at = index.isTensorLike() ? index : impl.toTensor(index, loc);
      if (!at)
        return std::nullopt;
      IndexItem i;
      i.index = *at;
      i.loc = loc;
      if (!impl.emitter->subscript(leaf, {i}, item, loc)) {
        impl.failed = true;
        return std::nullopt;
      }
    }
    items.push_back(item);
  }
  size_t next = 0;
  return packNest(rows.structure, items, next);
}

std::optional<Value> analysis::tensorArrayFor(Tracer::Impl &impl, const Value &element,
                                           const Value &size, const Location &loc) {
  CallArgs make;
  make.positional = {Value::dtypeOf(element.dtype)};
  make.keywords = {{"size", size}, {"element_shape", shapeValue(element.shape)}};
  make.loc = loc;
  return impl.callTF("tf.TensorArray", make);
}

std::optional<Value> analysis::writeAt(Tracer::Impl &impl, const Value &ta, const Value &index,
                                    const Value &value, DType dtype, const Location &loc) {
  std::optional<Value> t = value.isPyScalar() ? impl.toTensor(value, loc, dtype)
                                              : impl.asTensor(value, loc);
  if (!t)
    return std::nullopt;
  CallArgs write;
  write.positional = {index, *t};
  write.loc = loc;
  return impl.callTensorArray(ta, "write", write);
}

std::optional<Value> analysis::stackInto(Tracer::Impl &impl, llvm::ArrayRef<Value> tas,
                                      const Value &structure, const Location &loc) {
  std::vector<Value> stacked;
  for (const Value &ta : tas) {
    CallArgs none;
    none.loc = loc;
    std::optional<Value> s = impl.callTensorArray(ta, "stack", none);
    if (!s)
      return std::nullopt;
    stacked.push_back(*s);
  }
  size_t next = 0;
  return packNest(structure, stacked, next);
}

std::optional<Value> analysis::stackedLoop(Tracer::Impl &impl, const Value &count,
                                           llvm::ArrayRef<Value> elements, const Value &structure,
                                           const std::function<std::optional<Value>(const Value &)> &produce,
                                           const Location &loc) {
  // k, and one TensorArray per leaf.
  std::vector<Value> vars = {Value::integer(0)};
  for (const Value &element : elements) {
    std::optional<Value> ta = tensorArrayFor(impl, element, count, loc);
    if (!ta)
      return std::nullopt;
    vars.push_back(*ta);
  }
  std::optional<Value> done = impl.stagedWhileLoop(
      Value::sequence(Value::Kind::Tuple, vars), {}, std::nullopt,
      [&](const std::vector<Value> &v) { return impl.compare(ast::CmpOp::Lt, v[0], count, loc); },
      [&](const std::vector<Value> &v) -> std::optional<Value> {
        std::optional<Value> out = produce(v[0]);
        if (!out)
          return std::nullopt;
        std::vector<NestLeaf> leaves;
        flattenNest(*out, structure, "", leaves);
        std::vector<Value> next = {Value()};
        for (size_t k = 0; k < leaves.size(); ++k) {
          std::optional<Value> ta =
              writeAt(impl, v[k + 1], v[0], leaves[k].value, elements[k].dtype, loc);
          if (!ta)
            return std::nullopt;
          next.push_back(*ta);
        }
        std::optional<Value> i = impl.binary(ast::BinaryOp::Add, v[0], Value::integer(1), loc);
        if (!i)
          return std::nullopt;
        next[0] = *i;
        return Value::sequence(Value::Kind::Tuple, next);
      },
      loc);
  if (!done)
    return std::nullopt;
  return stackInto(impl, llvm::ArrayRef(done->items()).drop_front(1), structure, loc);
}

/// tf.map_fn(fn, elems, dtype=None, ..., fn_output_signature=None), and
/// tf.vectorized_map(fn, elems) (`vectorized`: the signature is what fn gives).
static std::optional<Value> mapFn(Tracer::Impl &impl, const CallArgs &args, bool vectorized) {
  llvm::StringRef api = vectorized ? "tf.vectorized_map" : "tf.map_fn";
  std::optional<std::vector<const Value *>> p =
      vectorized ? bindParams(impl, "vectorized_map", args, {"fn", "elems", "fallback_to_while_loop", "warn"}, 2)
                 : bindParams(impl, "map_fn", args,
                              {"fn", "elems", "dtype", "parallel_iterations", "back_prop",
                               "swap_memory", "infer_shape", "name", "fn_output_signature"},
                              2);
  if (!p)
    return std::nullopt;
  const Location &loc = args.loc;
  const Value &fn = *(*p)[0];
  if (!isCallable(fn))
    return impl.error(loc, api + ": fn must be callable, not " + fn.describe());
  std::optional<Rows> rows = rowsOf(impl, *(*p)[1], api, loc);
  if (!rows)
    return std::nullopt;
  const Value *dtype = vectorized ? nullptr : (*p)[2];
  const Value *signature = vectorized ? nullptr : (*p)[8];
  if (dtype && dtype->kind == Value::Kind::None)
    dtype = nullptr;
  if (signature && signature->kind == Value::Kind::None)
    signature = nullptr;
  if (dtype && signature)
    return impl.error(loc, "only one of dtype and fn_output_signature may be given to "
                           "tf.map_fn");
  if (dtype)
    signature = dtype;

  // fn's outputs, from a trace of it that emits nothing.
  std::optional<Value> probe;
  {
    Tracer::Impl::TypingOnly typing(impl, /*quiet=*/false);
    std::optional<Value> row = rowAt(impl, *rows, Value::integer(0), loc);
    if (row)
      probe = impl.callValue(fn, {*row}, loc);
  }
  if (!probe)
    return std::nullopt;
  // The output structure and dtypes: the signature's, elems' (map_fn without one), or
  // fn's (vectorized_map).
  Value structure = signature ? *signature : vectorized ? *probe : rows->structure;
  std::vector<NestLeaf> wanted;
  flattenNest(structure, structure, "", wanted);
  std::string difference = nestDifference(structure, *probe, "output");
  if (!difference.empty()) {
    impl.error(loc, api + ": fn must return the structure of " +
                        (signature ? "fn_output_signature" : "elems") + ": " + difference);
    impl.note(loc, "give fn_output_signature (a dtype, a tf.TensorSpec, or a structure of "
                   "them) when fn returns something else than elems' structure");
    return std::nullopt;
  }
  std::vector<NestLeaf> outputs;
  flattenNest(*probe, structure, "output", outputs);
  std::vector<Value> elements; // the dtype and shape of each output's rows
  for (size_t k = 0; k < outputs.size(); ++k) {
    const Value &want = wanted[k].value;
    std::optional<DType> d;
    if (want.kind == Value::Kind::DTypeRef || want.kind == Value::Kind::TensorSpec ||
        want.isTensorLike())
      d = want.dtype;
    else if (signature)
      return impl.error(loc, api + ": fn_output_signature holds " + want.describe() +
                                 "; it holds dtypes and tf.TensorSpecs");
    const Value &got = outputs[k].value;
    if (!got.isTensorLike() && !got.isPyScalar())
      return impl.error(loc, api + ": fn returns " + got.describe() + " at '" +
                                 outputs[k].path + "'; it must return tensors");
    std::optional<Value> t = impl.tensorTypeOf(got, loc, got.isPyScalar() ? d : std::nullopt);
    if (!t)
      return std::nullopt;
    if (d && t->dtype != *d)
      return impl.error(loc, api + ": fn returns " + t->describe() + " at '" +
                                 outputs[k].path + "', but the " +
                                 (signature ? "fn_output_signature" : "dtype of elems") +
                                 " says " + dtypeName(*d) +
                                 (signature ? "" : "; give fn_output_signature"));
    if (!t->shape.rankKnown)
      return impl.error(loc, api + ": fn returns a tensor of unknown rank at '" +
                                 outputs[k].path + "'");
    elements.push_back(*t);
  }

  return stackedLoop(
      impl, rows->count, elements, structure,
      [&](const Value &k) -> std::optional<Value> {
        std::optional<Value> row = rowAt(impl, *rows, k, loc);
        std::optional<Value> out = row ? impl.callValue(fn, {*row}, loc) : std::nullopt;
        if (out && !nestDifference(structure, *out, "output").empty())
          return impl.error(loc, api + ": fn must return one structure every time");
        return out;
      },
      loc);
}

/// tf.scan (`scan`), tf.foldl and tf.foldr (`reverse`): an accumulator through the rows.
static std::optional<Value> accumulate(Tracer::Impl &impl, llvm::StringRef path,
                                       const CallArgs &args) {
  bool scan = path == "tf.scan";
  llvm::StringRef name = llvm::StringRef(path).drop_front(3);
  std::optional<std::vector<const Value *>> p =
      scan ? bindParams(impl, name, args,
                        {"fn", "elems", "initializer", "parallel_iterations", "back_prop",
                         "swap_memory", "infer_shape", "reverse", "name"},
                        2)
           : bindParams(impl, name, args,
                        {"fn", "elems", "initializer", "parallel_iterations", "back_prop",
                         "swap_memory", "name"},
                        2);
  if (!p)
    return std::nullopt;
  const Location &loc = args.loc;
  const Value &fn = *(*p)[0];
  if (!isCallable(fn))
    return impl.error(loc, path + ": fn must be callable, not " + fn.describe());
  bool reverse = path == "tf.foldr";
  if (scan)
    if (const Value *r = (*p)[7]; r && r->kind != Value::Kind::None) {
      if (r->kind != Value::Kind::Bool)
        return impl.error(loc, "tf.scan: reverse must be a Python bool, not " + r->describe());
      reverse = r->i;
    }
  std::optional<Rows> rows = rowsOf(impl, *(*p)[1], path, loc);
  if (!rows)
    return std::nullopt;
  const Value &n = rows->count;
  auto minus = [&](int64_t k) { return impl.binary(ast::BinaryOp::Sub, n, Value::integer(k), loc); };

  // The accumulator's start: the initializer, or the first row (the last, reversed), which
  // is then scan's first output.
  const Value *init = (*p)[2];
  if (init && init->kind == Value::Kind::None)
    init = nullptr;
  std::optional<Value> first = reverse ? minus(1) : std::optional<Value>(Value::integer(0));
  if (!first)
    return std::nullopt;
  std::optional<Value> acc = init ? std::optional<Value>(*init) : rowAt(impl, *rows, *first, loc);
  if (!acc)
    return std::nullopt;
  // Its leaves as the loop carries them.
  std::vector<NestLeaf> accLeaves;
  flattenNest(*acc, *acc, "initializer", accLeaves);
  std::vector<Value> accTensors;
  for (const NestLeaf &leaf : accLeaves) {
    if (!leaf.value.isTensorLike() && !leaf.value.isPyScalar())
      return impl.error(loc, path + ": '" + leaf.path + "' is " + leaf.value.describe() +
                                 "; the accumulator holds tensors");
    std::optional<Value> t = impl.asTensor(leaf.value, loc);
    if (!t)
      return std::nullopt;
    accTensors.push_back(*t);
  }
  size_t at = 0;
  Value accumulator = packNest(*acc, accTensors, at);

  std::optional<Value> start = init ? first : reverse ? minus(2) : Value::integer(1);
  if (!start)
    return std::nullopt;
  std::vector<Value> vars = {*start, accumulator};
  if (scan) {
    for (const Value &leaf : accTensors) {
      std::optional<Value> ta = tensorArrayFor(impl, leaf, n, loc);
      if (!ta)
        return std::nullopt;
      if (!init) // the first row is the first output
        ta = writeAt(impl, *ta, *first, leaf, leaf.dtype, loc);
      if (!ta)
        return std::nullopt;
      vars.push_back(*ta);
    }
  }
  const size_t leafCount = accTensors.size();
  std::optional<Value> done = impl.stagedWhileLoop(
      Value::sequence(Value::Kind::Tuple, vars), {}, std::nullopt,
      [&](const std::vector<Value> &v) {
        return reverse ? impl.compare(ast::CmpOp::GtE, v[0], Value::integer(0), loc)
                       : impl.compare(ast::CmpOp::Lt, v[0], n, loc);
      },
      [&](const std::vector<Value> &v) -> std::optional<Value> {
        std::optional<Value> row = rowAt(impl, *rows, v[0], loc);
        std::optional<Value> out = row ? impl.callValue(fn, {v[1], *row}, loc) : std::nullopt;
        if (!out)
          return std::nullopt;
        std::string difference = nestDifference(accumulator, *out, "output");
        if (!difference.empty()) {
          impl.error(loc, path + ": fn must return the structure of its accumulator (" +
                              (init ? "the initializer" : "a row of elems") + "): " +
                              difference);
          return std::nullopt;
        }
        std::vector<Value> next = {Value(), *out};
        if (scan) {
          std::vector<NestLeaf> leaves;
          flattenNest(*out, accumulator, "output", leaves);
          for (size_t k = 0; k < leafCount; ++k) {
            const Value &got = leaves[k].value;
            if (got.isTensorLike() && got.dtype != accTensors[k].dtype)
              return impl.error(loc, path + ": fn returns " + got.describe() + " at '" +
                                         leaves[k].path + "', but the accumulator is " +
                                         accTensors[k].describe());
            std::optional<Value> ta =
                writeAt(impl, v[k + 2], v[0], got, accTensors[k].dtype, loc);
            if (!ta)
              return std::nullopt;
            next.push_back(*ta);
          }
        }
        std::optional<Value> i = impl.binary(reverse ? ast::BinaryOp::Sub : ast::BinaryOp::Add,
                                             v[0], Value::integer(1), loc);
        if (!i)
          return std::nullopt;
        next[0] = *i;
        return Value::sequence(Value::Kind::Tuple, next);
      },
      loc);
  if (!done)
    return std::nullopt;
  if (!scan)
    return done->items()[1];
  return stackInto(impl, llvm::ArrayRef(done->items()).drop_front(2), accumulator, loc);
}

llvm::ArrayRef<const char *> analysis::functionalOpPaths() {
  static const char *const kPaths[] = {"tf.map_fn", "tf.vectorized_map", "tf.scan",
                                       "tf.foldl", "tf.foldr"};
  return kPaths;
}

bool Tracer::Impl::isFunctionalOp(llvm::StringRef path) {
  return llvm::is_contained(functionalOpPaths(), path);
}

std::optional<Value> Tracer::Impl::functionalOp(llvm::StringRef path, const CallArgs &args) {
  if (path == "tf.map_fn" || path == "tf.vectorized_map")
    return mapFn(*this, args, path == "tf.vectorized_map");
  return accumulate(*this, path, args);
}
