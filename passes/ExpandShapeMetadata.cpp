//===- ExpandShapeMetadata.cpp - dynamic expand_shape groups as reinterpret_cast ----===//
//
// MLIR 22's expand-strided-metadata folds each memref.expand_shape into a
// memref.reinterpret_cast of its source's base buffer, deriving a group's sizes from the
// source's size; with more than one dynamic size in a group it builds a null size and
// crashes (a tf.reshape of a TensorArray's stack into [-1], fused with elementwise work,
// gave `memref<?xi32> into memref<?x?xi32>`: difftest seed 20261926). The expand_shape
// names those sizes itself (output_shape): this pass, run just before that one, makes the
// same reinterpret_cast from them for exactly those expand_shapes, and leaves the others
// to it.
//
//   %e = memref.expand_shape %m [[0, 1]] output_shape [%a, %b]
//       : memref<?xi32> into memref<?x?xi32>
//     => %base, %offset, %size, %stride = memref.extract_strided_metadata %m
//        %e = memref.reinterpret_cast %base to offset: [0], sizes: [%a, %b],
//                                                  strides: [%b, 1]
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ag {
#define GEN_PASS_DEF_EXPANDSHAPEMETADATA
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// Whether a group of `op` expands into more than one dynamic size.
bool hasGroupOfDynamicSizes(memref::ExpandShapeOp op) {
  MemRefType type = op.getResultType();
  for (const ReassociationIndices &group : op.getReassociationIndices())
    if (llvm::count_if(group, [&](int64_t d) { return type.isDynamicDim(d); }) > 1)
      return true;
  return false;
}

struct ExpandShapeToReinterpretCast : OpRewritePattern<memref::ExpandShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(memref::ExpandShapeOp op,
                                PatternRewriter &rewriter) const override {
    if (!hasGroupOfDynamicSizes(op))
      return failure();
    MemRefType sourceType = op.getSrcType(), resultType = op.getResultType();
    auto [sourceStrides, sourceOffset] = sourceType.getStridesAndOffset();
    auto [resultStrides, resultOffset] = resultType.getStridesAndOffset();
    Location loc = op.getLoc();
    auto metadata = memref::ExtractStridedMetadataOp::create(rewriter, loc, op.getSrc());

    // Each value as the result type has it: an attribute where it is static, a value
    // where it is dynamic (reinterpret_cast's verifier compares them).
    auto like = [&](OpFoldResult v, int64_t typed) -> OpFoldResult {
      if (!ShapedType::isDynamic(typed))
        return rewriter.getIndexAttr(typed);
      return getValueOrCreateConstantIndexOp(rewriter, loc, v);
    };
    OpFoldResult offset = ShapedType::isDynamic(sourceOffset)
                              ? OpFoldResult(metadata.getOffset())
                              : OpFoldResult(rewriter.getIndexAttr(sourceOffset));
    SmallVector<OpFoldResult> shape = op.getMixedOutputShape();
    SmallVector<OpFoldResult> sizes(resultType.getRank()), strides(resultType.getRank());
    AffineExpr s0, s1;
    bindSymbols(rewriter.getContext(), s0, s1);
    for (auto [g, group] : llvm::enumerate(op.getReassociationIndices())) {
      OpFoldResult stride = ShapedType::isDynamic(sourceStrides[g])
                                ? OpFoldResult(metadata.getStrides()[g])
                                : OpFoldResult(rewriter.getIndexAttr(sourceStrides[g]));
      for (int64_t d : llvm::reverse(group)) {
        sizes[d] = like(shape[d], resultType.getDimSize(d));
        strides[d] = like(stride, resultStrides[d]);
        stride = affine::makeComposedFoldedAffineApply(rewriter, loc, s0 * s1,
                                                       {stride, shape[d]});
      }
    }
    rewriter.replaceOpWithNewOp<memref::ReinterpretCastOp>(
        op, resultType, metadata.getBaseBuffer(), like(offset, resultOffset), sizes, strides);
    return success();
  }
};

struct ExpandShapeMetadata : ag::impl::ExpandShapeMetadataBase<ExpandShapeMetadata> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandShapeToReinterpretCast>(&getContext());
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace
