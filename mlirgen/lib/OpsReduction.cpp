//===- OpsReduction.cpp - Reductions, argmax/argmin, softmax --------------------===//
//
// tf.reduce_* as linalg.reduce (mean divides by the count; an int32 mean sums in 64 bits),
// argmax/argmin as a linalg.generic that keeps the first best index, softmax and
// log_softmax stable (the row maximum subtracted first).
//
//===----------------------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <limits>

using namespace ag;
namespace arith = mlir::arith;

std::optional<llvm::SmallVector<int64_t>> MLIRGen::axes(const Value *axis, unsigned rank,
                                                        const Location &at) {
  llvm::SmallVector<int64_t> out;
  if (!axis || axis->kind == Value::Kind::None) {
    for (unsigned d = 0; d < rank; ++d)
      out.push_back(d);
    return out;
  }
  std::vector<Value> items = axis->isPySequence() ? axis->items() : std::vector<Value>{*axis};
  for (const Value &v : items) {
    if (v.kind != Value::Kind::Int) {
      fail(at, "an axis must be a Python int for agc's code generator, not " + v.describe());
      return std::nullopt;
    }
    int64_t a = v.i < 0 ? v.i + rank : v.i;
    if (!llvm::is_contained(out, a))
      out.push_back(a);
  }
  llvm::sort(out);
  return out;
}

mlir::Value MLIRGen::reduce(mlir::Value input, llvm::ArrayRef<int64_t> dims, mlir::Value init,
                            const ScalarBody &combine, mlir::Location l) {
  auto type = llvm::cast<RankedTensorType>(input.getType());
  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<mlir::Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (llvm::is_contained(dims, d))
      continue;
    shape.push_back(type.getDimSize(d));
    sizes.push_back(type.isDynamicDim(d) ? dimSize(input, d, l) : nullptr);
  }
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  mlir::Value acc = filled(resultType, sizes, init, l);
  auto op = mlir::linalg::ReduceOp::create(
      builder, l, mlir::ValueRange{input}, mlir::ValueRange{acc}, dims,
      [&](OpBuilder &b, mlir::Location bl, mlir::ValueRange args) {
        mlir::linalg::YieldOp::create(b, bl, combine(b, bl, args));
      });
  return op.getResult(0);
}

/// The sizes of `t`'s dimensions, as index values.
llvm::SmallVector<mlir::Value> ag::sizesOf(MLIRGen &gen, mlir::Value t, mlir::Location l) {
  llvm::SmallVector<mlir::Value> sizes;
  auto type = llvm::cast<RankedTensorType>(t.getType());
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(gen.dimSize(t, d, l));
  return sizes;
}

/// `reduced` (over sorted `dims` of `input`) with those dimensions kept as 1s, as `type`.
static mlir::Value keepDims(MLIRGen &gen, mlir::Value input, mlir::Value reduced,
                            llvm::ArrayRef<int64_t> dims, RankedTensorType type, mlir::Location l) {
  llvm::SmallVector<mlir::Value> sizes = sizesOf(gen, input, l);
  for (int64_t d : dims)
    sizes[d] = gen.indexConstant(1, l);
  return gen.reshape(reduced, type, sizes, l);
}

bool MLIRGen::emitReduce(TFOp op, const CallArgs &args, Value &out) {
  const Value *x = args.get(0, "input_tensor");
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value input = x && type ? operand(*x, args.loc, out.dtype) : nullptr;
  if (!input)
    return false;
  auto inType = llvm::cast<RankedTensorType>(input.getType());
  std::optional<llvm::SmallVector<int64_t>> dims = axes(args.get(1, "axis"), inType.getRank(), args.loc);
  if (!dims)
    return false;
  const Value *keep = args.get(2, "keepdims");
  mlir::Location l = loc(args.loc);
  mlir::Type e = inType.getElementType();
  DType dtype = out.dtype;
  bool fp = analysis::isFloat(dtype);
  const double lowest = -std::numeric_limits<double>::infinity();
  const double highest = std::numeric_limits<double>::infinity();
  TFOp combine;
  double init = 0; // for integers, lowest and highest are the dtype's extremes
  if (op == TFOp::ReduceSum || op == TFOp::ReduceMean) {
    combine = TFOp::Add;
  } else if (op == TFOp::ReduceProd) {
    combine = TFOp::Multiply;
    init = 1;
  } else if (op == TFOp::ReduceMax) {
    combine = TFOp::Maximum;
    init = lowest;
  } else if (op == TFOp::ReduceMin) {
    combine = TFOp::Minimum;
    init = highest;
  } else if (op == TFOp::ReduceAny) {
    combine = TFOp::LogicalOr;
  } else {
    combine = TFOp::LogicalAnd;
    init = 1;
  }
  // An integer mean of fewer than 64 bits sums in 64, as TensorFlow's does: its result
  // fits the dtype even where the sum would not (the sum of [2**31 - 1, 1000] over 2 is
  // 1073742323, not negative; of uint8 [250, 251], 250).
  DType narrow = dtype;
  bool wideMean = op == TFOp::ReduceMean && analysis::isInteger(dtype) &&
                  analysis::bitWidth(dtype) < 64;
  if (wideMean) {
    auto wideType = RankedTensorType::get(inType.getShape(), builder.getI64Type());
    bool zeroExtend = analysis::isUnsigned(dtype);
    input = elementwise(wideType, {input},
                        [&](OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) -> mlir::Value {
                          if (zeroExtend)
                            return arith::ExtUIOp::create(b, bl, b.getI64Type(), xs[0]);
                          return arith::ExtSIOp::create(b, bl, b.getI64Type(), xs[0]);
                        },
                        l);
    inType = wideType;
    e = builder.getI64Type();
    dtype = DType::Int64;
  }
  // float16 and bfloat16 sums, means and products accumulate in float32 and round once,
  // as TensorFlow's accumulate in more than 16 bits (a float16 sum of 1000 x 0.1 is about
  // 100, not 105).
  bool wideFloat = (dtype == DType::Float16 || dtype == DType::BFloat16) &&
                   (op == TFOp::ReduceSum || op == TFOp::ReduceMean || op == TFOp::ReduceProd);
  if (wideFloat) {
    auto wideType = RankedTensorType::get(inType.getShape(), builder.getF32Type());
    input = elementwise(wideType, {input},
                        [&](OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) -> mlir::Value {
                          return arith::ExtFOp::create(b, bl, b.getF32Type(), xs[0]);
                        },
                        l);
    inType = wideType;
    e = builder.getF32Type();
    dtype = DType::Float32;
  }
  mlir::Value initValue;
  if (!fp && (init == lowest || init == highest)) {
    // The integer dtype's extremes.
    unsigned width = e.getIntOrFloatBitWidth();
    bool isUnsigned = analysis::isUnsigned(dtype);
    llvm::APInt extreme = init == lowest
                              ? (isUnsigned ? llvm::APInt::getMinValue(width)
                                            : llvm::APInt::getSignedMinValue(width))
                              : (isUnsigned ? llvm::APInt::getMaxValue(width)
                                            : llvm::APInt::getSignedMaxValue(width));
    initValue = arith::ConstantOp::create(builder, l, builder.getIntegerAttr(e, extreme));
  } else {
    initValue = scalarConstant(init, e, l);
  }
  // Where every reduced dimension has size 1 (a scalar, or axes of size 1), TensorFlow
  // reduces nothing: the result is the input's elements as they are, so a -0.0 stays
  // -0.0 (0.0 + -0.0 would be 0.0). Statically known here; a size 1 known only at run
  // time still goes through the sum.
  bool reducesNothing = !wideMean && llvm::all_of(*dims, [&](int64_t d) {
    return inType.getDimSize(d) == 1;
  });
  mlir::Value r;
  if (reducesNothing) {
    llvm::SmallVector<int64_t> shape;
    llvm::SmallVector<mlir::Value> sizes;
    for (int64_t d = 0; d < inType.getRank(); ++d)
      if (!llvm::is_contained(*dims, d)) {
        shape.push_back(inType.getDimSize(d));
        sizes.push_back(dimSize(input, d, l));
      }
    r = reshape(input, RankedTensorType::get(shape, e), sizes, l);
  } else {
    r = reduce(input, *dims, initValue,
               [&](OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) {
                 return scalarOp(combine, b, bl, xs, dtype);
               },
               l);
  }
  if (op == TFOp::ReduceMean && !reducesNothing) {
    // The sum over the element count (integer division truncates, as TensorFlow's does).
    mlir::Value count = indexConstant(1, l);
    for (int64_t d : *dims)
      count = arith::MulIOp::create(builder, l, count, dimSize(input, d, l));
    if (analysis::isComplex(dtype)) {
      // The sum over (count + 0i).
      auto part = llvm::cast<mlir::FloatType>(llvm::cast<mlir::ComplexType>(e).getElementType());
      mlir::Value re = arith::SIToFPOp::create(
          builder, l, part, arith::IndexCastOp::create(builder, l, builder.getI64Type(), count));
      mlir::Value zero = arith::ConstantOp::create(builder, l, builder.getFloatAttr(part, 0.0));
      mlir::Value n = mlir::complex::CreateOp::create(builder, l, e, re, zero);
      auto rType = llvm::cast<RankedTensorType>(r.getType());
      r = elementwise(rType, {r},
                      [&](OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) -> mlir::Value {
                        return mlir::complex::DivOp::create(b, bl, xs[0], n);
                      },
                      l);
      if (keep && keep->kind == Value::Kind::Bool && keep->i)
        r = keepDims(*this, input, r, *dims, type, l);
      return produce(out, r, type, l);
    }
    mlir::Value n = fp ? arith::SIToFPOp::create(
                             builder, l, e, arith::IndexCastOp::create(builder, l, builder.getI64Type(), count))
                             .getResult()
                       : arith::IndexCastOp::create(builder, l, e, count).getResult();
    auto rType = llvm::cast<RankedTensorType>(r.getType());
    r = elementwise(rType, {r},
                    [&](OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) -> mlir::Value {
                      if (fp)
                        return arith::DivFOp::create(b, bl, xs[0], n);
                      // Guard an empty reduction: 0 rather than a division by zero.
                      mlir::Value one = constantOf(b, bl, e, 1);
                      mlir::Value zero = constantOf(b, bl, e, 0);
                      mlir::Value empty = arith::CmpIOp::create(b, bl, arith::CmpIPredicate::eq, n, zero);
                      mlir::Value by = arith::SelectOp::create(b, bl, empty, one, n);
                      if (analysis::isUnsigned(dtype))
                        return arith::DivUIOp::create(b, bl, xs[0], by);
                      return arith::DivSIOp::create(b, bl, xs[0], by);
                    },
                    l);
  }
  if (wideMean || wideFloat) {
    auto rType = llvm::cast<RankedTensorType>(r.getType());
    mlir::Type narrowType = elementType(narrow);
    r = elementwise(RankedTensorType::get(rType.getShape(), narrowType), {r},
                    [&](OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) -> mlir::Value {
                      if (wideFloat)
                        return arith::TruncFOp::create(b, bl, narrowType, xs[0]);
                      return arith::TruncIOp::create(b, bl, narrowType, xs[0]);
                    },
                    l);
  }
  if (keep && keep->kind == Value::Kind::Bool && keep->i)
    r = keepDims(*this, input, r, *dims, type, l);
  return produce(out, r, type, l);
}

