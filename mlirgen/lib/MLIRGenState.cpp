//===- MLIRGenState.cpp - tf.Variable and tf.TensorArray ------------------------===//
//
// A module-level tf.Variable is a memref.global read and written by ag ops in program
// order; a tf.TensorArray a tensor whose first dimension holds its elements.
//
//===----------------------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "ag/dialect/AgDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace ag;

//===----------------------------------------------------------------------------------===//
// tf.Variable
//===----------------------------------------------------------------------------------===//

bool MLIRGen::variable(Value &var, const Value &init, llvm::StringRef name, const Location &at) {
  // A string element is a handle into one call's memory: it cannot outlive the call.
  if (var.dtype == DType::String)
    return fail(at, "a tf.Variable of strings is not supported by agc (its strings would "
                    "have to outlive the call that made them)");
  RankedTensorType type = tensorType(var, at);
  if (!type)
    return false;
  if (!type.hasStaticShape())
    return fail(at, "a tf.Variable of dynamic shape " + var.shape.str() +
                        " is not supported by agc's code generator");
  mlir::Attribute initial;
  if (init.isPyScalar() || init.isPySequence()) {
    mlir::Value c = denseConstant(init, type, at);
    if (!c || !mlir::matchPattern(c, mlir::m_Constant(&initial)))
      return fail(at, "internal error: the initial value of this tf.Variable is not constant");
  } else if (init.isTensor() && init.ir &&
             mlir::matchPattern(mlir::Value::getFromOpaquePointer(init.ir),
                                mlir::m_Constant(&initial))) {
  } else {
    return fail(at, "the initial value of a tf.Variable must be a constant for agc's code "
                    "generator (a Python number or list, or tf.constant of one)");
  }
  auto dense = llvm::dyn_cast<mlir::DenseElementsAttr>(initial);
  if (dense && dense.getType() != type)
    dense = dense.isSplat() ? mlir::DenseElementsAttr::get(type, dense.getSplatValue<mlir::Attribute>())
                            : dense.reshape(type);
  std::string sym = name.empty() ? "variable" : name.str();
  if (unsigned n = names[sym]++)
    sym += "_" + std::to_string(n);
  // Module state first, in source order.
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module->getBody());
  for (mlir::Operation &op : *module->getBody())
    if (llvm::isa<mlir::memref::GlobalOp>(op))
      builder.setInsertionPointAfter(&op);
  auto memrefType = mlir::MemRefType::get(type.getShape(), type.getElementType());
  auto global = mlir::memref::GlobalOp::create(builder, loc(at), sym, builder.getStringAttr("private"),
                                               memrefType, dense, /*constant=*/false,
                                               /*alignment=*/nullptr);
  if (name.empty())
    global->setAttr("ag.unnamed", builder.getUnitAttr());
  // Its initial value again, constant, and a copy into the state in __agc_init, which
  // resets the module's variables.
  auto initialCopy = mlir::memref::GlobalOp::create(builder, loc(at), sym + "__initial",
                                                builder.getStringAttr("private"), memrefType,
                                                dense, /*constant=*/true, /*alignment=*/nullptr);
  mlir::func::FuncOp reset = module->lookupSymbol<mlir::func::FuncOp>("__agc_init");
  if (!reset) {
    builder.setInsertionPointToEnd(module->getBody());
    reset = mlir::func::FuncOp::create(builder, builder.getUnknownLoc(), "__agc_init",
                                      builder.getFunctionType({}, {}));
    builder.setInsertionPointToEnd(reset.addEntryBlock());
    mlir::func::ReturnOp::create(builder, builder.getUnknownLoc());
  }
  builder.setInsertionPoint(reset.getBody().front().getTerminator());
  mlir::Value from = mlir::memref::GetGlobalOp::create(builder, loc(at), memrefType,
                                                       initialCopy.getSymName());
  mlir::Value to = mlir::memref::GetGlobalOp::create(builder, loc(at), memrefType, sym);
  mlir::memref::CopyOp::create(builder, loc(at), from, to);
  var.ir = global.getOperation();
  return true;
}

static mlir::memref::GlobalOp globalOf(const Value &var) {
  return llvm::cast<mlir::memref::GlobalOp>(
      static_cast<mlir::Operation *>(const_cast<void *>(var.ir)));
}

