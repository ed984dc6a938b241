//===- VectorAccess.cpp - four neighbouring elements a thread, one access --===//
//
// An elementwise kernel (a fused chain: tf.nn.relu(x * 2.0 + 1.0) * 0.5 + x) is, before
// -ag-gpu-map-loops, a parallel loop of a thread per element whose body loads x[i],
// computes and stores y[i]: one 4-byte load and one 4-byte store a thread, so a warp's
// access is 32 instructions' worth of addresses for 128 bytes. This pass gives each
// thread four neighbouring elements of the innermost dimension, read and written by one
// 16-byte access each (vector<4xf32>: PTX's ld.global.v4.f32 / st.global.v4.f32), the
// body's arithmetic once for each of the four:
//
//   scf.parallel (%i) = (0) to (%n) step (1) { %x = load %X[%i]; ...; store %y, %Y[%i] }
//     => %aligned = X's and Y's first elements at multiples of 16 bytes (their rows too)
//        scf.parallel (%v) = (0) to (ceildiv(%n, 4)) step (1) {
//          %i0 = 4 * %v
//          scf.if (%aligned and %i0 + 4 <= %n) {
//            %x4 = vector.load %X[%i0] {alignment = 16} : vector<4xf32>
//            four copies of the body, on the four elements of %x4 (vector.extract)
//            vector.store (vector.from_elements %y0, %y1, %y2, %y3), %Y[%i0] {alignment = 16}
//          } else {                       // the last elements, or a view not aligned
//            scf.for %i = %i0 to min(%i0 + 4, %n) { the original body }
//          }
//        }
//
// A vector access must be aligned to its size (PTX faults otherwise), which a buffer's
// type does not say: a caller's tensor in GPU memory, or a view (x[1:]), may start
// anywhere. So the host tests each accessed buffer's address (its aligned pointer and
// offset) and its strides before the launch, and the kernel takes the element-by-element
// branch where one is not a multiple (a branch uniform across the grid). The buffers
// agc allocates are aligned to 64 bytes.
//
// Applies to an outermost parallel loop from 0 by 1, not yet mapped, whose body a kernel
// can compute (ag::isKernelBody) and holds no loop or conditional, where every load and
// store that depends on the innermost dimension's index has it as its last index, alone,
// on a buffer whose last dimension is contiguous (stride 1), its other indices not
// depending on it; those of a type of 1, 2, 4 or 8 bytes are vector accesses (at least
// one must be), the others (bools: a byte each in memory, a bit each in a vector) one
// access an element. Ops that do not depend on the index are computed once for the four. Each element is computed
// by the same operations as before (the same bits); only the order of a thread's accesses
// to its four elements changes, which an scf.parallel's iterations allow. Left alone: a
// loop whose innermost dimension has fewer than 4 iterations, or where a buffer's stride
// or offset known while compiling is not a multiple of 4 (the vector branch would never
// run), or with no such access.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/KernelMath.h"
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/SetVector.h"

