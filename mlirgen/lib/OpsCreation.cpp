//===- OpsCreation.cpp - New tensors: constants, fills, eye, range --------------===//
//
// tf.constant, tf.zeros/ones/fill and their _like forms, tf.eye, tf.range: arith.constant,
// linalg.fill, tensor.generate, with the checks of sizes computed at run time.
//
//===----------------------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <limits>

using namespace ag;
namespace arith = mlir::arith;
namespace math = mlir::math;

mlir::Value MLIRGen::sizeOf(const Value &v, const Location &at) {
  mlir::Location l = loc(at);
  if (v.kind == Value::Kind::Int || v.kind == Value::Kind::Bool)
    return indexConstant(v.i, l);
  mlir::Value t = operand(v, at);
  if (!t)
    return nullptr;
  auto type = llvm::cast<RankedTensorType>(t.getType());
  if (type.getRank() != 0 || !type.getElementType().isSignlessInteger() ||
      type.getElementType().isInteger(1)) {
    fail(at, "a size must be a Python int or a scalar integer tensor, not " + v.describe());
    return nullptr;
  }
  return arith::IndexCastOp::create(builder, l, builder.getIndexType(),
                                    mlir::tensor::ExtractOp::create(builder, l, t, mlir::ValueRange{}));
}

llvm::SmallVector<mlir::Value> MLIRGen::sizesFromShapeTensor(RankedTensorType type,
                                                             mlir::Value shapeTensor,
                                                             mlir::Location l) {
  llvm::SmallVector<mlir::Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d)) {
      sizes.push_back(indexConstant(type.getDimSize(d), l));
      continue;
    }
    mlir::Value v = mlir::tensor::ExtractOp::create(builder, l, shapeTensor,
                                                    mlir::ValueRange{indexConstant(d, l)});
    sizes.push_back(arith::IndexCastOp::create(builder, l, builder.getIndexType(), v));
  }
  return sizes;
}

bool MLIRGen::emitConstant(TFOp, const CallArgs &args, Value &out) {
  const Value *v = args.get(0, "value");
  RankedTensorType type = tensorType(out, args.loc);
  if (!v || !type)
    return false;
  if (v->isTensorLike()) {
    mlir::Value t = operand(*v, args.loc);
    if (!t)
      return false;
    if (v->dtype != out.dtype) {
      mlir::Type to = type.getElementType();
      DType from = v->dtype, dt = out.dtype;
      t = elementwise(RankedTensorType::get(llvm::cast<RankedTensorType>(t.getType()).getShape(), to), {t},
                      [&](OpBuilder &b, mlir::Location l, mlir::ValueRange xs) {
                        return castScalar(b, l, xs[0], from, dt, to);
                      },
                      loc(args.loc));
    }
    if (t.getType() != type)
      t = mlir::tensor::CastOp::create(builder, loc(args.loc), type, t);
    out.ir = handle(t);
    return true;
  }
  // A list holding tensors packs them (their sizes may be known only at run time); one of
  // Python values alone has the static shape it is written with.
  if (v->isPySequence() && !type.hasStaticShape() && !analysis::firstTensorIn(*v))
    return fail(args.loc, "internal error: a constant of dynamic shape");
  return constant(out, *v, args.loc);
}

bool MLIRGen::emitFill(TFOp op, const CallArgs &args, Value &out) {
  llvm::StringRef name = tfOpName(op);
  RankedTensorType type = tensorType(out, args.loc);
  if (!type)
    return false;
  mlir::Location l = loc(args.loc);
  llvm::SmallVector<mlir::Value> sizes;
  mlir::Value value;
  if (op == TFOp::ZerosLike || op == TFOp::OnesLike) {
    const Value *x = args.get(0, "input");
    mlir::Value t = x ? operand(*x, args.loc) : nullptr;
    if (!t)
      return false;
    sizes = sizesOf(*this, t, l);
    value = scalarConstant(op == TFOp::OnesLike ? 1 : 0, type.getElementType(), l);
  } else {
    const Value *dims = args.get(0, op == TFOp::Fill ? "dims" : "shape");
    if (!dims)
      return false;
    if (dims->isTensorLike()) {
      mlir::Value shape = operand(*dims, args.loc);
      if (!shape)
        return false;
      sizes = sizesFromShapeTensor(type, shape, l);
    } else if (dims->isPySequence() && dims->items().size() == size_t(type.getRank())) {
      // A Python list of sizes, each a Python int or a scalar int tensor ([n, 3]).
      for (const Value &e : dims->items()) {
        mlir::Value size = sizeOf(e, args.loc);
        if (!size)
          return false;
        sizes.push_back(size);
      }
    } else {
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (type.isDynamicDim(d))
          return fail(args.loc, "agc's code generator cannot tell the sizes of this " + name +
                                    " from " + dims->describe());
        sizes.push_back(indexConstant(type.getDimSize(d), l));
      }
    }
    if (op == TFOp::Fill) {
      const Value *v = args.get(1, "value");
      mlir::Value t = v ? operand(*v, args.loc, out.dtype) : nullptr;
      if (!t)
        return false;
      value = mlir::tensor::ExtractOp::create(builder, l, t, mlir::ValueRange{});
    } else {
      value = scalarConstant(op == TFOp::Ones ? 1 : 0, type.getElementType(), l);
    }
  }
  out.ir = handle(filled(type, sizes, value, l));
  return true;
}

