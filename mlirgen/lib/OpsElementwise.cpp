//===- OpsElementwise.cpp - Elementwise ops and their scalar semantics ----------===//
//
// An elementwise op is a linalg.generic with NumPy broadcasting maps (a 0-d one plain
// arith / math between tensor.extract and tensor.from_elements); its body is the op on one
// element, as TFOps.def's SCALAR column names it (Scalar below): floordiv and floormod
// round toward negative infinity, integer true division gives float64, `round` is to
// even, integer division by zero is a run-time error and MIN // -1 wraps, as in TensorFlow.
//
//===----------------------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/Support/SaveAndRestore.h"

#include <cmath>

using namespace ag;
namespace arith = mlir::arith;
namespace math = mlir::math;

mlir::Value MLIRGen::elementwise(RankedTensorType type, llvm::ArrayRef<mlir::Value> operands,
                                 const ScalarBody &body, mlir::Location l) {
  int64_t rank = type.getRank();
  if (rank == 0) {
    llvm::SmallVector<mlir::Value> scalars;
    for (mlir::Value o : operands)
      scalars.push_back(mlir::tensor::ExtractOp::create(builder, l, o, mlir::ValueRange{}));
    llvm::SaveAndRestore<bool> scalar(scalarBody, true);
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
      else if (!sameSize(size, sizes[d]))
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
      if (sameSize(have[j], want[j]))
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
mlir::Value ag::constantOf(OpBuilder &b, mlir::Location l, mlir::Type type, double v) {
  if (auto c = llvm::dyn_cast<mlir::ComplexType>(type)) {
    auto part = llvm::cast<mlir::FloatType>(c.getElementType());
    return mlir::complex::ConstantOp::create(
        b, l, c, b.getArrayAttr({b.getFloatAttr(part, v), b.getFloatAttr(part, 0.0)}));
  }
  if (auto f = llvm::dyn_cast<mlir::FloatType>(type))
    return arith::ConstantOp::create(b, l, b.getFloatAttr(f, v));
  return arith::ConstantOp::create(b, l, b.getIntegerAttr(type, int64_t(v)));
}

mlir::Value MLIRGen::checkedDivisor(OpBuilder &b, mlir::Location l, llvm::StringRef name,
                                    mlir::Value y) {
  mlir::Type t = y.getType();
  mlir::Value zero = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, y, constantOf(b, l, t, 0));
  mlir::Value guarded[] = {y};
  if (!divisorsChecked)
    check(b, arith::XOrIOp::create(b, l, zero, constantOf(b, l, b.getI1Type(), 1)),
          "integer division by zero (tf.math." + name + ")", {}, l, guarded);
  return guarded[0];
}

std::pair<mlir::Value, mlir::Value> MLIRGen::safeDivisor(OpBuilder &b, mlir::Location l,
                                                         llvm::StringRef name, mlir::Value y) {
  mlir::Type t = y.getType();
  // Everything after the check comes from the guarded divisor: a test of `y` itself would
  // fold for a constant 0 and leave the check unused, so erased.
  y = checkedDivisor(b, l, name, y);
  mlir::Value zero = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, y, constantOf(b, l, t, 0));
  mlir::Value minusOne =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, y, constantOf(b, l, t, -1));
  mlir::Value unsafe = arith::OrIOp::create(b, l, zero, minusOne);
  return {arith::SelectOp::create(b, l, unsafe, constantOf(b, l, t, 1), y), minusOne};
}

namespace {
using FP = arith::CmpFPredicate;
using IP = arith::CmpIPredicate;

/// The op an integer op `I` is on unsigned integers (itself where signedness does not
/// matter).
template <typename I> struct OnUnsigned { using type = I; };
template <> struct OnUnsigned<arith::MaxSIOp> { using type = arith::MaxUIOp; };
template <> struct OnUnsigned<arith::MinSIOp> { using type = arith::MinUIOp; };
template <> struct OnUnsigned<arith::ShRSIOp> { using type = arith::ShRUIOp; };
template <> struct OnUnsigned<arith::RemSIOp> { using type = arith::RemUIOp; };
template <> struct OnUnsigned<arith::DivSIOp> { using type = arith::DivUIOp; };

/// A signed integer comparison as its unsigned twin.
IP unsignedPredicate(IP p) {
  switch (p) {
  case IP::slt: return IP::ult;
  case IP::sle: return IP::ule;
  case IP::sgt: return IP::ugt;
  case IP::sge: return IP::uge;
  default: return p;
  }
}

/// One elementwise op on one element: operands `args` of dtype `in`, built with `b` at
/// `l`. The templates are TFOps.def's MATH, ARITH, INT and CMP forms; the other methods
/// its CUSTOM bodies.
struct Scalar {
  MLIRGen &gen;
  TFOp op;
  OpBuilder &b;
  mlir::Location l;
  mlir::ValueRange args;
  DType in;

