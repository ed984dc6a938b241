//===- RegisterTiles.cpp - a kernel thread's tile of 4 x 4 matmul outputs --===//
//           (and a block's, its A and B staged in shared memory)
//
// After -ag-register-accumulators, a matmul for the GPU is a parallel loop with a
// thread per result element, its sum over k carried in a register:
//
//   scf.parallel (%i, %j) = (0, 0) to (%m, %n) step (1, 1) {
//     %r = scf.for %k = 0 to %K iter_args(%c = 0) {
//       %x = memref.load %A[%i, %k]          // the same for every j
//       %y = memref.load %B[%k, %j]          // the same for every i
//       scf.yield (%c + %x * %y) }
//     memref.store %r, %C[%i, %j] }
//
// Two loads for one multiply-add: the kernel is bound by its loads. This pass gives each
// thread a tile of 4 x 4 outputs instead, its sixteen sums carried through one loop over
// k (unroll and jam of the two innermost parallel dimensions into the body's loops), so
// that each step loads four elements of A and four of B (the copies of a load that does
// not depend on a tile dimension are the same value, which CSE merges) for sixteen
// multiply-adds. The tile's rows are neighbours; its columns are 32 apart, so that a
// warp's 32 threads (x, the innermost dimension, in blocks of 32 x 8:
// -ag-gpu-map-loops) take 128 neighbouring columns and each of their loads of B and
// stores of C touches 32 neighbouring elements, one 128-byte line, as before (columns
// side by side in a thread would make each warp's load four lines):
//
//   scf.parallel (%it, %jt) = (0, 0) to (ceil(%m / 4), 32 * ceil(%n / 128)) {
//     %i0 = 4 * %it                          // rows i0 .. i0 + 3
//     %j0 = 128 * (%jt / 32) + %jt mod 32    // columns j0, j0 + 32, j0 + 64, j0 + 96
//     scf.if (%i0 + 3 < %m and %j0 + 96 < %n) {
//       %r:16 = scf.for %k ... iter_args(16 sums) { 16 copies of the body }
//       16 stores
//     } else {                               // a tile at the edge: the elements it has
//       scf.for %a = 0 to min(4, %m - %i0) { scf.for %b = 0 to 4 {
//         scf.if (%j0 + 32 * %b < %n) { the original body } } }
//     }
//   }
//
// (the edge's branch is left out where the sizes are constant multiples of 4 and 128).
// A tile is worth it only where there are enough of them to keep a GPU's threads busy:
// the loop must have at least `min-outputs` iterations (524,288 by default: 32,768
// threads, some 250 for each multiprocessor of an H100; reasoned, not measured), 4
// rows and 128 columns. Where the sizes are constants, that is decided here; otherwise
// the tiled loop and the original are both kept, under an scf.if of those conditions.
// Each output's sum is the same operations in the same order as before, so the results
// are the same bits; only which thread computes which outputs, and the order in which a
// thread interleaves them, change, which an scf.parallel's iterations allow. Applies to
// an outermost parallel loop of two or three dimensions from 0 by 1, not yet mapped,
// whose body a kernel can compute (ag::isKernelBody) and holds an scf.for with a load
// that does not depend on the innermost dimension and one that does not depend on the
// one before it (the reuse that pays for the tile: a matmul, a batch matmul, a
// transposed one), and no store in a loop (the sums carried in registers: a result
// stored at every k, which -ag-register-accumulators leaves where the result may
// alias another buffer, would keep the copies' loads apart); every loop and conditional in the body must take its bounds and
// condition from values that do not depend on the tile's dimensions (the copies then
// run the same iterations), and the body must be small (at most 64 ops) so that its
// sixteen copies stay in registers. A batch matmul's leading dimension keeps one
// element a thread.
//
// Shared memory (option `shared-memory`, on by default): where the body's only loop is
// a matmul's loop over k, from bounds computed before the parallel loop, by 1, of
// straight-line ops with one load A[i, k] (on the row and k, not the column) and one
// B[k, j] (on the column and k, not the row), each at an index pure ops compute, and
// the rows are a multiple of 32 and the columns of 128 (and the grid's y and z within
// the 65,535 blocks it takes there: at most 2,097,120 rows, a batch of at most 65,535),
// the loop becomes a gpu.launch instead (buildStaged): blocks of 32 x 8 threads, each
// thread the same tile of 4 x 4 (rows 32 by + 4 ty + a, columns 128 bx + tx + 32 c),
// each block 32 x 128 outputs, a batch's matrix a block z. Its loop over k goes by slices of 16 (jamStaged):
//
//   %s:16 = scf.for %kt = %lb to %kEnd step 16 iter_args(16 sums) {
//     gpu.barrier                          // every thread done with the last slice
//     2 elements of A[32 by .. +32, kt .. +16] and 8 of B[kt .. +16, 128 bx .. +128]
//       a thread, stored in workgroup memory %At (32 x 16) and %Bt (16 x 128)
//     gpu.barrier
//     scf.for %kk = 0 to 16 iter_args(...) {
//       4 loads of %At[4 ty + a, kk], 4 of %Bt[kk, tx + 32 c]; the 16 copies' body }
//   }
//   %r:16 = scf.for %k = %kEnd to %ub iter_args(%s) { the 16 copies' body, as before }
//
// (%kEnd, on the host: %lb plus the whole slices' k's.) A load's index is computed
// again for the element a thread stages (its ops in the body cloned with the row, the
// column and k of that element). The sums take the same values in the same order as
// the loop's: the same results. Where the sizes are known only at run time, this
// kernel under an scf.if of its conditions, the register tiles (or the original) in
// its else.
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
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

