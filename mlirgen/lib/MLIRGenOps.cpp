//===- MLIRGenOps.cpp - TensorFlow ops as linalg / tensor / arith / math --===//
//
// One method per family of ops, behind a name table (opRules). Each receives the call's
// arguments as the Tracer evaluated them (Python values included) and the result the
// Tracer typed, whose dtype and shape are TensorFlow's; it builds the result from
// upstream ops:
//
//   elementwise ops   linalg.generic with NumPy broadcasting maps (a 0-d op is scalar
//                     arith / math between tensor.extract and tensor.from_elements)
//   reductions        linalg.reduce, argmax/argmin a linalg.generic
//   matmul            linalg.matmul / linalg.batch_matmul, transpose linalg.transpose
//   shapes            tensor.reshape, tensor.concat, tensor.extract_slice, tensor.dim
//   creation          arith.constant, linalg.fill, tensor.generate
//   tf.print          ag.print
//
// The scalar semantics are TensorFlow's: floordiv and floormod round toward negative
// infinity, integer true division gives float64, `round` is to even, and so on.
//
//===----------------------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "ag/dialect/AgDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/SaveAndRestore.h"

#include <cmath>
#include <limits>

using namespace ag;
using analysis::CallArgs;
using analysis::DType;
using analysis::Value;
using mlir::OpBuilder;
using mlir::RankedTensorType;
namespace arith = mlir::arith;
namespace math = mlir::math;

//===----------------------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------------------===//

mlir::Value MLIRGen::elementwise(RankedTensorType type, llvm::ArrayRef<mlir::Value> operands,
                                 const ScalarBody &body, mlir::Location l) {
  int64_t rank = type.getRank();
  if (rank == 0) {
    llvm::SmallVector<mlir::Value> scalars;
    for (mlir::Value o : operands)
      scalars.push_back(mlir::tensor::ExtractOp::create(builder, l, o, mlir::ValueRange{}));
    mlir::Value r = body(builder, l, scalars);
    return mlir::tensor::FromElementsOp::create(builder, l, type, mlir::ValueRange{r});
  }
  // TensorFlow's broadcasting, where sizes are known only at run time: along each
  // dimension the operands' sizes that are not 1 agree, and give the result's (1 when all
  // are 1). A dynamic result size is the first operand's unless that is 1, then the next's...
  auto alignedDim = [&](mlir::Value o, int64_t d) {
    return d - (rank - llvm::cast<RankedTensorType>(o.getType()).getRank());
  };
  llvm::SmallVector<mlir::Value> sizes(rank);
  for (int64_t d = 0; d < rank; ++d) {
    if (!type.isDynamicDim(d))
      continue;
    for (mlir::Value o : operands) {
      int64_t j = alignedDim(o, d);
      if (j < 0 || llvm::cast<RankedTensorType>(o.getType()).getDimSize(j) == 1)
        continue;
      mlir::Value size = dimSize(o, j, l);
      if (!sizes[d])
        sizes[d] = size;
      else if (size != sizes[d])
        sizes[d] = arith::SelectOp::create(
            builder, l,
            arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, sizes[d], indexConstant(1, l)),
            size, sizes[d]);
    }
    if (!sizes[d])
      sizes[d] = indexConstant(1, l);
  }
  // ... and each operand's dynamic size is the result's or 1. An operand that is 1 where
  // the result is not is broadcast first (a copy, in a branch taken only then), so that
  // the loop over the elements below reads every operand in step with the result.
  llvm::SmallVector<mlir::Value> inputs(operands);
  for (mlir::Value &o : inputs) {
    auto ot = llvm::cast<RankedTensorType>(o.getType());
    mlir::Value stretch;
    llvm::SmallVector<mlir::Value> have(ot.getRank()), want(ot.getRank());
    for (int64_t j = 0; j < ot.getRank(); ++j) {
      int64_t d = j + rank - ot.getRank();
      if (!ot.isDynamicDim(j))
        continue;
      want[j] = type.isDynamicDim(d) ? sizes[d] : indexConstant(type.getDimSize(d), l);
      have[j] = dimSize(o, j, l);
      if (have[j] == want[j])
        continue;
      mlir::Value same = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, have[j], want[j]);
      mlir::Value one = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, have[j],
                                              indexConstant(1, l));
      // It guards the operand, which the loop below reads.
      mlir::Value guarded[] = {o};
      check(arith::OrIOp::create(builder, l, same, one),
            "incompatible shapes: dimension " + llvm::Twine(d) + " is {0} in one operand "
            "and {1} in another",
            {have[j], want[j]}, l, guarded);
      o = guarded[0];
      mlir::Value differs = arith::XOrIOp::create(builder, l, same,
                                                  arith::ConstantOp::create(builder, l, builder.getBoolAttr(true)));
      stretch = stretch ? arith::OrIOp::create(builder, l, stretch, differs).getResult() : differs;
    }
    if (stretch)
      o = broadcastTo(o, have, want, stretch, l);
  }
  mlir::Value init = empty(type, sizes, l);
  llvm::SmallVector<mlir::AffineMap> maps;
  for (mlir::Value o : operands) {
    auto ot = llvm::cast<RankedTensorType>(o.getType());
    llvm::SmallVector<mlir::AffineExpr> exprs;
    for (int64_t j = 0; j < ot.getRank(); ++j) {
      int64_t d = j + rank - ot.getRank();
      if (ot.getDimSize(j) == 1 && type.getDimSize(d) != 1)
        exprs.push_back(builder.getAffineConstantExpr(0));
      else
        exprs.push_back(builder.getAffineDimExpr(d));
    }
    maps.push_back(mlir::AffineMap::get(rank, 0, exprs, &context));
  }
  maps.push_back(builder.getMultiDimIdentityMap(rank));
  llvm::SmallVector<mlir::utils::IteratorType> iterators(rank, mlir::utils::IteratorType::parallel);
  auto generic = mlir::linalg::GenericOp::create(
      builder, l, mlir::TypeRange{type}, inputs, mlir::ValueRange{init}, maps, iterators,
      [&](OpBuilder &b, mlir::Location bl, mlir::ValueRange args) {
        mlir::Value r = body(b, bl, args.drop_back());
        mlir::linalg::YieldOp::create(b, bl, r);
      });
  return generic.getResult(0);
}

mlir::Value MLIRGen::broadcastTo(mlir::Value o, llvm::ArrayRef<mlir::Value> have,
                                 llvm::ArrayRef<mlir::Value> want, mlir::Value stretch,
                                 mlir::Location l) {
  auto ot = llvm::cast<RankedTensorType>(o.getType());
  auto ifOp = mlir::scf::IfOp::create(builder, l, mlir::TypeRange{ot}, stretch, true, true);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(ifOp.thenBlock());
  // Element i of the copy is element i of `o`, with 0 along the dimensions where `o` is 1.
  llvm::SmallVector<mlir::Value> sizes;
  for (int64_t j = 0; j < ot.getRank(); ++j)
    if (ot.isDynamicDim(j))
      sizes.push_back(want[j] ? want[j] : have[j]);
  mlir::Value init = mlir::tensor::EmptyOp::create(builder, l, ot, sizes);
  mlir::AffineMap identity = builder.getMultiDimIdentityMap(ot.getRank());
  llvm::SmallVector<mlir::utils::IteratorType> iterators(ot.getRank(), mlir::utils::IteratorType::parallel);
  auto copy = mlir::linalg::GenericOp::create(
      builder, l, mlir::TypeRange{ot}, mlir::ValueRange{}, mlir::ValueRange{init},
      llvm::ArrayRef<mlir::AffineMap>{identity}, iterators,
      [&](OpBuilder &b, mlir::Location bl, mlir::ValueRange) {
        llvm::SmallVector<mlir::Value> at;
        for (int64_t j = 0; j < ot.getRank(); ++j) {
          mlir::Value i = mlir::linalg::IndexOp::create(b, bl, j);
          if (want[j] && have[j] != want[j]) {
            mlir::Value one = arith::CmpIOp::create(b, bl, arith::CmpIPredicate::eq, have[j],
                                                    arith::ConstantIndexOp::create(b, bl, 1));
            i = arith::SelectOp::create(b, bl, one, arith::ConstantIndexOp::create(b, bl, 0), i);
          }
          at.push_back(i);
        }
        mlir::linalg::YieldOp::create(b, bl, mlir::tensor::ExtractOp::create(b, bl, o, at).getResult());
      });
  mlir::scf::YieldOp::create(builder, l, copy.getResult(0));
  builder.setInsertionPointToStart(ifOp.elseBlock());
  mlir::scf::YieldOp::create(builder, l, o);
  return ifOp.getResult(0);
}