  mlir::Value x() const { return args[0]; }
  mlir::Value y() const { return args[1]; }
  bool fp() const { return analysis::isFloat(in); }
  bool uns() const { return analysis::isUnsigned(in); }
  mlir::Value constant(double v) { return constantOf(b, l, x().getType(), v); }

  template <typename M> mlir::Value mathOp() { return M::create(b, l, x()); }
  template <typename F, typename I> mlir::Value floatOrInt(mlir::Value p, mlir::Value q) {
    if (fp())
      return F::create(b, l, p, q).getResult();
    if (uns())
      return OnUnsigned<I>::type::create(b, l, p, q).getResult();
    return I::create(b, l, p, q).getResult();
  }
  template <typename F, typename I> mlir::Value floatOrInt() { return floatOrInt<F, I>(x(), y()); }
  template <typename I> mlir::Value intOp() {
    if (uns())
      return OnUnsigned<I>::type::create(b, l, x(), y());
    return I::create(b, l, x(), y());
  }
  mlir::Value compare(FP f, IP i, mlir::Value p, mlir::Value q) {
    if (fp())
      return arith::CmpFOp::create(b, l, f, p, q);
    return arith::CmpIOp::create(b, l, uns() ? unsignedPredicate(i) : i, p, q);
  }
  mlir::Value compare(FP f, IP i) { return compare(f, i, x(), y()); }