namespace ag {
#define GEN_PASS_DEF_GPUREGISTERTILES
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

constexpr int64_t kTile = 4;  // outputs a thread, along each of the two dimensions
constexpr int64_t kWarp = 32; // a tile's columns are a warp apart
constexpr int64_t kGroup = kTile * kWarp; // a warp's columns
constexpr unsigned kMaxBodyOps = 64;

/// The values in `loop`'s body that depend on `iv` (transitively: through operands, and
/// through the yields of loops and conditionals to their results and iteration
/// arguments), `iv` itself included.
llvm::SmallPtrSet<Value, 32> dependents(scf::ParallelOp loop, Value iv) {
  llvm::SmallPtrSet<Value, 32> values;
  llvm::SmallPtrSet<Operation *, 32> seen;
  values.insert(iv);
  bool changed = true;
  while (changed) { // an iteration argument may carry a dependence back to earlier ops
    changed = false;
    loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (seen.contains(op) ||
          !llvm::any_of(op->getOperands(), [&](Value v) { return values.contains(v); }))
        return;
      seen.insert(op);
      changed = true;
      for (Value result : op->getResults())
        values.insert(result);
      // A loop whose inits depend: its iteration arguments too; a yield that depends:
      // its parent's results (and iteration arguments).
      Operation *carrier = isa<scf::YieldOp>(op) ? op->getParentOp() : op;
      if (isa<scf::YieldOp>(op))
        for (Value result : carrier->getResults())
          values.insert(result);
      if (auto forOp = dyn_cast<scf::ForOp>(carrier))
        for (Value arg : forOp.getRegionIterArgs())
          values.insert(arg);
    });
  }
  return values;
}

/// Whether `loop` is worth a tile and its body can be jammed (see the file comment).
bool tileable(scf::ParallelOp loop) {
  unsigned n = loop.getNumLoops();
  if (!ag::isGridLoop(loop) || n < 2 || loop.getNumResults() != 0 ||
      loop->hasAttr(gpu::getMappingAttrName()) ||
      !ag::fromZeroByOne(loop.getLowerBound(), loop.getStep()) || !ag::isKernelBody(loop))
    return false;
  unsigned ops = 0;
  bool regionsOk = true;
  loop.getBody()->walk([&](Operation *op) {
    ++ops;
    if (op->getNumRegions() > 0 && !isa<scf::ForOp, scf::IfOp>(op))
      regionsOk = false;
  });
  if (!regionsOk || ops > kMaxBodyOps)
    return false;
  // The sums carried in registers (-ag-register-accumulators): no loop of the body
  // stores (a result element stored at every k, in a buffer that may alias A or B, keeps
  // each copy's loads apart; the tile would only take threads away).
  bool storesInLoop = false;
  loop.getBody()->walk([&](memref::StoreOp store) {
    if (auto inner = store->getParentOfType<scf::ForOp>())
      storesInLoop |= loop->isAncestor(inner);
  });
  if (storesInLoop)
    return false;
  auto onRow = dependents(loop, loop.getInductionVars()[n - 2]);
  auto onCol = dependents(loop, loop.getInductionVars()[n - 1]);
  auto uniform = [&](Value v) { return !onRow.contains(v) && !onCol.contains(v); };
  // Loops and conditionals take the same iterations and branches in every copy.
  bool controlUniform = !loop.getBody()
                             ->walk([&](Operation *op) {
                               if (auto forOp = dyn_cast<scf::ForOp>(op)) {
                                 if (!uniform(forOp.getLowerBound()) ||
                                     !uniform(forOp.getUpperBound()) ||
                                     !uniform(forOp.getStep()))
                                   return WalkResult::interrupt();
                               } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
                                 if (!uniform(ifOp.getCondition()))
                                   return WalkResult::interrupt();
                               }
                               return WalkResult::advance();
                             })
                             .wasInterrupted();
  if (!controlUniform)
    return false;
  // The reuse: in a loop of the body, a load that does not depend on the column and
  // one that does not depend on the row.
  bool rowShared = false, colShared = false;
  loop.getBody()->walk([&](memref::LoadOp load) {
    auto inner = load->getParentOfType<scf::ForOp>();
    if (!inner || !loop->isAncestor(inner))
      return;
    Value v = load.getResult();
    if (!onCol.contains(v) && onRow.contains(v))
      rowShared = true; // A[i, k]: one load for the tile's row of four
    if (!onRow.contains(v) && onCol.contains(v))
      colShared = true; // B[k, j]
  });
  return rowShared && colShared;
}

