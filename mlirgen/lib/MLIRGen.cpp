//===- MLIRGen.cpp - Functions, values, constants, and the driver ----------===//
//
// The Emitter the Tracer drives (see MLIRGen.h); staged control flow in
// MLIRGenControl.cpp, tf.Variable and tf.TensorArray in MLIRGenState.cpp, the ops in
// OpTable.cpp and Ops*.cpp. A tensor Value's handle is an
// mlir::Value; a tf.Variable's is its memref.global. Staged branches and loop regions are
// built in detached blocks while the Tracer runs them, and their ag.cond / ag.while_loop
// is created when the Tracer has merged the carried names and knows their types.
//
//===----------------------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "ag/dialect/AgDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"

using namespace ag;

MLIRGen::MLIRGen(mlir::MLIRContext &context, DiagnosticEngine &diag)
    : context(context), diag(diag), builder(&context) {
  module = mlir::ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(module->getBody());
  moduleInit = mlir::func::FuncOp::create(builder, builder.getUnknownLoc(), "__ag_module_init",
                                          builder.getFunctionType({}, {}));
  builder.setInsertionPointToStart(moduleInit.addEntryBlock());
}

MLIRGen::~MLIRGen() { dropPending(); }

void MLIRGen::dropPending() {
  // A trace that failed midway leaves the blocks of unfinished staged ifs and loops
  // outside any region, and their ops use values of the function and of each other (a
  // loop inside an if): drop every reference first, then free them, before the module.
  // (A finished one's blocks are in its op's regions already: null here.)
  auto drop = [](const std::unique_ptr<mlir::Block> &block) {
    if (block)
      for (mlir::Operation &op : *block)
        op.dropAllReferences();
  };
  for (const std::unique_ptr<CondState> &c : conds) {
    drop(c->thenBlock);
    drop(c->elseBlock);
  }
  for (const std::unique_ptr<LoopState> &l : loops) {
    drop(l->before);
    drop(l->after);
  }
  conds.clear();
  loops.clear();
}

mlir::OwningOpRef<mlir::ModuleOp> MLIRGen::takeModule() {
  dropPending();
  if (moduleInit) {
    moduleInit.erase();
    moduleInit = nullptr;
  }
  for (mlir::Operation &op : *module->getBody())
    op.removeAttr("ag.unnamed");
  return std::move(module);
}

bool MLIRGen::fail(const Location &at, const llvm::Twine &message) {
  diag.error(at, message);
  return false;
}

bool MLIRGen::produce(analysis::Value &out, mlir::Value r, mlir::RankedTensorType type,
                      mlir::Location l) {
  if (r.getType() != type)
    r = mlir::tensor::CastOp::create(builder, l, type, r);
  out.ir = handle(r);
  return true;
}

//===----------------------------------------------------------------------------------===//
// Types, locations, constants
//===----------------------------------------------------------------------------------===//

/// `path` as -ffile-prefix-map renames it (ArgumentSpec::filePrefixMap): the last pair
/// whose OLD is a leading directory of it, OLD replaced by NEW.
static std::string remapFilePrefix(llvm::StringRef path,
                                   llvm::ArrayRef<std::pair<std::string, std::string>> map) {
  for (const auto &[from, to] : llvm::reverse(map)) {
    llvm::SmallString<128> out(path);
    if (llvm::sys::path::replace_path_prefix(out, from, to))
      return std::string(out);
  }
  return path.str();
}

mlir::Location MLIRGen::loc(const Location &at) {
  if (!at.isValid())
    return builder.getUnknownLoc();
  if (filePrefixMap.empty())
    return mlir::FileLineColLoc::get(&context, at.file, at.begin.line, at.begin.column);
  auto [name, added] = locationFileNames.try_emplace(at.file);
  if (added)
    name->second = remapFilePrefix(at.file, filePrefixMap);
  return mlir::FileLineColLoc::get(&context, name->second, at.begin.line, at.begin.column);
}

mlir::Type MLIRGen::elementType(DType dtype) {
  switch (dtype) {
  case DType::Float32: return builder.getF32Type();
  case DType::Float64: return builder.getF64Type();
  case DType::Int32: return builder.getI32Type();
  case DType::Int64: return builder.getI64Type();
  case DType::Bool: return builder.getI1Type();
  case DType::String: return builder.getI64Type(); // a handle (OpsStrings.cpp)
  // Unsigned integers are signless too: the ops that care take the dtype.
  case DType::Int8: case DType::UInt8: return builder.getI8Type();
  case DType::Int16: case DType::UInt16: return builder.getI16Type();
  case DType::UInt32: return builder.getI32Type();
  case DType::UInt64: return builder.getI64Type();
  case DType::Float16: return builder.getF16Type();
  case DType::BFloat16: return builder.getBF16Type();
  case DType::Complex64: return mlir::ComplexType::get(builder.getF32Type());
  case DType::Complex128: return mlir::ComplexType::get(builder.getF64Type());
  }
  return nullptr;
}

