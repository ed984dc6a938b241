//===- MatmulMicrokernel.cpp - float32 matmul as a register-blocked kernel -===//
//
// With its loops in (i, k, j) order (ag-matmul-loop-order) a matmul loads and stores a
// row of the result for every multiply-add: it runs at the speed of the L1 cache, not of
// the floating-point units. This pass rewrites a float32 linalg.matmul, of static shape
// or of sizes known only at run time, as a kernel that keeps a rows x cols block of the
// result in vector registers through the whole k loop. Where the blocks are several
// vectors wide (the driver sizes them for the target's vector registers: 8 x 32 on
// AVX-512, 4 x 16 on AVX2), the columns they leave over at the right go through the same
// kernel one vector wide (narrowCols), and the last columns, fewer than a vector, through
// it too, in a panel of B padded with zeros, the result read and written there with
// masks; the rows the blocks leave at the bottom go through it one row at a time. No
// column or row takes a slower path (a right edge of 8 columns in scalar loops made a
// 1000 x 1000 matmul twice as slow as 1024 x 1024):
//
//   packed[p, k, :] = B[k, p * cols : (p + 1) * cols]   (B's panels, each contiguous)
//   for p in 0..N / cols                  (a cols-wide panel of B stays in cache)
//     j0 = p * cols
//     for i0 in 0..M step rows
//       acc[r] = C[i0 + r, j0 : j0 + cols]                  r < rows
//       for k in 0..K
//         b = packed[p, k, :]
//         acc[r] = fma(broadcast(A[i0 + r, k]), b, acc[r])   r < rows
//       C[i0 + r, j0 : j0 + cols] = acc[r]
//
// on tensors (vector.transfer_read/write, scf.for with iter_args), so that bufferization
// writes the result in place. B is packed once, outside the thread chunks
// (ag-tile-for-threads' scf.forall over whole numbers of row blocks) where B comes from
// outside them: the chunks share it rather than each copying all of B, and with
// pack-chunks the cores share the packing too. Each result element still sums over
// k in order, now with fused multiply-adds, as TensorFlow's CPU kernels do. Other matmuls
// keep the loop order of ag-matmul-loop-order.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace ag {
#define GEN_PASS_DEF_MATMULMICROKERNEL
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// Whether `op` is a plain float32 matmul the kernel takes: static sizes at least a
/// block, or sizes known only at run time (a matrix smaller than a block then goes
/// through the padded panel, one row at a time).
bool fits(linalg::MatmulOp op, int64_t rows, int64_t cols) {
  if (op.hasUserDefinedMaps() || !op.hasPureTensorSemantics())
    return false;
  auto a = dyn_cast<RankedTensorType>(op.getDpsInputOperand(0)->get().getType());
  auto b = dyn_cast<RankedTensorType>(op.getDpsInputOperand(1)->get().getType());
  auto c = dyn_cast<RankedTensorType>(op.getDpsInitOperand(0)->get().getType());
  if (!a || !b || !c)
    return false;
  if (!a.getElementType().isF32() || !b.getElementType().isF32() || !c.getElementType().isF32())
    return false;
  int64_t m = c.getDimSize(0), n = c.getDimSize(1), k = a.getDimSize(1);
  auto atLeast = [](int64_t size, int64_t least) {
    return ShapedType::isDynamic(size) || size >= least;
  };
  return atLeast(m, rows) && atLeast(n, cols) && atLeast(k, 1);
}