namespace ag {
#define GEN_PASS_DEF_GPUVECTORACCESS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

constexpr int64_t kLanes = 4; // elements a thread

/// The bytes of an element a vector access can carry: a float or integer of 1, 2, 4 or 8
/// bytes (not i1, which memory holds a byte each and a vector holds a bit each).
std::optional<int64_t> elementBytes(Type type) {
  if (!isa<FloatType, IntegerType>(type))
    return std::nullopt;
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
    return std::nullopt;
  return bits / 8;
}

/// The buffer and indices of a load or store.
struct Access {
  Value buffer;
  ValueRange indices;
};

std::optional<Access> accessOf(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return Access{load.getMemRef(), load.getIndices()};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return Access{store.getMemRef(), store.getIndices()};
  return std::nullopt;
}

/// What the pass needs of a loop it applies to.
struct Plan {
  /// The buffers accessed four elements at once, in order of first access.
  llvm::SmallSetVector<Value, 4> buffers;
  /// The body's ops that depend on the innermost index (transitively).
  llvm::SmallPtrSet<Operation *, 32> varying;
  /// The loads and stores of four elements at once.
  llvm::SmallPtrSet<Operation *, 8> contiguous;
};

/// Whether `buffer`'s layout can hold an aligned vector: its last dimension contiguous,
/// and no stride or offset known while compiling that is not a multiple of 4 elements.
bool vectorLayout(Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (type.getRank() == 0 || failed(type.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1)
    return false;
  auto multiple = [](int64_t v) { return ShapedType::isDynamic(v) || v % kLanes == 0; };
  return multiple(offset) &&
         llvm::all_of(ArrayRef<int64_t>(strides).drop_back(), multiple);
}

/// The plan for `loop`, or nothing where the pass leaves it alone (see the file comment).
std::optional<Plan> planFor(scf::ParallelOp loop) {
  if (!ag::isGridLoop(loop) || loop.getNumResults() != 0 ||
      loop->hasAttr(gpu::getMappingAttrName()) ||
      !ag::fromZeroByOne(loop.getLowerBound(), loop.getStep()) || !ag::isKernelBody(loop))
    return std::nullopt;
  std::optional<int64_t> extent = getConstantIntValue(loop.getUpperBound().back());
  if (extent && *extent < kLanes)
    return std::nullopt;
  Value index = loop.getInductionVars().back();
  Plan plan;
  llvm::SmallPtrSet<Value, 32> depends{index};
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (op.getNumRegions() != 0)
      return std::nullopt;
    if (llvm::none_of(op.getOperands(), [&](Value v) { return depends.contains(v); }))
      continue;
    plan.varying.insert(&op);
    depends.insert(op.result_begin(), op.result_end());
    std::optional<Access> access = accessOf(&op);
    if (!access)
      continue;
    // A varying access: at the index, in the last place, and nowhere else. Of bools,
    // one for each element (still the thread's four neighbouring bytes).
    ValueRange indices = access->indices;
    if (indices.empty() || indices.back() != index ||
        llvm::any_of(indices.drop_back(), [&](Value v) { return depends.contains(v); }))
      return std::nullopt;
    if (!elementBytes(cast<MemRefType>(access->buffer.getType()).getElementType()))
      continue;
    if (!vectorLayout(access->buffer))
      return std::nullopt;
    plan.contiguous.insert(&op);
    plan.buffers.insert(access->buffer);
  }
  if (plan.contiguous.empty())
    return std::nullopt;
  return plan;
}

/// `expr` of `operands`, a constant where they are (-ag-gpu-map-loops reads a loop's
/// constant bounds).
Value apply(OpBuilder &b, Location loc, AffineExpr expr, ValueRange operands) {
  OpFoldResult folded = affine::makeComposedFoldedAffineApply(
      b, loc, expr, getAsOpFoldResult(operands));
  return getValueOrCreateConstantIndexOp(b, loc, folded);
}

/// At `b` (the host, before the loop): whether every buffer of `plan` starts at a
/// multiple of its vector's bytes and each of its rows at a multiple of 4 elements.
Value alignedBuffers(OpBuilder &b, Location loc, const Plan &plan) {
  Value all = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  auto multipleOf = [&](Value v, int64_t of) {
    Value by = arith::ConstantIndexOp::create(b, loc, of);
    Value rem = arith::RemUIOp::create(b, loc, v, by);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem, zero).getResult();
  };
  for (Value buffer : plan.buffers) {
    auto type = cast<MemRefType>(buffer.getType());
    int64_t bytes = *elementBytes(type.getElementType());
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
    Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
    AffineExpr p, o;
    bindSymbols(b.getContext(), p, o);
    Value first = apply(b, loc, p + o * bytes, {pointer, meta.getOffset()});
    all = arith::AndIOp::create(b, loc, all, multipleOf(first, kLanes * bytes));
    for (Value stride : meta.getStrides().drop_back())
      all = arith::AndIOp::create(b, loc, all, multipleOf(stride, kLanes));
  }
  return all;
}