std::string MLIRGen::where(mlir::Location l) {
  std::string out;
  l->walk([&](mlir::Location inner) {
    if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(inner)) {
      out = (file.getFilename().getValue() + ":" + llvm::Twine(file.getLine()) + ":" +
             llvm::Twine(file.getColumn()) + ": ").str();
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  return out;
}

/// A scalar constant of `type` built with `b`.
static mlir::Value scalar(OpBuilder &b, mlir::Location l, mlir::Type type, double v) {
  if (auto f = llvm::dyn_cast<mlir::FloatType>(type))
    return arith::ConstantOp::create(b, l, b.getFloatAttr(f, v));
  return arith::ConstantOp::create(b, l, b.getIntegerAttr(type, int64_t(v)));
}

std::pair<mlir::Value, mlir::Value> MLIRGen::safeDivisor(OpBuilder &b, mlir::Location l,
                                                         llvm::StringRef name, mlir::Value y) {
  mlir::Type t = y.getType();
  mlir::Value zero = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, y, scalar(b, l, t, 0));
  mlir::Value guarded[] = {y};
  if (!divisorsChecked)
    check(b, arith::XOrIOp::create(b, l, zero, scalar(b, l, b.getI1Type(), 1)),
          "integer division by zero (tf.math." + name + ")", {}, l, guarded);
  // Everything after the check comes from the guarded divisor: a test of `y` itself would
  // fold for a constant 0 and leave the check unused, so erased.
  if (guarded[0] != y) {
    y = guarded[0];
    zero = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, y, scalar(b, l, t, 0));
  }
  mlir::Value minusOne = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, y, scalar(b, l, t, -1));
  mlir::Value unsafe = arith::OrIOp::create(b, l, zero, minusOne);
  return {arith::SelectOp::create(b, l, unsafe, scalar(b, l, t, 1), y), minusOne};
}

mlir::Value MLIRGen::scalarOp(llvm::StringRef name, OpBuilder &b, mlir::Location l,
                              mlir::ValueRange args, DType in) {
  mlir::Value x = args[0];
  mlir::Value y = args.size() > 1 ? args[1] : nullptr;
  bool fp = analysis::isFloat(in);
  mlir::Type t = x.getType();
  using FP = arith::CmpFPredicate;
  using IP = arith::CmpIPredicate;
  auto cmp = [&](FP f, IP i) -> mlir::Value {
    if (fp)
      return arith::CmpFOp::create(b, l, f, x, y);
    return arith::CmpIOp::create(b, l, i, x, y);
  };
  if (name == "add")
    return fp ? arith::AddFOp::create(b, l, x, y).getResult() : arith::AddIOp::create(b, l, x, y).getResult();
  if (name == "subtract")
    return fp ? arith::SubFOp::create(b, l, x, y).getResult() : arith::SubIOp::create(b, l, x, y).getResult();
  if (name == "multiply")
    return fp ? arith::MulFOp::create(b, l, x, y).getResult() : arith::MulIOp::create(b, l, x, y).getResult();
  if (name == "truediv" || name == "divide") {
    if (fp)
      return arith::DivFOp::create(b, l, x, y);
    mlir::Type f64 = b.getF64Type();
    return arith::DivFOp::create(b, l, arith::SIToFPOp::create(b, l, f64, x),
                                 arith::SIToFPOp::create(b, l, f64, y));
  }
  if (name == "floordiv") {
    if (fp)
      return math::FloorOp::create(b, l, arith::DivFOp::create(b, l, x, y));
    // TensorFlow: an error for 0; MIN // -1 wraps to MIN (the hardware would trap).
    auto [safe, minusOne] = safeDivisor(b, l, name, y);
    mlir::Value q = arith::FloorDivSIOp::create(b, l, x, safe);
    return arith::SelectOp::create(b, l, minusOne, arith::SubIOp::create(b, l, scalar(b, l, t, 0), x), q);
  }
  if (name == "floormod" || name == "mod") {
    // The remainder takes the divisor's sign, as in Python.
    mlir::Value minusOne;
    if (!fp)
      std::tie(y, minusOne) = safeDivisor(b, l, name, y);
    mlir::Value r = fp ? arith::RemFOp::create(b, l, x, y).getResult()
                       : arith::RemSIOp::create(b, l, x, y).getResult();
    mlir::Value zero = scalar(b, l, t, 0);
    mlir::Value nonzero = fp ? arith::CmpFOp::create(b, l, FP::UNE, r, zero).getResult()
                             : arith::CmpIOp::create(b, l, IP::ne, r, zero).getResult();
    mlir::Value rNeg = fp ? arith::CmpFOp::create(b, l, FP::OLT, r, zero).getResult()
                          : arith::CmpIOp::create(b, l, IP::slt, r, zero).getResult();
    mlir::Value yNeg = fp ? arith::CmpFOp::create(b, l, FP::OLT, y, zero).getResult()
                          : arith::CmpIOp::create(b, l, IP::slt, y, zero).getResult();
    mlir::Value differ = arith::XOrIOp::create(b, l, rNeg, yNeg);
    mlir::Value adjust = arith::AndIOp::create(b, l, nonzero, differ);
    mlir::Value shifted = fp ? arith::AddFOp::create(b, l, r, y).getResult()
                             : arith::AddIOp::create(b, l, r, y).getResult();
    mlir::Value m = arith::SelectOp::create(b, l, adjust, shifted, r);
    return fp ? m : arith::SelectOp::create(b, l, minusOne, scalar(b, l, t, 0), m).getResult();
  }
  if (name == "pow") {
    if (fp)
      return math::PowFOp::create(b, l, x, y);
    mlir::Value guarded[] = {y};
    check(b, arith::CmpIOp::create(b, l, IP::sge, y, scalar(b, l, t, 0)),
          "integers to negative integer powers are not allowed (pow of {0} to the power {1})",
          {x, y}, l, guarded);
    y = guarded[0];
    return math::IPowIOp::create(b, l, x, y);
  }
  if (name == "maximum")
    return fp ? arith::MaximumFOp::create(b, l, x, y).getResult() : arith::MaxSIOp::create(b, l, x, y).getResult();
  if (name == "minimum")
    return fp ? arith::MinimumFOp::create(b, l, x, y).getResult() : arith::MinSIOp::create(b, l, x, y).getResult();
  if (name == "squared_difference") {
    mlir::Value d = scalarOp("subtract", b, l, args, in);
    return scalarOp("multiply", b, l, {d, d}, in);
  }
  if (name == "bitwise_and" || name == "logical_and")
    return arith::AndIOp::create(b, l, x, y);
  if (name == "bitwise_or" || name == "logical_or")
    return arith::OrIOp::create(b, l, x, y);
  if (name == "bitwise_xor" || name == "logical_xor")
    return arith::XOrIOp::create(b, l, x, y);
  if (name == "left_shift")
    return arith::ShLIOp::create(b, l, x, y);
  if (name == "right_shift")
    return arith::ShRSIOp::create(b, l, x, y);
  if (name == "equal")
    return in == DType::Bool ? arith::CmpIOp::create(b, l, IP::eq, x, y).getResult() : cmp(FP::OEQ, IP::eq);
  if (name == "not_equal")
    return in == DType::Bool ? arith::CmpIOp::create(b, l, IP::ne, x, y).getResult() : cmp(FP::UNE, IP::ne);
  if (name == "less")
    return cmp(FP::OLT, IP::slt);
  if (name == "less_equal")
    return cmp(FP::OLE, IP::sle);
  if (name == "greater")
    return cmp(FP::OGT, IP::sgt);
  if (name == "greater_equal")
    return cmp(FP::OGE, IP::sge);
  if (name == "logical_not")
    return arith::XOrIOp::create(b, l, x, scalar(b, l, t, 1));
  if (name == "invert")
    return arith::XOrIOp::create(b, l, x, scalar(b, l, t, -1));
  if (name == "negative")
    return fp ? arith::NegFOp::create(b, l, x).getResult()
              : arith::SubIOp::create(b, l, scalar(b, l, t, 0), x).getResult();
  if (name == "identity")
    return x;
  if (name == "abs") {
    if (fp)
      return math::AbsFOp::create(b, l, x);
    mlir::Value negative = arith::CmpIOp::create(b, l, IP::slt, x, scalar(b, l, t, 0));
    return arith::SelectOp::create(b, l, negative, arith::SubIOp::create(b, l, scalar(b, l, t, 0), x), x);
  }
  if (name == "square")
    return scalarOp("multiply", b, l, {x, x}, in);
  if (name == "relu")
    return scalarOp("maximum", b, l, {x, scalar(b, l, t, 0)}, in);
  if (name == "relu6")
    return scalarOp("minimum", b, l, {scalarOp("relu", b, l, {x}, in), scalar(b, l, t, 6)}, in);
  if (name == "sign") {
    mlir::Value zero = scalar(b, l, t, 0);
    mlir::Value pos = fp ? arith::CmpFOp::create(b, l, FP::OGT, x, zero).getResult()
                         : arith::CmpIOp::create(b, l, IP::sgt, x, zero).getResult();
    mlir::Value neg = fp ? arith::CmpFOp::create(b, l, FP::OLT, x, zero).getResult()
                         : arith::CmpIOp::create(b, l, IP::slt, x, zero).getResult();
    // Zero (and NaN) give themselves.
    mlir::Value r = arith::SelectOp::create(b, l, neg, scalar(b, l, t, -1), fp ? x : zero);
    return arith::SelectOp::create(b, l, pos, scalar(b, l, t, 1), r);
  }
  if (name == "exp") return math::ExpOp::create(b, l, x);
  if (name == "log") return math::LogOp::create(b, l, x);
  if (name == "sqrt") return math::SqrtOp::create(b, l, x);
  if (name == "rsqrt") return math::RsqrtOp::create(b, l, x);
  if (name == "tanh") return math::TanhOp::create(b, l, x);
  if (name == "sin") return math::SinOp::create(b, l, x);
  if (name == "cos") return math::CosOp::create(b, l, x);
  if (name == "tan") return math::TanOp::create(b, l, x);
  if (name == "floor") return math::FloorOp::create(b, l, x);
  if (name == "ceil") return math::CeilOp::create(b, l, x);
  if (name == "round") return math::RoundEvenOp::create(b, l, x);
  if (name == "log1p") return math::Log1pOp::create(b, l, x);
  if (name == "expm1") return math::ExpM1Op::create(b, l, x);
  if (name == "erf") return math::ErfOp::create(b, l, x);
  if (name == "reciprocal")
    return arith::DivFOp::create(b, l, scalar(b, l, t, 1), x);
  if (name == "sigmoid") {
    mlir::Value e = math::ExpOp::create(b, l, arith::NegFOp::create(b, l, x));
    return arith::DivFOp::create(b, l, scalar(b, l, t, 1),
                                 arith::AddFOp::create(b, l, scalar(b, l, t, 1), e));
  }
  if (name == "softplus") {
    // TensorFlow's thresholds: x itself when large, exp(x) when very negative.
    double threshold = std::log(in == DType::Float32 ? 1.1920929e-07 : 2.220446049250313e-16) + 2;
    mlir::Value e = math::ExpOp::create(b, l, x);
    mlir::Value large = arith::CmpFOp::create(b, l, FP::OGT, x, scalar(b, l, t, -threshold));
    mlir::Value small = arith::CmpFOp::create(b, l, FP::OLT, x, scalar(b, l, t, threshold));
    mlir::Value mid = math::Log1pOp::create(b, l, e);
    return arith::SelectOp::create(b, l, large, x, arith::SelectOp::create(b, l, small, e, mid));
  }
  return nullptr;
}