void MLIRGen::bound(const Value &value, llvm::StringRef name) {
  // A tf.Variable without a name= takes the first module-level name bound to it.
  if (value.kind != Value::Kind::Variable || !value.ir)
    return;
  mlir::memref::GlobalOp global = globalOf(value);
  if (!global->hasAttr("ag.unnamed"))
    return;
  global->removeAttr("ag.unnamed");
  std::string sym = name.str();
  if (unsigned n = names[sym]++)
    sym += "_" + std::to_string(n);
  std::string old = global.getSymName().str();
  global.setSymName(sym);
  // Its initial value and its reset follow the name.
  if (auto initial = module->lookupSymbol<mlir::memref::GlobalOp>(old + "__initial"))
    initial.setSymName(sym + "__initial");
  if (auto init = module->lookupSymbol<mlir::func::FuncOp>("__agc_init"))
    init.walk([&](mlir::memref::GetGlobalOp get) {
      if (get.getName() == old)
        get.setName(sym);
      else if (get.getName() == old + "__initial")
        get.setName(sym + "__initial");
    });
}

bool MLIRGen::readVariable(const Value &var, Value &out, const Location &at) {
  if (!var.ir)
    return fail(at, "internal error: a tf.Variable has no IR state");
  mlir::memref::GlobalOp global = globalOf(var);
  auto memrefType = global.getType();
  auto type = RankedTensorType::get(memrefType.getShape(), memrefType.getElementType());
  mlir::Value v = VariableReadOp::create(builder, loc(at), type,
                                         mlir::FlatSymbolRefAttr::get(global.getSymNameAttr()));
  if (RankedTensorType want = tensorType(out, at); want && want != type)
    v = mlir::tensor::CastOp::create(builder, loc(at), want, v);
  out.ir = handle(v);
  return true;
}

bool MLIRGen::assignVariable(llvm::StringRef how, const Value &var, const Value &value,
                             const Location &at) {
  if (!var.ir)
    return fail(at, "internal error: a tf.Variable has no IR state");
  mlir::memref::GlobalOp global = globalOf(var);
  auto memrefType = global.getType();
  auto type = RankedTensorType::get(memrefType.getShape(), memrefType.getElementType());
  mlir::Value v = materialize(value, type, at);
  if (!v)
    return false;
  mlir::Location l = loc(at);
  auto symbol = mlir::FlatSymbolRefAttr::get(global.getSymNameAttr());
  if (how != "assign") {
    mlir::Value current = VariableReadOp::create(builder, l, type, symbol);
    analysis::TFOp op = how == "assign_add" ? analysis::TFOp::Add : analysis::TFOp::Subtract;
    v = elementwise(type, {current, v},
                    [&](OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) {
                      return scalarOp(op, b, bl, xs, var.dtype);
                    },
                    l);
  }
  VariableWriteOp::create(builder, l, symbol, v);
  return true;
}

//===----------------------------------------------------------------------------------===//
// tf.TensorArray: a tensor whose first dimension indexes the elements
//===----------------------------------------------------------------------------------===//

