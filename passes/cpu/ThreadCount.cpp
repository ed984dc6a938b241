//===- ThreadCount.cpp - parallel regions as wide as the runtime says ----------===//
//
// convert-scf-to-openmp fixes no thread count, or one at compile time. This pass gives
// every omp.parallel the count agc's runtime chooses when the region starts
// (agrt_num_threads(): what agc_set_num_threads or AGC_NUM_THREADS asked for, 0 for
// libomp's own default, OMP_NUM_THREADS or one per core), so that one object runs on as
// many cores as the machine that runs it has, and the caller decides, per process:
//
//   omp.parallel { ... }
//     => %n = func.call @agrt_num_threads() : () -> i32
//        omp.parallel num_threads(%n : i32) { ... }
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"
#include "ag/passes/RuntimeDecls.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace ag {
#define GEN_PASS_DEF_THREADCOUNT
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

struct ThreadCount : ag::impl::ThreadCountBase<ThreadCount> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<omp::ParallelOp> regions;
    module.walk([&](omp::ParallelOp op) {
      if (!op.getNumThreads())
        regions.push_back(op);
    });
    if (regions.empty())
      return;
    OpBuilder builder(module.getBodyRegion());
    func::FuncOp callee = ag::declareRuntime(
        module, "agrt_num_threads", builder.getFunctionType({}, {builder.getI32Type()}));
    for (omp::ParallelOp region : regions) {
      builder.setInsertionPoint(region);
      Value count = func::CallOp::create(builder, region.getLoc(), callee).getResult(0);
      region.getNumThreadsMutable().assign(count);
    }
  }
};

} // namespace