/// The dtype operands of an elementwise op convert to: the first tensor's.
static std::optional<DType> tensorDType(llvm::ArrayRef<const Value *> values) {
  for (const Value *v : values)
    if (v && v->isTensorLike())
      return v->dtype;
  return std::nullopt;
}

bool MLIRGen::emitUnary(llvm::StringRef name, const CallArgs &args, Value &out) {
  const Value *x = args.get(0, "x");
  if (!x)
    x = args.get(0, "features");
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value a = x && type ? operand(*x, args.loc, out.dtype) : nullptr;
  if (!a)
    return false;
  DType in = x->isTensorLike() ? x->dtype : out.dtype;
  mlir::Value r = elementwise(type, {a},
                              [&](OpBuilder &b, mlir::Location l, mlir::ValueRange xs) {
                                return scalarOp(name, b, l, xs, in);
                              },
                              loc(args.loc));
  out.ir = handle(r);
  return true;
}

bool MLIRGen::emitBinary(llvm::StringRef name, const CallArgs &args, Value &out) {
  const Value *x = args.get(0, "x"), *y = args.get(1, "y");
  if (!x || !y)
    return fail(args.loc, "internal error: " + name + " without two operands");
  std::optional<DType> in = tensorDType({x, y});
  if (!in)
    in = analysis::isFloat(out.dtype) || out.dtype == DType::Bool ? out.dtype : DType::Int32;
  if (name.starts_with("logical_"))
    in = DType::Bool;
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value a = type ? operand(*x, args.loc, in) : nullptr;
  mlir::Value b = a ? operand(*y, args.loc, in) : nullptr;
  if (!b)
    return false;
  DType dtype = *in;
  // An integer divisor tensor is checked once, before the loop over the elements (one
  // reduction: are all nonzero?), rather than element by element inside it, which keeps
  // that loop free of branches. Broadcast, every divisor is used unless the result has no
  // elements, which it has exactly when the dividend has none: then nothing is divided,
  // and TensorFlow raises nothing.
  bool division = name == "floordiv" || name == "floormod" || name == "mod";
  auto divisorType = llvm::cast<RankedTensorType>(b.getType());
  auto dividendType = llvm::cast<RankedTensorType>(a.getType());
  llvm::SaveAndRestore<bool> hoisted(divisorsChecked, divisorsChecked);
  if (division && runtimeChecks && !analysis::isFloat(dtype) && divisorType.getRank() > 0 &&
      !llvm::is_contained(dividendType.getShape(), 0)) {
    mlir::Location l = loc(args.loc);
    mlir::Type i1 = builder.getI1Type();
    llvm::SmallVector<mlir::Value> none;
    auto allType = RankedTensorType::get({}, i1);
    mlir::Value init = filled(allType, none, scalarConstant(1, i1, l), l);
    auto all = mlir::linalg::ReduceOp::create(
        builder, l, mlir::ValueRange{b}, mlir::ValueRange{init},
        llvm::to_vector(llvm::seq<int64_t>(0, divisorType.getRank())),
        [&](OpBuilder &rb, mlir::Location rl, mlir::ValueRange xs) {
          mlir::Value zero = arith::ConstantOp::create(
              rb, rl, rb.getIntegerAttr(divisorType.getElementType(), 0));
          mlir::Value nonzero = arith::CmpIOp::create(rb, rl, arith::CmpIPredicate::ne, xs[0], zero);
          mlir::linalg::YieldOp::create(rb, rl, arith::AndIOp::create(rb, rl, xs[1], nonzero).getResult());
        });
    mlir::Value ok = mlir::tensor::ExtractOp::create(builder, l, all.getResult(0), mlir::ValueRange{});
    for (int64_t d = 0; d < dividendType.getRank(); ++d)
      if (dividendType.isDynamicDim(d))
        ok = arith::OrIOp::create(builder, l, ok,
                                  arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq,
                                                        dimSize(a, d, l), indexConstant(0, l)));
    mlir::Value guarded[] = {b};
    check(ok, "integer division by zero (tf.math." + name + ")", {}, l, guarded);
    b = guarded[0];
    divisorsChecked = true;
  }
  out.ir = handle(elementwise(type, {a, b},
                              [&](OpBuilder &bb, mlir::Location l, mlir::ValueRange xs) {
                                return scalarOp(name, bb, l, xs, dtype);
                              },
                              loc(args.loc)));
  return true;
}

bool MLIRGen::emitWhere(llvm::StringRef, const CallArgs &args, Value &out) {
  const Value *c = args.get(0, "condition"), *x = args.get(1, "x"), *y = args.get(2, "y");
  if (!c || !x || !y)
    return fail(args.loc, "tf.where with one argument (the indices of true elements) is not "
                          "supported by agc's code generator; pass x and y");
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value cv = type ? operand(*c, args.loc, DType::Bool) : nullptr;
  mlir::Value xv = cv ? operand(*x, args.loc, out.dtype) : nullptr;
  mlir::Value yv = xv ? operand(*y, args.loc, out.dtype) : nullptr;
  if (!yv)
    return false;
  out.ir = handle(elementwise(type, {cv, xv, yv},
                              [](OpBuilder &b, mlir::Location l, mlir::ValueRange xs) {
                                return arith::SelectOp::create(b, l, xs[0], xs[1], xs[2]).getResult();
                              },
                              loc(args.loc)));
  return true;
}

bool MLIRGen::emitClip(llvm::StringRef, const CallArgs &args, Value &out) {
  const Value *t = args.get(0, "t"), *lo = args.get(1, "clip_value_min"),
              *hi = args.get(2, "clip_value_max");
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value tv = t && lo && hi && type ? operand(*t, args.loc, out.dtype) : nullptr;
  mlir::Value lv = tv ? operand(*lo, args.loc, out.dtype) : nullptr;
  mlir::Value hv = lv ? operand(*hi, args.loc, out.dtype) : nullptr;
  if (!hv)
    return false;
  DType dtype = out.dtype;
  out.ir = handle(elementwise(type, {tv, lv, hv},
                              [&](OpBuilder &b, mlir::Location l, mlir::ValueRange xs) {
                                mlir::Value m = scalarOp("maximum", b, l, {xs[0], xs[1]}, dtype);
                                return scalarOp("minimum", b, l, {m, xs[2]}, dtype);
                              },
                              loc(args.loc)));
  return true;
}

