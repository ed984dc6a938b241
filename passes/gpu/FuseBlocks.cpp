//===- FuseBlocks.cpp - the loops of a row's work, one block loop --------===//
//
// A row softmax, lowered for the GPU, is three parallel loops over the rows: the rows'
// maxima and the rows' sums, each a block's loop of -ag-gpu-split-reductions (an
// iteration per row, its lanes' loop marked ag.block_lanes), and the division, a loop
// over [rows, columns] that reads them:
//
//   scf.parallel (%r) = (0) to (%rows) { %m = scf.for %lane ... {ag.block_lanes}
//                                        memref.store %m, %max[%r] }
//   scf.parallel (%r) = (0) to (%rows) { %s = scf.for %lane ... (reads %max[%r])
//                                        memref.store %s, %sum[%r] }
//   scf.parallel (%r, %c) = (0, 0) to (%rows, %cols) { ... %max[%r] ... %sum[%r] ... }
//
// This pass makes them one block's loop, so that -ag-gpu-block-reductions makes one
// kernel of a block per row: each later loop's body follows the first's, a value the
// earlier part stored at the row read from the stored value itself (the store stays),
// and a loop over [rows, columns] becomes the row's lanes' loop of no result, lane l
// taking columns l, l + L, ... (L the lanes; consecutive threads, consecutive columns):
//
//   scf.parallel (%r) = (0) to (%rows) {
//     %m = scf.for %lane ... {ag.block_lanes};  memref.store %m, %max[%r]
//     %s = scf.for %lane ... (%m) {ag.block_lanes};  memref.store %s, %sum[%r]
//     scf.for %lane = 0 to %L { scf.for %c = %lane to %cols step %L { ... %m ... %s ... } }
//       {ag.block_lanes}
//   }
//
// A loop joins the block's loop before it where: its bounds are the same values (a
// [rows, columns] loop: its leading ones), from 0 by 1; its body a kernel can run; the
// ops between the two are arithmetic or allocations (moved before the first); every
// buffer one of the two writes is a fresh allocation that no view aliases, which the
// other does not touch, except that the later reads what the earlier stored at the row
// (exactly its indices), at the top level of its body, and stores nothing else there;
// both read anything else they like. Then each row's work is what the loops did for
// that row, in the same order.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/KernelMath.h"
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>

namespace ag {
#define GEN_PASS_DEF_GPUFUSEBLOCKS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// `loop`'s lanes' loop where it is a block's loop (one at its top level).
scf::ForOp lanesOf(scf::ParallelOp loop) {
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto lanes = dyn_cast<scf::ForOp>(op); lanes && lanes->hasAttr(ag::kBlockLanes))
      return lanes;
  return {};
}

/// The buffers `loop`'s body loads from and stores into.
struct Accesses {
  SmallVector<memref::LoadOp> loads;
  SmallVector<memref::StoreOp> stores;
  DenseSet<Value> read, written;
};

Accesses accessesOf(scf::ParallelOp loop) {
  Accesses a;
  loop.getBody()->walk([&](Operation *op) {
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      a.loads.push_back(load);
      a.read.insert(load.getMemRef());
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      a.stores.push_back(store);
      a.written.insert(store.getMemRef());
    }
  });
  return a;
}

/// Whether `later` may follow `first` in one loop's body: see the file comment. On
/// success, `forward` maps each of `later`'s loads of what `first` stored at the row to
/// the stored value. `rows` is the number of row dimensions (all of `first`'s).
bool fusable(scf::ParallelOp first, scf::ParallelOp later, unsigned rows,
             DenseMap<Operation *, Value> &forward) {
  Accesses a = accessesOf(first), b = accessesOf(later);
  for (Value buffer : a.written)
    if (!ag::freshBuffer(buffer) || b.written.contains(buffer))
      return false;
  for (Value buffer : b.written)
    if (!ag::freshBuffer(buffer) || a.read.contains(buffer))
      return false;
  // What `first` stores at the row, at its top level: the only stores into the buffers
  // `later` reads.
  DenseMap<Value, Value> storedAtRow;
  for (memref::StoreOp store : a.stores) {
    if (!b.read.contains(store.getMemRef()))
      continue;
    if (store->getBlock() != first.getBody() ||
        !llvm::equal(store.getIndices(), first.getInductionVars()) ||
        !storedAtRow.try_emplace(store.getMemRef(), store.getValueToStore()).second)
      return false;
  }
  for (memref::LoadOp load : b.loads) {
    auto stored = storedAtRow.find(load.getMemRef());
    if (stored == storedAtRow.end())
      continue;
    if (!llvm::equal(load.getIndices(), ArrayRef<Value>(later.getInductionVars()).take_front(rows)))
      return false;
    forward[load] = stored->second;
  }
  return true;
}