RankedTensorType MLIRGen::tensorType(const Value &value, const Location &at) {
  if (!value.shape.rankKnown) {
    fail(at, "a " + analysis::dtypeName(value.dtype) + " tensor of unknown rank is not supported "
             "by agc's code generator; give it a rank (a shape in the input signature, or set_shape)");
    return nullptr;
  }
  if (value.shape.rank() > kMaxRank) {
    fail(at, "a tensor of rank " + llvm::Twine(value.shape.rank()) + " " + value.shape.str() +
                 ": agc's code generator and C interface handle ranks up to " +
                 llvm::Twine(kMaxRank));
    return nullptr;
  }
  llvm::SmallVector<int64_t> dims;
  double bytes = elementBytes(RankedTensorType::get({}, elementType(value.dtype)));
  for (int64_t d : value.shape.dims) {
    dims.push_back(d < 0 ? mlir::ShapedType::kDynamic : d);
    bytes *= d < 0 ? 1 : double(d);
  }
  if (bytes > double(kMaxTensorBytes)) {
    fail(at, "a " + analysis::dtypeName(value.dtype) + " tensor of shape " + value.shape.str() +
                 " would need more than " + llvm::Twine(kMaxTensorBytes >> 40) +
                 " TiB, more than any machine's memory");
    return nullptr;
  }
  return RankedTensorType::get(dims, elementType(value.dtype));
}

mlir::Value MLIRGen::indexConstant(int64_t v, mlir::Location l) {
  return mlir::arith::ConstantIndexOp::create(builder, l, v);
}

mlir::Value MLIRGen::scalarConstant(double v, mlir::Type type, mlir::Location l) {
  if (llvm::isa<mlir::ComplexType>(type))
    return constantOf(builder, l, type, v);
  if (auto f = llvm::dyn_cast<mlir::FloatType>(type))
    return mlir::arith::ConstantOp::create(builder, l, builder.getFloatAttr(f, v));
  if (type.isIndex())
    return indexConstant(int64_t(v), l);
  return mlir::arith::ConstantOp::create(builder, l, builder.getIntegerAttr(type, int64_t(v)));
}

/// The nested-list shape of a Python value (a number is a scalar).
static void pythonShape(const Value &v, llvm::SmallVectorImpl<int64_t> &dims) {
  if (!v.isPySequence())
    return;
  dims.push_back(v.items().size());
  if (!v.items().empty())
    pythonShape(v.items()[0], dims);
}

static void flatten(const Value &v, std::vector<const Value *> &out) {
  if (v.isPySequence()) {
    for (const Value &e : v.items())
      flatten(e, out);
    return;
  }
  out.push_back(&v);
}

mlir::Value MLIRGen::denseConstant(const Value &python, RankedTensorType type, const Location &at) {
  llvm::SmallVector<int64_t> dims;
  pythonShape(python, dims);
  std::vector<const Value *> scalars;
  flatten(python, scalars);
  if (llvm::any_of(scalars, [](const Value *s) { return s->kind == Value::Kind::Str; })) {
    if (!llvm::all_of(scalars, [](const Value *s) { return s->kind == Value::Kind::Str; }) ||
        !type.getElementType().isInteger(64)) {
      fail(at, "cannot convert " + python.describe() + " to a tensor here");
      return nullptr;
    }
    return stringConstant(scalars, dims, type, at);
  }
  mlir::Type element = type.getElementType();
  llvm::SmallVector<mlir::Attribute> attrs;
  for (const Value *s : scalars) {
    double asDouble = s->kind == Value::Kind::Float ? s->f : double(s->i);
    if (auto c = llvm::dyn_cast<mlir::ComplexType>(element)) {
      auto part = llvm::cast<mlir::FloatType>(c.getElementType());
      attrs.push_back(builder.getArrayAttr(
          {builder.getFloatAttr(part, asDouble), builder.getFloatAttr(part, 0.0)}));
    } else if (auto f = llvm::dyn_cast<mlir::FloatType>(element))
      attrs.push_back(builder.getFloatAttr(f, asDouble));
    else if (element.isInteger(1))
      attrs.push_back(builder.getBoolAttr(asDouble != 0));
    else // a Python int wraps into a narrower dtype, as NumPy converts it (300 -> int8 44)
      attrs.push_back(builder.getIntegerAttr(
          element, llvm::APInt(64, uint64_t(s->kind == Value::Kind::Float ? int64_t(s->f) : s->i),
                               /*isSigned=*/true)
                       .sextOrTrunc(element.getIntOrFloatBitWidth())));
  }
  auto own = RankedTensorType::get(dims, element);
  mlir::Location l = loc(at);
  mlir::Value c;
  if (attrs.size() == 1 && own.getNumElements() == 1)
    c = mlir::arith::ConstantOp::create(builder, l, mlir::DenseElementsAttr::get(own, attrs[0]));
  else
    c = mlir::arith::ConstantOp::create(builder, l, mlir::DenseElementsAttr::get(own, attrs));
  if (own != type) {
    if (type.hasStaticShape() && own.getNumElements() == 1 && type.getNumElements() != 1)
      return mlir::arith::ConstantOp::create(
          builder, l, mlir::DenseElementsAttr::get(type, attrs[0]));
    return mlir::tensor::CastOp::create(builder, l, type, c);
  }
  return c;
}