/// The loop over k whose loads of A and B a block of threads stages in shared memory
/// (see buildStaged), with what the kernel's threads are.
struct Staging {
  scf::ForOp loop;
  memref::LoadOp a, b;             // A[i, k], B[k, j]
  SmallVector<Operation *> aSlice; // the ops computing their indices, in order
  SmallVector<Operation *> bSlice;
  Value batch, row, col, k;        // the parallel loop's ivs (batch null for a matmul)
  Value kEnd;                      // the last multiple of kSlice steps (on the host)
  Value tx, ty, bx, by, bz;        // the kernel's thread and block ids
  Value aTile, bTile;              // its workgroup memory
};

/// The ops of `src` (not its terminator) at `b`'s insertion point, once for each mapping
/// of `maps` (the tile's copies), loops and conditionals jammed: one op whose
/// iteration arguments and results are the copies' in turn (see the file comment).
/// `staging`'s loop, where there is one, as buildStaged's loops.
void jam(Block &src, MutableArrayRef<IRMapping> maps, OpBuilder &b,
         Staging *staging = nullptr);
void jamStaged(Staging &s, MutableArrayRef<IRMapping> maps, OpBuilder &b);

/// The terminator of a jammed region: `yield`'s operands in each copy, in turn.
SmallVector<Value> jammedOperands(Operation *yield, ArrayRef<IRMapping> maps) {
  SmallVector<Value> values;
  for (const IRMapping &map : maps)
    for (Value v : yield->getOperands())
      values.push_back(map.lookupOrDefault(v));
  return values;
}

/// `loop` jammed, over `lower` to `upper` (the mapped bounds where null), its copies'
/// initial values `inits` (theirs, mapped, where empty).
void jamFor(scf::ForOp loop, MutableArrayRef<IRMapping> maps, OpBuilder &b,
            Staging *staging, Value lower = {}, Value upper = {},
            ValueRange givenInits = {}) {
  SmallVector<Value> inits(givenInits);
  if (inits.empty())
    for (IRMapping &map : maps)
      for (Value init : loop.getInitArgs())
        inits.push_back(map.lookupOrDefault(init));
  IRMapping &first = maps.front();
  auto jammed = scf::ForOp::create(
      b, loop.getLoc(), lower ? lower : first.lookupOrDefault(loop.getLowerBound()),
      upper ? upper : first.lookupOrDefault(loop.getUpperBound()),
      first.lookupOrDefault(loop.getStep()), inits);
  unsigned n = loop.getNumRegionIterArgs();
  for (size_t t = 0; t < maps.size(); ++t) {
    IRMapping &map = maps[t];
    map.map(loop.getInductionVar(), jammed.getInductionVar());
    for (unsigned a = 0; a < n; ++a) {
      map.map(loop.getRegionIterArgs()[a], jammed.getRegionIterArgs()[t * n + a]);
      map.map(loop.getResult(a), jammed.getResult(t * n + a));
    }
  }
  OpBuilder::InsertionGuard guard(b);
  Block *body = jammed.getBody();
  if (!body->empty() && isa<scf::YieldOp>(body->back()))
    body->back().erase();
  b.setInsertionPointToEnd(body);
  jam(*loop.getBody(), maps, b, staging);
  scf::YieldOp::create(b, loop.getLoc(), jammedOperands(loop.getBody()->getTerminator(), maps));
}

void jamIf(scf::IfOp branch, MutableArrayRef<IRMapping> maps, OpBuilder &b,
           Staging *staging) {
  SmallVector<Type> types;
  for (size_t t = 0; t < maps.size(); ++t)
    llvm::append_range(types, branch.getResultTypes());
  bool hasElse = !branch.getElseRegion().empty();
  auto jammed = scf::IfOp::create(b, branch.getLoc(), types,
                                  maps.front().lookupOrDefault(branch.getCondition()), hasElse);
  unsigned n = branch.getNumResults();
  for (size_t t = 0; t < maps.size(); ++t)
    for (unsigned a = 0; a < n; ++a)
      maps[t].map(branch.getResult(a), jammed.getResult(t * n + a));
  auto fill = [&](Region &from, Region &to) {
    OpBuilder::InsertionGuard guard(b);
    Block *block = &to.front();
    if (!block->empty())
      block->back().erase(); // the builder's empty yield
    b.setInsertionPointToEnd(block);
    jam(from.front(), maps, b, staging);
    scf::YieldOp::create(b, branch.getLoc(), jammedOperands(from.front().getTerminator(), maps));
  };
  fill(branch.getThenRegion(), jammed.getThenRegion());
  if (hasElse)
    fill(branch.getElseRegion(), jammed.getElseRegion());
}