/// Sizes as OpFoldResults: attributes where they are known while compiling (a static
/// matmul's slices stay static), index values where they are not.
struct Sizes {
  OpBuilder &b;
  Location loc;
  OpFoldResult dim(Value t, int64_t d) {
    auto type = cast<RankedTensorType>(t.getType());
    if (!type.isDynamicDim(d))
      return b.getIndexAttr(type.getDimSize(d));
    return tensor::DimOp::create(b, loc, t, d).getResult();
  }
  Value value(OpFoldResult v) {
    if (std::optional<int64_t> c = getConstantIntValue(v))
      return arith::ConstantIndexOp::create(b, loc, *c);
    return cast<Value>(v);
  }
  /// `x - x % step`: the part of `x` that whole blocks of `step` cover.
  OpFoldResult roundDown(OpFoldResult x, int64_t step) {
    if (std::optional<int64_t> c = getConstantIntValue(x))
      return b.getIndexAttr(*c - *c % step);
    Value v = value(x), s = arith::ConstantIndexOp::create(b, loc, step);
    return arith::SubIOp::create(b, loc, v, arith::RemUIOp::create(b, loc, v, s)).getResult();
  }
  OpFoldResult plus(OpFoldResult x, OpFoldResult y) {
    std::optional<int64_t> cx = getConstantIntValue(x), cy = getConstantIntValue(y);
    if (cx && cy)
      return b.getIndexAttr(*cx + *cy);
    return arith::AddIOp::create(b, loc, value(x), value(y)).getResult();
  }
  OpFoldResult times(OpFoldResult x, int64_t y) {
    if (std::optional<int64_t> c = getConstantIntValue(x))
      return b.getIndexAttr(*c * y);
    return arith::MulIOp::create(b, loc, value(x), arith::ConstantIndexOp::create(b, loc, y))
        .getResult();
  }
  /// `x / y` rounded down (x >= 0).
  OpFoldResult divide(OpFoldResult x, int64_t y) {
    if (std::optional<int64_t> c = getConstantIntValue(x))
      return b.getIndexAttr(*c / y);
    return arith::DivUIOp::create(b, loc, value(x), arith::ConstantIndexOp::create(b, loc, y))
        .getResult();
  }
  OpFoldResult minus(OpFoldResult x, OpFoldResult y) {
    std::optional<int64_t> cx = getConstantIntValue(x), cy = getConstantIntValue(y);
    if (cx && cy)
      return b.getIndexAttr(*cx - *cy);
    return arith::SubIOp::create(b, loc, value(x), value(y)).getResult();
  }
  bool isZero(OpFoldResult x) {
    std::optional<int64_t> c = getConstantIntValue(x);
    return c && *c == 0;
  }
};

/// B's columns [col0, col0 + panels * cols) as `panels` contiguous [K, cols] panels,
/// tensor<panels x K x cols>: packed[p, k, c] = B[k, col0 + p * cols + c]. Read in place,
/// a panel's rows are N floats apart and fall into few cache sets, which evict each other.
Value pack(OpBuilder &b, Location loc, Value rhs, OpFoldResult col0, OpFoldResult panels,
           int64_t cols) {
  Sizes sizes{b, loc};
  OpFoldResult depth = sizes.dim(rhs, 0), one = b.getIndexAttr(1);
  OpFoldResult width = sizes.times(panels, cols);
  Value columns = tensor::ExtractSliceOp::create(
      b, loc, rhs, ArrayRef<OpFoldResult>{b.getIndexAttr(0), col0},
      ArrayRef<OpFoldResult>{depth, width}, ArrayRef<OpFoldResult>{one, one});
  Value empty = tensor::EmptyOp::create(b, loc, ArrayRef<OpFoldResult>{panels, depth, b.getIndexAttr(cols)},
                                        b.getF32Type());
  MLIRContext *context = b.getContext();
  AffineExpr p = getAffineDimExpr(0, context), k = getAffineDimExpr(1, context),
             c = getAffineDimExpr(2, context);
  SmallVector<AffineMap> maps{AffineMap::get(3, 0, {k, p * cols + c}, context),
                              AffineMap::getMultiDimIdentityMap(3, context)};
  SmallVector<utils::IteratorType> iterators(3, utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, empty.getType(), ValueRange{columns}, ValueRange{empty}, maps, iterators,
             [](OpBuilder &b, Location loc, ValueRange args) {
               linalg::YieldOp::create(b, loc, args[0]);
             })
      .getResult(0);
}