/// The axis an `axis` argument names, `dflt` when it is absent or None.
static std::optional<llvm::SmallVector<int64_t>> oneAxis(MLIRGen &gen, const Value *axis,
                                                         int64_t dflt, unsigned rank,
                                                         const Location &at) {
  Value fallback = Value::integer(dflt);
  return gen.axes(axis && axis->kind != Value::Kind::None ? axis : &fallback, rank, at);
}

bool MLIRGen::emitArgmax(TFOp op, const CallArgs &args, Value &out) {
  const Value *x = args.get(0, "input");
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value input = x && type ? operand(*x, args.loc) : nullptr;
  if (!input)
    return false;
  auto inType = llvm::cast<RankedTensorType>(input.getType());
  std::optional<llvm::SmallVector<int64_t>> dims = oneAxis(*this, args.get(1, "axis"), 0,
                                                          inType.getRank(), args.loc);
  if (!dims)
    return false;
  int64_t axis = (*dims)[0];
  mlir::Location l = loc(args.loc);
  // TensorFlow's error: no element to pick along an empty axis (whatever the others).
  if (inType.getDimSize(axis) == 0 || inType.isDynamicDim(axis)) {
    mlir::Value size = dimSize(input, axis, l);
    mlir::Value guarded[] = {input};
    check(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::sgt, size, indexConstant(0, l)),
          "tf." + tfOpName(op) + ": reduction axis " + llvm::Twine(axis) + " is empty", {}, l,
          guarded);
    input = guarded[0];
  }
  bool isMax = op == TFOp::Argmax;
  bool fp = analysis::isFloat(x->dtype);
  mlir::Type e = inType.getElementType();
  mlir::Type indexType = type.getElementType();
  llvm::SmallVector<mlir::Value> sizes;
  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<mlir::AffineExpr> outExprs;
  for (int64_t d = 0; d < inType.getRank(); ++d) {
    if (d == axis)
      continue;
    shape.push_back(inType.getDimSize(d));
    sizes.push_back(inType.isDynamicDim(d) ? dimSize(input, d, l) : nullptr);
    outExprs.push_back(builder.getAffineDimExpr(d));
  }
  auto valueType = RankedTensorType::get(shape, e);
  auto idxType = RankedTensorType::get(shape, indexType);
  bool isUnsigned = analysis::isUnsigned(x->dtype);
  mlir::Value startValue;
  if (fp) {
    startValue = scalarConstant(isMax ? -INFINITY : INFINITY, e, l);
  } else {
    // The dtype's extreme: nothing is strictly worse.
    unsigned width = e.getIntOrFloatBitWidth();
    llvm::APInt extreme = isMax ? (isUnsigned ? llvm::APInt::getMinValue(width)
                                              : llvm::APInt::getSignedMinValue(width))
                                : (isUnsigned ? llvm::APInt::getMaxValue(width)
                                              : llvm::APInt::getSignedMaxValue(width));
    startValue = arith::ConstantOp::create(builder, l, builder.getIntegerAttr(e, extreme));
  }
  mlir::Value best = filled(valueType, sizes, startValue, l);
  mlir::Value where = filled(idxType, sizes, scalarConstant(0, indexType, l), l);
  llvm::SmallVector<mlir::AffineMap> maps{
      builder.getMultiDimIdentityMap(inType.getRank()),
      mlir::AffineMap::get(inType.getRank(), 0, outExprs, &context),
      mlir::AffineMap::get(inType.getRank(), 0, outExprs, &context)};
  llvm::SmallVector<mlir::utils::IteratorType> iterators(inType.getRank(),
                                                         mlir::utils::IteratorType::parallel);
  iterators[axis] = mlir::utils::IteratorType::reduction;
  auto generic = mlir::linalg::GenericOp::create(
      builder, l, mlir::TypeRange{valueType, idxType}, mlir::ValueRange{input},
      mlir::ValueRange{best, where}, maps, iterators,
      [&](OpBuilder &b, mlir::Location bl, mlir::ValueRange a) {
        // Strictly better: the first of equal values wins, as in TensorFlow.
        mlir::Value better =
            fp ? arith::CmpFOp::create(b, bl, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
                                       a[0], a[1]).getResult()
               : arith::CmpIOp::create(b, bl,
                                       isMax ? (isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt)
                                             : (isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt),
                                       a[0], a[1]).getResult();
        mlir::Value i = mlir::linalg::IndexOp::create(b, bl, axis);
        mlir::Value iv = arith::IndexCastOp::create(b, bl, indexType, i);
        mlir::Value v = arith::SelectOp::create(b, bl, better, a[0], a[1]);
        mlir::Value k = arith::SelectOp::create(b, bl, better, iv, a[2]);
        mlir::linalg::YieldOp::create(b, bl, mlir::ValueRange{v, k});
      });
  mlir::Value r = generic.getResult(1);
  return produce(out, r, type, l);
}

