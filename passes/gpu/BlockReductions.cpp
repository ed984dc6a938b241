//===- BlockReductions.cpp - a block of threads for each block of partials ---===//
//
// -ag-gpu-split-reductions writes the blocks of a reduction as a parallel loop, one
// iteration per block, whose body combines the block's lanes' partial results in an
// scf.for marked ag.block_lanes (in order: what the host computes where the loop stays
// there). This pass makes such a loop a kernel of a block of threads for each iteration,
// one thread per lane, the threads' partials combined by gpu.all_reduce (a tree: warp
// shuffles, then shared memory across a block's warps, as convert-gpu-to-nvvm lowers
// it), and what follows the lanes' loop (the result stored) done by thread 0:
//
//   scf.parallel (%g) = (%c0) to (%G) step (%c1) {
//     %first = arith.muli %g, %c256
//     %r = scf.for %lane = %c0 to %c256 step %c1 iter_args(%a = %zero) {
//       <thread %first + %lane's partial %p>
//       %s = arith.addf %p, %a
//       scf.yield %s
//     } {ag.block_lanes = 256}
//     memref.store %r, %blocks[%g]
//   }
//     => gpu.launch blocks(%G, 1, 1) threads(%c256, 1, 1) {
//          %g = gpu.block_id x;  %lane = gpu.thread_id x
//          %first = arith.muli %g, %c256
//          <thread %first + %lane's partial %p>
//          %t = gpu.all_reduce add %p uniform {}
//          %r = arith.addf %t, %zero
//          scf.if (%lane == 0) { memref.store %r, %blocks[%g] }
//        }
//
// Several lanes' loops in one body (-ag-gpu-fuse-blocks: a row softmax's max, sum and
// division) are parts of the same kernel in their order: a lanes' loop with a result a
// gpu.all_reduce, one of no result (the row's columns spread over the lanes) each
// thread's share; other ops at the top level are arithmetic and loads, which every
// thread runs, and stores, which thread 0 runs, of buffers nothing in the body reads.
//
// A loop of several dimensions has its iterations numbered row-major on the grid's x
// (which takes 2^31 - 1 blocks, where y and z take 65,535). Integers narrower than 32
// bits and floats narrower than 32 bits are combined as 32-bit ones (what a warp
// shuffle moves), then narrowed: the same sums modulo 2^n, maxima and minima, and for
// half floats a sum rounded once instead of at each step, as TensorFlow's GPU kernels
// accumulate them.
//
// Applies to an outermost scf.parallel from 0 by 1 whose body the GPU can compute
// (ag/passes/KernelMath.h), with ag.block_lanes loops at its top level, from 0 by 1, all
// of one count defined before the parallel loop, each with no result or one, combined
// by the last op of its body, a combiner gpu.all_reduce has (addf, mulf, maximumf,
// minimumf, addi, muli, max/min, andi, ori, xori). Others are left to
// -ag-gpu-map-loops (a thread per iteration, its lanes in order) or the host.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/KernelMath.h"
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>