mlir::Value MLIRGen::dimSize(mlir::Value t, int64_t dim, mlir::Location l) {
  auto type = llvm::cast<RankedTensorType>(t.getType());
  if (!type.isDynamicDim(dim))
    return indexConstant(type.getDimSize(dim), l);
  // The size the op that made `t` was given, where it says: a reshape given its sizes
  // (keepdims=, expand_dims), a new tensor, and what a linalg op writes into (the result
  // of an elementwise op has its init's sizes). So `x - tf.reduce_max(x, 1, keepdims=True)`
  // and what follows it see one size, and need neither a check nor a broadcast copy.
  for (int depth = 0; depth < 16; ++depth) {
    mlir::Operation *def = t.getDefiningOp();
    if (auto expand = llvm::dyn_cast_or_null<mlir::tensor::ExpandShapeOp>(def)) {
      if (auto v = llvm::dyn_cast<mlir::Value>(expand.getMixedOutputShape()[dim]))
        return v;
      break;
    }
    if (auto made = llvm::dyn_cast_or_null<mlir::tensor::EmptyOp>(def))
      return made.getDynamicSize(dim);
    if (auto linalgOp = llvm::dyn_cast_or_null<mlir::linalg::LinalgOp>(def)) {
      auto result = llvm::cast<mlir::OpResult>(t);
      t = linalgOp.getDpsInitOperand(result.getResultNumber())->get();
      continue;
    }
    break;
  }
  return mlir::tensor::DimOp::create(builder, l, t, dim);
}

mlir::Value MLIRGen::empty(RankedTensorType type, llvm::ArrayRef<mlir::Value> sizes,
                           mlir::Location l) {
  llvm::SmallVector<mlir::Value> checked(sizes);
  checkSizes(type, checked, l);
  llvm::SmallVector<mlir::Value> dynamic;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      dynamic.push_back(checked[d]);
  return mlir::tensor::EmptyOp::create(builder, l, type, dynamic);
}

void MLIRGen::checkSizes(RankedTensorType type, llvm::MutableArrayRef<mlir::Value> sizes,
                         mlir::Location l) {
  if (type.hasStaticShape() || !runtimeChecks)
    return; // tensorType() checked a static shape
  // Each dynamic size is not negative (a tensor.dim is not), and the byte count, computed
  // in floating point where it cannot wrap, stays below kMaxTensorBytes. A tensor whose
  // dynamic sizes all are those of one existing tensor needs neither.
  mlir::Value source;
  bool oneSource = true;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    auto dim = type.isDynamicDim(d) ? sizes[d].getDefiningOp<mlir::tensor::DimOp>() : nullptr;
    if (type.isDynamicDim(d))
      oneSource &= dim && (!source || dim.getSource() == source);
    if (dim)
      source = dim.getSource();
  }
  if (oneSource)
    return;
  mlir::Type f64 = builder.getF64Type();
  mlir::Value bytes = scalarConstant(double(elementBytes(type)), f64, l);
  llvm::SmallVector<mlir::Value> dynamic;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    mlir::Value size = type.isDynamicDim(d) ? sizes[d] : indexConstant(type.getDimSize(d), l);
    if (type.isDynamicDim(d) && !size.getDefiningOp<mlir::tensor::DimOp>())
      check(mlir::arith::CmpIOp::create(builder, l, mlir::arith::CmpIPredicate::sge, size,
                                        indexConstant(0, l)),
            "dimension " + llvm::Twine(d) + " of a new tensor would have the negative size {0}",
            {size}, l, sizes.slice(d, 1));
    if (type.isDynamicDim(d))
      size = sizes[d];
    mlir::Value asFloat = mlir::arith::SIToFPOp::create(
        builder, l, f64, mlir::arith::IndexCastOp::create(builder, l, builder.getI64Type(), size));
    bytes = mlir::arith::MulFOp::create(builder, l, bytes, asFloat);
    if (type.isDynamicDim(d))
      dynamic.push_back(size);
  }
  check(mlir::arith::CmpFOp::create(builder, l, mlir::arith::CmpFPredicate::OLE, bytes,
                                    scalarConstant(double(kMaxTensorBytes), f64, l)),
        "a new tensor would need more than " + llvm::Twine(kMaxTensorBytes >> 40) +
            " TiB, more than any machine's memory",
        {}, l, dynamic);
  for (int64_t d = 0, i = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      sizes[d] = dynamic[i++];
}