  /// y(), an unsigned divisor, checked nonzero (TensorFlow's error for 0); no -1 to
  /// wrap.
  mlir::Value checkedUnsignedDivisor() {
    mlir::Value guarded[] = {y()};
    gen.check(b, arith::CmpIOp::create(b, l, IP::ne, y(), constant(0)),
              "integer division by zero (tf.math." + tfOpName(op) + ")", {}, l, guarded);
    return guarded[0];
  }
  mlir::Value trueDivide() {
    if (fp())
      return arith::DivFOp::create(b, l, x(), y());
    // TensorFlow's truediv of integers: in float32 for 8 and 16 bits, float64 above.
    mlir::Type f = analysis::bitWidth(in) <= 16 ? mlir::Type(b.getF32Type()) : b.getF64Type();
    auto toFloat = [&](mlir::Value v) -> mlir::Value {
      if (uns())
        return arith::UIToFPOp::create(b, l, f, v);
      return arith::SIToFPOp::create(b, l, f, v);
    };
    return arith::DivFOp::create(b, l, toFloat(x()), toFloat(y()));
  }
  mlir::Value floorDivide() {
    if (fp())
      return math::FloorOp::create(b, l, arith::DivFOp::create(b, l, x(), y()));
    if (uns()) {
      // Unsigned: no negative quotient to floor, no -1 to wrap.
      return arith::DivUIOp::create(b, l, x(), checkedUnsignedDivisor());
    }
    // TensorFlow: an error for 0; MIN // -1 wraps to MIN (the hardware would trap).
    if (gen.scalarBody)
      return branchedDivision(arith::SubIOp::create(b, l, constant(0), x()),
                             [&](mlir::Value positive) -> mlir::Value {
                               return arith::DivUIOp::create(b, l, x(), positive);
                             },
                             [&](mlir::Value safe) -> mlir::Value {
                               return arith::FloorDivSIOp::create(b, l, x(), safe);
                             });
    auto [safe, minusOne] = gen.safeDivisor(b, l, tfOpName(op), y());
    mlir::Value q = arith::FloorDivSIOp::create(b, l, x(), safe);
    return arith::SelectOp::create(b, l, minusOne, arith::SubIOp::create(b, l, constant(0), x()), q);
  }
  /// A signed integer division of one value (not a vectorizable loop's element) by
  /// y(), checked, in branches, which the hardware predicts, rather than selects around
  /// the division: `unsignedDivide` of the divisor where x() >= 0 and y() > 0 (the
  /// floor changes nothing there), else `byMinusOne` where y() is -1, else `divide` of
  /// the divisor. Euclid's loop, whose remainder feeds the next division, ran 1.21-1.23x
  /// C's time with a select of the divisor before the division and the floor's
  /// correction after it on its critical path.
  mlir::Value branchedDivision(mlir::Value byMinusOne,
                              llvm::function_ref<mlir::Value(mlir::Value)> unsignedDivide,
                              llvm::function_ref<mlir::Value(mlir::Value)> divide) {
    mlir::Value yv = gen.checkedDivisor(b, l, tfOpName(op), y());
    mlir::Type type = yv.getType();
    // Both operands positive (a count, an index, Euclid's loop on positive ints): the
    // hardware's division alone, nothing after it.
    mlir::Value zero = constant(0);
    mlir::Value plain = arith::AndIOp::create(
        b, l, arith::CmpIOp::create(b, l, IP::sge, x(), zero),
        arith::CmpIOp::create(b, l, IP::sgt, yv, zero));
    auto positive = mlir::scf::IfOp::create(b, l, mlir::TypeRange{type}, plain,
                                            /*withElseRegion=*/true);
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(positive.thenBlock());
    mlir::scf::YieldOp::create(b, l, unsignedDivide(yv));
    b.setInsertionPointToStart(positive.elseBlock());
    mlir::Value minusOne = arith::CmpIOp::create(b, l, IP::eq, yv, constant(-1));
    auto branch = mlir::scf::IfOp::create(b, l, mlir::TypeRange{type}, minusOne,
                                          /*withElseRegion=*/true);
    mlir::scf::YieldOp::create(b, l, branch.getResult(0));
    b.setInsertionPointToStart(branch.thenBlock());
    mlir::scf::YieldOp::create(b, l, byMinusOne);
    b.setInsertionPointToStart(branch.elseBlock());
    // (0 never gets here, checked above; nothing then divides by it, whatever LLVM
    // knows of the check.)
    mlir::Value safe = arith::SelectOp::create(
        b, l, arith::CmpIOp::create(b, l, IP::eq, yv, zero), constant(1), yv);
    mlir::scf::YieldOp::create(b, l, divide(safe));
    return positive.getResult(0);
  }
  /// Float V as TensorFlow's CPU kernels read it, and as every other float op here does
  /// under the flush-to-zero modes the runtime sets: a denormal is a zero of its sign.
  /// For the divisor of libm's fmod, which those modes do not govern alike everywhere:
  /// glibc 2.36's fmodf(1, 1e-40) is NaN under them (TensorFlow's result here), 2.39's
  /// the exact remainder (seen on the host of a lent GPU machine). A denormal dividend
  /// is its own remainder by anything larger in both, as in TensorFlow: left alone.
  /// By its bits: LLVM, told the code runs with denormals read as zeros, folds a
  /// float select of a denormal's zero away (select(|v| < tiny, v * 0, v) is v there).
  mlir::Value flushed(mlir::Value v) {
    auto type = mlir::cast<mlir::FloatType>(v.getType());
    unsigned width = type.getWidth();
    auto bitsType = b.getIntegerType(width);
    llvm::APInt exponent =
        llvm::APFloat::getInf(type.getFloatSemantics()).bitcastToAPInt(); // all ones
    auto intConstant = [&](const llvm::APInt &value) -> mlir::Value {
      return arith::ConstantOp::create(b, l, b.getIntegerAttr(bitsType, value));
    };
    mlir::Value bits = arith::BitcastOp::create(b, l, bitsType, v);
    mlir::Value tiny = arith::CmpIOp::create(
        b, l, IP::eq, arith::AndIOp::create(b, l, bits, intConstant(exponent)),
        intConstant(llvm::APInt(width, 0)));
    mlir::Value sign =
        arith::AndIOp::create(b, l, bits, intConstant(llvm::APInt::getSignMask(width)));
    return arith::BitcastOp::create(b, l, type, arith::SelectOp::create(b, l, tiny, sign, bits));
  }
  mlir::Value floorMod() {
    if (uns()) {
      return arith::RemUIOp::create(b, l, x(), checkedUnsignedDivisor());
    }
    // The remainder takes the divisor's sign, as in Python.
    if (!fp()) {
      if (gen.scalarBody)
        return branchedDivision(constant(0),
                               [&](mlir::Value positive) -> mlir::Value {
                                 return arith::RemUIOp::create(b, l, x(), positive);
                               },
                               [&](mlir::Value safe) -> mlir::Value {
                                 return integerFloorMod(safe);
                               });
      auto [safe, minusOne] = gen.safeDivisor(b, l, tfOpName(op), y());
      return arith::SelectOp::create(b, l, minusOne, constant(0), integerFloorMod(safe));
    }
    mlir::Value yv = flushed(y()); // a denormal divisor is 0: NaN, whatever the libm
    mlir::Value r = arith::RemFOp::create(b, l, x(), yv);
    mlir::Value zero = constant(0);
    mlir::Value nonzero = compare(FP::UNE, IP::ne, r, zero);
    mlir::Value yNeg = compare(FP::OLT, IP::slt, yv, zero);
    mlir::Value rNeg = compare(FP::OLT, IP::slt, r, zero);
    mlir::Value adjust =
        arith::AndIOp::create(b, l, nonzero, arith::XOrIOp::create(b, l, rNeg, yNeg));
    return arith::SelectOp::create(b, l, adjust, arith::AddFOp::create(b, l, r, yv), r);
  }
  /// tf.truncatediv: C's quotient, rounded toward zero. As TensorFlow's kernel: an
  /// error for an integer 0 divisor, MIN / -1 wrapping to MIN.
  mlir::Value truncateDivide() {
    if (fp()) {
      // Toward zero as a floor or a ceiling (both targets have those; the nvptx
      // pipeline lowers no math.trunc); NaN stays NaN, -0.5 gives -0.
      mlir::Value q = arith::DivFOp::create(b, l, x(), y());
      return arith::SelectOp::create(b, l, compare(FP::OLT, IP::slt, q, constant(0)),
                                     math::CeilOp::create(b, l, q), math::FloorOp::create(b, l, q));
    }
    if (uns()) {
      return arith::DivUIOp::create(b, l, x(), checkedUnsignedDivisor());
    }
    auto [safe, minusOne] = gen.safeDivisor(b, l, tfOpName(op), y());
    mlir::Value q = arith::DivSIOp::create(b, l, x(), safe);
    return arith::SelectOp::create(b, l, minusOne, arith::SubIOp::create(b, l, constant(0), x()), q);
  }
  /// tf.truncatemod: C's remainder (fmod for floats), with the dividend's sign.
  mlir::Value truncateMod() {
    if (fp())
      return arith::RemFOp::create(b, l, x(), flushed(y())); // as floorMod's divisor
    if (uns()) {
      return arith::RemUIOp::create(b, l, x(), checkedUnsignedDivisor());
    }
    auto [safe, minusOne] = gen.safeDivisor(b, l, tfOpName(op), y());
    return arith::SelectOp::create(b, l, minusOne, constant(0),
                                   arith::RemSIOp::create(b, l, x(), safe));
  }
  /// x() modulo `divisor` (neither 0 nor -1), signed, with the divisor's sign.
  mlir::Value integerFloorMod(mlir::Value divisor) {
    mlir::Value zero = constant(0);
    mlir::Value r = arith::RemSIOp::create(b, l, x(), divisor);
    mlir::Value nonzero = arith::CmpIOp::create(b, l, IP::ne, r, zero);
    // A nonzero integer remainder has the dividend's sign: the correction (the divisor
    // where the signs of x and the divisor differ) is computed beside the division, and
    // only a test of r and an add follow it. Euclid's loop, whose remainder feeds the
    // next division, ran 1.6x C's time with the signs and the test of r after the
    // division, 1.15x with this.
    mlir::Value differ =
        arith::XOrIOp::create(b, l, arith::CmpIOp::create(b, l, IP::slt, x(), zero),
                              arith::CmpIOp::create(b, l, IP::slt, divisor, zero));
    mlir::Value correction = arith::SelectOp::create(b, l, differ, divisor, zero);
    return arith::SelectOp::create(b, l, nonzero, arith::AddIOp::create(b, l, r, correction),
                                   r);
  }
  mlir::Value pow() {
    if (fp())
      return math::PowFOp::create(b, l, x(), y());
    if (uns())
      return math::IPowIOp::create(b, l, x(), y());
    mlir::Value guarded[] = {y()};
    gen.check(b, arith::CmpIOp::create(b, l, IP::sge, y(), constant(0)),
              "integers to negative integer powers are not allowed (pow of {0} to the power {1})",
              {x(), y()}, l, guarded);
    return math::IPowIOp::create(b, l, x(), guarded[0]);
  }
  mlir::Value squaredDifference() {
    mlir::Value d = floatOrInt<arith::SubFOp, arith::SubIOp>();
    return floatOrInt<arith::MulFOp, arith::MulIOp>(d, d);
  }
  mlir::Value equal() {
    if (in == DType::Bool)
      return arith::CmpIOp::create(b, l, IP::eq, x(), y());
    return compare(FP::OEQ, IP::eq);
  }
  mlir::Value notEqual() {
    if (in == DType::Bool)
      return arith::CmpIOp::create(b, l, IP::ne, x(), y());
    return compare(FP::UNE, IP::ne);
  }
  /// TensorFlow's shifts: the amount clamped to [0, bits - 1] (no undefined shift).
  mlir::Value shiftAmount() {
    unsigned bits = x().getType().getIntOrFloatBitWidth();
    mlir::Value lo = constant(0), hi = constant(bits - 1);
    mlir::Value yv = uns() ? y() : arith::MaxSIOp::create(b, l, y(), lo).getResult();
    return arith::MinUIOp::create(b, l, yv, hi);
  }
  mlir::Value leftShift() { return arith::ShLIOp::create(b, l, x(), shiftAmount()); }
  mlir::Value rightShift() {
    if (uns())
      return arith::ShRUIOp::create(b, l, x(), shiftAmount());
    return arith::ShRSIOp::create(b, l, x(), shiftAmount());
  }
  mlir::Value logicalNot() { return arith::XOrIOp::create(b, l, x(), constant(1)); }
  mlir::Value invert() { return arith::XOrIOp::create(b, l, x(), constant(-1)); }
  mlir::Value negative() {
    return fp() ? arith::NegFOp::create(b, l, x()).getResult()
                : arith::SubIOp::create(b, l, constant(0), x()).getResult();
  }
  mlir::Value identity() { return x(); }
  mlir::Value abs() {
    if (fp())
      return math::AbsFOp::create(b, l, x());
    mlir::Value negative = arith::CmpIOp::create(b, l, IP::slt, x(), constant(0));
    return arith::SelectOp::create(b, l, negative,
                                   arith::SubIOp::create(b, l, constant(0), x()), x());
  }
  mlir::Value square() { return floatOrInt<arith::MulFOp, arith::MulIOp>(x(), x()); }
  mlir::Value relu() { return floatOrInt<arith::MaximumFOp, arith::MaxSIOp>(x(), constant(0)); }
  mlir::Value relu6() {
    return floatOrInt<arith::MinimumFOp, arith::MinSIOp>(relu(), constant(6));
  }
  mlir::Value sign() {
    mlir::Value zero = constant(0);
    mlir::Value pos = compare(FP::OGT, IP::sgt, x(), zero);
    mlir::Value neg = compare(FP::OLT, IP::slt, x(), zero);
    // Zero (and NaN) give themselves.
    mlir::Value r = arith::SelectOp::create(b, l, neg, constant(-1), fp() ? x() : zero);
    return arith::SelectOp::create(b, l, pos, constant(1), r);
  }
  mlir::Value reciprocal() { return arith::DivFOp::create(b, l, constant(1), x()); }
  mlir::Value sigmoid() {
    // float16 and bfloat16: computed in float32 and rounded once, as Eigen's logistic
    // functor does for them.
    mlir::Value v = x();
    bool narrow = in == DType::Float16 || in == DType::BFloat16;
    if (narrow)
      v = arith::ExtFOp::create(b, l, b.getF32Type(), v);
    mlir::Value one = constantOf(b, l, v.getType(), 1);
    mlir::Value e = math::ExpOp::create(b, l, arith::NegFOp::create(b, l, v));
    mlir::Value r = arith::DivFOp::create(b, l, one, arith::AddFOp::create(b, l, one, e));
    return narrow ? arith::TruncFOp::create(b, l, x().getType(), r).getResult() : r;
  }
  mlir::Value softplus() {
    // TensorFlow's thresholds: x itself when large, exp(x) when very negative.
    // (log(epsilon) + 2 of the dtype.)
    double epsilon = in == DType::Float64   ? 2.220446049250313e-16
                     : in == DType::Float16 ? 0.0009765625
                     : in == DType::BFloat16 ? 0.0078125
                                             : 1.1920929e-07;
    double threshold = std::log(epsilon) + 2;
    mlir::Value e = math::ExpOp::create(b, l, x());
    mlir::Value large = arith::CmpFOp::create(b, l, FP::OGT, x(), constant(-threshold));
    mlir::Value small = arith::CmpFOp::create(b, l, FP::OLT, x(), constant(threshold));
    mlir::Value mid = math::Log1pOp::create(b, l, e);
    return arith::SelectOp::create(b, l, large, x(), arith::SelectOp::create(b, l, small, e, mid));
  }
};
} // namespace

