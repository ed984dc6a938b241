//===- ParallelLoopsFirst.cpp - linalg ops' parallel loops outermost --------===//
//
// convert-linalg-to-parallel-loops nests an op's loops in the order of its iteration
// space: a reduction along a leading axis, [reduction, parallel], becomes a sequential
// scf.for around an scf.parallel, and -ag-gpu-map-loops a kernel launched once per
// iteration of a loop on the host. Interchanged first, parallel loops before reduction
// loops (each group in its order), it becomes one kernel of one thread per output
// element, each looping over the reduced axes. The payload and the result are the same:
// each output element is combined over the reduced points in the same order.
//
//   linalg.reduce ins(%m : tensor<?x512xf32>) outs(%init : tensor<512xf32>) dimensions = [0]
//     => linalg.generic {indexing_maps = [(d0, d1) -> (d1, d0), (d0, d1) -> (d0)],
//                        iterator_types = ["parallel", "reduction"]} ...
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace ag {
#define GEN_PASS_DEF_GPUPARALLELLOOPSFIRST
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// The interchange that puts `op`'s parallel loops first (new loop i is old loop
/// order[i]); empty where they are first already or a loop is neither kind.
SmallVector<unsigned> parallelFirst(linalg::LinalgOp op) {
  SmallVector<unsigned> parallel, reduction;
  for (auto [d, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (iterator == utils::IteratorType::parallel)
      parallel.push_back(d);
    else if (iterator == utils::IteratorType::reduction)
      reduction.push_back(d);
    else
      return {};
  }
  if (reduction.empty() || parallel.empty() || parallel.back() < reduction.front())
    return {};
  SmallVector<unsigned> order = parallel;
  order.append(reduction);
  return order;
}

struct GPUParallelLoopsFirst : ag::impl::GPUParallelLoopsFirstBase<GPUParallelLoopsFirst> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::ReduceOp, linalg::GenericOp>(op) && !parallelFirst(op).empty())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      SmallVector<unsigned> order = parallelFirst(op);
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> generalized = linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized))
          continue;
        generic = *generalized;
      }
      // (A payload reading linalg.index is remapped by the interchange.)
      (void)linalg::interchangeGenericOp(rewriter, generic, order);
    }
  }
};

} // namespace