namespace ag {
#define GEN_PASS_DEF_GPUBLOCKREDUCTIONS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// A top-level op of a block's loop body, and what the kernel does with it.
struct Part {
  enum Kind {
    Everyone, // every thread computes it (arithmetic, a load)
    Reduce,   // a lanes' loop with a result: the lane's partial, then gpu.all_reduce
    Spread,   // a lanes' loop without results: the lane's share of the work
    First,    // a store: by thread 0
  } kind;
  Operation *op;
  Operation *combiner = nullptr;
  gpu::AllReduceOperation operation = gpu::AllReduceOperation::ADD;
};

/// The parts of `loop`'s body where it is a block's loop this pass rewrites.
std::optional<SmallVector<Part>> match(scf::ParallelOp loop) {
  if (!ag::isGridLoop(loop) || !ag::fromZeroByOne(loop.getLowerBound(), loop.getStep()) ||
      !ag::isKernelBody(loop))
    return std::nullopt;
  Block *body = loop.getBody();
  SmallVector<Part> parts;
  Value count; // the lanes of every lanes' loop
  DenseSet<Value> stored;
  for (Operation &op : body->without_terminator()) {
    auto lanes = dyn_cast<scf::ForOp>(op);
    if (!lanes || !lanes->hasAttr(ag::kBlockLanes)) {
      if (auto store = dyn_cast<memref::StoreOp>(op)) {
        stored.insert(store.getMemRef());
        parts.push_back({Part::First, &op});
      } else if ((isMemoryEffectFree(&op) && op.getNumRegions() == 0) ||
                 isa<memref::LoadOp>(op)) {
        parts.push_back({Part::Everyone, &op});
      } else {
        return std::nullopt;
      }
      continue;
    }
    if ((count && lanes.getUpperBound() != count) ||
        !ag::fromZeroByOne(lanes.getLowerBound(), lanes.getStep()) ||
        loop->isAncestor(lanes.getUpperBound().getParentBlock()->getParentOp()))
      return std::nullopt;
    count = lanes.getUpperBound();
    if (lanes.getNumResults() == 0) {
      parts.push_back({Part::Spread, &op});
      continue;
    }
    Value acc = lanes.getRegionIterArgs().front();
    auto yield = cast<scf::YieldOp>(lanes.getBody()->getTerminator());
    Operation *c = yield.getOperand(0).getDefiningOp();
    if (lanes.getNumResults() != 1 || !acc.hasOneUse() || !c ||
        c->getBlock() != lanes.getBody() || c->getNumOperands() != 2 ||
        (c->getOperand(0) != acc && c->getOperand(1) != acc) ||
        c->getOperand(0) == c->getOperand(1))
      return std::nullopt;
    std::optional<gpu::AllReduceOperation> operation = ag::allReduceOperation(c);
    if (!operation || !c->getResult(0).getType().isIntOrFloat())
      return std::nullopt;
    parts.push_back({Part::Reduce, &op, c, *operation});
  }
  if (!count)
    return std::nullopt;
  // What thread 0 stores, no thread reads (it may not have been stored yet).
  if (body->walk([&](memref::LoadOp load) {
            return stored.contains(load.getMemRef()) ? WalkResult::interrupt()
                                                     : WalkResult::advance();
          })
          .wasInterrupted())
    return std::nullopt;
  return parts;
}

/// `value` combined across the block by gpu.all_reduce, as a 32-bit value where it is
/// narrower.
Value allReduce(OpBuilder &b, Location loc, Value value, gpu::AllReduceOperation operation) {
  using R = gpu::AllReduceOperation;
  Type type = value.getType();
  Type wide = type;
  if (auto f = dyn_cast<FloatType>(type); f && f.getWidth() < 32) {
    wide = b.getF32Type();
    value = arith::ExtFOp::create(b, loc, wide, value);
  } else if (auto i = dyn_cast<IntegerType>(type); i && i.getWidth() < 32) {
    wide = b.getI32Type();
    if (operation == R::MAXSI || operation == R::MINSI)
      value = arith::ExtSIOp::create(b, loc, wide, value);
    else
      value = arith::ExtUIOp::create(b, loc, wide, value);
  }
  Value all = gpu::AllReduceOp::create(
      b, loc, value, gpu::AllReduceOperationAttr::get(b.getContext(), operation),
      /*uniform=*/true);
  if (wide == type)
    return all;
  if (isa<FloatType>(type))
    return arith::TruncFOp::create(b, loc, type, all);
  return arith::TruncIOp::create(b, loc, type, all);
}

void rewrite(scf::ParallelOp loop, ArrayRef<Part> parts) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value grid = loop.getUpperBound().front();
  for (Value bound : loop.getUpperBound().drop_front())
    grid = b.createOrFold<arith::MulIOp>(loc, grid, bound);
  Value lanes;
  for (const Part &part : parts)
    if (part.kind == Part::Reduce || part.kind == Part::Spread)
      lanes = cast<scf::ForOp>(part.op).getUpperBound();
  auto launch = gpu::LaunchOp::create(b, loc, grid, one, one, lanes, one, one);
  Block &kernel = launch.getBody().front();
  OpBuilder kb = OpBuilder::atBlockBegin(&kernel);
  gpu::TerminatorOp::create(kb, loc);
  kb.setInsertionPointToStart(&kernel);

  // The iteration of block g, numbered row-major (the last dimension fastest).
  IRMapping map;
  Value g = launch.getBlockIds().x;
  for (unsigned d = loop.getNumLoops(); d-- > 1;) {
    Value bound = loop.getUpperBound()[d];
    map.map(loop.getInductionVars()[d], arith::RemUIOp::create(kb, loc, g, bound));
    g = arith::DivUIOp::create(kb, loc, g, bound);
  }
  map.map(loop.getInductionVars().front(), g);
  Value lane = launch.getThreadIds().x;
  Value first;
  for (const Part &part : parts) {
    switch (part.kind) {
    case Part::Everyone:
      kb.clone(*part.op, map);
      break;
    case Part::First: {
      if (!first) {
        Value zero = arith::ConstantIndexOp::create(kb, loc, 0);
        first = arith::CmpIOp::create(kb, loc, arith::CmpIPredicate::eq, lane, zero);
      }
      auto ifFirst = scf::IfOp::create(kb, loc, first, /*withElseRegion=*/false);
      ifFirst.getThenBodyBuilder().clone(*part.op, map);
      break;
    }
    case Part::Spread: {
      auto lanesLoop = cast<scf::ForOp>(part.op);
      map.map(lanesLoop.getInductionVar(), lane);
      for (Operation &inner : lanesLoop.getBody()->without_terminator())
        kb.clone(inner, map);
      break;
    }
    case Part::Reduce: {
      // The lane's partial, then the block's.
      auto lanesLoop = cast<scf::ForOp>(part.op);
      map.map(lanesLoop.getInductionVar(), lane);
      Value acc = lanesLoop.getRegionIterArgs().front();
      Operation *c = part.combiner;
      Value partial = c->getOperand(0) == acc ? c->getOperand(1) : c->getOperand(0);
      for (Operation &inner : lanesLoop.getBody()->without_terminator())
        if (&inner != c)
          kb.clone(inner, map);
      Value all = allReduce(kb, lanesLoop.getLoc(), map.lookupOrDefault(partial), part.operation);
      // Combined with the loop's initial value as the loop does (the identity, exactly).
      IRMapping combine;
      combine.map(partial, all);
      combine.map(acc, map.lookupOrDefault(lanesLoop.getInitArgs().front()));
      map.map(lanesLoop.getResult(0), kb.clone(*c, combine)->getResult(0));
      break;
    }
    }
  }
  loop.erase();
}

struct GPUBlockReductions : ag::impl::GPUBlockReductionsBase<GPUBlockReductions> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::ParallelOp, SmallVector<Part>>> loops;
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (std::optional<SmallVector<Part>> parts = match(loop))
        loops.emplace_back(loop, std::move(*parts));
    });
    for (auto &[loop, parts] : loops)
      rewrite(loop, parts);
  }
};

} // namespace