mlir::Value MLIRGen::scalarOp(TFOp op, OpBuilder &b, mlir::Location l, mlir::ValueRange args,
                              DType in) {
  if (analysis::isComplex(in))
    return complexScalarOp(op, b, l, args);
  Scalar s{*this, op, b, l, args, in};
#define MATH(OP) s.mathOp<math::OP>()
#define ARITH(FLOAT, INT) s.floatOrInt<arith::FLOAT, arith::INT>()
#define INT(OP) s.intOp<arith::OP>()
#define CMP(FLOAT, INT) s.compare(FP::FLOAT, IP::INT)
#define CUSTOM(NAME) s.NAME()
  switch (op) {
#define TF_UNARY(ID, NAME, TYPING, SCALAR)                                                 \
  case TFOp::ID:                                                                           \
    return SCALAR;
#define TF_BINARY(ID, NAME, TYPING, SCALAR)                                                \
  case TFOp::ID:                                                                           \
    return SCALAR;
#include "ag/frontend/analysis/TFOps.def"
  default:
    return nullptr; // not elementwise
  }
#undef MATH
#undef ARITH
#undef INT
#undef CMP
#undef CUSTOM
}

/// The dtype operands of an elementwise op convert to: the first tensor's.
std::optional<DType> ag::tensorDType(llvm::ArrayRef<const Value *> values) {
  for (const Value *v : values)
    if (v && v->isTensorLike())
      return v->dtype;
  return std::nullopt;
}

