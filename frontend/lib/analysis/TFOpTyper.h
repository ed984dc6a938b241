//===- TFOpTyper.h - The typing rules of tf functions, one method each -----===//
//
// Private to the tracer: TFOps.cpp dispatches a call of a tf function to the rule that
// TFOps.def names for its op (TFOpTyper::ruleFor), and TFOpRules.cpp holds the rules.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_LIB_ANALYSIS_TFOPTYPER_H
#define AG_FRONTEND_LIB_ANALYSIS_TFOPTYPER_H

#include "TracerImpl.h"

#include <optional>
#include <string>
#include <utility>

namespace ag::analysis {

/// One call of a tf function: its arguments and the helpers every typing rule uses. Each
/// rule is a method; TFOpTyper::rules() maps op names to them.
class TFOpTyper {
public:
  TFOpTyper(Tracer::Impl &impl, llvm::StringRef path, TFOp op, const CallArgs &args)
      : impl(impl), args(args), loc(args.loc), name(path.str()), op(op), failed(impl.failed) {}

  using Rule = std::optional<Value> (TFOpTyper::*)();
  /// The typing rule of `op` (TFOps.def's TYPING); null for an op reached only through a
  /// Python operator.
  static Rule ruleFor(TFOp op);
  /// Whether `op` is a tf function (not only an operator's op).
  static bool isCallable(TFOp op) { return ruleFor(op) != &TFOpTyper::typeOperator; }

private:
  /// Elementwise one-operand functions: the same dtype and shape; floats only (exp, ...),
  /// numbers (abs, ...), any dtype (identity), bools (logical_not).
  std::optional<Value> typeUnaryFloat() {
    if (acceptsComplex(op))
      return typeUnary([](DType d) { return isFloat(d) || isComplex(d); },
                       "float or complex tensors; tf.cast integers first");
    return typeUnary(isFloat, "float tensors; tf.cast integers first");
  }
  /// (abs, negative, sign, relu, square: TensorFlow's kernels take signed numbers only.)
  std::optional<Value> typeUnaryNumeric() {
    // abs, negative and sign take signed numbers only; square and relu unsigned too.
    if (op == TFOp::Abs || op == TFOp::Negative || op == TFOp::Sign) {
      std::optional<Value> r = typeUnary(
          [](DType d) { return isFloat(d) || isComplex(d) || (isInteger(d) && !isUnsigned(d)); },
          "signed number tensors");
      if (r && op == TFOp::Abs)
        r->dtype = realPart(r->dtype); // |a + bi| is a float
      return r;
    }
    if (op == TFOp::Square)
      return typeUnary([](DType d) { return isFloat(d) || isComplex(d) || isInteger(d); },
                       "number tensors");
    return typeUnary([](DType d) { return isFloat(d) || isInteger(d); }, "number tensors");
  }
  std::optional<Value> typeUnaryAny() {
    return typeUnary([](DType) { return true; }, "");
  }
  std::optional<Value> typeUnaryInteger() {
    return typeUnary(isInteger, "integer tensors");
  }
  /// tf.bitwise's two-operand functions: integers of one dtype, broadcast.
  std::optional<Value> typeBitwise();
  std::optional<Value> typeUnaryBool() {
    return typeUnary([](DType d) { return d == DType::Bool; }, "bool tensors");
  }
  /// `x` of a dtype `accepts`, else an error that says what the function `takes`.
  std::optional<Value> typeUnary(bool (*accepts)(DType), llvm::StringRef takes);
  /// tf.complex(real, imag): two float tensors of one dtype, broadcast.
  std::optional<Value> typeComplex();
  /// tf.math.real, imag, conj, angle: of complex tensors, and of real ones as TensorFlow
  /// takes them.
  std::optional<Value> typeComplexPart();
  /// Ops reached only through Python operators (`a & b`): no tf function to call.
  std::optional<Value> typeOperator();
  /// add ... pow: both arguments converted as Python's operators convert them.
  std::optional<Value> typeArithmetic();
  /// maximum, minimum, squared_difference: one dtype on both sides, broadcast.
  std::optional<Value> typeSameDType();
  /// equal ... greater_equal: compared as Python's operators compare.
  std::optional<Value> typeCompare();
  /// The two arguments of a binary function, converted to tensors (even two numbers).
  std::optional<std::pair<Value, Value>> binaryOperands();
  /// logical_and/or/xor: bool tensors, broadcast.
  std::optional<Value> typeLogical();
  /// reduce_sum/mean/max/min/prod/any/all with axis and keepdims.
  std::optional<Value> typeReduce();
  /// tf.constant, tf.convert_to_tensor.
  std::optional<Value> typeConstant();
  /// tf.zeros, tf.ones.
  std::optional<Value> typeZeros();
  /// tf.fill.
  std::optional<Value> typeFill();
  /// tf.zeros_like, tf.ones_like.
  std::optional<Value> typeZerosLike();
  /// tf.eye.
  std::optional<Value> typeEye();
  /// tf.range.
  std::optional<Value> typeRange();
  /// tf.cast.
  std::optional<Value> typeCast();
  /// tf.where.
  std::optional<Value> typeWhere();
  /// tf.clip_by_value.
  std::optional<Value> typeClipByValue();
  /// tf.argmax, tf.argmin.
  std::optional<Value> typeArgmax();
  /// tf.matmul.
  std::optional<Value> typeMatmul();
  /// tf.transpose.
  std::optional<Value> typeTranspose();
  /// tf.reshape.
  std::optional<Value> typeReshape();
  /// tf.concat, tf.stack.
  std::optional<Value> typeConcat();
  /// tf.expand_dims.
  std::optional<Value> typeExpandDims();
  /// tf.squeeze.
  std::optional<Value> typeSqueeze();
  /// tf.shape.
  std::optional<Value> typeShape();
  /// tf.size, tf.rank.
  std::optional<Value> typeSize();
  /// tf.print, run-time assertions and set_loop_options: effects, no value.
  std::optional<Value> typeEffect() { return Value::none(); }
  /// tf.function(f) inside traced code: only as a no-op around a function.
  std::optional<Value> typeFunction();
  /// tf.TensorSpec.
  std::optional<Value> typeTensorSpec();
  /// tf.TensorShape.
  std::optional<Value> typeTensorShape();
  /// tf.Variable.
  std::optional<Value> typeVariable();
  /// tf.TensorArray.
  std::optional<Value> typeTensorArray();
  /// tf.strings.join.
  std::optional<Value> typeStringJoin();
  /// tf.strings.length, upper, lower.
  std::optional<Value> typeStringUnary();
  /// tf.strings.substr.
  std::optional<Value> typeSubstr();
  /// tf.strings.as_string.
  std::optional<Value> typeAsString();
  /// tf.strings.format.
  std::optional<Value> typeStringFormat();
  /// tf.strings.to_number.
  std::optional<Value> typeToNumber();
  /// tf.gather.
  std::optional<Value> typeGather();
  /// tf.tile.
  std::optional<Value> typeTile();
  /// tf.pad.
  std::optional<Value> typePad();
  /// tf.reverse.
  std::optional<Value> typeReverse();
  /// tf.sort, tf.argsort.
  std::optional<Value> typeSort();
  /// tf.gather_nd.
  std::optional<Value> typeGatherNd();
  /// tf.cumsum, tf.cumprod.
  std::optional<Value> typeCumulative();
  /// Argument `i` or `param`: a tensor of numbers of a known rank of 1 or more.
  std::optional<Value> vectorOfNumbers(unsigned i, llvm::StringRef param);
  /// A Python int axis of a tensor of rank `rank` (argument `i` or `param`, `byDefault`
  /// when absent) made non-negative; reported when it is not one or is out of range.
  std::optional<int64_t> axisOf(unsigned i, llvm::StringRef param, int64_t byDefault,
                                int64_t rank);
  /// A Python int list or a 1-D int tensor of `length` elements (argument `i`, `param`): the
  /// ints where Python gives them, -1 for each element a tensor holds.
  std::optional<std::vector<int64_t>> intsOf(unsigned i, llvm::StringRef param, size_t length);
  /// tf.random.uniform, tf.random.normal.
  std::optional<Value> typeRandomUniform();

