//===- MatmulMicrokernel.cpp - float32 matmul as a register-blocked kernel -===//
//
// With its loops in (i, k, j) order (ag-matmul-loop-order) a matmul loads and stores a
// row of the result for every multiply-add: it runs at the speed of the L1 cache, not of
// the floating-point units. This pass rewrites a float32 linalg.matmul of static shape,
// at least rows x cols, as a kernel that keeps a rows x cols block of
// the result in vector registers through the whole k loop (and the rows and columns
// left over at the bottom and right edges as linalg.matmuls of slices):
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
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace ag {
#define GEN_PASS_DEF_MATMULMICROKERNEL
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// Whether `op` is a plain float32 matmul whose shape the kernel tiles exactly.
bool fits(linalg::MatmulOp op, int64_t rows, int64_t cols) {
  if (op.hasUserDefinedMaps() || !op.hasPureTensorSemantics())
    return false;
  auto a = dyn_cast<RankedTensorType>(op.getDpsInputOperand(0)->get().getType());
  auto b = dyn_cast<RankedTensorType>(op.getDpsInputOperand(1)->get().getType());
  auto c = dyn_cast<RankedTensorType>(op.getDpsInitOperand(0)->get().getType());
  if (!a || !b || !c || !a.hasStaticShape() || !b.hasStaticShape() || !c.hasStaticShape())
    return false;
  if (!a.getElementType().isF32() || !b.getElementType().isF32() || !c.getElementType().isF32())
    return false;
  int64_t m = c.getDimSize(0), n = c.getDimSize(1), k = a.getDimSize(1);
  return m >= rows && n >= cols && k > 0;
}

/// A matmul of the slices A[rows, :] and B[:, cols] into C[rows, cols] of `result`:
/// what the kernel's blocks leave over at the bottom or right edge.
Value edge(OpBuilder &b, Location loc, Value lhs, Value rhs, Value result, int64_t row0,
           int64_t rowCount, int64_t col0, int64_t colCount) {
  int64_t depth = cast<RankedTensorType>(lhs.getType()).getDimSize(1);
  auto slice = [&](Value source, int64_t r0, int64_t r, int64_t c0, int64_t c) {
    return tensor::ExtractSliceOp::create(
        b, loc, source, ArrayRef<OpFoldResult>{b.getIndexAttr(r0), b.getIndexAttr(c0)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(r), b.getIndexAttr(c)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
  };
  Value a = slice(lhs, row0, rowCount, 0, depth);
  Value bSlice = slice(rhs, 0, depth, col0, colCount);
  Value c = slice(result, row0, rowCount, col0, colCount);
  Value product = linalg::MatmulOp::create(b, loc, ValueRange{a, bSlice}, ValueRange{c}).getResult(0);
  return tensor::InsertSliceOp::create(
      b, loc, product, result, ArrayRef<OpFoldResult>{b.getIndexAttr(row0), b.getIndexAttr(col0)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(rowCount), b.getIndexAttr(colCount)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
}

/// The kernel above, replacing `op`.
void rewrite(linalg::MatmulOp op, int64_t rows, int64_t cols) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value lhs = op.getDpsInputOperand(0)->get(), rhs = op.getDpsInputOperand(1)->get();
  Value init = op.getDpsInitOperand(0)->get();
  auto resultType = cast<RankedTensorType>(init.getType());
  int64_t m = resultType.getDimSize(0), n = resultType.getDimSize(1);
  int64_t depth = cast<RankedTensorType>(lhs.getType()).getDimSize(1);
  // The blocks cover [0, mMain) x [0, nMain); edge() the rest.
  int64_t mMain = m - m % rows, nMain = n - n % cols;
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  Value zero = index(0);
  auto vectorType = VectorType::get({cols}, b.getF32Type());
  Value padding = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  SmallVector<bool> inBounds{true};

  auto columns = scf::ForOp::create(
      b, loc, zero, index(nMain), index(cols), ValueRange{init},
      [&](OpBuilder &b, Location loc, Value j0, ValueRange panel) {
        // The panel B[:, j0 : j0 + cols], copied to contiguous rows: read in place, its
        // rows are N floats apart and fall into few cache sets, which evict each other.
        SmallVector<OpFoldResult> offsets{b.getIndexAttr(0), j0};
        SmallVector<OpFoldResult> sizes{b.getIndexAttr(depth), b.getIndexAttr(cols)};
        SmallVector<OpFoldResult> strides{b.getIndexAttr(1), b.getIndexAttr(1)};
        Value slice = tensor::ExtractSliceOp::create(b, loc, rhs, offsets, sizes, strides);
        Value empty = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{depth, cols}, b.getF32Type());
        Value packed = linalg::CopyOp::create(b, loc, slice, empty).getResult(0);
        auto blocks = scf::ForOp::create(
            b, loc, zero, index(mMain), index(rows), panel,
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
                  b, loc, zero, index(depth), index(1), accumulators,
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
  Value result = columns.getResult(0);
  if (nMain < n) // the right edge, every row
    result = edge(b, loc, lhs, rhs, result, 0, m, nMain, n - nMain);
  if (mMain < m) // the bottom edge, the columns the blocks covered
    result = edge(b, loc, lhs, rhs, result, mMain, m - mMain, 0, nMain);
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
}

struct MatmulMicrokernel : ag::impl::MatmulMicrokernelBase<MatmulMicrokernel> {
  using MatmulMicrokernelBase::MatmulMicrokernelBase;
  void runOnOperation() override {
    SmallVector<linalg::MatmulOp> ops;
    getOperation()->walk([&](linalg::MatmulOp op) {
      if (fits(op, rows, cols))
        ops.push_back(op);
    });
    for (linalg::MatmulOp op : ops)
      rewrite(op, rows, cols);
  }
};

} // namespace