bool MLIRGen::emitUnary(TFOp op, const CallArgs &args, Value &out) {
  const Value *x = args.get(0, "x");
  if (!x)
    x = args.get(0, "features");
  RankedTensorType type = tensorType(out, args.loc);
  // (The operand keeps its dtype where the result's differs: tf.abs of complex64.)
  mlir::Value a = x && type ? operand(*x, args.loc, x->isTensorLike() ? x->dtype : out.dtype)
                            : nullptr;
  if (!a)
    return false;
  DType in = x->isTensorLike() ? x->dtype : out.dtype;
  mlir::Value r = elementwise(type, {a},
                              [&](OpBuilder &b, mlir::Location l, mlir::ValueRange xs) {
                                return scalarOp(op, b, l, xs, in);
                              },
                              loc(args.loc));
  out.ir = handle(r);
  return true;
}

bool MLIRGen::emitBinary(TFOp op, const CallArgs &args, Value &out) {
  llvm::StringRef name = tfOpName(op);
  const Value *x = args.get(0, "x"), *y = args.get(1, "y");
  if (!x || !y)
    return fail(args.loc, "internal error: " + name + " without two operands");
  std::optional<DType> in = tensorDType({x, y});
  if (!in)
    in = analysis::isFloat(out.dtype) || out.dtype == DType::Bool ? out.dtype : DType::Int32;
  if ((op == TFOp::LogicalAnd || op == TFOp::LogicalOr || op == TFOp::LogicalXor))
    in = DType::Bool;
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value a = type ? operand(*x, args.loc, in) : nullptr;
  mlir::Value b = a ? operand(*y, args.loc, in) : nullptr;
  if (!b)
    return false;
  DType dtype = *in;
  if (dtype == DType::String) {
    if (op != TFOp::Add && op != TFOp::Equal && op != TFOp::NotEqual)
      return fail(args.loc, "tf." + name + " of strings is not supported by agc");
    out.ir = handle(elementwise(type, {a, b},
                                [&](OpBuilder &bb, mlir::Location l, mlir::ValueRange xs) {
                                  return stringBinary(op, bb, l, xs[0], xs[1]);
                                },
                                loc(args.loc)));
    return true;
  }
  // An integer divisor tensor is checked once, before the loop over the elements (one
  // reduction: are all nonzero?), rather than element by element inside it, which keeps
  // that loop free of branches. Broadcast, every divisor is used unless the result has no
  // elements, which it has exactly when the dividend has none: then nothing is divided,
  // and TensorFlow raises nothing.
  bool division = op == TFOp::Floordiv || op == TFOp::Floormod || op == TFOp::Mod ||
                  op == TFOp::Truncatediv || op == TFOp::Truncatemod;
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
                                return scalarOp(op, bb, l, xs, dtype);
                              },
                              loc(args.loc)));
  return true;
}