/// The four elements' copies of `loop`'s body at `b`, its innermost index the four from
/// `first` on (`map` maps the other indices); the contiguous accesses as vectors.
void buildLanes(scf::ParallelOp loop, const Plan &plan, Value first, const IRMapping &map,
                OpBuilder &b) {
  Location loc = loop.getLoc();
  Value index = loop.getInductionVars().back();
  SmallVector<IRMapping> lanes(kLanes, map);
  AffineExpr d0;
  bindDims(b.getContext(), d0);
  for (int64_t k = 0; k < kLanes; ++k)
    lanes[k].map(index, k ? apply(b, loc, d0 + k, first) : first);
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (!plan.varying.contains(&op)) {
      Operation *once = b.clone(op, lanes.front());
      for (IRMapping &lane : llvm::drop_begin(lanes))
        lane.map(op.getResults(), once->getResults());
      continue;
    }
    if (!plan.contiguous.contains(&op)) {
      for (IRMapping &lane : lanes)
        b.clone(op, lane);
      continue;
    }
    // The first lane's indices: the others' are the next elements.
    Access access = *accessOf(&op);
    auto type = cast<MemRefType>(access.buffer.getType());
    auto vectorType = VectorType::get({kLanes}, type.getElementType());
    llvm::MaybeAlign align(kLanes * *elementBytes(type.getElementType()));
    SmallVector<Value> indices;
    for (Value v : access.indices)
      indices.push_back(lanes.front().lookupOrDefault(v));
    Value buffer = lanes.front().lookupOrDefault(access.buffer);
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      Value vector = vector::LoadOp::create(b, op.getLoc(), vectorType, buffer, indices,
                                            /*nontemporal=*/false, align);
      for (int64_t k = 0; k < kLanes; ++k)
        lanes[k].map(load.getResult(),
                     vector::ExtractOp::create(b, op.getLoc(), vector, k).getResult());
    } else {
      auto store = cast<memref::StoreOp>(op);
      SmallVector<Value> elements;
      for (IRMapping &lane : lanes)
        elements.push_back(lane.lookupOrDefault(store.getValueToStore()));
      Value vector = vector::FromElementsOp::create(b, op.getLoc(), vectorType, elements);
      vector::StoreOp::create(b, op.getLoc(), vector, buffer, indices,
                              /*nontemporal=*/false, align);
    }
  }
}

/// `loop` (planFor()) as a loop of a thread per four elements (see the file comment).
void vectorize(scf::ParallelOp loop, const Plan &plan) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  MLIRContext *ctx = b.getContext();
  Value aligned = alignedBuffers(b, loc, plan);
  Value extent = loop.getUpperBound().back();
  AffineExpr d0, s0;
  bindDims(ctx, d0);
  bindSymbols(ctx, s0);
  SmallVector<Value> upper(loop.getUpperBound());
  upper.back() = apply(b, loc, s0.ceilDiv(kLanes), extent);
  auto vectors = scf::ParallelOp::create(b, loc, loop.getLowerBound(), upper, loop.getStep());
  b.setInsertionPoint(vectors.getBody()->getTerminator());
  IRMapping map;
  unsigned n = loop.getNumLoops();
  for (unsigned d = 0; d + 1 < n; ++d)
    map.map(loop.getInductionVars()[d], vectors.getInductionVars()[d]);
  Value first = apply(b, loc, d0 * kLanes, vectors.getInductionVars().back());
  Value end = apply(b, loc, d0 + kLanes, first);
  Value full = arith::AndIOp::create(
      b, loc, aligned, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, end, extent));
  auto branch = scf::IfOp::create(b, loc, TypeRange{}, full, /*withElseRegion=*/true);
  b.setInsertionPoint(branch.thenBlock()->getTerminator());
  buildLanes(loop, plan, first, map, b);
  // The last elements, or a buffer not aligned: one after another.
  b.setInsertionPoint(branch.elseBlock()->getTerminator());
  Value last = affine::AffineMinOp::create(
      b, loc, AffineMap::get(1, 1, {d0 + kLanes, s0}, ctx), ValueRange{first, extent});
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto each = scf::ForOp::create(b, loc, first, last, one);
  b.setInsertionPoint(each.getBody()->getTerminator());
  map.map(loop.getInductionVars().back(), each.getInductionVar());
  for (Operation &op : loop.getBody()->without_terminator())
    b.clone(op, map);
  loop->erase();
}

struct VectorAccess : ag::impl::GPUVectorAccessBase<VectorAccess> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::ParallelOp, Plan>, 2> loops;
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (std::optional<Plan> plan = planFor(loop))
        loops.emplace_back(loop, std::move(*plan));
    });
    for (auto &[loop, plan] : loops)
      vectorize(loop, plan);
  }
};

} // namespace
