//===- RegisterTiles.cpp - a kernel thread's tile of 4 x 4 matmul outputs --===//
//
// After -ag-gpu-register-accumulators, a matmul for the GPU is a parallel loop with a
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
// thread a tile of 4 x 4 neighbouring outputs instead, its sixteen sums carried through
// one loop over k (unroll and jam of the two innermost parallel dimensions into the
// body's loops), so that each step loads four elements of A and four of B (the copies
// of a load that does not depend on a tile dimension are the same value, which CSE
// merges) for sixteen multiply-adds:
//
//   scf.parallel (%i0, %j0) = (0, 0) to (%m, %n) step (4, 4) {
//     scf.if (%i0 + 4 <= %m and %j0 + 4 <= %n) {
//       %r:16 = scf.for %k ... iter_args(16 sums) { 16 copies of the body, i = i0 + a,
//                                                   j = j0 + b }
//       16 stores
//     } else {                            // a tile at the edge: the elements it has,
//       scf.for %a = 0 to min(4, %m - %i0) { scf.for %b = 0 to min(4, %n - %j0) {
//         the original body, i = i0 + a, j = j0 + b } }
//     }
//   }
//
// (the edge's branch is left out where both sizes are constants divisible by 4). Each
// output's sum is the same operations in the same order as before, so the results are
// the same bits; only which thread computes which outputs, and the order in which a
// thread interleaves them, change, which an scf.parallel's iterations allow. Applies to
// an outermost parallel loop of two or three dimensions from 0 by 1, not yet mapped,
// whose body a kernel can compute (ag::isKernelBody) and holds an scf.for with a load
// that does not depend on the innermost dimension and one that does not depend on the
// one before it (the reuse that pays for the tile: a matmul, a batch matmul, a
// transposed one); every loop and conditional in the body must take its bounds and
// condition from values that do not depend on the tile's dimensions (the copies then
// run the same iterations), and the body must be small (at most 64 ops) so that its
// sixteen copies stay in registers. A batch matmul's leading dimension keeps one
// element a thread. -ag-gpu-map-loops then makes blocks of 8 x 32 threads (32 rows x
// 128 columns of outputs) of it.
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

constexpr int64_t kTile = 4;      // outputs a thread, along each of the two dimensions
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

/// The ops of `src` (not its terminator) at `b`'s insertion point, once for each mapping
/// of `maps` (the tile's copies), loops and conditionals jammed: one op whose
/// iteration arguments and results are the copies' in turn (see the file comment).
void jam(Block &src, MutableArrayRef<IRMapping> maps, OpBuilder &b);

/// The terminator of a jammed region: `yield`'s operands in each copy, in turn.
SmallVector<Value> jammedOperands(Operation *yield, ArrayRef<IRMapping> maps) {
  SmallVector<Value> values;
  for (const IRMapping &map : maps)
    for (Value v : yield->getOperands())
      values.push_back(map.lookupOrDefault(v));
  return values;
}

void jamFor(scf::ForOp loop, MutableArrayRef<IRMapping> maps, OpBuilder &b) {
  SmallVector<Value> inits;
  for (IRMapping &map : maps)
    for (Value init : loop.getInitArgs())
      inits.push_back(map.lookupOrDefault(init));
  IRMapping &first = maps.front();
  auto jammed = scf::ForOp::create(b, loop.getLoc(), first.lookupOrDefault(loop.getLowerBound()),
                                   first.lookupOrDefault(loop.getUpperBound()),
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
  jam(*loop.getBody(), maps, b);
  scf::YieldOp::create(b, loop.getLoc(), jammedOperands(loop.getBody()->getTerminator(), maps));
}

void jamIf(scf::IfOp branch, MutableArrayRef<IRMapping> maps, OpBuilder &b) {
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
    jam(from.front(), maps, b);
    scf::YieldOp::create(b, branch.getLoc(), jammedOperands(from.front().getTerminator(), maps));
  };
  fill(branch.getThenRegion(), jammed.getThenRegion());
  if (hasElse)
    fill(branch.getElseRegion(), jammed.getElseRegion());
}