bool MLIRGen::sameSize(mlir::Value a, mlir::Value b) {
  if (a == b)
    return true;
  auto da = a.getDefiningOp<mlir::tensor::DimOp>(), db = b.getDefiningOp<mlir::tensor::DimOp>();
  if (!da || !db || da.getSource() != db.getSource())
    return false;
  std::optional<int64_t> ia = da.getConstantIndex(), ib = db.getConstantIndex();
  return ia && ib && *ia == *ib;
}

int64_t MLIRGen::elementBytes(RankedTensorType type) {
  mlir::Type e = type.getElementType();
  // tf.argsort's positions, and other scratch tensors of indices: 64 bits on every target
  // agc has. (getIntOrFloatBitWidth crashed on them.)
  if (e.isIndex())
    return 8;
  if (auto c = llvm::dyn_cast<mlir::ComplexType>(e))
    return 2 * c.getElementType().getIntOrFloatBitWidth() / 8;
  unsigned bits = e.getIntOrFloatBitWidth();
  return bits == 1 ? 1 : bits / 8;
}

void MLIRGen::check(OpBuilder &b, mlir::Value ok, const llvm::Twine &message,
                    llvm::ArrayRef<mlir::Value> values, mlir::Location l,
                    llvm::MutableArrayRef<mlir::Value> guards) {
  if (!runtimeChecks)
    return;
  if (std::optional<int64_t> known = mlir::getConstantIntValue(ok); known && *known)
    return;
  // A comparison of constants (static sizes) that holds needs no check.
  llvm::SmallVector<mlir::OpFoldResult, 1> folded;
  if (mlir::Operation *def = ok.getDefiningOp(); def && mlir::succeeded(def->fold(folded)) &&
      folded.size() == 1)
    if (std::optional<int64_t> known = mlir::getConstantIntValue(folded[0]); known && *known)
      return;
  mlir::Type i64 = b.getI64Type();
  llvm::SmallVector<mlir::Value> asI64;
  for (mlir::Value v : values) {
    if (v.getType().isIndex())
      v = mlir::arith::IndexCastOp::create(b, l, i64, v);
    else if (v.getType() != i64)
      v = mlir::arith::ExtSIOp::create(b, l, i64, v);
    asI64.push_back(v);
  }
  auto op = AssertOp::create(b, l, ok, where(l) + message.str(), asI64,
                             llvm::SmallVector<mlir::Value>(guards.begin(), guards.end()));
  llvm::copy(op.getResults(), guards.begin());
}

mlir::Value MLIRGen::dependOn(mlir::Value r, mlir::ValueRange deps, mlir::Location l) {
  if (deps.empty() || !runtimeChecks)
    return r; // without checks, what deps compute cannot fail
  llvm::SmallVector<mlir::Value> guarded{r};
  llvm::append_range(guarded, deps);
  mlir::Value yes = mlir::arith::ConstantOp::create(builder, l, builder.getBoolAttr(true));
  return AssertOp::create(builder, l, yes, "", mlir::ValueRange{}, guarded).getResult(0);
}

mlir::Value MLIRGen::filled(RankedTensorType type, llvm::ArrayRef<mlir::Value> sizes,
                            mlir::Value scalar, mlir::Location l) {
  mlir::Value init = empty(type, sizes, l);
  return mlir::linalg::FillOp::create(builder, l, mlir::ValueRange{scalar}, mlir::ValueRange{init})
      .getResult(0);
}