bool MLIRGen::emitWhere(TFOp, const CallArgs &args, Value &out) {
  const Value *c = args.get(0, "condition"), *x = args.get(1, "x"), *y = args.get(2, "y");
  if (c && !x && !y)
    return whereTrue(args, out);
  if (!c || !x || !y)
    return fail(args.loc, "tf.where() needs both x and y, or neither");
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

bool MLIRGen::emitClip(TFOp, const CallArgs &args, Value &out) {
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
                                // As TensorFlow: maximum(minimum(t, hi), lo).
                                mlir::Value m = scalarOp(TFOp::Minimum, b, l, {xs[0], xs[2]}, dtype);
                                return scalarOp(TFOp::Maximum, b, l, {m, xs[1]}, dtype);
                              },
                              loc(args.loc)));
  return true;
}

namespace {
/// The truncating conversion of float `x` (float32 or float64) to a signed integer of
/// `bits` bits as x86-64 does it (cvttss2si, cvttsd2si): toward zero where the integer
/// fits, else, for a NaN, an infinity or a number too large, the "integer indefinite",
/// the most negative integer. Written as a select, so that an arith.fptosi out of range,
/// which is poison to LLVM (and saturates on NVIDIA GPUs), is never what the program
/// sees: the same integer on every CPU and target.
mlir::Value truncateToSigned(OpBuilder &b, mlir::Location l, mlir::Value x, unsigned bits) {
  mlir::IntegerType type = b.getIntegerType(bits);
  double limit = std::ldexp(1.0, int(bits) - 1); // exact in float32 and float64
  mlir::Value atLeast = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGE, x,
                                              constantOf(b, l, x.getType(), -limit));
  mlir::Value below = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, x,
                                            constantOf(b, l, x.getType(), limit));
  mlir::Value fits = arith::AndIOp::create(b, l, atLeast, below);
  mlir::Value indefinite = arith::ConstantOp::create(
      b, l, b.getIntegerAttr(type, llvm::APInt::getSignedMinValue(bits)));
  return arith::SelectOp::create(b, l, fits, arith::FPToSIOp::create(b, l, type, x), indefinite);
}