void jam(Block &src, MutableArrayRef<IRMapping> maps, OpBuilder &b) {
  for (Operation &op : src.without_terminator()) {
    if (auto loop = dyn_cast<scf::ForOp>(op))
      jamFor(loop, maps, b);
    else if (auto branch = dyn_cast<scf::IfOp>(op))
      jamIf(branch, maps, b);
    else
      for (IRMapping &map : maps)
        b.clone(op, map);
  }
}

/// `loop` (tileable()) as a parallel loop over tiles of 4 x 4 of its two innermost
/// dimensions (see the file comment).
void tile(scf::ParallelOp loop) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  unsigned n = loop.getNumLoops();
  Value four = arith::ConstantIndexOp::create(b, loc, kTile);
  SmallVector<Value> steps(loop.getStep());
  steps[n - 2] = four;
  steps[n - 1] = four;
  Value rows = loop.getUpperBound()[n - 2], cols = loop.getUpperBound()[n - 1];
  auto divisible = [](Value v) {
    std::optional<int64_t> c = getConstantIntValue(v);
    return c && *c % kTile == 0;
  };
  bool edges = !divisible(rows) || !divisible(cols);
  auto tiled = scf::ParallelOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(), steps);
  Block *body = tiled.getBody();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(body->getTerminator());
  SmallVector<Value> ivs(tiled.getInductionVars()), old(loop.getInductionVars());
  Value row0 = ivs[n - 2], col0 = ivs[n - 1];

  // The full tile: sixteen copies, jammed.
  auto fullTile = [&](OpBuilder &inner) {
    SmallVector<IRMapping> maps(kTile * kTile);
    for (int64_t a = 0; a < kTile; ++a)
      for (int64_t c = 0; c < kTile; ++c) {
        IRMapping &map = maps[a * kTile + c];
        for (unsigned d = 0; d + 2 < n; ++d)
          map.map(old[d], ivs[d]);
        auto offset = [&](Value base, int64_t by) -> Value {
          if (by == 0)
            return base;
          return arith::AddIOp::create(inner, loc, base,
                                       arith::ConstantIndexOp::create(inner, loc, by));
        };
        map.map(old[n - 2], offset(row0, a));
        map.map(old[n - 1], offset(col0, c));
      }
    jam(*loop.getBody(), maps, inner);
  };
  if (!edges) {
    fullTile(b);
  } else {
    auto fits = [&](Value start, Value size) {
      Value end = arith::AddIOp::create(b, loc, start, four);
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, end, size);
    };
    Value full = arith::AndIOp::create(b, loc, fits(row0, rows), fits(col0, cols));
    auto branch = scf::IfOp::create(b, loc, TypeRange{}, full, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(branch.thenBlock()->getTerminator());
      fullTile(b);
      // The edge: the tile's elements inside the loop's bounds, one after another.
      b.setInsertionPoint(branch.elseBlock()->getTerminator());
      auto extent = [&](Value start, Value size) {
        AffineExpr s0, s1;
        bindSymbols(b.getContext(), s0, s1);
        auto map = AffineMap::get(0, 2, {b.getAffineConstantExpr(kTile), s1 - s0}, b.getContext());
        return affine::AffineMinOp::create(b, loc, map, ValueRange{start, size}).getResult();
      };
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      auto outer = scf::ForOp::create(b, loc, zero, extent(row0, rows), one);
      b.setInsertionPoint(outer.getBody()->getTerminator());
      auto innerLoop = scf::ForOp::create(b, loc, zero, extent(col0, cols), one);
      b.setInsertionPoint(innerLoop.getBody()->getTerminator());
      IRMapping map;
      for (unsigned d = 0; d + 2 < n; ++d)
        map.map(old[d], ivs[d]);
      map.map(old[n - 2], arith::AddIOp::create(b, loc, row0, outer.getInductionVar()));
      map.map(old[n - 1], arith::AddIOp::create(b, loc, col0, innerLoop.getInductionVar()));
      for (Operation &op : loop.getBody()->without_terminator())
        b.clone(op, map);
    }
  }
  loop->erase();
}

struct RegisterTiles : ag::impl::GPURegisterTilesBase<RegisterTiles> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (tileable(loop))
        loops.push_back(loop);
    });
    for (scf::ParallelOp loop : loops)
      tile(loop);
  }
};

} // namespace