mlir::Value MLIRGen::reshape(mlir::Value t, RankedTensorType type,
                             llvm::ArrayRef<mlir::Value> sizes, mlir::Location l) {
  if (t.getType() == type)
    return t;
  // Through one dimension: collapse everything, then expand to the new shape. Both lower
  // through expand-strided-metadata (memref.reshape of a dynamic shape does not).
  auto in = llvm::cast<RankedTensorType>(t.getType());
  mlir::Type e = in.getElementType();
  // No elements (a static 0 beside dynamic sizes): an empty tensor. Collapsed, such a
  // tensor folds to a static 0 that memref.collapse_shape's verifier refuses.
  if (llvm::is_contained(in.getShape(), 0) && !in.hasStaticShape())
    return dependOn(empty(type, sizes, l), t, l);
  int64_t count = in.hasStaticShape() ? in.getNumElements() : mlir::ShapedType::kDynamic;
  if (type.hasStaticShape())
    count = type.getNumElements();
  auto flatType = RankedTensorType::get({count}, e);
  mlir::Value flat;
  if (in.getRank() == 0) {
    flat = mlir::tensor::ExpandShapeOp::create(builder, l, RankedTensorType::get({1}, e), t,
                                               llvm::ArrayRef<mlir::ReassociationIndices>{},
                                               llvm::ArrayRef<mlir::OpFoldResult>{builder.getIndexAttr(1)});
  } else if (in.getRank() == 1) {
    flat = t;
  } else {
    mlir::ReassociationIndices all;
    for (int64_t d = 0; d < in.getRank(); ++d)
      all.push_back(d);
    flat = mlir::tensor::CollapseShapeOp::create(builder, l, t, llvm::ArrayRef<mlir::ReassociationIndices>{all});
  }
  if (flat.getType() != flatType)
    flat = mlir::tensor::CastOp::create(builder, l, flatType, flat);
  if (type.getRank() == 1)
    return flat.getType() == type ? flat : mlir::tensor::CastOp::create(builder, l, type, flat);
  if (type.getRank() == 0) {
    mlir::Value one = flat;
    if (flatType.isDynamicDim(0))
      one = mlir::tensor::CastOp::create(builder, l, RankedTensorType::get({1}, e), flat);
    return mlir::tensor::CollapseShapeOp::create(builder, l, type, one,
                                                 llvm::ArrayRef<mlir::ReassociationIndices>{});
  }
  // Upstream's expand-strided-metadata crashes on a memref.expand_shape with two dynamic
  // sizes in one group (MLIR 22): that case goes through tensor.reshape and a shape
  // tensor, which lowers to memref.reshape.
  if (llvm::count_if(type.getShape(), mlir::ShapedType::isDynamic) > 1) {
    llvm::SmallVector<mlir::Value> dims;
    for (int64_t d = 0; d < type.getRank(); ++d)
      dims.push_back(type.isDynamicDim(d) ? sizes[d] : indexConstant(type.getDimSize(d), l));
    mlir::Value shape = mlir::tensor::FromElementsOp::create(
        builder, l, RankedTensorType::get({type.getRank()}, builder.getIndexType()), dims);
    return mlir::tensor::ReshapeOp::create(builder, l, type, flat, shape);
  }
  mlir::ReassociationIndices all;
  llvm::SmallVector<mlir::OpFoldResult> shape;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    all.push_back(d);
    shape.push_back(type.isDynamicDim(d) ? mlir::OpFoldResult(sizes[d])
                                         : mlir::OpFoldResult(builder.getIndexAttr(type.getDimSize(d))));
  }
  return mlir::tensor::ExpandShapeOp::create(builder, l, type, flat,
                                             llvm::ArrayRef<mlir::ReassociationIndices>{all}, shape);
}

//===----------------------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------------------===//

/// Clones the ops that compute `v` (module-level code) at the builder's insertion point.
static mlir::Value cloneChain(OpBuilder &builder, mlir::Value v, mlir::IRMapping &map) {
  if (mlir::Value known = map.lookupOrNull(v))
    return known;
  mlir::Operation *def = v.getDefiningOp();
  for (mlir::Value operand : def->getOperands())
    cloneChain(builder, operand, map);
  mlir::Operation *copy = builder.clone(*def, map);
  return copy->getResult(llvm::cast<mlir::OpResult>(v).getResultNumber());
}

mlir::Value MLIRGen::use(const void *h) {
  mlir::Value v = mlir::Value::getFromOpaquePointer(h);
  if (!function || !moduleInit || !v.getParentBlock() ||
      v.getParentBlock()->getParentOp() != moduleInit.getOperation())
    return v;
  mlir::IRMapping map;
  return cloneChain(builder, v, map);
}

mlir::Value MLIRGen::materialize(const Value &value, RankedTensorType type, const Location &at) {
  mlir::Location l = loc(at);
  mlir::Value v;
  switch (value.kind) {
  case Value::Kind::Tensor:
  case Value::Kind::TensorArray:
    if (!value.ir) {
      fail(at, "internal error: " + value.describe() + " has no IR value");
      return nullptr;
    }
    v = use(value.ir);
    break;
  case Value::Kind::Variable: {
    Value read = Value::tensor(value.dtype, value.shape);
    if (!readVariable(value, read, at))
      return nullptr;
    v = use(read.ir);
    break;
  }
  case Value::Kind::Int:
  case Value::Kind::Float:
  case Value::Kind::Bool:
  case Value::Kind::Str:
  case Value::Kind::List:
  case Value::Kind::Tuple:
    return denseConstant(value, type, at);
  case Value::Kind::Undefined: {
    // A value that no path reads (a branch that returned or broke out): zeros.
    llvm::SmallVector<mlir::Value> sizes(type.getRank(), indexConstant(0, l));
    return filled(type, sizes, scalarConstant(0, type.getElementType(), l), l);
  }
  default:
    fail(at, "cannot use " + value.describe() + " as a tensor here");
    return nullptr;
  }
  if (v.getType() == type)
    return v;
  auto have = llvm::cast<RankedTensorType>(v.getType());
  if (have.getElementType() != type.getElementType() ||
      !mlir::tensor::CastOp::areCastCompatible(have, type)) {
    std::string have_, want_;
    llvm::raw_string_ostream(have_) << have;
    llvm::raw_string_ostream(want_) << type;
    fail(at, "internal error: cannot use a value of type " + have_ + " as " + want_);
    return nullptr;
  }
  return mlir::tensor::CastOp::create(builder, l, type, v);
}