bool MLIRGen::tensorArray(llvm::StringRef method, const Value &self, const analysis::CallArgs &args,
                          Value &out) {
  const Location &at = args.loc;
  mlir::Location l = loc(at);
  if (method == "new") {
    if (!out.shape.rankKnown)
      return fail(at, "the element shape of this tf.TensorArray is unknown: no write gives it "
                      "one; pass element_shape=");
    RankedTensorType element = tensorType(out, at);
    if (!element)
      return false;
    const Value *size = args.get(1, "size");
    llvm::SmallVector<int64_t> dims{out.dynamicSize || !size || size->kind != Value::Kind::Int
                                        ? mlir::ShapedType::kDynamic
                                        : size->i};
    dims.append(element.getShape().begin(), element.getShape().end());
    auto type = RankedTensorType::get(dims, element.getElementType());
    llvm::SmallVector<mlir::Value> sizes;
    mlir::Value count = size && size->kind != Value::Kind::None ? sizeOf(*size, at)
                                                                : indexConstant(0, l);
    if (!count)
      return false;
    sizes.push_back(count);
    // A dimension known only at run time is 0 until the first write gives it (write).
    for (int64_t d = 0; d < element.getRank(); ++d)
      sizes.push_back(indexConstant(element.isDynamicDim(d) ? 0 : element.getDimSize(d), l));
    out.ir = handle(filled(type, sizes, scalarConstant(0, type.getElementType(), l), l));
    return true;
  }
  mlir::Value array = self.ir ? use(self.ir) : nullptr;
  if (!array)
    return fail(at, "internal error: a tf.TensorArray has no IR value");
  auto type = llvm::cast<RankedTensorType>(array.getType());
  auto elementType = RankedTensorType::get(type.getShape().drop_front(), type.getElementType());
  auto slice = [&](mlir::Value index) {
    llvm::SmallVector<mlir::OpFoldResult> offsets{index}, sizes{builder.getIndexAttr(1)},
        strides(type.getRank(), builder.getIndexAttr(1));
    for (int64_t d = 1; d < type.getRank(); ++d) {
      offsets.push_back(builder.getIndexAttr(0));
      sizes.push_back(type.isDynamicDim(d) ? mlir::OpFoldResult(dimSize(array, d, l))
                                           : mlir::OpFoldResult(builder.getIndexAttr(type.getDimSize(d))));
    }
    return std::tuple{offsets, sizes, strides};
  };
  // Elements with no data: writes change nothing, reads give an empty tensor (and
  // tensor.insert_slice refuses static offsets into a dimension of size 0).
  bool emptyElements = llvm::is_contained(elementType.getShape(), 0);
  if (method == "write") {
    mlir::Value index = sizeOf(*args.get(0, "index"), at);
    mlir::Value value = index ? materialize(*args.get(1, "value"), elementType, at) : nullptr;
    if (!value)
      return false;
    // TensorFlow's "Tried to write to index 5 but array size is: 3"; an array that grows
    // takes any index from 0 on.
    mlir::Value n = dimSize(array, 0, l);
    // The check guards the array and the index: the write's users keep it.
    mlir::Value guarded[] = {array, index};
    if (self.dynamicSize)
      check(mlir::arith::CmpIOp::create(builder, l, mlir::arith::CmpIPredicate::sge, index,
                                        indexConstant(0, l)),
            "tf.TensorArray: cannot write to the negative index {0}", {index}, l, guarded);
    else
      check(mlir::arith::CmpIOp::create(builder, l, mlir::arith::CmpIPredicate::ult, index, n),
            "tf.TensorArray: tried to write to index {0} but the array's size is {1}",
            {index, n}, l, guarded);
    array = guarded[0];
    index = guarded[1];
    if (!elementType.hasStaticShape()) {
      // Elements whose shape is known only at run time take the first write's: the array
      // is made again, of zeros of that shape, while its elements have no extent yet (its
      // dimensions are 0, as made); afterwards a value of another shape is TensorFlow's
      // error. (A first write of an element with no data, then one with, is taken as a
      // first write too.)
      mlir::Value same, unset;
      llvm::SmallVector<mlir::Value> want{n};
      for (int64_t d = 1; d < type.getRank(); ++d) {
        mlir::Value have = dimSize(array, d, l), given = dimSize(value, d - 1, l);
        want.push_back(given);
        if (!type.isDynamicDim(d))
          continue;
        auto eq = [&](mlir::Value a, mlir::Value b) {
          return mlir::arith::CmpIOp::create(builder, l, mlir::arith::CmpIPredicate::eq, a, b).getResult();
        };
        mlir::Value s = eq(have, given), u = eq(have, indexConstant(0, l));
        same = same ? mlir::arith::AndIOp::create(builder, l, same, s).getResult() : s;
        unset = unset ? mlir::arith::AndIOp::create(builder, l, unset, u).getResult() : u;
      }
      mlir::Value fits[] = {array};
      check(mlir::arith::OrIOp::create(builder, l, same, unset),
            "tf.TensorArray: could not write to index {0}: the value's shape differs from "
            "the shape of the array's elements",
            {index}, l, fits);
      auto remade = mlir::scf::IfOp::create(builder, l, mlir::TypeRange{type}, same, true, true);
      {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPointToStart(remade.thenBlock());
        mlir::scf::YieldOp::create(builder, l, fits[0]);
        builder.setInsertionPointToStart(remade.elseBlock());
        mlir::scf::YieldOp::create(
            builder, l, filled(type, want, scalarConstant(0, type.getElementType(), l), l));
      }
      array = remade.getResult(0);
    }
    if (emptyElements && !self.dynamicSize) {
      out.ir = handle(array);
      return true;
    }
    if (self.dynamicSize) {
      // Grow to index + 1 elements first (new ones are zeros).
      mlir::Value need = mlir::arith::AddIOp::create(builder, l, index, indexConstant(1, l));
      mlir::Value grow = mlir::arith::CmpIOp::create(builder, l, mlir::arith::CmpIPredicate::sgt,
                                                     need, n);
      auto ifOp = mlir::scf::IfOp::create(builder, l, mlir::TypeRange{type}, grow, true, true);
      {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPointToStart(ifOp.thenBlock());
        mlir::Value extra = mlir::arith::SubIOp::create(builder, l, need, n);
        llvm::SmallVector<mlir::Value> sizes{extra};
        for (int64_t d = 1; d < type.getRank(); ++d)
          sizes.push_back(dimSize(array, d, l));
        mlir::Value zeros = filled(type, sizes, scalarConstant(0, type.getElementType(), l), l);
        mlir::Value joined =
            mlir::tensor::ConcatOp::create(builder, l, 0, mlir::ValueRange{array, zeros});
        if (joined.getType() != type)
          joined = mlir::tensor::CastOp::create(builder, l, type, joined);
        mlir::scf::YieldOp::create(builder, l, joined);
        builder.setInsertionPointToStart(ifOp.elseBlock());
        mlir::scf::YieldOp::create(builder, l, array);
      }
      array = ifOp.getResult(0);
    }
    if (emptyElements) { // grown, nothing to write
      out.ir = handle(array);
      return true;
    }
    auto [offsets, sizes, strides] = slice(index);
    out.ir = handle(mlir::tensor::InsertSliceOp::create(builder, l, value, array, offsets, sizes,
                                                        strides));
    return true;
  }
  if (method == "read") {
    mlir::Value index = sizeOf(*args.get(0, "index"), at);
    if (!index)
      return false;
    mlir::Value n = dimSize(array, 0, l);
    // An empty element does not read the array: that check always runs.
    llvm::SmallVector<mlir::Value, 2> guarded;
    if (!emptyElements)
      guarded = {array, index};
    check(mlir::arith::CmpIOp::create(builder, l, mlir::arith::CmpIPredicate::ult, index, n),
          "tf.TensorArray: tried to read from index {0} but the array's size is {1}",
          {index, n}, l, guarded);
    if (!emptyElements) {
      array = guarded[0];
      index = guarded[1];
    }
    if (emptyElements) {
      llvm::SmallVector<mlir::Value> zeros(elementType.getRank(), indexConstant(0, l));
      out.ir = handle(empty(elementType, zeros, l));
      return castTo(out, out, at);
    }
    auto [offsets, sizes, strides] = slice(index);
    mlir::Value v = mlir::tensor::ExtractSliceOp::create(builder, l, elementType, array, offsets,
                                                         sizes, strides);
    out.ir = handle(v);
    return castTo(out, out, at);
  }
  if (method == "stack") {
    if (!elementType.hasStaticShape()) {
      // TensorFlow stacks no elements without a fully defined element shape.
      std::string shape = "[";
      for (int64_t d = 0; d < elementType.getRank(); ++d)
        shape += (d ? "," : "") + (elementType.isDynamicDim(d)
                                       ? std::string("?")
                                       : std::to_string(elementType.getDimSize(d)));
      mlir::Value guarded[] = {array};
      check(mlir::arith::CmpIOp::create(builder, l, mlir::arith::CmpIPredicate::ne,
                                        dimSize(array, 0, l), indexConstant(0, l)),
            "Tried to stack elements of an empty list with non-fully-defined element_shape: " +
                shape + "]",
            {}, l, guarded);
      array = guarded[0];
    }
    Value whole = out;
    whole.ir = handle(array);
    return castTo(out, whole, at);
  }
  if (method == "size") {
    mlir::Value n = mlir::arith::IndexCastOp::create(builder, l, builder.getI32Type(),
                                                     dimSize(array, 0, l));
    out.ir = handle(mlir::tensor::FromElementsOp::create(
        builder, l, RankedTensorType::get({}, builder.getI32Type()), mlir::ValueRange{n}));
    return true;
  }
  if (method == "unstack") {
    mlir::Value v = operand(*args.get(0, "value"), at);
    if (!v)
      return false;
    if (v.getType() != type)
      v = mlir::tensor::CastOp::create(builder, l, type, v);
    out.ir = handle(v);
    return true;
  }
  return fail(at, "tf.TensorArray." + method + " is not supported by agc's code generator");
}