void jam(Block &src, MutableArrayRef<IRMapping> maps, OpBuilder &b, Staging *staging) {
  for (Operation &op : src.without_terminator()) {
    if (auto loop = dyn_cast<scf::ForOp>(op); loop && staging && loop == staging->loop)
      jamStaged(*staging, maps, b);
    else if (loop)
      jamFor(loop, maps, b, staging);
    else if (auto branch = dyn_cast<scf::IfOp>(op))
      jamIf(branch, maps, b, staging);
    else
      for (IRMapping &map : maps)
        b.clone(op, map);
  }
}

/// `expr` of `operands` (dimensions first, then symbols), folded where it can be.
Value apply(OpBuilder &b, Location loc, AffineExpr expr, ValueRange operands) {
  return affine::makeComposedAffineApply(b, loc, expr, getAsOpFoldResult(operands))
      ->getResult(0);
}

constexpr int64_t kBlockRows = 8 * kTile; // a block of 32 x 8 threads' rows: 32
constexpr int64_t kSlice = 16;            // the k's a block stages at a time
constexpr int64_t kThreads = kWarp * 8;   // a block's threads

/// Whether `v` is not an argument of a block in `loop` other than its induction
/// variables and its one scf.for's (a loop's carried value: not one that an index
/// computed again for another row, column or k could read).
bool knownArgument(scf::ParallelOp loop, Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || !loop->isAncestor(arg.getOwner()->getParentOp()) ||
      arg.getOwner() == loop.getBody())
    return true;
  auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
  return forOp && arg == forOp.getInductionVar();
}

/// The ops in `loop`'s body that compute `v` (none where it is computed outside), in
/// order; false where one is not a pure op without regions (the index of a staged load
/// must be computed again for another row or column).
bool sliceOf(scf::ParallelOp loop, Value v, SmallVectorImpl<Operation *> &slice,
             llvm::SmallPtrSetImpl<Operation *> &seen) {
  Operation *def = v.getDefiningOp();
  if (!def || !loop->isProperAncestor(def) || seen.contains(def))
    return true;
  if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  seen.insert(def);
  for (Value operand : def->getOperands())
    if (!sliceOf(loop, operand, slice, seen) || !knownArgument(loop, operand))
      return false;
  slice.push_back(def);
  return true;
}

/// Whether a value defined outside `loop` (or a constant) is `v`.
bool outside(scf::ParallelOp loop, Value v) {
  return !loop->isAncestor(v.getParentRegion()->getParentOp()) ||
         matchPattern(v, m_Constant());
}

/// `loop`'s (tileable()) loop over k whose loads of A and B a block can stage in shared
/// memory (see buildStaged): the body's only loop, from bounds computed before `loop`
/// by 1, of straight-line ops, with one load that depends on the row and k but not the
/// column, and one that depends on the column and k but not the row, each from a
/// buffer defined outside `loop` at an index that pure ops compute.
std::optional<Staging> stageable(scf::ParallelOp loop) {
  unsigned n = loop.getNumLoops();
  SmallVector<scf::ForOp> loops;
  loop.getBody()->walk([&](scf::ForOp inner) { loops.push_back(inner); });
  if (loops.size() != 1)
    return std::nullopt;
  scf::ForOp k = loops.front();
  if (!isConstantIntValue(k.getStep(), 1) || !outside(loop, k.getLowerBound()) ||
      !outside(loop, k.getUpperBound()) ||
      llvm::any_of(k.getBody()->getOperations(),
                   [](Operation &op) { return op.getNumRegions() != 0; }))
    return std::nullopt;
  auto onRow = dependents(loop, loop.getInductionVars()[n - 2]);
  auto onCol = dependents(loop, loop.getInductionVars()[n - 1]);
  Staging s;
  s.loop = k;
  for (auto load : k.getBody()->getOps<memref::LoadOp>()) {
    Value v = load.getResult();
    bool row = onRow.contains(v), col = onCol.contains(v);
    llvm::SmallPtrSet<Operation *, 8> seen;
    SmallVector<Operation *> slice;
    bool onK = false, pure = true;
    for (Value index : load.getIndices()) {
      pure &= sliceOf(loop, index, slice, seen) && knownArgument(loop, index);
      onK |= index == k.getInductionVar();
    }
    for (Operation *op : slice)
      onK |= llvm::is_contained(op->getOperands(), k.getInductionVar());
    if (!onK || !pure || !outside(loop, load.getMemRef()) || row == col)
      continue;
    if (row && !s.a) {
      s.a = load;
      s.aSlice = std::move(slice);
    } else if (col && !s.b) {
      s.b = load;
      s.bSlice = std::move(slice);
    } else {
      return std::nullopt; // two of a kind: not a matmul's
    }
  }
  if (!s.a || !s.b)
    return std::nullopt;
  if (n == 3)
    s.batch = loop.getInductionVars()[0];
  s.row = loop.getInductionVars()[n - 2];
  s.col = loop.getInductionVars()[n - 1];
  s.k = k.getInductionVar();
  return s;
}