/// The type of the tensor that a Python list holding tensors packs into: [n, ...] of the
/// first tensor's dtype (or `dtype`), the items' shapes joined; nothing for a list without
/// tensors.
static std::optional<Value> packedType(const Value &value, std::optional<DType> dtype) {
  const Value *first = value.isPySequence() ? analysis::firstTensorIn(value) : nullptr;
  if (!first)
    return std::nullopt;
  std::function<analysis::Shape(const Value &)> shapeOf = [&](const Value &v) {
    if (v.isTensorLike())
      return v.shape;
    if (!v.isPySequence())
      return analysis::Shape::scalar();
    analysis::Shape inner;
    bool first = true;
    for (const Value &e : v.items()) {
      analysis::Shape s = shapeOf(e);
      inner = first ? s : inner.join(s);
      first = false;
    }
    inner.dims.insert(inner.dims.begin(), int64_t(v.items().size()));
    return inner;
  };
  // Of `dtype` where asked (MLIRGen::constant casts the tensors of another dtype, as
  // TensorFlow's autopacking does), else the first tensor's.
  return Value::tensor(dtype.value_or(first->dtype), shapeOf(value));
}

mlir::Value MLIRGen::operand(const Value &value, const Location &at, std::optional<DType> dtype) {
  if (value.isTensorLike() || value.kind == Value::Kind::TensorArray) {
    RankedTensorType type = tensorType(value, at);
    if (value.kind == Value::Kind::TensorArray && value.ir)
      return use(value.ir);
    return type ? materialize(value, type, at) : nullptr;
  }
  if (!value.isPyScalar() && !value.isPySequence() && value.kind != Value::Kind::Str) {
    fail(at, "expected a tensor or a Python number, not " + value.describe());
    return nullptr;
  }
  // A list holding tensors packs them, as TensorFlow converts it (tf.stack of the items,
  // Python numbers among them converted to the tensors' dtype).
  if (std::optional<Value> packed = packedType(value, dtype)) {
    if (!constant(*packed, value, at))
      return nullptr;
    return use(packed->ir);
  }
  // A Python value: TensorFlow's conversion (int -> int32, float -> float32, str ->
  // string), or `dtype`.
  std::vector<const Value *> scalars;
  flatten(value, scalars);
  DType own = DType::Int32;
  for (const Value *s : scalars) {
    if (s->kind == Value::Kind::Str)
      own = DType::String;
    else if (own == DType::String)
      ; // a list mixing str and numbers: denseConstant refuses it below
    else if (s->kind == Value::Kind::Float)
      own = DType::Float32;
    else if (s->kind == Value::Kind::Bool && own == DType::Int32 && scalars.size() == 1)
      own = DType::Bool;
    else if (s->kind == Value::Kind::Int && s->i != int32_t(s->i) && own == DType::Int32)
      own = DType::Int64; // as the tracer types it: int32 cannot hold this int

    else if (!s->isPyScalar()) {
      fail(at, "cannot convert " + value.describe() + " to a tensor here");
      return nullptr;
    }
  }
  // A string is a handle: only a str makes one (the tracer refuses the rest first).
  if (dtype && (*dtype == DType::String) != (own == DType::String)) {
    fail(at, "internal error: cannot convert " + value.describe() + " to a tensor of dtype " +
                 analysis::dtypeName(*dtype));
    return nullptr;
  }
  llvm::SmallVector<int64_t> dims;
  pythonShape(value, dims);
  return denseConstant(value, RankedTensorType::get(dims, elementType(dtype.value_or(own))), at);
}

