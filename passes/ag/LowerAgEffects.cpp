//===- LowerAgEffects.cpp - tf.print and tf.Variable to runtime and memref -===//
//
// See Passes.td (-ag-lower-effects). Runs on tensors, before bufferization.
//
//===----------------------------------------------------------------------------------===//
#include "ag/dialect/AgDialect.h"
#include "ag/passes/Passes.h"
#include "ag/passes/RuntimeDecls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace ag {
#define GEN_PASS_DEF_LOWERAGEFFECTS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// A pointer to a NUL-terminated constant holding `text`, one global per distinct text.
Value stringPointer(ModuleOp module, OpBuilder &builder, Location loc, StringRef text,
                    llvm::StringMap<LLVM::GlobalOp> &globals) {
  LLVM::GlobalOp &global = globals[text];
  if (!global) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    std::string bytes = text.str();
    bytes.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), bytes.size());
    global = LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal,
                                    "__agc_str" + std::to_string(globals.size() - 1),
                                    builder.getStringAttr(bytes), /*alignment=*/0);
  }
  return LLVM::AddressOfOp::create(builder, loc, global);
}

/// The suffix of a runtime print function for element type `type`: f32, i64, i1, ...
std::string typeSuffix(Type type) {
  if (auto c = dyn_cast<ComplexType>(type))
    return c.getElementType().isF32() ? "c64" : "c128";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// Writes ag.print's or ag.format's `items` into the runtime's text buffer, `sep`
/// between them: text through agrt_print_text, tensors through agrt_print_<dtype>.
void writeItems(ModuleOp module, OpBuilder &builder, Location loc, ArrayAttr items,
                ValueRange tensors, std::optional<ArrayAttr> dtypes, StringRef sep,
                llvm::StringMap<LLVM::GlobalOp> &globals) {
  auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
  auto call = [&](StringRef name, TypeRange types, ValueRange args) {
    func::FuncOp fn = ag::declareRuntime(module, name, builder.getFunctionType(types, {}));
    func::CallOp::create(builder, loc, fn, args);
  };
  auto text = [&](StringRef t) {
    if (!t.empty())
      call("agrt_print_text", {ptr}, stringPointer(module, builder, loc, t, globals));
  };
  for (auto [i, item] : llvm::enumerate(items)) {
    if (i)
      text(sep);
    if (auto s = dyn_cast<StringAttr>(item)) {
      text(s.getValue());
      continue;
    }
    auto index = cast<IntegerAttr>(item);
    // A dtype the element type does not say (strings, unsigned) names the printer.
    std::string dtype;
    if (dtypes)
      dtype = cast<StringAttr>((*dtypes)[index.getInt()]).getValue().str();
    Value tensor = tensors[index.getInt()];
    auto type = cast<RankedTensorType>(tensor.getType());
    auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
    Value buffer = bufferization::ToBufferOp::create(builder, loc, memrefType, tensor,
                                                     /*read_only=*/true);
    auto unranked = UnrankedMemRefType::get(type.getElementType(), 0);
    Value cast = memref::CastOp::create(builder, loc, unranked, buffer);
    call("agrt_print_" + (dtype.empty() ? typeSuffix(type.getElementType()) : dtype),
         {unranked}, {cast});
  }
}

void lowerPrint(ModuleOp module, ag::PrintOp op, llvm::StringMap<LLVM::GlobalOp> &globals) {
  OpBuilder builder(op);
  Location loc = op.getLoc();
  auto call = [&](StringRef name, TypeRange types, ValueRange args) {
    func::FuncOp fn = ag::declareRuntime(module, name, builder.getFunctionType(types, {}));
    func::CallOp::create(builder, loc, fn, args);
  };
  Value stream = arith::ConstantIntOp::create(builder, loc, op.getStream() == "stdout" ? 1 : 2, 32);
  Value summarize = arith::ConstantIntOp::create(builder, loc, op.getSummarize(), 64);
  call("agrt_print_begin", {builder.getI32Type(), builder.getI64Type()}, {stream, summarize});
  writeItems(module, builder, loc, op.getItems(), op.getTensors(), op.getDtypes(), op.getSep(),
             globals);
  writeItems(module, builder, loc, builder.getArrayAttr({builder.getStringAttr(op.getEnd())}),
             {}, std::nullopt, "", globals);
  call("agrt_print_end", {}, {});
  op.erase();
}

/// ag.format: the items written into the text buffer, which becomes a string.
void lowerFormat(ModuleOp module, ag::FormatOp op, llvm::StringMap<LLVM::GlobalOp> &globals) {
  OpBuilder builder(op);
  Location loc = op.getLoc();
  Value summarize = arith::ConstantIntOp::create(builder, loc, op.getSummarize(), 64);
  func::FuncOp begin = ag::declareRuntime(module, "agrt_format_begin",
                                          builder.getFunctionType({builder.getI64Type()}, {}));
  func::CallOp::create(builder, loc, begin, ValueRange{summarize});
  writeItems(module, builder, loc, op.getItems(), op.getTensors(), op.getDtypes(), "", globals);
  func::FuncOp end = ag::declareRuntime(module, "agrt_format_end",
                                        builder.getFunctionType({}, {builder.getI64Type()}));
  Value handle = func::CallOp::create(builder, loc, end, ValueRange{}).getResult(0);
  Value result = tensor::FromElementsOp::create(builder, loc, op.getResult().getType(),
                                                ValueRange{handle});
  op.getResult().replaceAllUsesWith(result);
  op.erase();
}

void lowerAssert(ModuleOp module, ag::AssertOp op, llvm::StringMap<LLVM::GlobalOp> &globals) {
  OpBuilder builder(op);
  Location loc = op.getLoc();
  Value failed = arith::XOrIOp::create(builder, loc, op.getCondition(),
                                       arith::ConstantIntOp::create(builder, loc, 1, 1));
  auto ifOp = scf::IfOp::create(builder, loc, failed, /*withElseRegion=*/false);
  builder.setInsertionPointToStart(ifOp.thenBlock());
  auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
  Value message = stringPointer(module, builder, loc, op.getMessage(), globals);
  if (op.getValues().empty()) {
    func::FuncOp fail =
        ag::declareRuntime(module, "agrt_fail", builder.getFunctionType({ptr}, {}));
    func::CallOp::create(builder, loc, fail, ValueRange{message});
  } else {
    // agrt_fail_values(message, v0, v1, v2): the message's {0}, {1}, {2} are the values.
    Type i64 = builder.getI64Type();
    func::FuncOp fail = ag::declareRuntime(module, "agrt_fail_values",
                                           builder.getFunctionType({ptr, i64, i64, i64}, {}));
    llvm::SmallVector<Value> operands{message};
    operands.append(op.getValues().begin(), op.getValues().end());
    while (operands.size() < 4)
      operands.push_back(arith::ConstantIntOp::create(builder, loc, 0, 64));
    func::CallOp::create(builder, loc, fail, operands);
  }
  // What the check guarded is valid after it.
  op.replaceAllUsesWith(op.getGuarded());
  op.erase();
}

void lowerRead(ModuleOp module, ag::VariableReadOp op) {
  OpBuilder builder(op);
  Location loc = op.getLoc();
  auto global = module.lookupSymbol<memref::GlobalOp>(op.getVariable());
  MemRefType type = global.getType();
  Value state = memref::GetGlobalOp::create(builder, loc, type, op.getVariable());
  Value copy = memref::AllocOp::create(builder, loc, type);
  memref::CopyOp::create(builder, loc, state, copy);
  Value tensor = bufferization::ToTensorOp::create(builder, loc, op.getType(), copy,
                                                   /*restrict=*/true, /*writable=*/true);
  op.replaceAllUsesWith(tensor);
  op.erase();
}

void lowerWrite(ModuleOp module, ag::VariableWriteOp op) {
  OpBuilder builder(op);
  Location loc = op.getLoc();
  auto global = module.lookupSymbol<memref::GlobalOp>(op.getVariable());
  Value state = memref::GetGlobalOp::create(builder, loc, global.getType(), op.getVariable());
  bufferization::MaterializeInDestinationOp::create(builder, loc, TypeRange{}, op.getValue(),
                                                    state, /*restrict=*/true, /*writable=*/true);
  op.erase();
}

struct LowerAgEffects : ag::impl::LowerAgEffectsBase<LowerAgEffects> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<ag::PrintOp, ag::FormatOp, ag::VariableReadOp, ag::VariableWriteOp, ag::AssertOp>(op))
        ops.push_back(op);
    });
    llvm::StringMap<LLVM::GlobalOp> globals;
    for (Operation *op : ops) {
      if (auto read = dyn_cast<ag::VariableReadOp>(op)) {
        if (!module.lookupSymbol<memref::GlobalOp>(read.getVariable())) {
          read.emitOpError() << "names no memref.global";
          return signalPassFailure();
        }
        lowerRead(module, read);
      } else if (auto write = dyn_cast<ag::VariableWriteOp>(op)) {
        if (!module.lookupSymbol<memref::GlobalOp>(write.getVariable())) {
          write.emitOpError() << "names no memref.global";
          return signalPassFailure();
        }
        lowerWrite(module, write);
      } else if (auto check = dyn_cast<ag::AssertOp>(op)) {
        lowerAssert(module, check, globals);
      } else if (auto format = dyn_cast<ag::FormatOp>(op)) {
        lowerFormat(module, format, globals);
      } else {
        lowerPrint(module, cast<ag::PrintOp>(op), globals);
      }
    }
  }
};

} // namespace