/// Converts scalar `x` from dtype `from` to `to` as tf.cast does (float to int truncates,
/// to bool is `!= 0`).
static mlir::Value convert(OpBuilder &b, mlir::Location l, mlir::Value x, DType from, DType to,
                           mlir::Type toType) {
  if (from == to)
    return x;
  if (to == DType::Bool) {
    mlir::Value zero = scalar(b, l, x.getType(), 0);
    if (analysis::isFloat(from))
      return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, x, zero);
    return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, x, zero);
  }
  if (from == DType::Bool)
    return analysis::isFloat(to) ? arith::UIToFPOp::create(b, l, toType, x).getResult()
                                 : arith::ExtUIOp::create(b, l, toType, x).getResult();
  if (analysis::isFloat(from) && analysis::isFloat(to))
    return to == DType::Float64 ? arith::ExtFOp::create(b, l, toType, x).getResult()
                                : arith::TruncFOp::create(b, l, toType, x).getResult();
  if (analysis::isFloat(from))
    return arith::FPToSIOp::create(b, l, toType, x);
  if (analysis::isFloat(to))
    return arith::SIToFPOp::create(b, l, toType, x);
  return to == DType::Int64 ? arith::ExtSIOp::create(b, l, toType, x).getResult()
                            : arith::TruncIOp::create(b, l, toType, x).getResult();
}

bool MLIRGen::emitCast(llvm::StringRef, const CallArgs &args, Value &out) {
  const Value *x = args.get(0, "x");
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value a = x && type ? operand(*x, args.loc) : nullptr;
  if (!a)
    return false;
  DType from = x->isTensorLike() ? x->dtype
               : x->kind == Value::Kind::Float ? DType::Float32
               : x->kind == Value::Kind::Bool  ? DType::Bool
                                               : DType::Int32;
  DType to = out.dtype;
  mlir::Type toType = type.getElementType();
  out.ir = handle(elementwise(type, {a},
                              [&](OpBuilder &b, mlir::Location l, mlir::ValueRange xs) {
                                return convert(b, l, xs[0], from, to, toType);
                              },
                              loc(args.loc)));
  return true;
}

//===----------------------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------------------===//