/// The value of `load` (staging's A or B) with `map`'s indices, its index computed
/// again at `b`.
Value loadAt(memref::LoadOp load, ArrayRef<Operation *> slice, IRMapping &map, OpBuilder &b) {
  for (Operation *op : slice)
    b.clone(*op, map);
  return b.clone(*load, map)->getResult(0);
}

/// Staging's loop over k for the tile's copies `maps`: k in slices of kSlice, each
/// slice's 32 rows of A and 128 columns of B loaded into shared memory by the block's
/// threads together, then the copies' multiply-adds on them; the k's past the last
/// slice from global memory, as before. Each output's sum takes the same values in the
/// same order as the loop's.
void jamStaged(Staging &s, MutableArrayRef<IRMapping> maps, OpBuilder &b) {
  scf::ForOp loop = s.loop;
  Location loc = loop.getLoc();
  MLIRContext *ctx = b.getContext();
  AffineExpr d0, d1, d2;
  bindDims(ctx, d0, d1, d2);
  SmallVector<Value> inits;
  for (IRMapping &map : maps)
    for (Value init : loop.getInitArgs())
      inits.push_back(map.lookupOrDefault(init));
  Value lower = maps.front().lookupOrDefault(loop.getLowerBound());
  Value slice = arith::ConstantIndexOp::create(b, loc, kSlice);
  auto staged = scf::ForOp::create(b, loc, lower, s.kEnd, slice, inits);
  unsigned n = loop.getNumRegionIterArgs();
  auto clearBody = [](scf::ForOp forOp) {
    Block *body = forOp.getBody();
    if (!body->empty() && isa<scf::YieldOp>(body->back()))
      body->back().erase();
  };
  {
    OpBuilder::InsertionGuard guard(b);
    clearBody(staged);
    b.setInsertionPointToEnd(staged.getBody());
    Value kt = staged.getInductionVar();
    // The slice's tiles of A (32 x 16) and B (16 x 128), a few elements each thread,
    // once every thread is done with the last slice's.
    gpu::BarrierOp::create(b, loc);
    Value t = apply(b, loc, d0 * kWarp + d1, {s.ty, s.tx});
    auto stage = [&](memref::LoadOp load, ArrayRef<Operation *> sliceOps, Value tile,
                     int64_t width, Value along, AffineExpr first) {
      int64_t elements = cast<MemRefType>(tile.getType()).getNumElements();
      for (int64_t p = 0; p < elements / kThreads; ++p) {
        Value e = apply(b, loc, d0 + p * kThreads, t);
        IRMapping map;
        if (s.batch)
          map.map(s.batch, s.bz);
        // Element e of the tile: row e / width, column e % width.
        Value major = apply(b, loc, d0.floorDiv(width), e);
        Value minor = apply(b, loc, d0 % width, e);
        Value kk = width == kSlice ? minor : major;
        Value offset = width == kSlice ? major : minor;
        map.map(s.k, apply(b, loc, d0 + d1, {kt, kk}));
        map.map(along, apply(b, loc, first + d2, {s.by, s.bx, offset}));
        memref::StoreOp::create(b, loc, loadAt(load, sliceOps, map, b), tile, e);
      }
    };
    stage(s.a, s.aSlice, s.aTile, kSlice, s.row, d0 * kBlockRows);
    stage(s.b, s.bSlice, s.bTile, kGroup, s.col, d1 * kGroup);
    gpu::BarrierOp::create(b, loc);
    // The copies' multiply-adds over the slice, A and B from the tiles.
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto inner = scf::ForOp::create(b, loc, zero, slice, one, staged.getRegionIterArgs());
    clearBody(inner);
    b.setInsertionPointToEnd(inner.getBody());
    Value kk = inner.getInductionVar();
    Value k = apply(b, loc, d0 + d1, {kt, kk});
    Value as[kTile], bs[kTile];
    for (int64_t a = 0; a < kTile; ++a)
      as[a] = memref::LoadOp::create(
          b, loc, s.aTile, apply(b, loc, (d0 * kTile + a) * kSlice + d1, {s.ty, kk}));
    for (int64_t c = 0; c < kTile; ++c)
      bs[c] = memref::LoadOp::create(
          b, loc, s.bTile, apply(b, loc, d1 * kGroup + d0 + c * kWarp, {s.tx, kk}));
    SmallVector<IRMapping> copies(maps.begin(), maps.end());
    for (size_t c = 0; c < copies.size(); ++c) {
      copies[c].map(s.k, k);
      for (unsigned a = 0; a < n; ++a)
        copies[c].map(loop.getRegionIterArgs()[a], inner.getRegionIterArgs()[c * n + a]);
      copies[c].map(s.a.getResult(), as[c / kTile]);
      copies[c].map(s.b.getResult(), bs[c % kTile]);
    }
    for (Operation &op : loop.getBody()->without_terminator())
      if (&op != s.a.getOperation() && &op != s.b.getOperation())
        for (IRMapping &copy : copies)
          b.clone(op, copy);
    scf::YieldOp::create(b, loc, jammedOperands(loop.getBody()->getTerminator(), copies));
    b.setInsertionPointToEnd(staged.getBody());
    scf::YieldOp::create(b, loc, inner.getResults());
  }
  // The rest of k, from global memory; the loop's results its.
  jamFor(loop, maps, b, nullptr, s.kEnd, maps.front().lookupOrDefault(loop.getUpperBound()),
         staged.getResults());
}