/// Float `x` to the integer dtype `to` as TensorFlow's Cast kernel computes it on x86-64
/// (its static_cast as compiled there; TensorFlow's vectorized loop can differ for numbers
/// out of range, its scalar loop is this): int32 and int64 directly; int8, int16, uint8
/// and uint16 through int32, then cut (300.7 -> uint8 44, -1.5 -> uint8 255, 5e9 ->
/// uint16 0); uint32 through int64, then cut; uint64 through int64 below 2**63 (-1.5 ->
/// 2**64 - 1) and exactly up to 2**64, else (NaN, infinities, too large) 2**63.
mlir::Value floatToInteger(OpBuilder &b, mlir::Location l, mlir::Value x, DType to,
                           mlir::Type toType) {
  if (x.getType().getIntOrFloatBitWidth() < 32) // float16, bfloat16: exact in float32
    x = arith::ExtFOp::create(b, l, b.getF32Type(), x);
  switch (to) {
  case DType::Int32:
    return truncateToSigned(b, l, x, 32);
  case DType::Int64:
    return truncateToSigned(b, l, x, 64);
  case DType::UInt32:
    return arith::TruncIOp::create(b, l, toType, truncateToSigned(b, l, x, 64));
  case DType::UInt64: {
    mlir::Value two63 = constantOf(b, l, x.getType(), std::ldexp(1.0, 63));
    mlir::Value upper = arith::AndIOp::create(
        b, l, arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGE, x, two63),
        arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, x,
                              constantOf(b, l, x.getType(), std::ldexp(1.0, 64))));
    // x - 2**63 is exact for x in [2**63, 2**64) (Sterbenz).
    mlir::Value high = arith::XOrIOp::create(
        b, l, truncateToSigned(b, l, arith::SubFOp::create(b, l, x, two63), 64),
        arith::ConstantOp::create(b, l, b.getIntegerAttr(toType, llvm::APInt::getSignedMinValue(64))));
    return arith::SelectOp::create(b, l, upper, high, truncateToSigned(b, l, x, 64));
  }
  default:
    return arith::TruncIOp::create(b, l, toType, truncateToSigned(b, l, x, 32));
  }
}
} // namespace

