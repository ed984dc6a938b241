//===- SplitReductions.cpp - full reductions as a kernel of partial results -===//
//
// A reduction of a whole tensor to one value (tf.reduce_sum(x), reduce_max, reduce_all,
// ...) has no parallel loop: lowered as it is, it is a sequential loop on the host, over
// the GPU's managed memory. This pass splits it in two. A kernel of T = min(16384, N)
// threads (N the element count), thread t combining elements t, t + T, t + 2T, ... in
// order, each round of the threads reading consecutive elements (coalesced); then the
// host combines the T partial results into the original init. No barrier and no shared
// memory: every thread owns its partial, so the kernel runs the same emulated on the CPU
// (-ag-gpu-emulate-launches). Point i of the iteration space (numbered row-major) is at
// position (i / s1, i % s1) of a [s0, s1] space; each input is read at its map's
// dimensions of that position (a broadcast operand, indexed by fewer, again and again).
//
//   %r = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
//          (%in, %acc) { %s = arith.addf %in, %acc ... }
//     => %p = linalg.generic (T parallel) outs(fill(identity) : tensor<?xf32>) {
//          %t = linalg.index 0
//          scf.for %k = 0 to ceildiv(N, T) iter_args(%acc) {
//            %i = %k * T + %t;  %j = %i < N ? %i : 0
//            %v = tensor.extract %x[%j / s1, %j % s1]
//            scf.yield %i < N ? (payload of %v, %acc) : %acc } }
//        %r = linalg.reduce ins(%p) outs(%init) dimensions = [0] { the combiner alone }
//
// Applies to a linalg.reduce or an all-reduction linalg.generic (elementwise producers
// fused in) with one rank-0 init, inputs read by projected permutations, a payload without
// linalg.index whose last op combines the accumulator (addf, mulf, maximumf, minimumf,
// addi, muli, max/min signed and unsigned, andi, ori, xori) and an init filled with that
// combiner's identity, so that the partials start from it. Float sums and products are
// reassociated as on the CPU and by TensorFlow's GPU kernels.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

#include <optional>

namespace ag {
#define GEN_PASS_DEF_GPUSPLITREDUCTIONS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// The most partial results (threads of the first kernel).
constexpr int64_t kPartials = 16384;

/// The op of `op`'s payload that combines the accumulator (the init's block argument)
/// into the yielded value, if it is one of the combiners this pass knows and the
/// accumulator has no other use.
Operation *combiner(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  BlockArgument acc = body->getArguments().back();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1 || !acc.hasOneUse())
    return nullptr;
  Operation *c = yield.getOperand(0).getDefiningOp();
  if (!c || c->getBlock() != body || c->getNumOperands() != 2 || c->getNumResults() != 1 ||
      (c->getOperand(0) != acc && c->getOperand(1) != acc))
    return nullptr;
  if (!isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp, arith::MinimumFOp, arith::AddIOp,
           arith::MulIOp, arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp,
           arith::AndIOp, arith::OrIOp, arith::XOrIOp>(c))
    return nullptr;
  return c;
}

/// Whether `value` is the identity of combiner `c` (x combined with it is x).
bool isIdentity(Operation *c, Attribute value) {
  if (auto f = dyn_cast<FloatAttr>(value)) {
    APFloat v = f.getValue();
    if (isa<arith::AddFOp>(c))
      return v.isZero(); // +0.0 or -0.0: TensorFlow's sums start from +0.0 too
    if (isa<arith::MulFOp>(c))
      return v.isExactlyValue(1.0);
    if (isa<arith::MaximumFOp>(c))
      return v.isInfinity() && v.isNegative();
    if (isa<arith::MinimumFOp>(c))
      return v.isInfinity() && !v.isNegative();
    return false;
  }
  auto i = dyn_cast<IntegerAttr>(value);
  if (!i)
    return false;
  APInt v = i.getValue();
  if (isa<arith::AddIOp, arith::OrIOp, arith::XOrIOp, arith::MaxUIOp>(c))
    return v.isZero();
  if (isa<arith::MulIOp>(c))
    return v.isOne();
  if (isa<arith::AndIOp, arith::MinUIOp>(c))
    return v.isAllOnes();
  if (isa<arith::MaxSIOp>(c))
    return v.isMinSignedValue();
  if (isa<arith::MinSIOp>(c))
    return v.isMaxSignedValue();
  return false;
}

/// The constant `op`'s init is filled with, if it is filled with one.
std::optional<Attribute> fillConstant(linalg::LinalgOp op) {
  auto fill = op.getDpsInits().front().getDefiningOp<linalg::FillOp>();
  Attribute value;
  if (!fill || !matchPattern(fill.getInputs().front(), m_Constant(&value)))
    return std::nullopt;
  return value;
}

