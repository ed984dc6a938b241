//===- OpsEffects.cpp - tf.print and tf.debugging assertions --------------------===//
//
// tf.print as ag.print; tf.debugging.assert_* and tf.Assert as ag.assert on the reduced
// condition (a user\'s assertion holds even with run-time checks off).
//
//===----------------------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "ag/dialect/AgDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace ag;
namespace arith = mlir::arith;

bool MLIRGen::emitPrint(TFOp, const CallArgs &args, Value &) {
  llvm::SmallVector<mlir::Attribute> items;
  llvm::SmallVector<mlir::Value> tensors;
  llvm::SmallVector<llvm::StringRef> dtypes;
  bool anyMarked = false;
  for (const Value &v : args.positional) {
    if (v.isTensorLike()) {
      mlir::Value t = operand(v, args.loc);
      if (!t)
        return false;
      items.push_back(builder.getI64IntegerAttr(tensors.size()));
      // The dtypes the element type does not say: string handles, unsigned integers.
      bool marked = v.dtype == DType::String || analysis::isUnsigned(v.dtype);
      dtypes.push_back(marked ? analysis::dtypeName(v.dtype) : "");
      anyMarked |= marked;
      tensors.push_back(t);
      continue;
    }
    if (v.isPySequence() && llvm::any_of(v.items(), [](const Value &e) { return e.isTensorLike(); }))
      return fail(args.loc, "tf.print of a Python list holding tensors is not supported by agc's "
                            "code generator; print the tensors as separate arguments");
    items.push_back(builder.getStringAttr(v.pyStr(false)));
  }
  std::string sep = " ", end = "\n", stream = "stderr";
  int64_t summarize = 3;
  for (const auto &[key, v] : args.keywords) {
    if (key == "sep" && v.kind == Value::Kind::Str)
      sep = v.text;
    else if (key == "end" && v.kind == Value::Kind::Str)
      end = v.text;
    else if (key == "summarize" && v.kind == Value::Kind::Int)
      summarize = v.i;
    else if (key == "summarize" && v.kind == Value::Kind::None)
      summarize = 3;
    else if (key == "output_stream" && v.kind == Value::Kind::Module &&
             (v.name == "sys.stdout" || v.name == "sys.stderr"))
      stream = v.name.substr(4);
    else if (key == "name")
      continue;
    else
      return fail(args.loc, "tf.print's " + key + "=" + v.describe() + " is not supported by "
                            "agc's code generator");
  }
  PrintOp::create(builder, loc(args.loc), tensors, builder.getArrayAttr(items),
                  builder.getStringAttr(sep), builder.getStringAttr(end),
                  builder.getStringAttr(stream), builder.getI64IntegerAttr(summarize),
                  anyMarked ? builder.getStrArrayAttr(dtypes) : nullptr);
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

bool MLIRGen::emitAssert(TFOp op, const CallArgs &args, Value &) {
  llvm::StringRef name = tfOpName(op);
  mlir::Location l = loc(args.loc);
  // What must hold, elementwise: x OP y.
  TFOp holdsOp = op == TFOp::AssertEqual                                  ? TFOp::Equal
                 : op == TFOp::AssertGreater || op == TFOp::AssertPositive ? TFOp::Greater
                 : op == TFOp::AssertLess                                  ? TFOp::Less
                                                                           : TFOp::GreaterEqual;
  const Value *x = args.get(0, op == TFOp::Assert ? "condition" : "x");
  if (!x)
    return fail(args.loc, "tf.debugging." + name + " needs its first argument");
  mlir::Value holds;
  if (op == TFOp::Assert) {
    holds = operand(*x, args.loc, DType::Bool);
  } else {
    Value zero = Value::integer(0);
    const Value *y = op == TFOp::AssertPositive || op == TFOp::AssertNonNegative ? &zero
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
                          return scalarOp(holdsOp, bb, bl, xs, dtype);
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
  const Value *text = args.get(op == TFOp::Assert ? 99 : 2, "message");
  if (op == TFOp::Assert && text && text->kind == Value::Kind::Str)
    message = text->text; // a check of TensorFlow's own (tf.case, a loop that must run)
  else if (text && text->kind == Value::Kind::Str)
    message += ": " + text->text;
  else if (op == TFOp::Assert)
    message += ": the condition is false";
  // A user's assertion holds even where checks are off.
  AssertOp::create(builder, l, ok, where(l) + message, mlir::ValueRange{});
  return true;
}
