//===- MatmulMicrokernel.cpp - float32 matmul as a register-blocked kernel -===//
//
// With its loops in (i, k, j) order (ag-matmul-loop-order) a matmul loads and stores a
// row of the result for every multiply-add: it runs at the speed of the L1 cache, not of
// the floating-point units. This pass rewrites a float32 linalg.matmul, of static shape
// or of sizes known only at run time, as a kernel that keeps a rows x cols block of the
// result in vector registers through the whole k loop (and the rows and columns left
// over at the bottom and right edges as linalg.matmuls of slices; all of a matrix
// smaller than a block). Where the blocks are several vectors wide (the driver sizes them
// for the target's vector registers: 8 x 32 on AVX-512, 4 x 16 on AVX2), the columns
// they leave over at the right go through the same kernel one vector wide (narrowCols)
// before any reach the slow edge:
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
// (ag-tile-for-threads' scf.forall over row blocks) where B comes from outside them: the
// chunks share it rather than each copying all of B. Each result element still sums over
// k in order, now with fused multiply-adds, as TensorFlow's CPU kernels do. Other matmuls
// keep the loop order of ag-matmul-loop-order.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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
/// block, or sizes known only at run time (a matrix smaller than a block is then all
/// edge).
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

/// A matmul of the slices A[rows, :] and B[:, cols] into C[rows, cols] of `result`:
/// what the kernel's blocks leave over at the bottom or right edge.
Value edge(OpBuilder &b, Location loc, Value lhs, Value rhs, Value result, OpFoldResult row0,
           OpFoldResult rowCount, OpFoldResult col0, OpFoldResult colCount) {
  Sizes sizes{b, loc};
  OpFoldResult depth = sizes.dim(lhs, 1), zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  auto slice = [&](Value source, OpFoldResult r0, OpFoldResult r, OpFoldResult c0, OpFoldResult c) {
    return tensor::ExtractSliceOp::create(b, loc, source, ArrayRef<OpFoldResult>{r0, c0},
                                          ArrayRef<OpFoldResult>{r, c},
                                          ArrayRef<OpFoldResult>{one, one});
  };
  Value a = slice(lhs, row0, rowCount, zero, depth);
  Value bSlice = slice(rhs, zero, depth, col0, colCount);
  Value c = slice(result, row0, rowCount, col0, colCount);
  Value product = linalg::MatmulOp::create(b, loc, ValueRange{a, bSlice}, ValueRange{c}).getResult(0);
  return tensor::InsertSliceOp::create(b, loc, product, result, ArrayRef<OpFoldResult>{row0, col0},
                                       ArrayRef<OpFoldResult>{rowCount, colCount},
                                       ArrayRef<OpFoldResult>{one, one});
}

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