/// B's columns [col0, N), fewer than `cols`, as `panels` (0 or 1) panel `cols` wide,
/// tensor<panels x K x cols>, zeros where B has no column: packed[0, k, c] = B[k, col0 + c]
/// for col0 + c < N, else 0.
Value packPadded(OpBuilder &b, Location loc, Value rhs, OpFoldResult col0, OpFoldResult panels,
                 int64_t cols) {
  Sizes sizes{b, loc};
  OpFoldResult depth = sizes.dim(rhs, 0);
  Value width = sizes.value(sizes.dim(rhs, 1)), first = sizes.value(col0);
  Value empty = tensor::EmptyOp::create(b, loc, ArrayRef<OpFoldResult>{panels, depth, b.getIndexAttr(cols)},
                                        b.getF32Type());
  SmallVector<AffineMap> maps{AffineMap::getMultiDimIdentityMap(3, b.getContext())};
  SmallVector<utils::IteratorType> iterators(3, utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, empty.getType(), ValueRange{}, ValueRange{empty}, maps, iterators,
             [&](OpBuilder &b, Location loc, ValueRange) {
               Value k = linalg::IndexOp::create(b, loc, 1), c = linalg::IndexOp::create(b, loc, 2);
               Value column = arith::AddIOp::create(b, loc, first, c);
               Value present = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, column, width);
               // A panel exists only where B has a column past col0: N - 1 is one.
               Value last = arith::SubIOp::create(b, loc, width,
                                                  arith::ConstantIndexOp::create(b, loc, 1));
               Value clamped = arith::MinUIOp::create(b, loc, column, last);
               Value v = tensor::ExtractOp::create(b, loc, rhs, ValueRange{k, clamped});
               Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
               linalg::YieldOp::create(b, loc, ValueRange{arith::SelectOp::create(b, loc, present, v, zero)});
             })
      .getResult(0);
}

/// `packed` (pack()) computed in at most `chunks` chunks of its panels, an
/// scf.forall the cores share, as the matmul's rows are (ag-parallel-loops runs it on
/// all of them: its body only copies); `packed` itself where it cannot be split.
Value shareOut(OpBuilder &b, Value packed, int64_t chunks) {
  auto generic = packed.getDefiningOp<linalg::GenericOp>();
  auto type = cast<RankedTensorType>(packed.getType());
  if (!generic || chunks <= 1 || type.getDimSize(0) == 1)
    return packed;
  IRRewriter rewriter(b);
  rewriter.setInsertionPoint(generic);
  scf::SCFTilingOptions options;
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  SmallVector<OpFoldResult> counts(3, rewriter.getIndexAttr(0));
  counts[0] = rewriter.getIndexAttr(
      type.isDynamicDim(0) ? chunks : std::min<int64_t>(chunks, type.getDimSize(0)));
  options.setNumThreads(counts);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(generic.getOperation()), options);
  if (failed(tiled))
    return packed;
  rewriter.replaceOp(generic, tiled->replacements);
  return tiled->replacements[0];
}