std::optional<llvm::SmallVector<int64_t>> MLIRGen::axes(const Value *axis, unsigned rank,
                                                        const Location &at) {
  llvm::SmallVector<int64_t> out;
  if (!axis || axis->kind == Value::Kind::None) {
    for (unsigned d = 0; d < rank; ++d)
      out.push_back(d);
    return out;
  }
  std::vector<Value> items = axis->isPySequence() ? axis->elements : std::vector<Value>{*axis};
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
static llvm::SmallVector<mlir::Value> sizesOf(MLIRGen &gen, mlir::Value t, mlir::Location l) {
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

bool MLIRGen::emitReduce(llvm::StringRef name, const CallArgs &args, Value &out) {
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
  double lowest = fp ? -std::numeric_limits<double>::infinity()
                     : dtype == DType::Int32 ? double(std::numeric_limits<int32_t>::min())
                                             : double(std::numeric_limits<int64_t>::min());
  double highest = fp ? std::numeric_limits<double>::infinity()
                      : dtype == DType::Int32 ? double(std::numeric_limits<int32_t>::max())
                                              : double(std::numeric_limits<int64_t>::max());
  llvm::StringRef combine;
  double init = 0;
  if (name == "reduce_sum" || name == "reduce_mean") {
    combine = "add";
  } else if (name == "reduce_prod") {
    combine = "multiply";
    init = 1;
  } else if (name == "reduce_max") {
    combine = "maximum";
    init = lowest;
  } else if (name == "reduce_min") {
    combine = "minimum";
    init = highest;
  } else if (name == "reduce_any") {
    combine = "logical_or";
  } else {
    combine = "logical_and";
    init = 1;
  }
  // An int32 mean sums in 64 bits, as TensorFlow's does: its result fits int32 even where
  // the sum would not (the sum of [2**31 - 1, 1000] over 2 is 1073742323, not negative).
  bool wideMean = name == "reduce_mean" && dtype == DType::Int32;
  if (wideMean) {
    auto wideType = RankedTensorType::get(inType.getShape(), builder.getI64Type());
    input = elementwise(wideType, {input},
                        [&](OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) -> mlir::Value {
                          return arith::ExtSIOp::create(b, bl, b.getI64Type(), xs[0]);
                        },
                        l);
    inType = wideType;
    e = builder.getI64Type();
    dtype = DType::Int64;
  }
  mlir::Value initValue;
  if (!fp && dtype == DType::Int64 && (init == lowest || init == highest))
    initValue = arith::ConstantOp::create(
        builder, l, builder.getIntegerAttr(e, init == lowest ? std::numeric_limits<int64_t>::min()
                                                             : std::numeric_limits<int64_t>::max()));
  else
    initValue = scalarConstant(init, e, l);
  mlir::Value r = reduce(input, *dims, initValue,
                         [&](OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) {
                           return scalarOp(combine, b, bl, xs, dtype);
                         },
                         l);
  if (name == "reduce_mean") {
    // The sum over the element count (integer division truncates, as TensorFlow's does).
    mlir::Value count = indexConstant(1, l);
    for (int64_t d : *dims)
      count = arith::MulIOp::create(builder, l, count, dimSize(input, d, l));
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
                      mlir::Value one = scalar(b, bl, e, 1);
                      mlir::Value zero = scalar(b, bl, e, 0);
                      mlir::Value empty = arith::CmpIOp::create(b, bl, arith::CmpIPredicate::eq, n, zero);
                      return arith::DivSIOp::create(b, bl, xs[0],
                                                    arith::SelectOp::create(b, bl, empty, one, n));
                    },
                    l);
  }
  if (wideMean) {
    auto rType = llvm::cast<RankedTensorType>(r.getType());
    r = elementwise(RankedTensorType::get(rType.getShape(), builder.getI32Type()), {r},
                    [&](OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) -> mlir::Value {
                      return arith::TruncIOp::create(b, bl, b.getI32Type(), xs[0]);
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

bool MLIRGen::emitArgmax(llvm::StringRef name, const CallArgs &args, Value &out) {
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
  bool isMax = name == "argmax";
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
  double start = fp ? (isMax ? -INFINITY : INFINITY)
                    : (isMax ? double(std::numeric_limits<int32_t>::min())
                             : double(std::numeric_limits<int32_t>::max()));
  mlir::Value startValue = x->dtype == DType::Int64
                               ? arith::ConstantOp::create(
                                     builder, l, builder.getIntegerAttr(
                                                     e, isMax ? std::numeric_limits<int64_t>::min()
                                                              : std::numeric_limits<int64_t>::max()))
                                     .getResult()
                               : scalarConstant(start, e, l);
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
               : arith::CmpIOp::create(b, bl, isMax ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt,
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

bool MLIRGen::emitSoftmax(llvm::StringRef name, const CallArgs &args, Value &out) {
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
  auto op = [&](llvm::StringRef n) {
    return [this, n, dtype](OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) {
      return scalarOp(n, b, bl, xs, dtype);
    };
  };
  // Stable: exp(x - max) / sum(exp(x - max)); log_softmax: (x - max) - log(sum(...)).
  auto keptType = [&](mlir::Value reduced) {
    llvm::SmallVector<int64_t> shape(type.getShape());
    for (int64_t d : *dims)
      shape[d] = 1;
    (void)reduced;
    return RankedTensorType::get(shape, e);
  };
  mlir::Value max = reduce(input, *dims, scalarConstant(-INFINITY, e, l), op("maximum"), l);
  max = keepDims(*this, input, max, *dims, keptType(max), l);
  mlir::Value shifted = elementwise(type, {input, max}, op("subtract"), l);
  mlir::Value exps = elementwise(type, {shifted}, op("exp"), l);
  mlir::Value sum = reduce(exps, *dims, scalarConstant(0, e, l), op("add"), l);
  sum = keepDims(*this, input, sum, *dims, keptType(sum), l);
  mlir::Value r;
  if (name == "softmax") {
    r = elementwise(type, {exps, sum}, op("truediv"), l);
  } else {
    mlir::Value logSum = elementwise(llvm::cast<RankedTensorType>(sum.getType()), {sum}, op("log"), l);
    r = elementwise(type, {shifted, logSum}, op("subtract"), l);
  }
  out.ir = handle(r);
  return true;
}

//===----------------------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------------------===//

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

bool MLIRGen::emitConstant(llvm::StringRef, const CallArgs &args, Value &out) {
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
                        return convert(b, l, xs[0], from, dt, to);
                      },
                      loc(args.loc));
    }
    if (t.getType() != type)
      t = mlir::tensor::CastOp::create(builder, loc(args.loc), type, t);
    out.ir = handle(t);
    return true;
  }
  if (v->isPySequence() && !type.hasStaticShape())
    return fail(args.loc, "internal error: a constant of dynamic shape");
  return constant(out, *v, args.loc);
}

bool MLIRGen::emitFill(llvm::StringRef name, const CallArgs &args, Value &out) {
  RankedTensorType type = tensorType(out, args.loc);
  if (!type)
    return false;
  mlir::Location l = loc(args.loc);
  llvm::SmallVector<mlir::Value> sizes;
  mlir::Value value;
  if (name == "zeros_like" || name == "ones_like") {
    const Value *x = args.get(0, "input");
    mlir::Value t = x ? operand(*x, args.loc) : nullptr;
    if (!t)
      return false;
    sizes = sizesOf(*this, t, l);
    value = scalarConstant(name == "ones_like" ? 1 : 0, type.getElementType(), l);
  } else {
    const Value *dims = args.get(0, name == "fill" ? "dims" : "shape");
    if (!dims)
      return false;
    if (dims->isTensorLike()) {
      mlir::Value shape = operand(*dims, args.loc);
      if (!shape)
        return false;
      sizes = sizesFromShapeTensor(type, shape, l);
    } else if (dims->isPySequence() && dims->elements.size() == size_t(type.getRank())) {
      // A Python list of sizes, each a Python int or a scalar int tensor ([n, 3]).
      for (const Value &e : dims->elements) {
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
    if (name == "fill") {
      const Value *v = args.get(1, "value");
      mlir::Value t = v ? operand(*v, args.loc, out.dtype) : nullptr;
      if (!t)
        return false;
      value = mlir::tensor::ExtractOp::create(builder, l, t, mlir::ValueRange{});
    } else {
      value = scalarConstant(name == "ones" ? 1 : 0, type.getElementType(), l);
    }
  }
  out.ir = handle(filled(type, sizes, value, l));
  return true;
}

bool MLIRGen::emitEye(llvm::StringRef, const CallArgs &args, Value &out) {
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
        mlir::Value r = arith::SelectOp::create(b, bl, same, scalar(b, bl, e, 1), scalar(b, bl, e, 0));
        mlir::linalg::YieldOp::create(b, bl, r);
      });
  out.ir = handle(generic.getResult(0));
  return true;
}

bool MLIRGen::emitRange(llvm::StringRef, const CallArgs &args, Value &out) {
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
    return mlir::tensor::ExtractOp::create(builder, l, t, mlir::ValueRange{});
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

//===----------------------------------------------------------------------------------===//
// Linear algebra and shapes
//===----------------------------------------------------------------------------------===//

/// `t` with its dimensions permuted by `perm`.
static mlir::Value transposed(MLIRGen &gen, mlir::Value t, llvm::ArrayRef<int64_t> perm,
                              mlir::Location l) {
  auto type = llvm::cast<RankedTensorType>(t.getType());
  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<mlir::Value> sizes;
  for (int64_t p : perm) {
    shape.push_back(type.getDimSize(p));
    sizes.push_back(gen.dimSize(t, p, l));
  }
  auto outType = RankedTensorType::get(shape, type.getElementType());
  mlir::Value init = gen.empty(outType, sizes, l);
  return mlir::linalg::TransposeOp::create(gen.builder, l, t, init, perm).getResult()[0];
}

bool MLIRGen::emitMatmul(llvm::StringRef, const CallArgs &args, Value &out) {
  const Value *x = args.get(0, "a"), *y = args.get(1, "b");
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value a = x && y && type ? operand(*x, args.loc, out.dtype) : nullptr;
  mlir::Value b = a ? operand(*y, args.loc, out.dtype) : nullptr;
  if (!b)
    return false;
  mlir::Location l = loc(args.loc);
  int64_t rank = type.getRank();
  if (rank != 2 && rank != 3)
    return fail(args.loc, "tf.matmul of rank " + llvm::Twine(rank) + " is not supported by agc's "
                          "code generator (ranks 2 and 3 are)");
  if (llvm::cast<RankedTensorType>(a.getType()).getRank() != rank ||
      llvm::cast<RankedTensorType>(b.getType()).getRank() != rank)
    return fail(args.loc, "tf.matmul with broadcast batch dimensions is not supported by agc's "
                          "code generator");
  auto flag = [&](unsigned i, llvm::StringRef kw) {
    const Value *v = args.get(i, kw);
    return v && v->kind == Value::Kind::Bool && v->i;
  };
  llvm::SmallVector<int64_t> swap = rank == 2 ? llvm::SmallVector<int64_t>{1, 0}
                                              : llvm::SmallVector<int64_t>{0, 2, 1};
  if (flag(2, "transpose_a"))
    a = transposed(*this, a, swap, l);
  if (flag(3, "transpose_b"))
    b = transposed(*this, b, swap, l);
  // The sizes that must agree: the inner dimensions, and the batch ones.
  auto agree = [&](int64_t da, int64_t db, const llvm::Twine &what) {
    mlir::Value x = dimSize(a, da, l), y = dimSize(b, db, l);
    if (x == y)
      return;
    mlir::Value guarded[] = {a, b};
    check(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, x, y),
          "tf.matmul: " + what + " differ: {0} in a, {1} in b", {x, y}, l, guarded);
    a = guarded[0];
    b = guarded[1];
  };
  agree(rank - 1, rank - 2, "a's columns and b's rows");
  if (rank == 3)
    agree(0, 0, "the batch sizes");
  llvm::SmallVector<mlir::Value> sizes;
  for (int64_t d = 0; d < rank - 1; ++d)
    sizes.push_back(dimSize(a, d, l));
  sizes.push_back(dimSize(b, rank - 1, l));
  mlir::Value init = filled(type, sizes, scalarConstant(0, type.getElementType(), l), l);
  mlir::Value r = rank == 2
                      ? mlir::linalg::MatmulOp::create(builder, l, mlir::TypeRange{type},
                                                       mlir::ValueRange{a, b}, mlir::ValueRange{init})
                            .getResult(0)
                      : mlir::linalg::BatchMatmulOp::create(builder, l, mlir::TypeRange{type},
                                                            mlir::ValueRange{a, b}, mlir::ValueRange{init})
                            .getResult(0);
  out.ir = handle(r);
  return true;
}

bool MLIRGen::emitTranspose(llvm::StringRef, const CallArgs &args, Value &out) {
  const Value *x = args.get(0, "a");
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value t = x && type ? operand(*x, args.loc) : nullptr;
  if (!t)
    return false;
  int64_t rank = type.getRank();
  llvm::SmallVector<int64_t> perm;
  const Value *p = args.get(1, "perm");
  if (!p || p->kind == Value::Kind::None) {
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  } else if (p->isPySequence()) {
    for (const Value &e : p->elements) {
      if (e.kind != Value::Kind::Int)
        return fail(args.loc, "perm must be Python ints for agc's code generator");
      perm.push_back(e.i < 0 ? e.i + rank : e.i);
    }
  } else {
    return fail(args.loc, "perm must be a Python list for agc's code generator");
  }
  // The identity permutation (a scalar's, for one) moves nothing.
  if (llvm::equal(perm, llvm::seq<int64_t>(0, rank)))
    return produce(out, t, type, loc(args.loc));
  mlir::Value r = transposed(*this, t, perm, loc(args.loc));
  return produce(out, r, type, loc(args.loc));
}

bool MLIRGen::emitReshape(llvm::StringRef name, const CallArgs &args, Value &out) {
  const Value *x = args.get(0, name == "reshape" ? "tensor" : "input");
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value t = x && type ? operand(*x, args.loc) : nullptr;
  if (!t)
    return false;
  mlir::Location l = loc(args.loc);
  auto inType = llvm::cast<RankedTensorType>(t.getType());
  llvm::SmallVector<mlir::Value> sizes(type.getRank());
  // Each check guards the tensor reshaped.
  auto checkInput = [&](mlir::Value ok, const llvm::Twine &message,
                        llvm::ArrayRef<mlir::Value> values, mlir::Location l) {
    mlir::Value guarded[] = {t};
    check(ok, message, values, l, guarded);
    t = guarded[0];
  };
  // squeeze: the dimensions it removes; one unknown while compiling must be 1 at run time.
  std::optional<llvm::SmallVector<bool, 4>> squeezed;
  if (name == "squeeze") {
    std::string why;
    squeezed = analysis::squeezedDims(x->shape, args.get(1, "axis"), why);
    if (!squeezed)
      return fail(args.loc, why);
    for (int64_t k = 0; k < inType.getRank(); ++k)
      if ((*squeezed)[k] && inType.isDynamicDim(k)) {
        mlir::Value size = dimSize(t, k, l);
        checkInput(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, size, indexConstant(1, l)),
              "tf.squeeze: dimension " + llvm::Twine(k) + " has size {0}, not 1", {size}, l);
      }
  }
  if (!type.hasStaticShape()) {
    if (name == "reshape") {
      const Value *shape = args.get(1, "shape");
      if (shape->isTensorLike()) {
        mlir::Value s = operand(*shape, args.loc);
        if (!s)
          return false;
        sizes = sizesFromShapeTensor(type, s, l);
        mlir::Value count = indexConstant(1, l);
        for (mlir::Value size : sizes) {
          checkInput(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::sge, size, indexConstant(0, l)),
                "tf.reshape: agc takes no -1 or other negative size ({0}) in a shape given as a "
                "tensor; give the shape as a list",
                {size}, l);
          count = arith::MulIOp::create(builder, l, count, size);
        }
        t = checkReshape(t, count, l);
      }
      // A Python shape: its -1 is the element count over the product of the others.
      if (shape->isPySequence()) {
        mlir::Value total = indexConstant(1, l);
        for (int64_t d = 0; d < inType.getRank(); ++d)
          total = arith::MulIOp::create(builder, l, total, dimSize(t, d, l));
        mlir::Value known = indexConstant(1, l);
        int64_t unknown = -1;
        for (int64_t d = 0; d < type.getRank(); ++d) {
          const Value &e = shape->elements[d];
          if (e.kind == Value::Kind::Int && e.i >= 0) {
            sizes[d] = indexConstant(e.i, l);
            known = arith::MulIOp::create(builder, l, known, sizes[d]);
          } else if (e.kind == Value::Kind::Int) {
            unknown = d;
          } else {
            mlir::Value v = operand(e, args.loc);
            if (!v)
              return false;
            sizes[d] = arith::IndexCastOp::create(builder, l, builder.getIndexType(),
                                                  mlir::tensor::ExtractOp::create(builder, l, v, mlir::ValueRange{}));
            known = arith::MulIOp::create(builder, l, known, sizes[d]);
          }
        }
        if (unknown >= 0) {
          // TensorFlow's two errors: no size to infer from, or no whole number of rows.
          mlir::Value zero = indexConstant(0, l);
          mlir::Value positive = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::sgt, known, zero);
          checkInput(positive, "tf.reshape cannot infer the size of dimension " + llvm::Twine(unknown) +
                              " from the others, whose product is {0}",
                {known}, l);
          mlir::Value divisor = arith::SelectOp::create(builder, l, positive, known, indexConstant(1, l));
          mlir::Value rest = arith::RemUIOp::create(builder, l, total, divisor);
          checkInput(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, rest, zero),
                "tf.reshape of a tensor of {0} elements into a shape that needs a multiple of {1}",
                {total, known}, l);
          sizes[unknown] = arith::DivUIOp::create(builder, l, total, divisor);
        } else {
          t = checkReshape(t, known, l);
        }
      }
    } else {
      // expand_dims / squeeze: the input's sizes, with the 1s added or removed (a
      // squeezed dimension unknown while compiling must be 1 at run time).
      llvm::SmallVector<mlir::Value> in = sizesOf(*this, t, l);

      unsigned j = 0;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (name == "expand_dims") {
          if (type.getDimSize(d) == 1 && (j >= in.size() || inType.getDimSize(j) != 1 ||
                                           int64_t(in.size()) - j < type.getRank() - d)) {
            sizes[d] = indexConstant(1, l);
            continue;
          }
          sizes[d] = in[j++];
        } else {
          while (j < in.size() && (*squeezed)[j])
            ++j;
          sizes[d] = in[j++];
        }
      }
    }
  } else if (!inType.hasStaticShape()) {
    t = checkReshape(t, indexConstant(type.getNumElements(), l), l);
  }
  out.ir = handle(reshape(t, type, sizes, l));
  return true;
}

