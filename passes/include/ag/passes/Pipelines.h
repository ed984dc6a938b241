//===- Pipelines.h - agc's pass pipelines, built in C++ --------------------===//
//
// Each pipeline is a function that adds passes to a pass manager anchored on
// builtin.module, so that a pass that does not exist fails the build, not a compile.
// ag-opt runs them by name (registerAgcPasses): `--agc-to-scf`, `--agc-cpu`.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_PASSES_PIPELINES_H
#define AG_PASSES_PIPELINES_H

#include "llvm/ADT/ArrayRef.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
class OpPassManager;
class Pass;
} // namespace mlir

namespace ag {

/// Makes canonicalize passes (MLIR's, with its default options) that share their sets of
/// patterns: one per set of dialects the IR holds, collected and frozen once per run of
/// the pipeline rather than once per instance (passes/SharedCanonicalizer.cpp). A
/// pipeline makes one and adds `canonicalize.create()` wherever it canonicalizes.
class SharedCanonicalizer {
public:
  struct Patterns;

  SharedCanonicalizer();
  ~SharedCanonicalizer();
  std::unique_ptr<mlir::Pass> create() const;
  /// How many sets of patterns were collected (for tests).
  size_t builds() const;

private:
  std::shared_ptr<Patterns> shared;
};

/// One-shot bufferization with agc's options (whole functions, identity-layout
/// arguments and results), the shared constants in program order, canonicalization:
/// the step every target's pipeline takes from tensors to buffers
/// (passes/Bufferization.cpp).
void addBufferization(mlir::OpPassManager &pm, const SharedCanonicalizer &canonicalize);

/// Upstream's buffer deallocation pipeline with the shared canonicalizer, then the
/// bufferization dialect's remains as memref ops (passes/Bufferization.cpp).
void addBufferDeallocation(mlir::OpPassManager &pm, const SharedCanonicalizer &canonicalize);

struct LowerToLLVMOptions {
  /// scf.parallel loops as OpenMP regions on the CPU's cores (else sequential loops).
  bool threads = false;
  /// gpu.launch_func and gpu.binary ops kept for the translation, and buffers from the
  /// runtime's GPU allocator (-ag-gpu-managed-buffers).
  bool gpuLaunches = false;
};

/// From buffers and loops to nothing but the LLVM dialect, the final check included:
/// the host code of every target (passes/LowerToLLVM.cpp).
void addLowerToLLVM(mlir::OpPassManager &pm, const SharedCanonicalizer &canonicalize,
                    const LowerToLLVMOptions &options);

/// From MLIRGen's output to `scf`: dead ops pruned as TensorFlow prunes them, ag.cond and
/// ag.while_loop lowered, carried 0-d tensors scalarized (passes/ag/Pipeline.cpp).
void buildAgToSCFPipeline(mlir::OpPassManager &pm);

/// What the CPU pipeline sizes its kernels for: the target CPU's vector registers (the
/// driver reads them off the CPU --mcpu names; the defaults are x86-64-v3's, AVX2).
struct CPUPipelineOptions {
  /// Bits in a vector register: 128 (SSE), 256 (AVX2), 512 (AVX-512).
  unsigned vectorBits = 256;
  /// Vector registers the code generator may use: 16 up to AVX2, 32 with AVX-512.
  unsigned vectorRegisters = 16;
  /// Line tables (agc -g): every LLVM function gets a debug-info scope (upstream's
  /// ensure-debug-info-scope-on-llvm-func), so that the translation to LLVM IR carries
  /// the ops' Python file:line:col locations into DWARF.
  bool debugInfo = false;
};

/// From `scf` to nothing but the LLVM dialect for the CPU, the final check included
/// (passes/cpu/Pipeline.cpp).
void buildCPUPipeline(mlir::OpPassManager &pm, const CPUPipelineOptions &options = {});

/// From `scf` to host functions that launch GPU kernels (gpu.launch_func) and the kernels
/// in gpu.module ops: the parallel loops a GPU can run, as blocks of threads
/// (passes/gpu/Pipeline.cpp). What --emit=gpu shows.
void buildGPUKernelPipeline(mlir::OpPassManager &pm);

/// The gpu.module kernels to NVVM and to PTX, one gpu.binary object per chip in `chips`
/// (sm_80, sm_90, ...).
void buildGPUBinaryPipeline(mlir::OpPassManager &pm, llvm::ArrayRef<std::string> chips);

struct GPUPipelineOptions {
  /// The chips the kernels are generated for (sm_80, sm_90, ...).
  std::vector<std::string> chips = {"sm_80", "sm_90"};
  /// For testing without a GPU (agc --gpu-emulate): the launches are loops on the CPU
  /// (-ag-gpu-emulate-launches), and no PTX is made.
  bool emulate = false;
  /// The CUDA toolkit's directory: each kernel module becomes a fat binary with every
  /// chip's cubin and PTX (-ag-gpu-fat-binary). Empty: the first chip's PTX only.
  std::string toolkit;
};

/// The whole nvptx pipeline, from `scf` to the LLVM dialect: the kernels (as
/// buildGPUKernelPipeline), what they read staged where a GPU can read it, buffer
/// deallocation, the kernels' PTX (as buildGPUBinaryPipeline, then a fat binary where
/// `options` names a toolkit), and the host code lowered with its launches.
void buildGPUPipeline(mlir::OpPassManager &pm, const GPUPipelineOptions &options);

/// Says what gpu.launch_func does to memory (a read and a write of each buffer it is
/// given), so that buffer deallocation accepts functions that launch kernels
/// (passes/gpu/LaunchEffects.cpp). Every context that runs the nvptx pipeline needs it.
void registerGPULaunchEffects(mlir::DialectRegistry &registry);

/// Registers agc's passes, one flag each (`-ag-prune-dead`, ...), and its pipelines,
/// with MLIR's pass registry. Idempotent.
void registerAgcPasses();

} // namespace ag

#endif // AG_PASSES_PIPELINES_H