bool MLIRGen::emitEye(TFOp, const CallArgs &args, Value &out) {
  RankedTensorType type = tensorType(out, args.loc);
  if (!type)
    return false;
  if (type.getRank() != 2)
    return fail(args.loc, "tf.eye with batch_shape is not supported by agc's code generator");
  mlir::Location l = loc(args.loc);
  llvm::SmallVector<mlir::Value> sizes;
  const Value *rows = args.get(0, "num_rows"), *cols = args.get(1, "num_columns");
  for (const Value *v : {rows, cols && cols->kind != Value::Kind::None ? cols : rows}) {
    if (v->kind == Value::Kind::Int) {
      sizes.push_back(indexConstant(v->i, l));
      continue;
    }
    mlir::Value t = operand(*v, args.loc);
    if (!t)
      return false;
    sizes.push_back(arith::IndexCastOp::create(
        builder, l, builder.getIndexType(),
        mlir::tensor::ExtractOp::create(builder, l, t, mlir::ValueRange{})));
  }
  mlir::Value init = empty(type, sizes, l);
  mlir::Type e = type.getElementType();
  auto generic = mlir::linalg::GenericOp::create(
      builder, l, mlir::TypeRange{type}, mlir::ValueRange{}, mlir::ValueRange{init},
      llvm::SmallVector<mlir::AffineMap>{builder.getMultiDimIdentityMap(2)},
      llvm::SmallVector<mlir::utils::IteratorType>(2, mlir::utils::IteratorType::parallel),
      [&](OpBuilder &b, mlir::Location bl, mlir::ValueRange) {
        mlir::Value i = mlir::linalg::IndexOp::create(b, bl, 0);
        mlir::Value j = mlir::linalg::IndexOp::create(b, bl, 1);
        mlir::Value same = arith::CmpIOp::create(b, bl, arith::CmpIPredicate::eq, i, j);
        mlir::Value r = arith::SelectOp::create(b, bl, same, constantOf(b, bl, e, 1), constantOf(b, bl, e, 0));
        mlir::linalg::YieldOp::create(b, bl, r);
      });
  out.ir = handle(generic.getResult(0));
  return true;
}

