//===- OpsStrings.cpp - tf.string tensors -----------------------------------------===//
//
// A string element is an i64 handle in compiled code: the address of the runtime's
// agc_string (agc/runtime.h; 0 is the empty string), valid until the call returns. What
// makes or reads one is a call of the runtime inside an elementwise body: a literal
// (agrt_string_literal, over a constant global), `+` and tf.strings.join (concat), `==`
// and `!=`, tf.strings.length, upper, lower, substr, tf.strings.as_string and
// tf.strings.to_number. The function's signature marks its string arguments and results
// (`ag.dtype = "string"`), for the C interface, which passes agc_strings.
//
//===----------------------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "ag/dialect/AgDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace ag;
namespace arith = mlir::arith;

mlir::Value MLIRGen::runtimeCall(mlir::OpBuilder &b, mlir::Location l, llvm::StringRef name,
                                 mlir::TypeRange results, mlir::ValueRange args) {
  auto fn = module->lookupSymbol<mlir::func::FuncOp>(name);
  if (!fn) {
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module->getBody());
    fn = mlir::func::FuncOp::create(b, module->getLoc(), name,
                                    b.getFunctionType(args.getTypes(), results));
    fn.setPrivate();
  }
  auto call = mlir::func::CallOp::create(b, l, fn, args);
  return results.empty() ? mlir::Value() : call.getResult(0);
}

mlir::Value MLIRGen::cString(mlir::OpBuilder &b, llvm::StringRef text, mlir::Location l) {
  // One constant global per distinct text.
  mlir::Operation *&slot = stringGlobals[text];
  auto global = llvm::cast_or_null<mlir::LLVM::GlobalOp>(slot);
  if (!global) {
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module->getBody());
    std::string bytes = text.str();
    bytes.push_back('\0');
    auto type = mlir::LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
    global = mlir::LLVM::GlobalOp::create(b, l, type, /*isConstant=*/true,
                                          mlir::LLVM::Linkage::Internal,
                                          "__agc_string" + std::to_string(stringGlobals.size() - 1),
                                          b.getStringAttr(bytes), /*alignment=*/0);
    slot = global;
  }
  return mlir::LLVM::AddressOfOp::create(b, l, global);
}

mlir::Value MLIRGen::stringLiteral(mlir::OpBuilder &b, llvm::StringRef text, mlir::Location l) {
  // The literal's bytes are not copied: the handle points at the constant global.
  mlir::Value at = cString(b, text, l);
  mlir::Value size = arith::ConstantIntOp::create(b, l, int64_t(text.size()), 64);
  return runtimeCall(b, l, "agrt_string_literal", {b.getI64Type()}, {at, size});
}

mlir::Value MLIRGen::stringConstant(llvm::ArrayRef<const Value *> scalars,
                                    llvm::ArrayRef<int64_t> dims, RankedTensorType type,
                                    const Location &at) {
  mlir::Location l = loc(at);
  llvm::SmallVector<mlir::Value> handles;
  for (const Value *s : scalars)
    handles.push_back(stringLiteral(builder, s->text, l));
  auto own = RankedTensorType::get(dims, builder.getI64Type());
  mlir::Value c = mlir::tensor::FromElementsOp::create(builder, l, own, handles);
  if (own == type)
    return c;
  if (own.getNumElements() == 1 && type.getRank() > 0) {
    // A scalar where a tensor of strings is wanted: broadcast it.
    llvm::SmallVector<mlir::Value> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      sizes.push_back(indexConstant(type.isDynamicDim(d) ? 1 : type.getDimSize(d), l));
    return filled(type, sizes, handles[0], l);
  }
  return mlir::tensor::CastOp::create(builder, l, type, c);
}

mlir::Value MLIRGen::stringBinary(TFOp op, mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                                  mlir::Value y) {
  mlir::Type i64 = b.getI64Type(), i32 = b.getI32Type();
  if (op == TFOp::Add)
    return runtimeCall(b, l, "agrt_string_concat", {i64}, {x, y});
  mlir::Value same = runtimeCall(b, l, "agrt_string_equal", {i32}, {x, y});
  mlir::Value zero = arith::ConstantIntOp::create(b, l, 0, 32);
  return arith::CmpIOp::create(b, l,
                               op == TFOp::Equal ? arith::CmpIPredicate::ne : arith::CmpIPredicate::eq,
                               same, zero);
}

