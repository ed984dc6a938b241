//===- MatmulMicrokernel.cpp - float32 matmul as a register-blocked kernel -===//
//
// With its loops in (i, k, j) order (ag-matmul-loop-order) a matmul loads and stores a
// row of the result for every multiply-add: it runs at the speed of the L1 cache, not of
// the floating-point units. This pass rewrites a float32 linalg.matmul, of static shape
// or of sizes known only at run time, as a kernel that keeps a rows x cols block of the
// result in vector registers through the whole k loop (and the rows and columns left
// over at the bottom and right edges as linalg.matmuls of slices; all of a matrix
// smaller than a block). Where the blocks are several vectors wide (the driver sizes them
// for the target's vector registers: 4 x 64 on AVX-512, 4 x 16 on AVX2), the columns
// they leave over at the right go through the same kernel one vector wide (narrowCols)
// before any reach the slow edge:
//
//   for j0 in 0..N step cols           (a cols-wide panel of B stays in cache)
//     for i0 in 0..M step rows
//       acc[r] = C[i0 + r, j0 : j0 + cols]                  r < rows
//       for k in 0..K
//         b = B[k, j0 : j0 + cols]
//         acc[r] = fma(broadcast(A[i0 + r, k]), b, acc[r])   r < rows
//       C[i0 + r, j0 : j0 + cols] = acc[r]
//
// on tensors (vector.transfer_read/write, scf.for with iter_args), so that bufferization
// writes the result in place. Each result element still sums over k in order, now with
// fused multiply-adds, as TensorFlow's CPU kernels do. Other matmuls keep the loop
// order of ag-matmul-loop-order.
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

/// The kernel above over the columns [col0, colEnd) of the result (a multiple of `cols`
/// wide) and its rows [0, rowEnd) (a multiple of `rows`), on `init`; returns the result.
Value blocks(OpBuilder &b, Location loc, Value lhs, Value rhs, Value init, OpFoldResult rowEnd,
             OpFoldResult col0, OpFoldResult colEnd, int64_t rows, int64_t cols) {
  Sizes sizes{b, loc};
  OpFoldResult depthSize = sizes.dim(lhs, 1);
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  Value depth = sizes.value(depthSize);
  Value zero = index(0);
  auto vectorType = VectorType::get({cols}, b.getF32Type());
  Value padding = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  SmallVector<bool> inBounds{true};

  auto columns = scf::ForOp::create(
      b, loc, sizes.value(col0), sizes.value(colEnd), index(cols), ValueRange{init},
      [&](OpBuilder &b, Location loc, Value j0, ValueRange panel) {
        // The panel B[:, j0 : j0 + cols], copied to contiguous rows: read in place, its
        // rows are N floats apart and fall into few cache sets, which evict each other.
        SmallVector<OpFoldResult> offsets{b.getIndexAttr(0), j0};
        SmallVector<OpFoldResult> panelSizes{depthSize, b.getIndexAttr(cols)};
        SmallVector<OpFoldResult> strides{b.getIndexAttr(1), b.getIndexAttr(1)};
        Value slice = tensor::ExtractSliceOp::create(b, loc, rhs, offsets, panelSizes, strides);
        Value empty = tensor::EmptyOp::create(b, loc, panelSizes, b.getF32Type());
        Value packed = linalg::CopyOp::create(b, loc, slice, empty).getResult(0);
        auto blocks = scf::ForOp::create(
            b, loc, zero, sizes.value(rowEnd), index(rows), panel,
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
                    Value row = vector::TransferReadOp::create(b, loc, vectorType, packed,
                                                               ValueRange{k, zero}, padding, inBounds);
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

/// The kernel above, replacing `op`: blocks `cols` wide, then (where `narrowCols` is
/// smaller) blocks `narrowCols` wide over the columns those leave over.
void rewrite(linalg::MatmulOp op, int64_t rows, int64_t cols, int64_t narrowCols) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value lhs = op.getDpsInputOperand(0)->get(), rhs = op.getDpsInputOperand(1)->get();
  Value result = op.getDpsInitOperand(0)->get();
  Sizes sizes{b, loc};
  OpFoldResult m = sizes.dim(result, 0), n = sizes.dim(result, 1);
  // The blocks cover [0, mMain) x [0, nMain); edge() the rest.
  OpFoldResult mMain = sizes.roundDown(m, rows), nMain = sizes.roundDown(n, cols);
  if (!sizes.isZero(nMain))
    result = blocks(b, loc, lhs, rhs, result, mMain, b.getIndexAttr(0), nMain, rows, cols);
  if (narrowCols > 0 && narrowCols < cols) {
    OpFoldResult nWide = nMain;
    nMain = sizes.plus(nWide, sizes.roundDown(sizes.minus(n, nWide), narrowCols));
    if (!sizes.isZero(sizes.minus(nMain, nWide)))
      result = blocks(b, loc, lhs, rhs, result, mMain, nWide, nMain, rows, narrowCols);
  }
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