/// `loop` (tileable(), its loop over k stageable()) as a kernel of blocks of 32 x 8
/// threads, each thread a tile of 4 x 4 outputs as buildTiled's, each block 32 rows x
/// 128 columns of them, their loads of A and B staged in shared memory (jamStaged):
/// for a block whose rows and columns are all inside the bounds (the caller's
/// condition: the rows a multiple of 32, the columns of 128).
void buildStaged(scf::ParallelOp loop, Staging s, OpBuilder &b) {
  Location loc = loop.getLoc();
  MLIRContext *ctx = b.getContext();
  unsigned n = loop.getNumLoops();
  Value rows = loop.getUpperBound()[n - 2], cols = loop.getUpperBound()[n - 1];
  AffineExpr d0, d1, s0, s1;
  bindDims(ctx, d0, d1);
  bindSymbols(ctx, s0, s1);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value gridX = apply(b, loc, s0.floorDiv(kGroup), cols);
  Value gridY = apply(b, loc, s0.floorDiv(kBlockRows), rows);
  Value gridZ = n == 3 ? loop.getUpperBound()[0] : one;
  // The slices' end: the lower bound and the whole slices' k's (none where k's loop has
  // no iteration).
  auto outsideValue = [&](Value v) -> Value {
    if (Operation *def = v.getDefiningOp(); def && loop->isAncestor(def))
      return b.clone(*def)->getResult(0); // a constant
    return v;
  };
  Value lower = outsideValue(s.loop.getLowerBound());
  Value upper = outsideValue(s.loop.getUpperBound());
  Value count = arith::MaxSIOp::create(b, loc, arith::SubIOp::create(b, loc, upper, lower),
                                       arith::ConstantIndexOp::create(b, loc, 0));
  s.kEnd = apply(b, loc, d0 + d1.floorDiv(kSlice) * kSlice, {lower, count});
  auto workgroup = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto tileType = [&](memref::LoadOp load, int64_t elements) {
    return MemRefType::get({elements}, load.getType(), MemRefLayoutAttrInterface{}, workgroup);
  };
  Value threadsX = arith::ConstantIndexOp::create(b, loc, kWarp);
  Value threadsY = arith::ConstantIndexOp::create(b, loc, kThreads / kWarp);
  auto launch = gpu::LaunchOp::create(
      b, loc, gridX, gridY, gridZ, threadsX, threadsY, one, /*dynamicSharedMemorySize=*/nullptr,
      /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{},
      TypeRange{tileType(s.a, kBlockRows * kSlice), tileType(s.b, kSlice * kGroup)});
  Block &kernel = launch.getBody().front();
  OpBuilder kb = OpBuilder::atBlockBegin(&kernel);
  gpu::TerminatorOp::create(kb, loc);
  kb.setInsertionPointToStart(&kernel);
  s.tx = launch.getThreadIds().x;
  s.ty = launch.getThreadIds().y;
  s.bx = launch.getBlockIds().x;
  s.by = launch.getBlockIds().y;
  s.bz = launch.getBlockIds().z;
  s.aTile = launch.getWorkgroupAttributions()[0];
  s.bTile = launch.getWorkgroupAttributions()[1];
  // The thread's rows: its block's 32, then its 4 of them; its columns: its block's
  // 128, then its place in the warp, 32 apart.
  Value row0 = apply(kb, loc, d0 * kBlockRows + d1 * kTile, {s.by, s.ty});
  Value col0 = apply(kb, loc, d0 * kGroup + d1, {s.bx, s.tx});
  SmallVector<IRMapping> maps(kTile * kTile);
  for (int64_t a = 0; a < kTile; ++a)
    for (int64_t c = 0; c < kTile; ++c) {
      IRMapping &map = maps[a * kTile + c];
      if (s.batch)
        map.map(s.batch, s.bz);
      map.map(s.row, a ? apply(kb, loc, d0 + a, row0) : row0);
      map.map(s.col, c ? apply(kb, loc, d0 + c * kWarp, col0) : col0);
    }
  jam(*loop.getBody(), maps, kb, &s);
}