/// `op`'s combiner where `op` reduces whole tensors to one value in a way this pass
/// splits; null otherwise.
Operation *splittable(linalg::LinalgOp op) {
  if (!isa<linalg::ReduceOp, linalg::GenericOp>(op) || !op.hasPureTensorSemantics() ||
      op.getNumDpsInits() != 1 || op.getNumLoops() == 0 ||
      op.getNumLoops() != op.getNumReductionLoops())
    return nullptr;
  auto init = dyn_cast<RankedTensorType>(op.getDpsInits().front().getType());
  if (!init || init.getRank() != 0 || !init.getElementType().isIntOrFloat())
    return nullptr;
  if (op.getNumDpsInputs() == 0)
    return nullptr;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!type || !map.isProjectedPermutation(/*allowZeroInResults=*/false) ||
        type.getRank() != map.getNumResults())
      return nullptr;
  }
  // A payload that reads its position (linalg.index) is left to the host.
  if (op.getBlock()->walk([](linalg::IndexOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return nullptr;
  Operation *c = combiner(op);
  std::optional<Attribute> value = fillConstant(op);
  if (!c || !value || !isIdentity(c, *value))
    return nullptr;
  // Statically small: the host's loop will do.
  int64_t points = 1;
  for (int64_t size : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(size))
      return c;
    points *= size;
    if (points >= 2 * kPartials)
      return c;
  }
  return nullptr;
}

/// Splits `op`, whose combiner is `c` (see splittable).
void split(linalg::LinalgOp op, Operation *c) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value identity = op.getDpsInits().front().getDefiningOp<linalg::FillOp>().getInputs().front();
  Type element = cast<RankedTensorType>(op.getDpsInits().front().getType()).getElementType();

  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  // The N points of the iteration space, numbered in row-major order.
  SmallVector<Value> sizes;
  for (Range range : op.createLoopRanges(b, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
  Value n = sizes.front();
  for (Value size : ArrayRef<Value>(sizes).drop_front())
    n = arith::MulIOp::create(b, loc, n, size);
  Value cap = arith::ConstantIndexOp::create(b, loc, kPartials);
  Value threads = arith::MinUIOp::create(b, loc, n, cap);
  // (No rounds where N is 0: then no point is divided by a size of 0 either.)
  Value rounds =
      arith::CeilDivUIOp::create(b, loc, n, arith::MaxUIOp::create(b, loc, threads, one));

  // The partials, each from the identity.
  Value empty = tensor::EmptyOp::create(b, loc, ArrayRef<OpFoldResult>{threads}, element);
  Value start = linalg::FillOp::create(b, loc, identity, empty).getResult(0);
  MLIRContext *ctx = b.getContext();
  AffineMap map = AffineMap::getMultiDimIdentityMap(1, ctx);
  auto partials = linalg::GenericOp::create(
      b, loc, TypeRange{start.getType()}, ValueRange{}, ValueRange{start},
      ArrayRef<AffineMap>{map}, ArrayRef<utils::IteratorType>{utils::IteratorType::parallel},
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value t = linalg::IndexOp::create(nb, l, 0);
        auto loop = scf::ForOp::create(
            nb, l, zero, rounds, one, ValueRange{args[0]},
            [&](OpBuilder &fb, Location fl, Value k, ValueRange iter) {
              Value i =
                  arith::AddIOp::create(fb, fl, arith::MulIOp::create(fb, fl, k, threads), t);
              Value inside = arith::CmpIOp::create(fb, fl, arith::CmpIPredicate::ult, i, n);
              Value at = arith::SelectOp::create(fb, fl, inside, i, zero);
              // Point `at`'s position in each loop dimension, the last fastest.
              SmallVector<Value> position(sizes.size());
              for (size_t d = sizes.size() - 1; d > 0; --d) {
                position[d] = arith::RemUIOp::create(fb, fl, at, sizes[d]);
                at = arith::DivUIOp::create(fb, fl, at, sizes[d]);
              }
              position[0] = at;
              IRMapping mapping;
              Block *body = op.getBlock();
              for (OpOperand *input : op.getDpsInputOperands()) {
                SmallVector<Value> indices;
                for (AffineExpr e : op.getMatchingIndexingMap(input).getResults())
                  indices.push_back(position[cast<AffineDimExpr>(e).getPosition()]);
                mapping.map(body->getArgument(input->getOperandNumber()),
                            tensor::ExtractOp::create(fb, fl, input->get(), indices));
              }
              mapping.map(body->getArguments().back(), iter[0]);
              for (Operation &payload : body->without_terminator())
                fb.clone(payload, mapping);
              Value combined = mapping.lookup(body->getTerminator()->getOperand(0));
              scf::YieldOp::create(fb, fl,
                                   ValueRange{arith::SelectOp::create(fb, fl, inside, combined,
                                                                      iter[0])});
            });
        linalg::YieldOp::create(nb, l, loop.getResult(0));
      });

  // The partials combined into the original init, on the host.
  auto total = linalg::ReduceOp::create(
      b, loc, ValueRange{partials.getResult(0)}, ValueRange{op.getDpsInits().front()},
      ArrayRef<int64_t>{0}, [&](OpBuilder &rb, Location l, ValueRange args) {
        IRMapping mapping;
        Value acc = op.getBlock()->getArguments().back();
        Value other = c->getOperand(0) == acc ? c->getOperand(1) : c->getOperand(0);
        mapping.map(other, args[0]);
        mapping.map(acc, args[1]);
        linalg::YieldOp::create(rb, l, rb.clone(*c, mapping)->getResult(0));
      });
  op->replaceAllUsesWith(total->getResults());
  op->erase();
}

struct GPUSplitReductions : ag::impl::GPUSplitReductionsBase<GPUSplitReductions> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, Operation *>> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (Operation *c = splittable(op))
        candidates.emplace_back(op, c);
    });
    for (auto [op, c] : candidates)
      split(op, c);
  }
};

} // namespace
