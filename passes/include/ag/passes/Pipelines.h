//===- Pipelines.h - agc's pass pipelines, built in C++ --------------------===//
//
// Each pipeline is a function that adds passes to a pass manager anchored on
// builtin.module, so that a pass that does not exist fails the build, not a compile.
// ag-opt runs them by name (registerAgcPasses): `--agc-to-scf`, `--agc-cpu`.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_PASSES_PIPELINES_H
#define AG_PASSES_PIPELINES_H

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace ag {

/// From MLIRGen's output to `scf`: dead ops pruned as TensorFlow prunes them, ag.cond and
/// ag.while_loop lowered, carried 0-d tensors scalarized (passes/ag/Pipeline.cpp).
void buildAgToSCFPipeline(mlir::OpPassManager &pm);

/// From `scf` to nothing but the LLVM dialect for the CPU, the final check included
/// (passes/cpu/Pipeline.cpp).
void buildCPUPipeline(mlir::OpPassManager &pm);

/// Registers agc's passes, one flag each (`-ag-prune-dead`, ...), and its pipelines,
/// with MLIR's pass registry. Idempotent.
void registerAgcPasses();

} // namespace ag

#endif // AG_PASSES_PIPELINES_H