/// The tiled loop for `loop` (tileable()) at `b`'s insertion point: a thread per tile of
/// 4 rows x 4 columns, the columns a warp's width apart (see the file comment).
void buildTiled(scf::ParallelOp loop, OpBuilder &b) {
  Location loc = loop.getLoc();
  MLIRContext *ctx = b.getContext();
  unsigned n = loop.getNumLoops();
  Value rows = loop.getUpperBound()[n - 2], cols = loop.getUpperBound()[n - 1];
  AffineExpr d0, d1, s0, s1;
  bindDims(ctx, d0, d1);
  bindSymbols(ctx, s0, s1);
  SmallVector<Value> upper(loop.getUpperBound());
  upper[n - 2] = apply(b, loc, s0.ceilDiv(kTile), rows);
  upper[n - 1] = apply(b, loc, s0.ceilDiv(kGroup) * kWarp, cols);
  auto tiled = scf::ParallelOp::create(b, loc, loop.getLowerBound(), upper, loop.getStep());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(tiled.getBody()->getTerminator());
  SmallVector<Value> ivs(tiled.getInductionVars()), old(loop.getInductionVars());
  // The tile's first row, and its first column: its warp's group of 128 columns, then
  // the thread's place in the warp.
  Value row0 = apply(b, loc, d0 * kTile, ivs[n - 2]);
  Value col0 = apply(b, loc, d0.floorDiv(kWarp) * kGroup + d0 % kWarp, ivs[n - 1]);
  auto mapped = [&](IRMapping &map, Value row, Value col) {
    for (unsigned d = 0; d + 2 < n; ++d)
      map.map(old[d], ivs[d]);
    map.map(old[n - 2], row);
    map.map(old[n - 1], col);
  };
  auto at = [&](OpBuilder &inner, Value base, int64_t by) {
    return apply(inner, loc, d0 + by, base);
  };
  // The full tile: sixteen copies, jammed.
  auto fullTile = [&](OpBuilder &inner) {
    SmallVector<IRMapping> maps(kTile * kTile);
    for (int64_t a = 0; a < kTile; ++a)
      for (int64_t c = 0; c < kTile; ++c)
        mapped(maps[a * kTile + c], a ? at(inner, row0, a) : row0,
               c ? at(inner, col0, c * kWarp) : col0);
    jam(*loop.getBody(), maps, inner);
  };
  auto multiple = [](Value v, int64_t of) {
    std::optional<int64_t> c = getConstantIntValue(v);
    return c && *c % of == 0;
  };
  if (multiple(rows, kTile) && multiple(cols, kGroup)) {
    fullTile(b);
    return;
  }
  // Full where the tile's last row and its last column are inside the bounds.
  Value lastRow = at(b, row0, kTile - 1), lastCol = at(b, col0, (kTile - 1) * kWarp);
  Value full = arith::AndIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lastRow, rows),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lastCol, cols));
  auto branch = scf::IfOp::create(b, loc, TypeRange{}, full, /*withElseRegion=*/true);
  b.setInsertionPoint(branch.thenBlock()->getTerminator());
  fullTile(b);
  // The edge: the tile's elements inside the bounds, one after another.
  b.setInsertionPoint(branch.elseBlock()->getTerminator());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value four = arith::ConstantIndexOp::create(b, loc, kTile);
  Value rowCount = affine::AffineMinOp::create(
      b, loc, AffineMap::get(0, 2, {b.getAffineConstantExpr(kTile), s1 - s0}, ctx),
      ValueRange{row0, rows});
  auto rowLoop = scf::ForOp::create(b, loc, zero, rowCount, one);
  b.setInsertionPoint(rowLoop.getBody()->getTerminator());
  auto colLoop = scf::ForOp::create(b, loc, zero, four, one);
  b.setInsertionPoint(colLoop.getBody()->getTerminator());
  Value row = apply(b, loc, d0 + d1, {row0, rowLoop.getInductionVar()});
  Value col = apply(b, loc, d0 + d1 * kWarp, {col0, colLoop.getInductionVar()});
  auto inside = scf::IfOp::create(
      b, loc, TypeRange{}, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, col, cols),
      /*withElseRegion=*/false);
  b.setInsertionPoint(inside.thenBlock()->getTerminator());
  IRMapping map;
  mapped(map, row, col);
  for (Operation &op : loop.getBody()->without_terminator())
    b.clone(op, map);
}

/// Whether a constant `v` is below `bound` (false where `v` is not a constant).
bool constantBelow(Value v, int64_t bound) {
  std::optional<int64_t> c = getConstantIntValue(v);
  return c && *c < bound;
}