bool MLIRGen::emitSoftmax(TFOp op, const CallArgs &args, Value &out) {
  const Value *x = args.get(0, "logits");
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value input = x && type ? operand(*x, args.loc) : nullptr;
  if (!input)
    return false;
  if (type.getRank() == 0)
    return fail(args.loc, "softmax needs a tensor of rank 1 or more, not a scalar");
  std::optional<llvm::SmallVector<int64_t>> dims = oneAxis(*this, args.get(1, "axis"), -1,
                                                          type.getRank(), args.loc);
  if (!dims)
    return false;
  mlir::Location l = loc(args.loc);
  DType dtype = out.dtype;
  mlir::Type e = type.getElementType();
  auto body = [&](TFOp n) {
    return [this, n, dtype](OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) {
      return scalarOp(n, b, bl, xs, dtype);
    };
  };
  // Stable: exp(x - max) * (1 / sum(exp(x - max))), as TensorFlow's kernel computes it
  // (one division per row, not per element); log_softmax: (x - max) - log(sum(...)).
  auto keptType = [&](mlir::Value reduced) {
    llvm::SmallVector<int64_t> shape(type.getShape());
    for (int64_t d : *dims)
      shape[d] = 1;
    (void)reduced;
    return RankedTensorType::get(shape, e);
  };
  mlir::Value max = reduce(input, *dims, scalarConstant(-INFINITY, e, l), body(TFOp::Maximum), l);
  max = keepDims(*this, input, max, *dims, keptType(max), l);
  mlir::Value shifted = elementwise(type, {input, max}, body(TFOp::Subtract), l);
  mlir::Value exps = elementwise(type, {shifted}, body(TFOp::Exp), l);
  mlir::Value sum = reduce(exps, *dims, scalarConstant(0, e, l), body(TFOp::Add), l);
  sum = keepDims(*this, input, sum, *dims, keptType(sum), l);
  mlir::Value r;
  if (op == TFOp::Softmax) {
    mlir::Value inverse =
        elementwise(llvm::cast<RankedTensorType>(sum.getType()), {sum}, body(TFOp::Reciprocal), l);
    r = elementwise(type, {exps, inverse}, body(TFOp::Multiply), l);
  } else {
    mlir::Value logSum = elementwise(llvm::cast<RankedTensorType>(sum.getType()), {sum}, body(TFOp::Log), l);
    r = elementwise(type, {shifted, logSum}, body(TFOp::Subtract), l);
  }
  out.ir = handle(r);
  return true;
}