mlir::Value MLIRGen::checkReshape(mlir::Value t, mlir::Value count, mlir::Location l) {
  auto type = llvm::cast<RankedTensorType>(t.getType());
  mlir::Value total = indexConstant(1, l);
  for (int64_t d = 0; d < type.getRank(); ++d)
    total = arith::MulIOp::create(builder, l, total, dimSize(t, d, l));
  mlir::Value guarded[] = {t};
  check(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, total, count),
        "tf.reshape of a tensor of {0} elements into a shape of {1} elements", {total, count}, l,
        guarded);
  return guarded[0];
}

bool MLIRGen::emitConcat(llvm::StringRef name, const CallArgs &args, Value &out) {
  const Value *values = args.get(0, "values");
  RankedTensorType type = tensorType(out, args.loc);
  if (!values || !type)
    return false;
  if (!values->isPySequence())
    return fail(args.loc, name + " of " + values->describe() + " is not supported by agc's code "
                          "generator; pass a list of tensors");
  const Value *axisArg = args.get(1, "axis");
  int64_t axis = axisArg && axisArg->kind == Value::Kind::Int ? axisArg->i : 0;
  mlir::Location l = loc(args.loc);
  int64_t rank = type.getRank();
  if (axis < 0)
    axis += rank;
  llvm::SmallVector<mlir::Value> parts;
  mlir::Value first;
  for (auto [k, v] : llvm::enumerate(values->elements)) {
    mlir::Value t = operand(v, args.loc, out.dtype);
    if (!t)
      return false;
    // Every dimension but the axis of a concat (every one, for a stack) is the first
    // tensor's; the tracer compared the static sizes, dynamic ones are checked here.
    auto tt = llvm::cast<RankedTensorType>(t.getType());
    auto ft = first ? llvm::cast<RankedTensorType>(first.getType()) : tt;
    for (int64_t d = 0; first && d < tt.getRank(); ++d) {
      if ((name == "concat" && d == axis) || (!tt.isDynamicDim(d) && !ft.isDynamicDim(d)))
        continue;
      mlir::Value have = dimSize(t, d, l), want = dimSize(first, d, l);
      mlir::Value same = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, have, want);
      mlir::Value guarded[] = {t};
      check(same, "tf." + name + ": dimension " + llvm::Twine(d) + " is {0} in values[" +
                      llvm::Twine(k) + "] and {1} in values[0]; " +
                      (name == "stack" ? "the tensors stacked must have one shape"
                                       : "the tensors joined must agree but on the axis"),
            {have, want}, l, guarded);
      t = guarded[0];
    }
    if (!first)
      first = t;
    if (name == "stack") {
      // Each part gets a dimension of 1 at `axis`.
      llvm::SmallVector<int64_t> shape(tt.getShape());
      llvm::SmallVector<mlir::Value> sizes = sizesOf(*this, t, l);
      shape.insert(shape.begin() + axis, 1);
      sizes.insert(sizes.begin() + axis, indexConstant(1, l));
      t = reshape(t, RankedTensorType::get(shape, tt.getElementType()), sizes, l);
    }
    parts.push_back(t);
  }
  // A result with no elements is an empty tensor (upstream's verifiers refuse the slices a
  // concat of zero-sized parts becomes), which depends on every part: their checks stay.
  if (parts.size() > 1 && llvm::is_contained(type.getShape(), 0)) {
    llvm::SmallVector<mlir::Value> sizes(type.getRank());
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      sizes[d] = dimSize(parts[0], d, l);
      for (mlir::Value part : llvm::drop_begin(parts))
        if (d == axis)
          sizes[d] = arith::AddIOp::create(builder, l, sizes[d], dimSize(part, d, l));
    }
    return produce(out, dependOn(empty(type, sizes, l), parts, l), type, l);
  }
  mlir::Value r = parts.size() == 1 ? parts[0]
                                    : mlir::tensor::ConcatOp::create(builder, l, axis, parts).getResult();
  return produce(out, r, type, l);
}

bool MLIRGen::emitShape(llvm::StringRef name, const CallArgs &args, Value &out) {
  const Value *x = args.get(0, "input");
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value t = x && type ? operand(*x, args.loc) : nullptr;
  if (!t)
    return false;
  mlir::Location l = loc(args.loc);
  mlir::Type e = type.getElementType();
  llvm::SmallVector<mlir::Value> sizes = sizesOf(*this, t, l);
  mlir::Value r;
  if (name == "shape") {
    llvm::SmallVector<mlir::Value> dims;
    for (mlir::Value s : sizes)
      dims.push_back(arith::IndexCastOp::create(builder, l, e, s));
    r = dims.empty() ? denseConstant(Value::sequence(Value::Kind::List, {}), type, args.loc)
                     : mlir::tensor::FromElementsOp::create(builder, l, type, dims).getResult();
  } else {
    mlir::Value n = indexConstant(name == "rank" ? int64_t(sizes.size()) : 1, l);
    if (name == "size")
      for (mlir::Value s : sizes)
        n = arith::MulIOp::create(builder, l, n, s);
    r = mlir::tensor::FromElementsOp::create(builder, l, type,
                                             mlir::ValueRange{arith::IndexCastOp::create(builder, l, e, n)});
  }
  out.ir = handle(r);
  return true;
}

