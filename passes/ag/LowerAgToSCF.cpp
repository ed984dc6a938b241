//===- LowerAgToSCF.cpp - ag.cond / ag.while_loop to scf.if / scf.while ---===//
//
//   ag.cond %c {A; ag.yield x} else {B; ag.yield y}
//     => scf.if (extract %c) {A; scf.yield x} else {B; scf.yield y}
//   ag.while_loop (%i) {^(%a): T; ag.condition(%c) %v} do {^(%b): S; ag.yield %n}
//     => scf.while (%a = %i) {T; scf.condition(extract %c) %v} do {^(%b): S; scf.yield %n}
//
// Each op's regions move into the new op unchanged; only each region's own terminator is
// rewritten. Ops are converted innermost first.
//
//===----------------------------------------------------------------------------------===//
#include "ag/dialect/AgDialect.h"
#include "ag/passes/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace ag {
#define GEN_PASS_DEF_LOWERAGTOSCF
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// `condition` as an i1: a 0-d tensor<i1> is read with tensor.extract.
Value asI1(OpBuilder &builder, Location loc, Value condition) {
  if (isa<RankedTensorType>(condition.getType()))
    return tensor::ExtractOp::create(builder, loc, condition, ValueRange());
  return condition;
}

/// Replaces the ag.yield that ends `region` with scf.yield.
void rewriteYield(IRRewriter &rewriter, Region &region) {
  auto yield = cast<ag::YieldOp>(region.front().getTerminator());
  rewriter.setInsertionPoint(yield);
  rewriter.replaceOpWithNewOp<scf::YieldOp>(yield, yield.getResults());
}

void lowerCond(IRRewriter &rewriter, ag::CondOp op) {
  rewriter.setInsertionPoint(op);
  Value condition = asI1(rewriter, op.getLoc(), op.getCondition());
  auto ifOp = scf::IfOp::create(rewriter, op.getLoc(), op.getResultTypes(), condition,
                                /*addThenBlock=*/false, /*addElseBlock=*/false);
  rewriter.inlineRegionBefore(op.getThenRegion(), ifOp.getThenRegion(), ifOp.getThenRegion().end());
  rewriter.inlineRegionBefore(op.getElseRegion(), ifOp.getElseRegion(), ifOp.getElseRegion().end());
  rewriteYield(rewriter, ifOp.getThenRegion());
  rewriteYield(rewriter, ifOp.getElseRegion());
  rewriter.replaceOp(op, ifOp.getResults());
}

void lowerWhile(IRRewriter &rewriter, ag::WhileLoopOp op) {
  rewriter.setInsertionPoint(op);
  auto whileOp = scf::WhileOp::create(rewriter, op.getLoc(), op.getResultTypes(), op.getInits());
  rewriter.inlineRegionBefore(op.getBefore(), whileOp.getBefore(), whileOp.getBefore().end());
  rewriter.inlineRegionBefore(op.getAfter(), whileOp.getAfter(), whileOp.getAfter().end());
  auto condition = cast<ag::ConditionOp>(whileOp.getBefore().front().getTerminator());
  rewriter.setInsertionPoint(condition);
  Value test = asI1(rewriter, condition.getLoc(), condition.getCondition());
  rewriter.replaceOpWithNewOp<scf::ConditionOp>(condition, test, condition.getArgs());
  rewriteYield(rewriter, whileOp.getAfter());
  rewriter.replaceOp(op, whileOp.getResults());
}

struct LowerAgToSCF : ag::impl::LowerAgToSCFBase<LowerAgToSCF> {
  void runOnOperation() override {
    // Innermost first: post-order, collected before any op changes.
    SmallVector<Operation *> ops;
    getOperation()->walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (isa<ag::CondOp, ag::WhileLoopOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      if (auto cond = dyn_cast<ag::CondOp>(op))
        lowerCond(rewriter, cond);
      else
        lowerWhile(rewriter, cast<ag::WhileLoopOp>(op));
    }
  }
};

} // namespace