/// Appends `later`'s body to `first`'s, its row indices `first`'s, its loads in
/// `forward` replaced by the stored values. A [rows, columns] loop's columns become a
/// lanes' loop of `lanes` (the first's) lanes, lane l taking columns l, l + lanes, ...
void append(scf::ParallelOp first, scf::ParallelOp later, scf::ForOp lanes,
            const DenseMap<Operation *, Value> &forward) {
  // In `later` itself, which is erased after (its uses of values of `first` meanwhile
  // are not in their scope; nothing verifies in between).
  for (auto [load, value] : forward) {
    load->getResult(0).replaceAllUsesWith(value);
    load->erase();
  }
  unsigned rows = first.getNumLoops();
  OpBuilder b(first.getBody()->getTerminator());
  Location loc = later.getLoc();
  IRMapping map;
  for (unsigned d = 0; d < rows; ++d)
    map.map(later.getInductionVars()[d], first.getInductionVars()[d]);
  if (later.getNumLoops() == rows) {
    for (Operation &op : later.getBody()->without_terminator())
      b.clone(op, map);
    return;
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value count = lanes.getUpperBound();
  Value columns = later.getUpperBound()[rows];
  auto spread = scf::ForOp::create(
      b, loc, zero, count, one, ValueRange{},
      [&](OpBuilder &lb, Location ll, Value lane, ValueRange) {
        scf::ForOp::create(lb, ll, lane, columns, count, ValueRange{},
                           [&](OpBuilder &cb, Location cl, Value column, ValueRange) {
                             map.map(later.getInductionVars()[rows], column);
                             for (Operation &op : later.getBody()->without_terminator())
                               cb.clone(op, map);
                             scf::YieldOp::create(cb, cl);
                           });
        scf::YieldOp::create(lb, ll);
      });
  spread->setAttr(ag::kBlockLanes, lanes->getAttr(ag::kBlockLanes));
}

/// Fuses into block's loop `first` the loops after it in its block that may join it,
/// adding those it erases to `erased`.
void fuseAfter(scf::ParallelOp first, DenseSet<Operation *> &erased) {
  scf::ForOp lanes = lanesOf(first);
  unsigned rows = first.getNumLoops();
  SmallVector<Operation *> between;
  for (Operation *op = first->getNextNode(); op;) {
    Operation *next = op->getNextNode();
    auto later = dyn_cast<scf::ParallelOp>(op);
    if (!later) {
      if (!((isMemoryEffectFree(op) && op->getNumRegions() == 0) || isa<memref::AllocOp>(op)))
        return;
      between.push_back(op);
      op = next;
      continue;
    }
    bool sameRows = later.getNumLoops() >= rows && later.getNumLoops() <= rows + 1 &&
                    llvm::equal(later.getUpperBound().take_front(rows), first.getUpperBound());
    bool joins = sameRows && ag::fromZeroByOne(later.getLowerBound(), later.getStep()) &&
                 ag::isKernelBody(later) &&
                 (later.getNumLoops() == rows + 1 ? !lanesOf(later)
                                                  : lanesOf(later) &&
                                                        lanesOf(later).getUpperBound() ==
                                                            lanes.getUpperBound());
    DenseMap<Operation *, Value> forward;
    if (!joins || !fusable(first, later, rows, forward))
      return;
    for (Operation *moved : between)
      moved->moveBefore(first);
    between.clear();
    append(first, later, lanes, forward);
    erased.insert(later);
    later.erase();
    op = next;
  }
}

struct GPUFuseBlocks : ag::impl::GPUFuseBlocksBase<GPUFuseBlocks> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> blocks;
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (ag::isGridLoop(loop) && ag::fromZeroByOne(loop.getLowerBound(), loop.getStep()) &&
          lanesOf(loop) && ag::isKernelBody(loop))
        blocks.push_back(loop);
    });
    // A loop fused into an earlier one is erased (and not looked at again).
    DenseSet<Operation *> erased;
    for (scf::ParallelOp first : blocks)
      if (!erased.contains(first))
        fuseAfter(first, erased);
  }
};

} // namespace
