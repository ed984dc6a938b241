//===- TFOps.cpp - Calls of tf functions: the op table, typed and handed over -===//
//
// A call `tf.PATH(...)` resolves to its op (lookupTFOp: TFOps.def's names and aliases),
// is typed by the op's rule (TFOpTyper, TFOpRules.cpp), and is handed to the Emitter as
// TFOps.def's LOWERING says: an op (Emitter::op), a tf.Variable or tf.TensorArray (their
// own hooks), or nothing for what exists only while tracing (tf.TensorSpec, ...). A tf
// function not in the table is refused by name. Here too: NumPy broadcasting of static
// shapes, and shapes and dtypes given as arguments.
//
//===----------------------------------------------------------------------------------===//
#include "TFOpTyper.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace ag;
using namespace ag::analysis;

llvm::StringRef analysis::tfOpName(TFOp op) {
  static constexpr const char *kNames[] = {
#define TF_OP(ID, NAME, TYPING, LOWERING) NAME,
#include "ag/frontend/analysis/TFOps.def"
  };
  return kNames[static_cast<unsigned>(op)];
}

TFOpTyper::Rule TFOpTyper::ruleFor(TFOp op) {
  // TFOps.def's TYPING, as a method.
  switch (op) {
#define TF_OP(ID, NAME, TYPING, LOWERING)                                                  \
  case TFOp::ID:                                                                           \
    return &TFOpTyper::type##TYPING;
#include "ag/frontend/analysis/TFOps.def"
  }
  llvm_unreachable("every op has a typing rule");
}

std::optional<Value> TFOpTyper::typeOperator() {
  return error(loc, "internal error: " + name + " is reached only through an operator");
}

std::optional<TFOp> analysis::lookupTFOp(llvm::StringRef path) {
  static const llvm::StringMap<TFOp> kOps = [] {
    llvm::StringMap<TFOp> t;
#define TF_OP(ID, NAME, TYPING, LOWERING)                                                  \
  if (TFOpTyper::isCallable(TFOp::ID))                                                     \
    t[NAME] = TFOp::ID;
#define TF_ALIAS(PATH, ID) t[PATH] = TFOp::ID;
#include "ag/frontend/analysis/TFOps.def"
    return t;
  }();
  if (!path.consume_front("tf."))
    return std::nullopt;
  // Every op is in tf.math, tf.linalg, tf.debugging and tf.dtypes too; tf.nn's are aliases.
  for (llvm::StringRef prefix : {"math.", "linalg.", "debugging.", "dtypes."})
    if (path.starts_with(prefix) && path.count('.') == 1) {
      path = path.drop_front(prefix.size());
      break;
    }
  auto it = kOps.find(path);
  if (it == kOps.end())
    return std::nullopt;
  return it->second;
}