bool MLIRGen::constant(Value &out, const Value &python, const Location &at) {
  RankedTensorType type = tensorType(out, at);
  if (!type)
    return false;
  if (!python.isPySequence() || !analysis::firstTensorIn(python)) {
    mlir::Value c = denseConstant(python, type, at);
    out.ir = c ? handle(c) : nullptr;
    return c != nullptr;
  }
  // [t0, t1, ...] holding tensors: tf.stack of the items.
  mlir::Location l = loc(at);
  llvm::SmallVector<int64_t> inner(type.getShape().drop_front());
  auto innerType = RankedTensorType::get(inner, type.getElementType());
  llvm::SmallVector<int64_t> one{1};
  one.append(inner.begin(), inner.end());
  auto oneType = RankedTensorType::get(one, type.getElementType());
  llvm::SmallVector<mlir::Value> parts;
  mlir::Value first;
  for (const Value &e : python.items()) {
    Value item = Value::tensor(out.dtype, analysis::Shape::of(inner));
    // A tensor of another dtype is cast to the list's (a dtype asked for, as in `x + [i]`).
    Value cast = Value::tensor(out.dtype, e.shape);
    if (e.isTensorLike() && e.dtype != out.dtype) {
      analysis::CallArgs args;
      args.positional = {e};
      args.loc = at;
      if (!emitCast(analysis::TFOp::Cast, args, cast))
        return false;
    }
    mlir::Value t = e.isPySequence() && !e.isTensorLike()
                        ? (constant(item, e, at) ? use(item.ir) : nullptr)
                    : cast.ir ? materialize(cast, innerType, at)
                              : materialize(e, innerType, at);
    if (!t)
      return false;
    // The items' sizes known only at run time must be the first item's, as tf.stack
    // checks them (the tracer compared the static ones).
    for (int64_t d = 0; first && d < innerType.getRank(); ++d) {
      if (!innerType.isDynamicDim(d))
        continue;
      mlir::Value have = dimSize(t, d, l), want = dimSize(first, d, l);
      if (have == want)
        continue;
      mlir::Value guarded[] = {t};
      check(mlir::arith::CmpIOp::create(builder, l, mlir::arith::CmpIPredicate::eq, have, want),
            "tf.stack: dimension " + llvm::Twine(d) + " is {0} in values[" +
                llvm::Twine(parts.size()) + "] and {1} in values[0]; the tensors stacked must "
                "have one shape",
            {have, want}, l, guarded);
      t = guarded[0];
    }
    if (!first)
      first = t;
    llvm::SmallVector<mlir::Value> sizes{indexConstant(1, l)};
    for (int64_t d = 0; d < innerType.getRank(); ++d)
      sizes.push_back(dimSize(t, d, l));
    parts.push_back(reshape(t, oneType, sizes, l));
  }
  mlir::Value packed = parts.size() == 1
                           ? parts[0]
                           : mlir::tensor::ConcatOp::create(builder, l, 0, parts).getResult();
  if (packed.getType() != type)
    packed = mlir::tensor::CastOp::create(builder, l, type, packed);
  out.ir = handle(packed);
  return true;
}

bool MLIRGen::castTo(Value &out, const Value &from, const Location &at) {
  RankedTensorType type = tensorType(out, at);
  mlir::Value v = type ? materialize(from, type, at) : nullptr;
  out.ir = v ? handle(v) : nullptr;
  return v != nullptr;
}

//===----------------------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------------------===//

bool MLIRGen::beginFunction(const ast::FunctionDefStmt &fn, llvm::StringRef symbol,
                            llvm::MutableArrayRef<Value> args) {
  llvm::SmallVector<mlir::Type> types;
  llvm::SmallVector<unsigned> tensorArgs;
  for (unsigned i = 0; i < args.size(); ++i) {
    if (!args[i].isTensor())
      continue; // a Python value specializes the function
    RankedTensorType type = tensorType(args[i], fn.getNameLoc());
    if (!type)
      return false;
    types.push_back(type);
    tensorArgs.push_back(i);
  }
  // `model.method` is the C symbol model_method; the header shows the Python name.
  std::string name = symbol.str();
  std::replace(name.begin(), name.end(), '.', '_');
  if (unsigned n = names[name]++)
    name += "_" + std::to_string(n);
  builder.setInsertionPoint(moduleInit);
  function = mlir::func::FuncOp::create(builder, loc(fn.getNameLoc()), name,
                                        builder.getFunctionType(types, {}));
  // A C entry point taking and returning memref descriptors by pointer (_mlir_ciface_*).
  function->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
  mlir::Block *entry = function.addEntryBlock();
  // The Python names of the tensor arguments, in order (for headers and messages).
  llvm::SmallVector<mlir::Attribute> argNames;
  for (auto [k, i] : llvm::enumerate(tensorArgs)) {
    args[i].ir = handle(entry->getArgument(k));
    // String handles and unsigned integers: the element type does not say the dtype.
    if (args[i].dtype == DType::String || analysis::isUnsigned(args[i].dtype))
      function.setArgAttr(k, "ag.dtype", builder.getStringAttr(analysis::dtypeName(args[i].dtype)));
    argNames.push_back(builder.getStringAttr(i < fn.getParams().size() ? fn.getParams()[i].name
                                                                       : std::string()));
  }
  function->setAttr("ag.arg_names", builder.getArrayAttr(argNames));
  if (symbol != fn.getName())
    function->setAttr("ag.python_name", builder.getStringAttr(symbol));
  builder.setInsertionPointToStart(entry);
  return true;
}

