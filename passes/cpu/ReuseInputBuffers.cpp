//===- ReuseInputBuffers.cpp - elementwise results written over a dead input ----===//
//
// An elementwise linalg.generic writes its result into a new tensor (tensor.empty), and
// bufferization gives it a new buffer. When one of its inputs has the result's type, is
// read at the same index, and is used by nothing else, the result can be written over
// that input instead: the op takes it as its init and reads it through its output
// argument. In a staged loop that rebinds a tensor to a function of itself
// (x = 0.5 * (x + a / x)), the carried buffer is then updated in place: no allocation, no
// copy and no free per iteration. Bufferization still decides: where the input's buffer
// is read later, or is not writable, it copies first.
//
// The caller's tensors are never written: the pass marks every tensor argument of a
// function `bufferization.writable = false`, so that a loop whose carried value starts as
// an argument copies it once before the loop.
//
//   %r = linalg.generic ins(%x, %a) outs(%e = tensor.empty) { ^(%xi, %ai, %o): f(%xi, %ai) }
//     => %r = linalg.generic ins(%a) outs(%x) { ^(%ai, %xo): f(%xo, %ai) }
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace ag {
#define GEN_PASS_DEF_REUSEINPUTBUFFERS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// The input of `op` whose buffer its one result can take, if any.
OpOperand *reusableInput(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op->getNumResults() != 1 ||
      op.getNumReductionLoops() != 0 || !op.hasPureTensorSemantics())
    return nullptr;
  OpOperand *init = op.getDpsInitOperand(0);
  // The init is only a shape: nothing reads it.
  if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
      !op.getMatchingBlockArgument(init).use_empty())
    return nullptr;
  AffineMap out = op.getMatchingIndexingMap(init);
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value value = input->get();
    if (value.getType() != init->get().getType() || op.getMatchingIndexingMap(input) != out ||
        !value.hasOneUse())
      continue;
    return input;
  }
  return nullptr;
}

struct ReuseInputBuffers : ag::impl::ReuseInputBuffersBase<ReuseInputBuffers> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // The caller's tensors are read-only.
    getOperation()->walk([&](func::FuncOp func) {
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
        if (isa<TensorType>(type))
          func.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                          BoolAttr::get(context, false));
    });
    SmallVector<std::pair<linalg::GenericOp, OpOperand *>> ops;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (OpOperand *input = reusableInput(op))
        ops.push_back({op, input});
    });
    IRRewriter rewriter(context);
    for (auto [op, input] : ops) {
      OpOperand *init = op.getDpsInitOperand(0);
      BlockArgument in = op.getMatchingBlockArgument(input);
      BlockArgument out = op.getMatchingBlockArgument(init);
      // The body reads the element through the output argument.
      rewriter.replaceAllUsesWith(in, out);
      SmallVector<Value> inputs;
      SmallVector<AffineMap> maps;
      for (OpOperand *other : op.getDpsInputOperands())
        if (other != input) {
          inputs.push_back(other->get());
          maps.push_back(op.getMatchingIndexingMap(other));
        }
      maps.push_back(op.getMatchingIndexingMap(init));
      rewriter.setInsertionPoint(op);
      auto reused = linalg::GenericOp::create(
          rewriter, op.getLoc(), op->getResultTypes(), inputs, ValueRange{input->get()},
          maps, op.getIteratorTypesArray(), /*doc=*/"", /*libraryCall=*/"");
      reused->setDiscardableAttrs(op->getDiscardableAttrDictionary());
      Region &region = reused.getRegion();
      rewriter.inlineRegionBefore(op.getRegion(), region, region.end());
      region.front().eraseArgument(in.getArgNumber());
      rewriter.replaceOp(op, reused->getResults());
    }
  }
};

} // namespace
