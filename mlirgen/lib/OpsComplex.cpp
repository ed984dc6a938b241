//===- OpsComplex.cpp - complex64 and complex128 --------------------------------===//
//
// Complex tensors are tensors of MLIR's complex<f32> and complex<f64>, laid out as
// TensorFlow's and C's: (real, imaginary) pairs. Their elementwise ops are the complex
// dialect's, which convert-complex-to-standard expands with care for overflow (|z|, z / w)
// as Eigen's std::complex functions do. Which ops take complex tensors at all is the
// tracer's list (analysis::acceptsComplex).
//
//===----------------------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace ag;
namespace arith = mlir::arith;
namespace complex = mlir::complex;

namespace {
/// The float type of a complex type's parts.
mlir::FloatType partType(mlir::Type t) {
  return llvm::cast<mlir::FloatType>(llvm::cast<mlir::ComplexType>(t).getElementType());
}
} // namespace

mlir::Value MLIRGen::complexScalarOp(TFOp op, mlir::OpBuilder &b, mlir::Location l,
                                     mlir::ValueRange args) {
  mlir::Value x = args[0];
  mlir::Type t = x.getType();
  auto one = [&] { return constantOf(b, l, t, 1); };
  switch (op) {
  case TFOp::Add: return complex::AddOp::create(b, l, x, args[1]);
  case TFOp::Subtract: return complex::SubOp::create(b, l, x, args[1]);
  case TFOp::Multiply: return complex::MulOp::create(b, l, x, args[1]);
  case TFOp::Divide:
  case TFOp::Truediv: return complex::DivOp::create(b, l, x, args[1]);
  case TFOp::Pow: return complex::PowOp::create(b, l, x, args[1]);
  case TFOp::Equal: return complex::EqualOp::create(b, l, x, args[1]);
  case TFOp::NotEqual: return complex::NotEqualOp::create(b, l, x, args[1]);
  case TFOp::Exp: return complex::ExpOp::create(b, l, x);
  case TFOp::Expm1: return complex::Expm1Op::create(b, l, x);
  case TFOp::Log: return complex::LogOp::create(b, l, x);
  case TFOp::Log1p: return complex::Log1pOp::create(b, l, x);
  case TFOp::Sqrt: return complex::SqrtOp::create(b, l, x);
  case TFOp::Rsqrt: return complex::RsqrtOp::create(b, l, x);
  case TFOp::Tanh: return complex::TanhOp::create(b, l, x);
  case TFOp::Sin: return complex::SinOp::create(b, l, x);
  case TFOp::Cos: return complex::CosOp::create(b, l, x);
  case TFOp::Tan: return complex::TanOp::create(b, l, x);
  case TFOp::Reciprocal: return complex::DivOp::create(b, l, one(), x);
  case TFOp::Sigmoid: {
    // 1 / (1 + exp(-x)), as TensorFlow's Sigmoid computes it for complex numbers.
    mlir::Value e = complex::ExpOp::create(b, l, complex::NegOp::create(b, l, x));
    return complex::DivOp::create(b, l, one(), complex::AddOp::create(b, l, one(), e));
  }
  case TFOp::Abs: return complex::AbsOp::create(b, l, x);
  case TFOp::Square: return complex::MulOp::create(b, l, x, x);
  case TFOp::Negative: return complex::NegOp::create(b, l, x);
  case TFOp::Sign: return complex::SignOp::create(b, l, x); // x / |x|, and 0 for 0
  case TFOp::Identity: return x;
  default: return nullptr;
  }
}

mlir::Value ag::complexCast(mlir::OpBuilder &b, mlir::Location l, mlir::Value x, DType from,
                            DType to, mlir::Type toType) {
  if (analysis::isComplex(from) && analysis::isComplex(to)) {
    // complex64 <-> complex128: part by part.
    mlir::FloatType part = partType(toType);
    auto convert = [&](mlir::Value v) {
      return part.getWidth() > v.getType().getIntOrFloatBitWidth()
                 ? arith::ExtFOp::create(b, l, part, v).getResult()
                 : arith::TruncFOp::create(b, l, part, v).getResult();
    };
    return complex::CreateOp::create(b, l, toType, convert(complex::ReOp::create(b, l, x)),
                                     convert(complex::ImOp::create(b, l, x)));
  }
  if (analysis::isComplex(to)) {
    // A real number is the real part; the imaginary part is +0.
    DType part = analysis::realPart(to);
    mlir::FloatType partT = partType(toType);
    mlir::Value re = castScalar(b, l, x, from, part, partT);
    mlir::Value zero = arith::ConstantOp::create(b, l, b.getFloatAttr(partT, 0.0));
    return complex::CreateOp::create(b, l, toType, re, zero);
  }
  mlir::Value re = complex::ReOp::create(b, l, x);
  if (to == DType::Bool) // as TensorFlow's: the real part is not zero (0 - 1i is false)
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, re,
                                 arith::ConstantOp::create(b, l, b.getFloatAttr(partType(x.getType()), 0.0)));
  // TensorFlow drops the imaginary part.
  return castScalar(b, l, re, analysis::realPart(from), to, toType);
}

bool MLIRGen::emitComplex(TFOp, const CallArgs &args, Value &out) {
  const Value *re = args.get(0, "real"), *im = args.get(1, "imag");
  RankedTensorType type = tensorType(out, args.loc);
  DType part = analysis::realPart(out.dtype);
  mlir::Value a = re && im && type ? operand(*re, args.loc, part) : nullptr;
  mlir::Value c = a ? operand(*im, args.loc, part) : nullptr;
  if (!c)
    return false;
  mlir::Type e = type.getElementType();
  out.ir = handle(elementwise(type, {a, c},
                              [&](mlir::OpBuilder &b, mlir::Location l, mlir::ValueRange xs) {
                                return complex::CreateOp::create(b, l, e, xs[0], xs[1]).getResult();
                              },
                              loc(args.loc)));
  return true;
}

bool MLIRGen::emitComplexPart(TFOp op, const CallArgs &args, Value &out) {
  const Value *x = args.get(0, op == TFOp::Conj ? "x" : "input");
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value a = x && type ? operand(*x, args.loc) : nullptr;
  if (!a)
    return false;
  DType in = x->isTensorLike() ? x->dtype : out.dtype;
  bool isComplex = analysis::isComplex(in);
  mlir::Type e = type.getElementType();
  auto body = [&](mlir::OpBuilder &b, mlir::Location l, mlir::ValueRange xs) -> mlir::Value {
    mlir::Value v = xs[0];
    switch (op) {
    case TFOp::Real:
      return isComplex ? complex::ReOp::create(b, l, v).getResult() : v;
    case TFOp::Imag:
      return isComplex ? complex::ImOp::create(b, l, v).getResult() : constantOf(b, l, e, 0);
    case TFOp::Conj:
      return isComplex ? complex::ConjOp::create(b, l, v).getResult() : v;
    default: { // Angle
      if (isComplex)
        return complex::AngleOp::create(b, l, v);
      // Of a real number: pi where it is negative, else 0 (NaN too), as TensorFlow's.
      mlir::Value negative = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, v,
                                                   constantOf(b, l, e, 0));
      return arith::SelectOp::create(b, l, negative, constantOf(b, l, e, M_PI),
                                     constantOf(b, l, e, 0));
    }
    }
  };
  out.ir = handle(elementwise(type, {a}, body, loc(args.loc)));
  return true;
}