/// The kernel above over the columns [col0, col0 + panels * cols) of the result, whose
/// panels of B `packed` holds (pack(), packPadded()), and its rows [row0, rowEnd) (a
/// multiple of `rows`), on `init`; returns the result. `padded`: the last panel may reach
/// past the result's last column, and the result is read and written there with masks.
Value blocks(OpBuilder &b, Location loc, Value lhs, Value packed, Value init, OpFoldResult row0,
             OpFoldResult rowEnd, OpFoldResult col0, OpFoldResult panels, int64_t rows,
             int64_t cols, bool padded, int64_t unroll) {
  Sizes sizes{b, loc};
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  OpFoldResult depthSize = sizes.dim(lhs, 1);
  Value depth = sizes.value(depthSize);
  Value depthMain = unroll > 1 ? sizes.value(sizes.roundDown(depthSize, unroll)) : depth;
  Value zero = index(0), first = sizes.value(col0);
  auto vectorType = VectorType::get({cols}, b.getF32Type());
  Value padding = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  SmallVector<bool> inBounds{true}, resultInBounds{!padded};

  auto columns = scf::ForOp::create(
      b, loc, zero, sizes.value(panels), index(1), ValueRange{init},
      [&](OpBuilder &b, Location loc, Value panel, ValueRange panelResult) {
        Value j0 = arith::AddIOp::create(
            b, loc, first, arith::MulIOp::create(b, loc, panel, index(cols)));
        auto blocks = scf::ForOp::create(
            b, loc, sizes.value(row0), sizes.value(rowEnd), index(rows), panelResult,
            [&](OpBuilder &b, Location loc, Value i0, ValueRange result) {
              SmallVector<Value> rowIndex;
              for (int64_t r = 0; r < rows; ++r)
                rowIndex.push_back(r == 0 ? i0
                                          : arith::AddIOp::create(b, loc, i0, index(r)).getResult());
              SmallVector<Value> accumulators;
              for (int64_t r = 0; r < rows; ++r)
                accumulators.push_back(vector::TransferReadOp::create(
                    b, loc, vectorType, result[0], ValueRange{rowIndex[r], j0}, padding,
                    resultInBounds));
              // One k: a row of the panel, each row's element of A broadcast, `rows` FMAs.
              auto step = [&](OpBuilder &b, Location loc, Value k, ValueRange acc) {
                Value row = vector::TransferReadOp::create(
                    b, loc, vectorType, packed, ValueRange{panel, k, zero}, padding, inBounds);
                SmallVector<Value> next;
                for (int64_t r = 0; r < rows; ++r) {
                  Value a = tensor::ExtractOp::create(b, loc, lhs, ValueRange{rowIndex[r], k});
                  Value splat = vector::BroadcastOp::create(b, loc, vectorType, a);
                  next.push_back(vector::FMAOp::create(b, loc, vectorType, splat, row, acc[r]));
                }
                return next;
              };
              // `unroll` ks an iteration, then the ks left one at a time.
              auto unrolled = scf::ForOp::create(
                  b, loc, zero, depthMain, index(std::max<int64_t>(unroll, 1)), accumulators,
                  [&](OpBuilder &b, Location loc, Value k, ValueRange acc) {
                    SmallVector<Value> next(acc.begin(), acc.end());
                    for (int64_t u = 0; u < std::max<int64_t>(unroll, 1); ++u)
                      next = step(b, loc,
                                  u == 0 ? k : arith::AddIOp::create(b, loc, k, index(u)).getResult(),
                                  next);
                    scf::YieldOp::create(b, loc, next);
                  });
              scf::ForOp products = unrolled;
              if (unroll > 1)
                products = scf::ForOp::create(
                    b, loc, depthMain, depth, index(1), unrolled.getResults(),
                    [&](OpBuilder &b, Location loc, Value k, ValueRange acc) {
                      scf::YieldOp::create(b, loc, step(b, loc, k, acc));
                    });
              Value updated = result[0];
              for (int64_t r = 0; r < rows; ++r)
                updated = vector::TransferWriteOp::create(b, loc, products.getResult(r), updated,
                                                          ValueRange{rowIndex[r], j0},
                                                          resultInBounds)
                              .getResult();
              scf::YieldOp::create(b, loc, updated);
            });
        scf::YieldOp::create(b, loc, blocks.getResult(0));
      });
  return columns.getResult(0);
}

/// Where B is packed, and B there: before the thread chunks (ag-tile-for-threads'
/// scf.forall) around `op` whose B does not depend on the chunk (defined outside, or a
/// slice of a value from outside with offsets and sizes from outside, which tiling makes:
/// cloned there), so that every chunk reads one copy of B's panels rather than making its
/// own. (Packing is pure: it may run though no chunk does.)
std::pair<Operation *, Value> packingPoint(OpBuilder &b, linalg::MatmulOp op, Value rhs) {
  Operation *point = op;
  while (auto chunks = point->getParentOfType<scf::ForallOp>()) {
    if (chunks.isDefinedOutsideOfLoop(rhs)) {
      point = chunks;
      continue;
    }
    auto slice = rhs.getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || !llvm::all_of(slice->getOperands(),
                                [&](Value v) { return chunks.isDefinedOutsideOfLoop(v); }))
      break;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(chunks);
    rhs = b.clone(*slice)->getResult(0);
    point = chunks;
  }
  return {point, rhs};
}