bool MLIRGen::emitStringJoin(TFOp, const CallArgs &args, Value &out) {
  RankedTensorType type = tensorType(out, args.loc);
  const Value *inputs = args.get(0, "inputs");
  if (!type || !inputs)
    return false;
  std::string separator;
  if (const Value *s = args.get(1, "separator"); s && s->kind == Value::Kind::Str)
    separator = s->text;
  llvm::SmallVector<mlir::Value> operands;
  for (const Value &v : inputs->items()) {
    mlir::Value t = operand(v, args.loc, DType::String);
    if (!t)
      return false;
    operands.push_back(t);
  }
  if (operands.empty()) {
    // tf.strings.join([]) is the empty string.
    out.ir = handle(mlir::tensor::FromElementsOp::create(
        builder, loc(args.loc), type, mlir::ValueRange{stringLiteral(builder, "", loc(args.loc))}));
    return true;
  }
  out.ir = handle(elementwise(
      type, operands,
      [&](mlir::OpBuilder &b, mlir::Location l, mlir::ValueRange xs) {
        mlir::Value acc = xs[0];
        for (mlir::Value x : xs.drop_front()) {
          if (!separator.empty())
            acc = stringBinary(TFOp::Add, b, l, acc, stringLiteral(b, separator, l));
          acc = stringBinary(TFOp::Add, b, l, acc, x);
        }
        return acc;
      },
      loc(args.loc)));
  return true;
}

bool MLIRGen::emitStringOp(TFOp op, const CallArgs &args, Value &out) {
  RankedTensorType type = tensorType(out, args.loc);
  const Value *input = args.get(0, op == TFOp::StringToNumber ? "string_tensor" : "input");
  mlir::Value x = type && input ? operand(*input, args.loc) : nullptr;
  if (!x)
    return false;
  mlir::Location l = loc(args.loc);
  DType in = input->isTensorLike() ? input->dtype : out.dtype;
  if (!input->isTensorLike() && input->kind == Value::Kind::Str)
    in = DType::String;
  auto intArg = [&](unsigned i, llvm::StringRef name, int64_t byDefault) {
    const Value *v = args.get(i, name);
    return v && v->kind == Value::Kind::Int ? v->i : byDefault;
  };
  mlir::Type i64 = builder.getI64Type(), i32 = builder.getI32Type();
  auto c32 = [&](mlir::OpBuilder &b, mlir::Location bl, int64_t v) {
    return arith::ConstantIntOp::create(b, bl, v, 32).getResult();
  };
  std::function<mlir::Value(mlir::OpBuilder &, mlir::Location, mlir::ValueRange)> body;
  llvm::SmallVector<mlir::Value> operands{x};
  switch (op) {
  case TFOp::StringLength: {
    const Value *unit = args.get(2, "unit");
    bool chars = unit && unit->kind == Value::Kind::Str && unit->text == "UTF8_CHAR";
    body = [&, chars](mlir::OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) {
      return runtimeCall(b, bl, "agrt_string_length", {i32}, {xs[0], c32(b, bl, chars)});
    };
    break;
  }
  case TFOp::StringUpper:
  case TFOp::StringLower:
    body = [&, op](mlir::OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) {
      return runtimeCall(b, bl, op == TFOp::StringUpper ? "agrt_string_upper" : "agrt_string_lower",
                         {i64}, {xs[0]});
    };
    break;
  case TFOp::Substr: {
    // pos and len: scalars (the tracer checked), as i64.
    for (auto [i, name] : {std::pair{1u, "pos"}, std::pair{2u, "len"}}) {
      mlir::Value v = operand(*args.get(i, name), args.loc, DType::Int32);
      if (!v)
        return false;
      v = mlir::tensor::ExtractOp::create(builder, l, v, mlir::ValueRange{});
      if (!v.getType().isInteger(64))
        v = arith::ExtSIOp::create(builder, l, i64, v);
      operands.push_back(v);
    }
    mlir::Value pos = operands[1], len = operands[2];
    operands.resize(1);
    body = [&, pos, len](mlir::OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) {
      return runtimeCall(b, bl, "agrt_string_substr", {i64},
                         {xs[0], pos, len, cString(b, where(l), bl)});
    };
    break;
  }
  case TFOp::AsString: {
    int64_t precision = intArg(1, "precision", -1), width = intArg(4, "width", -1);
    auto flag = [&](unsigned i, llvm::StringRef name) {
      const Value *v = args.get(i, name);
      return v && v->kind == Value::Kind::Bool && v->i;
    };
    int64_t how = flag(2, "scientific") ? 1 : flag(3, "shortest") ? 2 : 0;
    // The fill is a printf flag (' ', '+', '-', '0', '#'), 0 for none.
    const Value *fillV = args.get(5, "fill");
    int64_t fill = fillV && fillV->kind == Value::Kind::Str && !fillV->text.empty()
                       ? static_cast<unsigned char>(fillV->text[0])
                       : 0;
    body = [&, in, precision, width, how, fill](mlir::OpBuilder &b, mlir::Location bl,
                                                mlir::ValueRange xs) -> mlir::Value {
      mlir::Value v = xs[0];
      if (analysis::isFloat(in)) {
        if (!v.getType().isF64())
          v = arith::ExtFOp::create(b, bl, b.getF64Type(), v);
        return runtimeCall(b, bl, "agrt_string_from_float", {i64},
                           {v, c32(b, bl, precision), c32(b, bl, how), c32(b, bl, width),
                            c32(b, bl, fill)});
      }
      if (in == DType::Bool)
        return runtimeCall(b, bl, "agrt_string_from_bool", {i64},
                           {arith::ExtUIOp::create(b, bl, i32, v), c32(b, bl, width), c32(b, bl, fill)});
      if (!v.getType().isInteger(64))
        v = arith::ExtSIOp::create(b, bl, i64, v);
      return runtimeCall(b, bl, "agrt_string_from_int", {i64}, {v, c32(b, bl, width), c32(b, bl, fill)});
    };
    break;
  }
  case TFOp::StringToNumber: {
    DType to = out.dtype;
    mlir::Type e = type.getElementType();
    body = [&, to, e](mlir::OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) -> mlir::Value {
      int64_t bits = to == DType::Float32 || to == DType::Int32 ? 32 : 64;
      mlir::Value at = cString(b, where(l), bl);
      if (analysis::isFloat(to)) {
        mlir::Value v = runtimeCall(b, bl, "agrt_string_to_float", {b.getF64Type()},
                                    {xs[0], c32(b, bl, bits), at});
        return e.isF64() ? v : arith::TruncFOp::create(b, bl, e, v).getResult();
      }
      mlir::Value v = runtimeCall(b, bl, "agrt_string_to_int", {i64}, {xs[0], c32(b, bl, bits), at});
      return e.isInteger(64) ? v : arith::TruncIOp::create(b, bl, e, v).getResult();
    };
    break;
  }
  default:
    return fail(args.loc, "internal error: tf." + tfOpName(op) + " is not a string op");
  }
  out.ir = handle(elementwise(type, operands, body, l));
  return true;
}

bool MLIRGen::emitStringFormat(TFOp, const CallArgs &args, Value &out) {
  RankedTensorType type = tensorType(out, args.loc);
  const Value *templ = args.get(0, "template"), *inputs = args.get(1, "inputs");
  if (!type || !templ || !inputs)
    return false;
  std::string placeholder = "{}";
  if (const Value *p = args.get(2, "placeholder"); p && p->kind == Value::Kind::Str)
    placeholder = p->text;
  int64_t summarize = 3;
  if (const Value *n = args.get(3, "summarize"); n && n->kind == Value::Kind::Int)
    summarize = n->i;
  std::vector<Value> values = inputs->isPySequence() && !llvm::any_of(inputs->items(), [](const Value &e) {
                                return e.isPySequence();
                              })
                                  ? inputs->items()
                                  : std::vector<Value>{*inputs};
  // The template split at its placeholders, each the next input, as tf.print writes it.
  llvm::SmallVector<mlir::Attribute> items;
  llvm::SmallVector<mlir::Value> tensors;
  llvm::SmallVector<llvm::StringRef> dtypes;
  bool anyMarked = false;
  llvm::StringRef rest = templ->text;
  for (const Value &v : values) {
    size_t at = rest.find(placeholder);
    if (at)
      items.push_back(builder.getStringAttr(rest.take_front(at)));
    rest = rest.drop_front(at + placeholder.size());
    mlir::Value t = operand(v, args.loc);
    if (!t)
      return false;
    DType dtype = v.isTensorLike() ? v.dtype
                  : v.kind == Value::Kind::Str ? DType::String
                                               : DType::Int32;
    items.push_back(builder.getI64IntegerAttr(tensors.size()));
    bool marked = dtype == DType::String || analysis::isUnsigned(dtype);
    dtypes.push_back(marked ? analysis::dtypeName(dtype) : "");
    anyMarked |= marked;
    tensors.push_back(t);
  }
  if (!rest.empty())
    items.push_back(builder.getStringAttr(rest));
  auto op = FormatOp::create(builder, loc(args.loc), type, tensors, builder.getArrayAttr(items),
                             builder.getI64IntegerAttr(summarize),
                             anyMarked ? builder.getStrArrayAttr(dtypes) : nullptr);
  out.ir = handle(op.getResult());
  return true;
}
