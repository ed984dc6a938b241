//===- ScalarizeCarried.cpp - carry 0-d tensors through scf as scalars ------===//
//
// A Python scalar that a staged loop or `if` carries is a 0-d tensor (`tensor<i64>`). Left
// so, bufferization gives it a buffer, and every iteration allocates, copies and frees one:
// a scalar loop then runs tens of times slower than its C. This pass carries the element
// instead, at every scf.while and scf.if:
//
//   %r = scf.while (%a = %init) : (tensor<i64>) -> tensor<i64> { ... }
//     => %r0 = scf.while (%a0 = extract %init) : (i64) -> i64 {
//          %a = from_elements %a0 ... scf.condition(%c) (extract %v) ...
//        } do { ^(%b0: i64): %b = from_elements %b0 ... scf.yield (extract %n) }
//        %r = from_elements %r0
//
// The extract/from_elements pairs this leaves meet each other and fold away under
// canonicalize (tensor.extract of tensor.from_elements is its element).
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace ag {
#define GEN_PASS_DEF_SCALARIZECARRIED
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// The element type of a 0-d tensor, else null.
Type scalarOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == 0 ? tensor.getElementType() : Type();
}

/// Gives `value` (a 0-d tensor) its element type, and its users a tensor.from_elements of
/// it, built at `builder`'s insertion point.
void scalarizeValue(OpBuilder &builder, Value value, Type tensorType) {
  value.setType(cast<RankedTensorType>(tensorType).getElementType());
  auto wrapped = tensor::FromElementsOp::create(builder, value.getLoc(), tensorType, value);
  value.replaceAllUsesExcept(wrapped, wrapped);
}

/// Operand `i` of `op` read as its element, with a tensor.extract just before `op`.
void extractOperand(OpBuilder &builder, Operation *op, unsigned i) {
  builder.setInsertionPoint(op);
  Value v = op->getOperand(i);
  op->setOperand(i, tensor::ExtractOp::create(builder, v.getLoc(), v, ValueRange()));
}

void scalarizeWhile(scf::WhileOp loop) {
  OpBuilder builder(loop);
  Block &before = loop.getBefore().front(), &after = loop.getAfter().front();
  auto condition = loop.getConditionOp();
  auto yield = cast<scf::YieldOp>(after.getTerminator());
  // What enters the test region: the inits and the values the body yields.
  for (unsigned i = 0; i < loop.getInits().size(); ++i) {
    Type tensorType = loop.getInits()[i].getType();
    if (!scalarOf(tensorType))
      continue;
    extractOperand(builder, loop, i);
    extractOperand(builder, yield, i);
    builder.setInsertionPointToStart(&before);
    scalarizeValue(builder, before.getArgument(i), tensorType);
  }
  // What leaves the test region: to the body and out of the loop.
  for (unsigned i = 0; i < loop.getNumResults(); ++i) {
    Type tensorType = loop.getResult(i).getType();
    if (!scalarOf(tensorType))
      continue;
    extractOperand(builder, condition, i + 1); // operand 0 is the test
    builder.setInsertionPointToStart(&after);
    scalarizeValue(builder, after.getArgument(i), tensorType);
    builder.setInsertionPointAfter(loop);
    scalarizeValue(builder, loop.getResult(i), tensorType);
  }
}

void scalarizeIf(scf::IfOp op) {
  OpBuilder builder(op);
  for (unsigned i = 0; i < op.getNumResults(); ++i) {
    Type tensorType = op.getResult(i).getType();
    if (!scalarOf(tensorType))
      continue;
    extractOperand(builder, op.thenYield(), i);
    extractOperand(builder, op.elseYield(), i);
    builder.setInsertionPointAfter(op);
    scalarizeValue(builder, op.getResult(i), tensorType);
  }
}

struct ScalarizeCarried : ag::impl::ScalarizeCarriedBase<ScalarizeCarried> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      if (auto loop = dyn_cast<scf::WhileOp>(op))
        scalarizeWhile(loop);
      else if (auto branch = dyn_cast<scf::IfOp>(op))
        scalarizeIf(branch);
    });
  }
};

} // namespace