/// Converts scalar `x` from dtype `from` to `to` as tf.cast does (float to int truncates,
/// to bool is `!= 0`).
mlir::Value ag::castScalar(OpBuilder &b, mlir::Location l, mlir::Value x, DType from, DType to,
                           mlir::Type toType) {
  if (from == to)
    return x;
  if (analysis::isComplex(from) || analysis::isComplex(to))
    return complexCast(b, l, x, from, to, toType);
  if (to == DType::Bool) {
    mlir::Value zero = constantOf(b, l, x.getType(), 0);
    if (analysis::isFloat(from))
      return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, x, zero);
    return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, x, zero);
  }
  if (from == DType::Bool)
    return analysis::isFloat(to) ? arith::UIToFPOp::create(b, l, toType, x).getResult()
                                 : arith::ExtUIOp::create(b, l, toType, x).getResult();
  unsigned fromBits = analysis::bitWidth(from), toBits = analysis::bitWidth(to);
  if (analysis::isFloat(from) && analysis::isFloat(to)) {
    if (fromBits == toBits) // float16 <-> bfloat16: through float32
      x = arith::ExtFOp::create(b, l, b.getF32Type(), x);
    // float64 to float16 or bfloat16 through float32, rounded twice, as Eigen's half and
    // bfloat16 convert a double (static_cast<float> first). (LLVM's direct truncation
    // called __truncdfbf2, which Debian 12's libgcc lacks, and __truncdfhf2, which
    // `agc run` did not find.)
    if (fromBits == 64 && toBits == 16)
      x = arith::TruncFOp::create(b, l, b.getF32Type(), x);
    return analysis::bitWidth(to) > x.getType().getIntOrFloatBitWidth()
               ? arith::ExtFOp::create(b, l, toType, x).getResult()
               : arith::TruncFOp::create(b, l, toType, x).getResult();
  }
  if (analysis::isFloat(from))
    return floatToInteger(b, l, x, to, toType);
  if (analysis::isFloat(to))
    return analysis::isUnsigned(from) ? arith::UIToFPOp::create(b, l, toType, x).getResult()
                                      : arith::SIToFPOp::create(b, l, toType, x).getResult();
  // Integers: the same bits (int32 <-> uint32), extended by the source's sign, or cut.
  if (fromBits == toBits)
    return x;
  if (toBits > fromBits)
    return analysis::isUnsigned(from) ? arith::ExtUIOp::create(b, l, toType, x).getResult()
                                      : arith::ExtSIOp::create(b, l, toType, x).getResult();
  return arith::TruncIOp::create(b, l, toType, x).getResult();
}

bool MLIRGen::emitCast(TFOp, const CallArgs &args, Value &out) {
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
                                return castScalar(b, l, xs[0], from, to, toType);
                              },
                              loc(args.loc)));
  return true;
}