bool analysis::isEffectOp(TFOp op) {
  switch (op) {
#define TF_OP(ID, NAME, TYPING, LOWERING)                                                  \
  case TFOp::ID:                                                                           \
    return llvm::StringRef(#TYPING) == "Effect" && llvm::StringRef(#LOWERING) != "Python";
#include "ag/frontend/analysis/TFOps.def"
  }
  return false;
}

namespace {
/// How the Tracer hands a typed call over to the Emitter (TFOps.def's LOWERING).
enum class Handover { Nothing, Variable, TensorArray, Op };

Handover handoverOf(TFOp op) {
  static const std::vector<Handover> kTable = [] {
    auto of = [](llvm::StringRef lowering) {
      return lowering == "Python"        ? Handover::Nothing
             : lowering == "Variable"    ? Handover::Variable
             : lowering == "TensorArray" ? Handover::TensorArray
                                         : Handover::Op;
    };
    return std::vector<Handover>{
#define TF_OP(ID, NAME, TYPING, LOWERING) of(#LOWERING),
#include "ag/frontend/analysis/TFOps.def"
    };
  }();
  return kTable[static_cast<unsigned>(op)];
}
} // namespace

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
    for (const Value &d : value.items()) {
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
  if (value.isTensorLike() && isIndexInteger(value.dtype) && value.shape.rankKnown &&
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
    if (std::optional<DType> d = dtypeFromName(value->text))
      return d;
  // NumPy's scalar types name dtypes too: np.float32.
  if (value->kind == Value::Kind::Module && llvm::StringRef(value->name).starts_with("numpy."))
    if (std::optional<DType> d = dtypeFromName(llvm::StringRef(value->name).drop_front(6)))
      return d;
  error(loc, "expected a dtype such as tf.float32, not " + value->describe());
  return std::nullopt;
}

/// tf.add_n(inputs): the sum of a list of tensors of one dtype and one shape, as a chain
/// of additions. TensorFlow does not broadcast here: where a dimension is known only at
/// run time, the shapes are checked equal there (the additions would broadcast a size-1
/// operand that tf.add_n refuses).
std::optional<Value> Tracer::Impl::addN(const CallArgs &args) {
  const Value *inputs = args.get(0, "inputs");
  if (!inputs || !inputs->isPySequence() || inputs->items().empty())
    return error(args.loc, "tf.add_n() takes a non-empty list of tensors");
  std::vector<Value> terms;
  for (const Value &e : inputs->items()) {
    std::optional<Value> t = e.isTensorLike() ? asTensor(e, args.loc) : toTensor(e, args.loc);
    if (!t)
      return std::nullopt;
    if (!terms.empty() && t->dtype != terms[0].dtype)
      return error(args.loc, "tf.add_n(): the inputs must have one dtype, not " +
                                 terms[0].describe() + " and " + t->describe());
    if (!terms.empty() && !t->shape.isCompatibleWith(terms[0].shape))
      return error(args.loc, "tf.add_n(): the inputs must have one shape, not " +
                                 terms[0].describe() + " and " + t->describe() +
                                 " (tf.add_n does not broadcast)");
    terms.push_back(std::move(*t));
  }
  // Where a dimension is known only at run time, the shapes are checked there first.
  for (size_t k = 1; k < terms.size(); ++k) {
    if (terms[k].shape.isFullyKnown() && terms[k].shape == terms[0].shape)
      continue;
    CallArgs check;
    check.loc = args.loc;
    for (const Value *t : {&terms[0], &terms[k]}) {
      CallArgs of;
      of.positional = {*t};
      of.loc = args.loc;
      std::optional<Value> shape = callTF("tf.shape", of);
      if (!shape)
        return std::nullopt;
      check.positional.push_back(std::move(*shape));
    }
    check.keywords.push_back(
        {"message", Value::str("tf.add_n(): the inputs must have one shape (it does not broadcast)")});
    if (!callTF("tf.debugging.assert_equal", check))
      return std::nullopt;
  }
  Value sum = terms[0];
  for (size_t k = 1; k < terms.size(); ++k) {
    std::optional<Value> next = binary(ast::BinaryOp::Add, sum, terms[k], args.loc);
    if (!next)
      return std::nullopt;
    sum = std::move(*next);
  }
  return sum;
}

const Value *analysis::complexTensorIn(const CallArgs &args) {
  auto complex = [](const Value &t) { return isComplex(t.dtype); };
  for (const Value &v : args.positional)
    if (const Value *c = firstTensorIn(v, complex))
      return c;
  for (const auto &kw : args.keywords)
    if (const Value *c = firstTensorIn(kw.second, complex))
      return c;
  return nullptr;
}

bool Tracer::Impl::honoursKeywords(llvm::StringRef path, TFOp op, const CallArgs &args) {
  // tf.print reads its keywords (sep, end, output_stream, summarize) by going through them.
  if (op == TFOp::Print)
    return true;
  for (size_t k = 0; k < args.keywords.size() && k < 64; ++k) {
    const auto &[key, value] = args.keywords[k];
    // name= names the op in TensorFlow's graph; None is every optional argument's default.
    if ((args.keywordsRead >> k & 1) || key == "name" || value.kind == Value::Kind::None)
      continue;
    error(args.loc, path + "() with '" + key + "=' is not supported by agc: it would be "
                    "ignored (leave it out, or write the computation it asks for)");
    return false;
  }
  return true;
}

std::optional<Value> Tracer::Impl::callTF(llvm::StringRef path, const CallArgs &given) {
  // NumPy arrays become constants where a TensorFlow function takes them.
  CallArgs args = given;
  if (!convertArrays(args, /*hintFromTensors=*/path != "tf.add_n" && path != "tf.math.add_n"))
    return std::nullopt;
  std::optional<TFOp> op = lookupTFOp(path);
  if (!op && isExplicitControlFlow(path))
    return explicitControlFlow(path, args);
  if (!op && isFunctionalOp(path))
    return functionalOp(path, args);
  if (!op && isComposite(path))
    return composite(path, args);
  if (!op && isDatasetSource(path))
    return datasetSource(path, args);
  if (!op && (path == "tf.py_function" || path == "tf.numpy_function" ||
              path == "tf.compat.v1.py_func"))
    return error(args.loc, "'" + path + "' runs Python when the graph runs; agc's compiled "
                           "code runs without Python, so it cannot call it. Write the "
                           "function with TensorFlow ops");
  if (!op && (path.starts_with("tf.keras.") || path == "tf.keras"))
    return error(args.loc, "Keras ('" + path + "') is not supported by agc: a layer or model "
                           "is a Python object whose weights and calls agc cannot compile "
                           "ahead of time; compile the computation as a tf.function over "
                           "tensors and tf.Variables");
  if (!op && (path == "tf.add_n" || path == "tf.math.add_n"))
    return addN(args);
  if (!op && path == "tf.GradientTape")
    return error(args.loc, "tf.GradientTape is not supported by agc: the compiled code "
                           "computes values, not gradients");
  if (!op) {
    if (path.starts_with("tf."))
      return error(args.loc, "'" + path + "' is not a TensorFlow function agc knows");
    return error(args.loc, "'" + path + "' is not supported in traced code: agc compiles "
                           "TensorFlow functions and Python, not other libraries");
  }
  if (!acceptsComplex(*op))
    if (const Value *c = complexTensorIn(args))
      return error(args.loc, path + "() of " + c->describe() + " is not supported by agc "
                             "(complex tensors: arithmetic, ==, exp/log/sqrt/trigonometry, abs, "
                             "sums and products, tf.complex/real/imag/conj/angle, casts, shapes)");
  TFOpTyper typer(*this, path, *op, args);
  std::optional<Value> v = (typer.*TFOpTyper::ruleFor(*op))();
  if (v && v->isTensor() && isComplex(v->dtype) && !acceptsComplex(*op))
    return error(args.loc, path + "() making " + v->describe() + " is not supported by agc");
  if (v && *op == TFOp::Range) {
    // What a staged for over it starts its target at (see lastRange).
    const Value *limit = args.get(1, "limit");
    bool withStart = limit && limit->kind != Value::Kind::None;
    lastRange = RangeStart{nullptr, withStart ? *args.get(0, "start") : Value::integer(0),
                           v->dtype};
  }
  if (v && isEffectOp(*op))
    ++effectsTraced; // typed or emitted alike (Dataset.filter looks)
  if (!v || !emitter || failed)
    return v;
  if (std::optional<std::string> missing = v->isTensor() ? missingKernel(*op, v->dtype)
                                                          : std::nullopt) {
    // The op runs as TensorFlow's graph would: it fails, with TensorFlow's message.
    CallArgs check;
    check.positional = {Value::boolean(false), Value::list({})};
    check.keywords = {{"message", Value::str(*missing)}};
    check.loc = args.loc;
    std::optional<Value> no = boolTensor(false, args.loc);
    if (!no)
      return std::nullopt;
    check.positional[0] = *no;
    if (!callTF("tf.debugging.Assert", check))
      return std::nullopt;
  }
  switch (handoverOf(*op)) {
  case Handover::Nothing:
    return v;
  case Handover::Variable: {
    // At module level, or in what module-level code calls (a tf.Module's __init__).
    if (!evaluatingModule)
      return error(args.loc, "a tf.Variable created inside a traced function is not "
                             "supported by agc; create it at module level (or in the "
                             "__init__ of a tf.Module made there)");
    const Value *name = args.get(4, "name");
    if (!emitter->variable(*v, *args.get(0, "initial_value"),
                           name && name->kind == Value::Kind::Str ? name->text : "", args.loc)) {
      failed = true;
      return std::nullopt;
    }
    return v;
  }
  case Handover::TensorArray:
    if (!emitter->tensorArray("new", *v, args, *v)) {
      failed = true;
      return std::nullopt;
    }
    return v;
  case Handover::Op:
    if (!emitOp(*op, args, *v))
      return std::nullopt;
    if (*op == TFOp::Range && lastRange)
      lastRange->ir = v->ir;
    if (!honoursKeywords(path, *op, args))
      return std::nullopt;
    return v;
  }
  llvm_unreachable("every handover is handled");
}

namespace {
/// The dtypes a typing rule accepts, in words.
llvm::StringRef dtypeWordsOfRule(llvm::StringRef typing, llvm::StringRef name) {
  if (name == "reduce_any" || name == "reduce_all")
    return "bool";
  // "floats": float16, bfloat16, float32, float64; "ints": int8 to int64, uint8 to uint64.
  if (name == "abs" || name == "negative" || name == "sign")
    return "floats, signed ints";
  if (name == "truncatediv")
    return "floats, ints";
  if (name == "truncatemod")
    return "int32, int64, float32, float64"; // TensorFlow's TruncateMod kernels
  static const llvm::StringMap<const char *> kWords = {
      {"UnaryFloat", "floats"},
      {"UnaryNumeric", "floats, ints"},
      {"UnaryAny", "all"},
      {"UnaryBool", "bool"},
      {"UnaryInteger", "ints"},
      {"Bitwise", "ints"},
      {"Arithmetic", "floats, ints (`+`: string too)"},
      {"SameDType", "floats, ints"},
      {"Compare", "floats, ints (equal, not_equal: bool, string too)"},
      {"Logical", "bool"},
      {"Where", "all (condition bool)"},
      {"ClipByValue", "floats, ints"},
      {"Cast", "all but string, to all but string"},
      {"Reduce", "floats, ints"},
      {"Argmax", "floats, ints"},
      {"Matmul", "floats, int32, int64 (unsigned: TensorFlow has no kernel)"},
      {"Gather", "all (indices int32, int64)"},
      {"GatherNd", "all (indices int32, int64)"},
      {"Sort", "floats, ints"},
      {"Cumulative", "floats, ints"},
      {"StringJoin", "string"},
      {"StringUnary", "string"},
      {"Substr", "string"},
      {"AsString", "floats, ints, bool"},
      {"ToNumber", "string to float32, float64, int32, int64"},
      {"Complex", "float32 (to complex64), float64 (to complex128)"},
      {"ComplexPart", "floats, ints"},
  };
  auto it = kWords.find(typing);
  return it == kWords.end() ? "all" : it->second;
}

/// The dtypes op `op` (named `name`, typed by rule `typing`) takes, in words.
std::string dtypesOfRule(llvm::StringRef typing, llvm::StringRef name, TFOp op) {
  std::string words = dtypeWordsOfRule(typing, name).str();
  // complex64 and complex128, where agc takes them (the "all" rules say so already).
  if (acceptsComplex(op) && op != TFOp::Complex && !llvm::StringRef(words).starts_with("all"))
    words += ", complex";
  return words;
}

/// How an op of TFOps.def is compiled, from its LOWERING.
std::string howOf(llvm::StringRef lowering) {
  if (lowering == "Python")
    return "while tracing";
  if (lowering == "Variable" || lowering == "TensorArray")
    return "state";
  return "op";
}
} // namespace

void analysis::printSupportedFunctions(llvm::raw_ostream &os) {
  struct Row {
    std::string path, dtypes, how;
  };
  std::vector<Row> rows;
  llvm::StringMap<std::string> dtypesOf; // by op NAME, for the aliases
#define TF_OP(ID, NAME, TYPING, LOWERING)                                                  \
  dtypesOf[NAME] = dtypesOfRule(#TYPING, NAME, TFOp::ID);                                  \
  if (llvm::StringRef(#TYPING) != "Operator" && llvm::StringRef(#LOWERING) != "Unsupported") \
    rows.push_back({"tf." NAME, dtypesOf[NAME], howOf(#LOWERING)});
#include "ag/frontend/analysis/TFOps.def"
#define TF_ALIAS(PATH, ID)                                                                 \
  rows.push_back({"tf." PATH, dtypesOf[tfOpName(TFOp::ID)], "op"});
#include "ag/frontend/analysis/TFOps.def"
  std::vector<std::pair<std::string, std::string>> composites;
  listCompositeOps(composites);
  for (auto &[path, dtypes] : composites)
    rows.push_back({path, dtypes, "composite"});
  for (const char *p : explicitControlFlowPaths())
    rows.push_back({p, "any", "control flow"});
  for (const char *p : functionalOpPaths())
    rows.push_back({p, "any", "staged loop"});
  rows.push_back({"tf.add_n", "float32, float64, int32, int64", "op"});
  llvm::sort(rows, [](const Row &a, const Row &b) { return a.path < b.path; });
  os << "| function | dtypes | compiled as |\n|---|---|---|\n";
  for (const Row &r : rows)
    os << "| `" << r.path << "` | " << r.dtypes << " | " << r.how << " |\n";
}