bool MLIRGen::endFunction(const ast::FunctionDefStmt &fn, const Value &result) {
  llvm::SmallVector<mlir::Value> outs;
  Location at = fn.getBody().empty() ? fn.getNameLoc() : fn.getBody().back()->loc();
  // The structure of the Python result as JSON, each tensor the index of its flat result:
  // `0`, `[0, 1, null]` (a tuple holding None), `null`, `{"loss": 0, "acc": 1}` (a dict).
  std::string structure;
  // The results whose element type does not say their dtype (strings, unsigned).
  llvm::SmallVector<std::pair<unsigned, DType>> marked;
  std::function<bool(const Value &)> flattenResult = [&](const Value &v) {
    if (v.isTensorLike() || v.isPyScalar()) {
      mlir::Value t = operand(v, at);
      if (!t)
        return false;
      structure += std::to_string(outs.size());
      if (v.isTensorLike() && (v.dtype == DType::String || analysis::isUnsigned(v.dtype)))
        marked.push_back({unsigned(outs.size()), v.dtype});
      outs.push_back(t);
      return true;
    }
    if (v.isPySequence()) {
      structure += "[";
      for (const Value &e : v.items()) {
        if (&e != &v.items().front())
          structure += ", ";
        if (!flattenResult(e))
          return false;
      }
      structure += "]";
      return true;
    }
    if (v.kind == Value::Kind::None) {
      structure += "null";
      return true;
    }
    if (v.kind == Value::Kind::Dict) { // a JSON object, its keys as Python's str() writes them
      structure += "{";
      for (size_t k = 0; k < v.object->keys.size(); ++k) {
        structure += k ? ", \"" : "\"";
        for (char c : v.object->keys[k].pyStr(false)) {
          if (c == '"' || c == '\\')
            structure += '\\';
          if (static_cast<unsigned char>(c) < 0x20)
            structure += llvm::formatv("\\u{0:x-4}", unsigned(c)).str();
          else
            structure += c;
        }
        structure += "\": ";
        if (!flattenResult(v.object->items[k]))
          return false;
      }
      structure += "}";
      return true;
    }
    return fail(at, "'" + fn.getName() + "' returns " + v.describe() +
                        ", which a compiled function cannot return; return tensors");
  };
  if (!flattenResult(result))
    return false;
  function->setAttr("ag.result", builder.getStringAttr(structure));
  mlir::func::ReturnOp::create(builder, loc(at), outs);
  function.setType(builder.getFunctionType(function.getArgumentTypes(),
                                           mlir::ValueRange(outs).getTypes()));
  for (auto [i, dtype] : marked)
    function.setResultAttr(i, "ag.dtype", builder.getStringAttr(analysis::dtypeName(dtype)));
  function = nullptr;
  builder.setInsertionPointToEnd(&moduleInit.getBody().front());
  return true;
}

//===----------------------------------------------------------------------------------===//
// The driver
//===----------------------------------------------------------------------------------===//

mlir::OwningOpRef<mlir::ModuleOp> ag::mlirGen(mlir::MLIRContext &context, const ast::Module &module,
                                              const analysis::ArgumentSpec &spec,
                                              DiagnosticEngine &diag,
                                              std::vector<std::string> *readFiles) {
  context.loadAllAvailableDialects();
  // First without the generator: the refusals, and what tf.TensorArrays hold.
  analysis::Tracer tracer(module, diag);
  if (!analysis::traceModule(tracer, module, spec))
    return nullptr;
  MLIRGen gen(context, diag);
  gen.runtimeChecks = spec.runtimeChecks;
  gen.filePrefixMap = spec.filePrefixMap;
  tracer.setEmitter(&gen);
  bool ok = tracer.evaluateModule();
  std::optional<std::vector<analysis::EntryPoint>> entries =
      analysis::entryPoints(module, spec, diag);
  ok &= entries.has_value();
  for (const analysis::EntryPoint &entry : entries ? *entries : std::vector<analysis::EntryPoint>())
    ok = ok && tracer.traceEntry(entry, spec);
  tracer.setEmitter(nullptr);
  if (readFiles)
    *readFiles = tracer.getReadFiles();
  mlir::OwningOpRef<mlir::ModuleOp> out = gen.takeModule();
  if (!ok || diag.hadError())
    return nullptr;
  if (mlir::failed(mlir::verify(*out))) {
    diag.error("internal error: the generated MLIR does not verify (see above)");
    return nullptr;
  }
  return out;
}