//===----------------------------------------------------------------------------------===//
// tf.print
//===----------------------------------------------------------------------------------===//

bool MLIRGen::emitPrint(llvm::StringRef, const CallArgs &args, Value &) {
  llvm::SmallVector<mlir::Attribute> items;
  llvm::SmallVector<mlir::Value> tensors;
  for (const Value &v : args.positional) {
    if (v.isTensorLike()) {
      mlir::Value t = operand(v, args.loc);
      if (!t)
        return false;
      items.push_back(builder.getI64IntegerAttr(tensors.size()));
      tensors.push_back(t);
      continue;
    }
    if (v.isPySequence() && llvm::any_of(v.elements, [](const Value &e) { return e.isTensorLike(); }))
      return fail(args.loc, "tf.print of a Python list holding tensors is not supported by agc's "
                            "code generator; print the tensors as separate arguments");
    items.push_back(builder.getStringAttr(v.pyStr(false)));
  }
  std::string sep = " ", end = "\n", stream = "stderr";
  int64_t summarize = 3;
  for (const auto &[key, v] : args.keywords) {
    if (key == "sep" && v.kind == Value::Kind::Str)
      sep = v.s;
    else if (key == "end" && v.kind == Value::Kind::Str)
      end = v.s;
    else if (key == "summarize" && v.kind == Value::Kind::Int)
      summarize = v.i;
    else if (key == "summarize" && v.kind == Value::Kind::None)
      summarize = 3;
    else if (key == "output_stream" && v.kind == Value::Kind::Module &&
             (v.s == "sys.stdout" || v.s == "sys.stderr"))
      stream = v.s.substr(4);
    else if (key == "name")
      continue;
    else
      return fail(args.loc, "tf.print's " + key + "=" + v.describe() + " is not supported by "
                            "agc's code generator");
  }
  PrintOp::create(builder, loc(args.loc), tensors, builder.getArrayAttr(items),
                  builder.getStringAttr(sep), builder.getStringAttr(end),
                  builder.getStringAttr(stream), builder.getI64IntegerAttr(summarize));
  return true;
}

//===----------------------------------------------------------------------------------===//
// tf.debugging assertions
//===----------------------------------------------------------------------------------===//

/// The type two operands broadcast to (NumPy's rules; a dimension known on neither side
/// stays dynamic).
static RankedTensorType broadcastType(RankedTensorType a, RankedTensorType b, mlir::Type element) {
  int64_t rank = std::max(a.getRank(), b.getRank());
  llvm::SmallVector<int64_t> dims(rank, 1);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t x = d - (rank - a.getRank()) >= 0 ? a.getDimSize(d - (rank - a.getRank())) : 1;
    int64_t y = d - (rank - b.getRank()) >= 0 ? b.getDimSize(d - (rank - b.getRank())) : 1;
    dims[d] = x == 1 ? y : y == 1 ? x : mlir::ShapedType::isDynamic(x) ? y : x;
  }
  return RankedTensorType::get(dims, element);
}

bool MLIRGen::emitAssert(llvm::StringRef name, const CallArgs &args, Value &) {
  mlir::Location l = loc(args.loc);
  // What must hold, elementwise: x OP y.
  llvm::StringRef op = llvm::StringSwitch<llvm::StringRef>(name)
                           .Case("assert_equal", "equal")
                           .Case("assert_greater", "greater")
                           .Case("assert_less", "less")
                           .Case("assert_positive", "greater")
                           .Case("assert_non_negative", "greater_equal")
                           .Default("");
  const Value *x = args.get(0, name == "Assert" ? "condition" : "x");
  if (!x)
    return fail(args.loc, "tf.debugging." + name + " needs its first argument");
  mlir::Value holds;
  if (name == "Assert") {
    holds = operand(*x, args.loc, DType::Bool);
  } else {
    Value zero = Value::integer(0);
    const Value *y = name == "assert_positive" || name == "assert_non_negative" ? &zero
                                                                                 : args.get(1, "y");
    std::optional<DType> in = tensorDType({x, y});
    mlir::Value a = y ? operand(*x, args.loc, in) : nullptr;
    mlir::Value b = a ? operand(*y, args.loc, in) : nullptr;
    if (!b)
      return false;
    auto type = broadcastType(llvm::cast<RankedTensorType>(a.getType()),
                              llvm::cast<RankedTensorType>(b.getType()), builder.getI1Type());
    DType dtype = in.value_or(DType::Float32);
    holds = elementwise(type, {a, b},
                        [&](OpBuilder &bb, mlir::Location bl, mlir::ValueRange xs) {
                          return scalarOp(op, bb, bl, xs, dtype);
                        },
                        l);
  }
  if (!holds)
    return false;
  auto type = llvm::cast<RankedTensorType>(holds.getType());
  llvm::SmallVector<int64_t> all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  mlir::Value every = reduce(holds, all, scalarConstant(1, builder.getI1Type(), l),
                             [&](OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) {
                               return arith::AndIOp::create(b, bl, xs[0], xs[1]).getResult();
                             },
                             l);
  mlir::Value ok = mlir::tensor::ExtractOp::create(builder, l, every, mlir::ValueRange{});
  std::string message = "tf.debugging." + name.str() + " failed";
  const Value *text = args.get(name == "Assert" ? 99 : 2, "message");
  if (text && text->kind == Value::Kind::Str)
    message += ": " + text->s;
  else if (name == "Assert")
    message += ": the condition is false";
  // A user's assertion holds even where checks are off.
  AssertOp::create(builder, l, ok, where(l) + message, mlir::ValueRange{});
  return true;
}

//===----------------------------------------------------------------------------------===//
// Subscripts
//===----------------------------------------------------------------------------------===//