bool MLIRGen::emitRange(TFOp, const CallArgs &args, Value &out) {
  RankedTensorType type = tensorType(out, args.loc);
  if (!type)
    return false;
  // tf.range(limit) or tf.range(start, limit, delta).
  const Value *start = args.get(0, "start"), *limit = args.get(1, "limit"),
              *delta = args.get(2, "delta");
  Value zero = Value::integer(0), one = Value::integer(1);
  if (!limit || limit->kind == Value::Kind::None) {
    limit = start;
    start = &zero;
  }
  if (!delta)
    delta = &one;
  mlir::Location l = loc(args.loc);
  mlir::Type e = type.getElementType();
  bool fp = analysis::isFloat(out.dtype);
  auto scalarOf = [&](const Value &v) -> mlir::Value {
    mlir::Value t = operand(v, args.loc, out.dtype);
    if (!t)
      return nullptr;
    mlir::Value x = mlir::tensor::ExtractOp::create(builder, l, t, mlir::ValueRange{});
    // dtype= casts a tensor bound of another dtype, as math_ops.range does.
    if (v.isTensorLike() && v.dtype != out.dtype)
      x = castScalar(builder, l, x, v.dtype, out.dtype, e);
    return x;
  };
  mlir::Value s = scalarOf(*start), lim = s ? scalarOf(*limit) : nullptr;
  mlir::Value d = lim ? scalarOf(*delta) : nullptr;
  if (!d)
    return false;
  mlir::Value count;
  if (!type.isDynamicDim(0)) {
    count = indexConstant(type.getDimSize(0), l);
  } else {
    // max(0, ceil((limit - start) / delta)), in f64 for floats and i64 for ints (where
    // limit - start of two int32s cannot wrap); a delta of 0 is TensorFlow's error.
    mlir::Type i64 = builder.getI64Type(), f64 = builder.getF64Type();
    mlir::Value zero = scalarConstant(0, e, l);
    mlir::Value nonzero = fp ? arith::CmpFOp::create(builder, l, arith::CmpFPredicate::UNE, d, zero).getResult()
                             : arith::CmpIOp::create(builder, l, arith::CmpIPredicate::ne, d, zero).getResult();
    // Each check guards what the range is computed from.
    mlir::Value guardDelta[] = {d};
    check(nonzero, "tf.range requires delta != 0", {}, l, guardDelta);
    // What follows uses the guarded delta only (as safeDivisor does).
    if (guardDelta[0] != d) {
      d = guardDelta[0];
      nonzero = fp ? arith::CmpFOp::create(builder, l, arith::CmpFPredicate::UNE, d, zero).getResult()
                   : arith::CmpIOp::create(builder, l, arith::CmpIPredicate::ne, d, zero).getResult();
    }
    // TensorFlow's other requirement: start <= limit when delta > 0, >= when delta < 0.
    auto lt = [&](mlir::Value a, mlir::Value b) -> mlir::Value {
      return fp ? arith::CmpFOp::create(builder, l, arith::CmpFPredicate::OLT, a, b).getResult()
                : arith::CmpIOp::create(builder, l, arith::CmpIPredicate::slt, a, b).getResult();
    };
    mlir::Value wrongWay = arith::OrIOp::create(
        builder, l, arith::AndIOp::create(builder, l, lt(zero, d), lt(lim, s)),
        arith::AndIOp::create(builder, l, lt(d, zero), lt(s, lim)));
    bool loopBounds = iterated.isValid() && args.loc.file == iterated.file &&
                      args.loc.begin.offset == iterated.begin.offset &&
                      args.loc.end.offset == iterated.end.offset;
    if (!loopBounds) {
      mlir::Value guardEnds[] = {s, lim};
      check(arith::XOrIOp::create(builder, l, wrongWay, scalarConstant(1, builder.getI1Type(), l)),
            "tf.range requires start <= limit when delta > 0, and start >= limit when delta < 0",
            {}, l, guardEnds);
      s = guardEnds[0];
      lim = guardEnds[1];
    }
    mlir::Value n;
    if (fp) {
      auto wide = [&](mlir::Value v) {
        return v.getType() == f64 ? v : arith::ExtFOp::create(builder, l, f64, v).getResult();
      };
      mlir::Value q = math::CeilOp::create(
          builder, l,
          arith::DivFOp::create(builder, l, arith::SubFOp::create(builder, l, wide(lim), wide(s)),
                                wide(d)));
      // A NaN or an infinite count is an error, not a conversion's poison.
      mlir::Value finite = arith::CmpFOp::create(builder, l, arith::CmpFPredicate::OLE, q,
                                                 scalarConstant(double(kMaxTensorBytes), f64, l));
      mlir::Value guardCount[] = {q};
      check(finite, "tf.range: the number of elements is not finite or too large", {}, l,
            guardCount);
      if (guardCount[0] != q) {
        q = guardCount[0];
        finite = arith::CmpFOp::create(builder, l, arith::CmpFPredicate::OLE, q,
                                       scalarConstant(double(kMaxTensorBytes), f64, l));
      }
      q = arith::SelectOp::create(builder, l, finite, q, scalarConstant(0, f64, l));
      n = arith::FPToSIOp::create(builder, l, i64, q);
    } else {
      auto wide = [&](mlir::Value v) {
        return v.getType() == i64 ? v : arith::ExtSIOp::create(builder, l, i64, v).getResult();
      };
      // A zero delta is replaced by 1 past its check, so that the division cannot trap.
      mlir::Value safe = arith::SelectOp::create(builder, l, nonzero, wide(d), scalarConstant(1, i64, l));
      n = arith::CeilDivSIOp::create(builder, l, arith::SubIOp::create(builder, l, wide(lim), wide(s)),
                                     safe);
    }
    n = arith::MaxSIOp::create(builder, l, n, scalarConstant(0, i64, l));
    count = arith::IndexCastOp::create(builder, l, builder.getIndexType(), n);
    mlir::Value sizes[] = {count};
    checkSizes(type, sizes, l);
    count = sizes[0];
  }
  auto generate = mlir::tensor::GenerateOp::create(builder, l, type,
                                                   type.isDynamicDim(0) ? mlir::ValueRange{count}
                                                                        : mlir::ValueRange{});
  {
    OpBuilder::InsertionGuard guard(builder);
    mlir::Block *body = builder.createBlock(&generate.getBody(), {}, {builder.getIndexType()}, {l});
    mlir::Value i = body->getArgument(0);
    mlir::Value iv = fp ? arith::SIToFPOp::create(builder, l, e,
                                                  arith::IndexCastOp::create(builder, l, builder.getI64Type(), i))
                              .getResult()
                        : arith::IndexCastOp::create(builder, l, e, i).getResult();
    mlir::Value v = fp ? arith::AddFOp::create(builder, l, s, arith::MulFOp::create(builder, l, iv, d)).getResult()
                       : arith::AddIOp::create(builder, l, s, arith::MulIOp::create(builder, l, iv, d)).getResult();
    mlir::tensor::YieldOp::create(builder, l, v);
  }
  out.ir = handle(generate.getResult());
  return true;
}