/// `loop` (tileable()) tiled where it has at least `minOutputs` elements and its tiles
/// fill (4 rows, a group of 128 columns); where that is known only at run time, both
/// loops, the tiled one run where it holds.
void tile(scf::ParallelOp loop, int64_t minOutputs, bool sharedMemory) {
  unsigned n = loop.getNumLoops();
  Value rows = loop.getUpperBound()[n - 2], cols = loop.getUpperBound()[n - 1];
  int64_t knownOutputs = 1;
  bool allKnown = true;
  for (Value bound : loop.getUpperBound()) {
    std::optional<int64_t> c = getConstantIntValue(bound);
    if (c)
      knownOutputs *= *c;
    allKnown &= c.has_value();
  }
  if (constantBelow(rows, kTile) || constantBelow(cols, kGroup) ||
      (allKnown && knownOutputs < minOutputs))
    return;
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  auto multiple = [](Value v, int64_t of) {
    std::optional<int64_t> c = getConstantIntValue(v);
    return c && *c % of == 0;
  };
  if (std::optional<Staging> staging = sharedMemory ? stageable(loop) : std::nullopt) {
    // Blocks of 32 x 128 outputs, staging A and B in shared memory, where the rows are
    // a multiple of 32 and the columns of 128: decided here where the sizes are
    // constants, else when the function runs (the register tiles otherwise).
    // (And where its grid's y, the blocks of rows, and z, the batch, are within the
    // 65,535 blocks a grid takes there.)
    Value batch = n == 3 ? loop.getUpperBound()[0] : Value();
    auto atMost = [](Value v, int64_t bound) {
      std::optional<int64_t> c = getConstantIntValue(v);
      return !v || (c && *c <= bound);
    };
    if (allKnown) {
      if (knownOutputs > 0 && multiple(rows, kBlockRows) && multiple(cols, kGroup) &&
          atMost(rows, ag::kMaxGridYZ * kBlockRows) && atMost(batch, ag::kMaxGridYZ)) {
        buildStaged(loop, *staging, b);
        loop->erase();
        return;
      }
    } else {
      auto divides = [&](Value v, int64_t by) {
        Value rest = arith::RemUIOp::create(b, loc, v, arith::ConstantIndexOp::create(b, loc, by));
        return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rest,
                                     arith::ConstantIndexOp::create(b, loc, 0))
            .getResult();
      };
      Value outputs = loop.getUpperBound().front();
      for (Value bound : loop.getUpperBound().drop_front())
        outputs = arith::MulIOp::create(b, loc, outputs, bound);
      Value enough =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, outputs,
                                arith::ConstantIndexOp::create(
                                    b, loc, std::max<int64_t>(minOutputs, 1)));
      auto within = [&](Value v, int64_t bound) {
        return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, v,
                                     arith::ConstantIndexOp::create(b, loc, bound))
            .getResult();
      };
      Value blocks = arith::AndIOp::create(
          b, loc, arith::AndIOp::create(b, loc, divides(rows, kBlockRows), divides(cols, kGroup)),
          enough);
      blocks = arith::AndIOp::create(b, loc, blocks, within(rows, ag::kMaxGridYZ * kBlockRows));
      if (batch)
        blocks = arith::AndIOp::create(b, loc, blocks, within(batch, ag::kMaxGridYZ));
      auto branch = scf::IfOp::create(b, loc, TypeRange{}, blocks, /*withElseRegion=*/true);
      b.setInsertionPoint(branch.thenBlock()->getTerminator());
      buildStaged(loop, *staging, b);
      loop->moveBefore(branch.elseBlock()->getTerminator());
      b.setInsertionPoint(loop);
    }
  }
  if (allKnown) {
    buildTiled(loop, b);
    loop->erase();
    return;
  }
  // Tiles where rows >= 4, cols >= 128 and the elements are at least minOutputs; the
  // thread per element otherwise (too few threads for the GPU once tiled).
  auto atLeast = [&](Value v, int64_t bound) {
    Value c = arith::ConstantIndexOp::create(b, loc, bound);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, v, c).getResult();
  };
  Value outputs = loop.getUpperBound().front();
  for (Value bound : loop.getUpperBound().drop_front())
    outputs = arith::MulIOp::create(b, loc, outputs, bound);
  Value big = arith::AndIOp::create(
      b, loc, arith::AndIOp::create(b, loc, atLeast(rows, kTile), atLeast(cols, kGroup)),
      atLeast(outputs, minOutputs));
  auto branch = scf::IfOp::create(b, loc, TypeRange{}, big, /*withElseRegion=*/true);
  b.setInsertionPoint(branch.thenBlock()->getTerminator());
  buildTiled(loop, b);
  loop->moveBefore(branch.elseBlock()->getTerminator());
}

struct RegisterTiles : ag::impl::GPURegisterTilesBase<RegisterTiles> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (tileable(loop))
        loops.push_back(loop);
    });
    for (scf::ParallelOp loop : loops)
      tile(loop, minOutputs, sharedMemory);
  }
};

} // namespace