bool MLIRGen::subscript(const Value &base, llvm::ArrayRef<analysis::IndexItem> items, Value &out,
                        const Location &at) {
  using Item = analysis::IndexItem;
  RankedTensorType type = tensorType(out, at);
  mlir::Value t = type ? operand(base, at) : nullptr;
  if (!t)
    return false;
  mlir::Location l = loc(at);
  auto inType = llvm::cast<RankedTensorType>(t.getType());
  int64_t rank = inType.getRank();
  unsigned consumed = llvm::count_if(items, [](const Item &i) {
    return i.kind == Item::Kind::Index || i.kind == Item::Kind::Slice;
  });
  llvm::SmallVector<mlir::OpFoldResult> offsets, sizes, strides;
  llvm::SmallVector<int64_t> sliceShape; // the kept dimensions
  llvm::SmallVector<mlir::Value> keptSizes;
  llvm::SmallVector<bool> isNew;           // per result dimension: a new axis
  int64_t d = 0;
  auto full = [&]() {
    offsets.push_back(builder.getIndexAttr(0));
    mlir::Value n = dimSize(t, d, l);
    sizes.push_back(inType.isDynamicDim(d) ? mlir::OpFoldResult(n)
                                           : mlir::OpFoldResult(builder.getIndexAttr(inType.getDimSize(d))));
    strides.push_back(builder.getIndexAttr(1));
    sliceShape.push_back(inType.getDimSize(d));
    keptSizes.push_back(n);
    isNew.push_back(false);
    ++d;
  };
  auto clampIndex = [&](mlir::Value v, mlir::Value lo, mlir::Value hi) {
    return arith::MinSIOp::create(builder, l, arith::MaxSIOp::create(builder, l, v, lo), hi).getResult();
  };
  for (const Item &item : items) {
    switch (item.kind) {
    case Item::Kind::Ellipsis:
      for (unsigned k = 0; k < rank - consumed; ++k)
        full();
      break;
    case Item::Kind::NewAxis:
      isNew.push_back(true);
      break;
    case Item::Kind::Index: {
      mlir::Value n = dimSize(t, d, l);
      mlir::Value i, given;
      if (item.index.kind == Value::Kind::Int) {
        int64_t k = item.index.i;
        given = indexConstant(k, l);
        if (k < 0 && !inType.isDynamicDim(d))
          k += inType.getDimSize(d);
        i = indexConstant(k, l);
        if (k < 0)
          i = arith::AddIOp::create(builder, l, i, n);
      } else {
        mlir::Value v = operand(item.index, item.loc);
        if (!v)
          return false;
        mlir::Value s = mlir::tensor::ExtractOp::create(builder, l, v, mlir::ValueRange{});
        i = given = arith::IndexCastOp::create(builder, l, builder.getIndexType(), s);
        // A negative index counts from the end.
        mlir::Value negative = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::slt, i,
                                                     indexConstant(0, l));
        i = arith::SelectOp::create(builder, l, negative, arith::AddIOp::create(builder, l, i, n), i);
      }
      // TensorFlow's "slice index out of bounds": 0 <= i < n once a negative i has counted
      // from the end (one unsigned comparison).
      mlir::Value guarded[] = {i};
      check(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::ult, i, n),
            "index {0} is out of bounds for dimension " + llvm::Twine(d) + ", of size {1}",
            {given, n}, loc(item.loc), guarded);
      offsets.push_back(guarded[0]);
      sizes.push_back(builder.getIndexAttr(1));
      strides.push_back(builder.getIndexAttr(1));
      ++d;
      break;
    }
    case Item::Kind::Slice: {
      int64_t step = item.step.value_or(1);
      if (step < 0)
        return fail(item.loc, "slices with a negative step are not supported by agc's code "
                              "generator yet; use tf.reverse");
      bool tensorBound = item.loTensor.isDefined() || item.hiTensor.isDefined();
      if (!inType.isDynamicDim(d) && !tensorBound) {
        int64_t size = inType.getDimSize(d);
        auto clamp = [&](int64_t i) { return std::clamp<int64_t>(i < 0 ? i + size : i, 0, size); };
        int64_t lo = item.lo ? clamp(*item.lo) : 0, hi = item.hi ? clamp(*item.hi) : size;
        int64_t count = hi > lo ? (hi - lo + step - 1) / step : 0;
        offsets.push_back(builder.getIndexAttr(lo));
        sizes.push_back(builder.getIndexAttr(count));
        sliceShape.push_back(count);
        keptSizes.push_back(indexConstant(count, l));
      } else {
        mlir::Value n = dimSize(t, d, l), zero = indexConstant(0, l);
        // A negative bound counts from the end; then both clamp to [0, n].
        auto bound = [&](std::optional<int64_t> b, const Value &t, mlir::Value dflt) -> mlir::Value {
          mlir::Value v;
          if (t.isDefined()) {
            mlir::Value tv = operand(t, item.loc);
            if (!tv)
              return nullptr;
            v = arith::IndexCastOp::create(builder, l, builder.getIndexType(),
                                           mlir::tensor::ExtractOp::create(builder, l, tv, mlir::ValueRange{}));
            mlir::Value negative = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::slt, v, zero);
            v = arith::SelectOp::create(builder, l, negative, arith::AddIOp::create(builder, l, v, n), v);
            return clampIndex(v, zero, n);
          }
          if (!b)
            return dflt;
          v = indexConstant(*b, l);
          if (*b < 0)
            v = arith::AddIOp::create(builder, l, v, n);
          return clampIndex(v, zero, n);
        };
        mlir::Value lo = bound(item.lo, item.loTensor, zero);
        mlir::Value hi = lo ? bound(item.hi, item.hiTensor, n) : nullptr;
        if (!hi)
          return false;
        mlir::Value span = arith::MaxSIOp::create(builder, l, arith::SubIOp::create(builder, l, hi, lo), zero);
        mlir::Value count = arith::CeilDivSIOp::create(builder, l, span, indexConstant(step, l));
        offsets.push_back(lo);
        sizes.push_back(count);
        sliceShape.push_back(mlir::ShapedType::kDynamic);
        keptSizes.push_back(count);
      }
      strides.push_back(builder.getIndexAttr(step));
      isNew.push_back(false);
      ++d;
      break;
    }
    }
  }
  while (d < rank)
    full();
  // One element: tensor.extract, which folds with what made the tensor (tf.range's
  // tensor.generate, a tensor.from_elements).
  if (sliceShape.empty() && !llvm::is_contained(isNew, true) && type.getRank() == 0) {
    llvm::SmallVector<mlir::Value> indices;
    for (mlir::OpFoldResult o : offsets)
      indices.push_back(llvm::isa<mlir::Value>(o)
                            ? llvm::cast<mlir::Value>(o)
                            : indexConstant(llvm::cast<mlir::IntegerAttr>(llvm::cast<mlir::Attribute>(o)).getInt(), l));
    mlir::Value e = mlir::tensor::ExtractOp::create(builder, l, t, indices);
    out.ir = handle(mlir::tensor::FromElementsOp::create(builder, l, type, mlir::ValueRange{e}));
    return true;
  }
  auto sliceType = RankedTensorType::get(sliceShape, inType.getElementType());
  // A slice with no elements is an empty tensor (the verifier of tensor.extract_slice
  // refuses static offsets into a dimension of size 0).
  bool none = llvm::any_of(sizes, [](mlir::OpFoldResult s) {
    auto attr = llvm::dyn_cast_if_present<mlir::Attribute>(s);
    return attr && llvm::cast<mlir::IntegerAttr>(attr).getInt() == 0;
  }) || llvm::is_contained(inType.getShape(), 0);
  mlir::Value r = none ? empty(sliceType, keptSizes, l)
                       : mlir::tensor::ExtractSliceOp::create(builder, l, sliceType, t, offsets,
                                                              sizes, strides).getResult();
  // An empty slice reads no offset, yet TensorFlow still checks its indices.
  if (none) {
    llvm::SmallVector<mlir::Value> indices;
    for (mlir::OpFoldResult o : offsets)
      if (auto index = llvm::dyn_cast<mlir::Value>(o))
        indices.push_back(index);
    r = dependOn(r, indices, l);
  }
  // New axes: a reshape that adds the 1s.
  if (llvm::is_contained(isNew, true)) {
    llvm::SmallVector<int64_t> shape;
    llvm::SmallVector<mlir::Value> newSizes;
    unsigned k = 0;
    for (bool n : isNew) {
      shape.push_back(n ? 1 : sliceShape[k]);
      newSizes.push_back(n ? indexConstant(1, l) : keptSizes[k]);
      if (!n)
        ++k;
    }
    r = reshape(r, RankedTensorType::get(shape, inType.getElementType()), newSizes, l);
  }
  return produce(out, r, type, l);
}

//===----------------------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------------------===//

const llvm::StringMap<MLIRGen::OpRule> &MLIRGen::opRules() {
  static const llvm::StringMap<OpRule> table = [] {
    llvm::StringMap<OpRule> t;
    auto family = [&](std::initializer_list<llvm::StringRef> ops, OpRule rule) {
      for (llvm::StringRef op : ops)
        t[op] = rule;
    };
    family({"exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "sin", "cos", "tan", "floor",
            "ceil", "round", "log1p", "expm1", "softplus", "erf", "reciprocal", "abs", "square",
            "negative", "relu", "relu6", "sign", "identity", "logical_not", "invert"},
           &MLIRGen::emitUnary);
    family({"add", "subtract", "multiply", "divide", "truediv", "floordiv", "floormod", "mod",
            "pow", "maximum", "minimum", "squared_difference", "equal", "not_equal", "less",
            "less_equal", "greater", "greater_equal", "logical_and", "logical_or",
            "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
            "right_shift"},
           &MLIRGen::emitBinary);
    family({"reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
            "reduce_any", "reduce_all"},
           &MLIRGen::emitReduce);
    family({"softmax", "log_softmax"}, &MLIRGen::emitSoftmax);
    family({"argmax", "argmin"}, &MLIRGen::emitArgmax);
    family({"constant", "convert_to_tensor"}, &MLIRGen::emitConstant);
    family({"zeros", "ones", "fill", "zeros_like", "ones_like"}, &MLIRGen::emitFill);
    family({"reshape", "expand_dims", "squeeze"}, &MLIRGen::emitReshape);
    family({"concat", "stack"}, &MLIRGen::emitConcat);
    family({"shape", "size", "rank"}, &MLIRGen::emitShape);
    t["where"] = &MLIRGen::emitWhere;
    t["clip_by_value"] = &MLIRGen::emitClip;
    t["cast"] = &MLIRGen::emitCast;
    t["eye"] = &MLIRGen::emitEye;
    t["range"] = &MLIRGen::emitRange;
    t["matmul"] = &MLIRGen::emitMatmul;
    t["transpose"] = &MLIRGen::emitTranspose;
    t["print"] = &MLIRGen::emitPrint;
    family({"assert_equal", "assert_greater", "assert_less", "assert_positive",
            "assert_non_negative", "Assert"},
           &MLIRGen::emitAssert);
    return t;
  }();
  return table;
}

bool MLIRGen::op(llvm::StringRef name, const CallArgs &args, Value &out) {
  const llvm::StringMap<OpRule> &rules = opRules();
  auto rule = rules.find(name);
  if (rule == rules.end())
    return fail(args.loc, "tf." + name + " is not supported by agc's code generator yet");
  return (this->*(rule->second))(name, args, out);
}