/// The kernel above over the columns [col0, col0 + panels * cols) of the result, whose
/// panels of B `packed` holds (pack()), and its rows [0, rowEnd) (a multiple of `rows`),
/// on `init`; returns the result.
Value blocks(OpBuilder &b, Location loc, Value lhs, Value packed, Value init, OpFoldResult rowEnd,
             OpFoldResult col0, OpFoldResult panels, int64_t rows, int64_t cols) {
  Sizes sizes{b, loc};
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  Value depth = sizes.value(sizes.dim(lhs, 1));
  Value zero = index(0), first = sizes.value(col0);
  auto vectorType = VectorType::get({cols}, b.getF32Type());
  Value padding = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  SmallVector<bool> inBounds{true};

  auto columns = scf::ForOp::create(
      b, loc, zero, sizes.value(panels), index(1), ValueRange{init},
      [&](OpBuilder &b, Location loc, Value panel, ValueRange panelResult) {
        Value j0 = arith::AddIOp::create(
            b, loc, first, arith::MulIOp::create(b, loc, panel, index(cols)));
        auto blocks = scf::ForOp::create(
            b, loc, zero, sizes.value(rowEnd), index(rows), panelResult,
            [&](OpBuilder &b, Location loc, Value i0, ValueRange result) {
              SmallVector<Value> rowIndex;
              for (int64_t r = 0; r < rows; ++r)
                rowIndex.push_back(r == 0 ? i0
                                          : arith::AddIOp::create(b, loc, i0, index(r)).getResult());
              SmallVector<Value> accumulators;
              for (int64_t r = 0; r < rows; ++r)
                accumulators.push_back(vector::TransferReadOp::create(
                    b, loc, vectorType, result[0], ValueRange{rowIndex[r], j0}, padding, inBounds));
              auto products = scf::ForOp::create(
                  b, loc, zero, depth, index(1), accumulators,
                  [&](OpBuilder &b, Location loc, Value k, ValueRange acc) {
                    Value row = vector::TransferReadOp::create(
                        b, loc, vectorType, packed, ValueRange{panel, k, zero}, padding, inBounds);
                    SmallVector<Value> next;
                    for (int64_t r = 0; r < rows; ++r) {
                      Value a = tensor::ExtractOp::create(b, loc, lhs, ValueRange{rowIndex[r], k});
                      Value splat = vector::BroadcastOp::create(b, loc, vectorType, a);
                      next.push_back(vector::FMAOp::create(b, loc, vectorType, splat, row, acc[r]));
                    }
                    scf::YieldOp::create(b, loc, next);
                  });
              Value updated = result[0];
              for (int64_t r = 0; r < rows; ++r)
                updated = vector::TransferWriteOp::create(b, loc, products.getResult(r), updated,
                                                          ValueRange{rowIndex[r], j0}, inBounds)
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
/// smaller) blocks `narrowCols` wide over the columns those leave over.
void rewrite(linalg::MatmulOp op, int64_t rows, int64_t cols, int64_t narrowCols) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value lhs = op.getDpsInputOperand(0)->get(), rhs = op.getDpsInputOperand(1)->get();
  Value result = op.getDpsInitOperand(0)->get();
  Sizes sizes{b, loc};
  OpFoldResult m = sizes.dim(result, 0), n = sizes.dim(result, 1);
  OpFoldResult mMain = sizes.roundDown(m, rows);
  // The column blocks: `cols` wide, then `narrowCols` wide; B's panels for them are
  // packed at packingPoint(), from B's own width (the result's, read there).
  struct Part {
    OpFoldResult col0, panels;
    int64_t cols;
    Value packed;
  };
  SmallVector<Part> parts;
  OpFoldResult nMain;
  {
    OpBuilder::InsertionGuard guard(b);
    auto [point, source] = packingPoint(b, op, rhs);
    b.setInsertionPoint(point);
    Sizes outer{b, loc};
    OpFoldResult width = outer.dim(source, 1), covered = b.getIndexAttr(0);
    SmallVector<int64_t> widths{cols};
    if (narrowCols > 0 && narrowCols < cols)
      widths.push_back(narrowCols);
    for (int64_t w : widths) {
      OpFoldResult panels = outer.divide(outer.minus(width, covered), w);
      if (!outer.isZero(panels))
        parts.push_back({covered, panels, w, pack(b, loc, source, covered, panels, w)});
      covered = outer.plus(covered, outer.times(panels, w));
    }
    nMain = covered;
  }
  // (Values of packingPoint() dominate `op`: the blocks use them as they are.)
  for (const Part &part : parts)
    result = blocks(b, loc, lhs, part.packed, result, mMain, part.col0, part.panels, rows, part.cols);
  // The right edge, every row; then the bottom edge, the columns the blocks covered.
  // (Statically empty edges are left out; one known only at run time may be empty.)
  OpFoldResult right = sizes.minus(n, nMain), bottom = sizes.minus(m, mMain);
  if (!sizes.isZero(right))
    result = edge(b, loc, lhs, rhs, result, b.getIndexAttr(0), m, nMain, right);
  if (!sizes.isZero(bottom) && !sizes.isZero(nMain))
    result = edge(b, loc, lhs, rhs, result, mMain, bottom, b.getIndexAttr(0), nMain);
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
      rewrite(op, rows, cols, narrowCols);
  }
};

} // namespace