  /// Argument `i` or keyword `param`, reported when missing.
  const Value *need(unsigned i, llvm::StringRef param) {
    const Value *v = args.get(i, param);
    if (!v)
      error(loc, name + "() is missing its argument '" + param + "'");
    return v;
  }
  /// Argument `i` or keyword `param` as a tensor (a Python value converts, as `want`).
  std::optional<Value> tensorOf(unsigned i, llvm::StringRef param,
                                std::optional<DType> want = std::nullopt) {
    const Value *v = need(i, param);
    if (!v)
      return std::nullopt;
    if (v->isTensorLike())
      return asTensor(*v, loc);
    return toTensor(*v, loc, want);
  }
  std::nullopt_t badDtype(const Value &t, llvm::StringRef allowed) {
    return error(loc, name + "() does not accept " + t.describe() + " (it takes " + allowed + ")");
  }
  // The tracer's helpers, under the names the rules use.
  std::nullopt_t error(const Location &at, const llvm::Twine &message) {
    return impl.error(at, message);
  }
  // Types only: a rule never emits (MLIRGen converts the operands it lowers).
  std::optional<Value> asTensor(const Value &v, const Location &at) { return impl.tensorTypeOf(v, at); }
  std::optional<Value> toTensor(const Value &v, const Location &at,
                                std::optional<DType> want = std::nullopt) {
    return impl.tensorTypeOf(v, at, want);
  }
  std::optional<Shape> broadcast(const Shape &a, const Shape &b, const Location &at) {
    return impl.broadcast(a, b, at);
  }
  std::optional<Shape> shapeFrom(const Value &v, const Location &at) {
    return impl.shapeFrom(v, at);
  }
  std::optional<DType> dtypeArg(const Value *v, const Location &at) { return impl.dtypeArg(v, at); }
  std::optional<Value> binary(ast::BinaryOp o, const Value &a, const Value &b, const Location &at) {
    return impl.tensorBinaryType(o, a, b, at);
  }
  std::optional<Value> compare(ast::CmpOp o, const Value &a, const Value &b, const Location &at) {
    return impl.tensorCompareType(o, a, b, at);
  }

  Tracer::Impl &impl;
  const CallArgs &args;
  const Location &loc;
  std::string name; ///< As written: tf.math.reduce_sum.
  TFOp op;
  bool &failed;     ///< Set once an error was reported.
};

} // namespace ag::analysis

#endif // AG_FRONTEND_LIB_ANALYSIS_TFOPTYPER_H