/// The kernel above, replacing `op`: blocks `cols` wide, then (where `narrowCols` is
/// smaller) blocks `narrowCols` wide over the columns those leave over, then one block of
/// the narrowest width, zero-padded, over the last columns; over the rows a whole number
/// of `rows` blocks cover, then one row at a time over the rest.
void rewrite(linalg::MatmulOp op, int64_t rows, int64_t cols, int64_t narrowCols,
             int64_t packChunks, int64_t unroll) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value lhs = op.getDpsInputOperand(0)->get(), rhs = op.getDpsInputOperand(1)->get();
  Value result = op.getDpsInitOperand(0)->get();
  Sizes sizes{b, loc};
  OpFoldResult m = sizes.dim(result, 0);
  OpFoldResult mMain = sizes.roundDown(m, rows);
  // The column blocks: `cols` wide, then `narrowCols` wide, then the last columns in a
  // padded block; B's panels for them are packed at packingPoint(), from B's own width
  // (the result's, read there).
  struct Part {
    OpFoldResult col0, panels;
    int64_t cols;
    Value packed;
    bool padded;
  };
  SmallVector<Part> parts;
  {
    OpBuilder::InsertionGuard guard(b);
    auto [point, source] = packingPoint(b, op, rhs);
    b.setInsertionPoint(point);
    // Packed before thread chunks: in chunks of its own.
    int64_t packing = isa<scf::ForallOp>(point) ? packChunks : 0;
    Sizes outer{b, loc};
    OpFoldResult width = outer.dim(source, 1), covered = b.getIndexAttr(0);
    SmallVector<int64_t> widths{cols};
    if (narrowCols > 0 && narrowCols < cols)
      widths.push_back(narrowCols);
    for (int64_t w : widths) {
      OpFoldResult panels = outer.divide(outer.minus(width, covered), w);
      if (!outer.isZero(panels))
        parts.push_back(
            {covered, panels, w, shareOut(b, pack(b, loc, source, covered, panels, w), packing),
             false});
      covered = outer.plus(covered, outer.times(panels, w));
    }
    // Fewer columns than the narrowest block are left: none or one padded panel.
    int64_t w = widths.back();
    OpFoldResult panels = outer.divide(outer.plus(outer.minus(width, covered), b.getIndexAttr(w - 1)), w);
    if (!outer.isZero(panels))
      parts.push_back({covered, panels, w, packPadded(b, loc, source, covered, panels, w), true});
  }
  // (Values of packingPoint() dominate `op`: the blocks use them as they are.)
  for (const Part &part : parts)
    result = blocks(b, loc, lhs, part.packed, result, b.getIndexAttr(0), mMain, part.col0,
                    part.panels, rows, part.cols, part.padded, unroll);
  // The bottom rows no block covers (statically none, or some known only at run time,
  // which may be none), one at a time.
  if (!sizes.isZero(sizes.minus(m, mMain)))
    for (const Part &part : parts)
      result = blocks(b, loc, lhs, part.packed, result, mMain, m, part.col0, part.panels, 1,
                      part.cols, part.padded, unroll);
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
}

struct MatmulMicrokernel : ag::impl::MatmulMicrokernelBase<MatmulMicrokernel> {
  using MatmulMicrokernelBase::MatmulMicrokernelBase;
  void runOnOperation() override {
    int64_t narrowest = narrowCols > 0 ? std::min<int64_t>(cols, narrowCols) : cols;
    SmallVector<linalg::MatmulOp> ops;
    getOperation()->walk([&](linalg::MatmulOp op) {
      if (fits(op, rows, narrowest))
        ops.push_back(op);
    });
    for (linalg::MatmulOp op : ops)
      rewrite(op, rows, cols, narrowCols, packChunks, depthUnroll);
  }
};

} // namespace
