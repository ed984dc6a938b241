//===- Pipeline.cpp - GPU kernels for NVPTX, from scf to PTX --------------===//
//
// See Pipelines.h. The tensor passes the CPU pipeline starts with (effects lowered,
// elementwise fusion) and its bufferization; then linalg's parallel loops, the ones a GPU
// can run tiled into blocks of threads (-ag-gpu-map-loops), made into gpu.launch and
// outlined into gpu.module kernels. The binary pipeline lowers the kernels to NVVM and
// serializes them as PTX, one object per chip.
//
// The whole pipeline then stages what the kernels read (-ag-gpu-stage-buffers), frees
// buffers as the CPU's does, has the driver copy the caller's tensors (which may be in
// GPU memory: -ag-gpu-driver-copies), and lowers the host code as the CPU's is lowered,
// with its launches and buffers from the runtime's GPU allocator; for testing without a
// GPU, its launches may instead run on the CPU (-ag-gpu-emulate-launches). A reduction
// to one value is a kernel of blocks of 256 threads, each block's partials combined by
// gpu.all_reduce, and a combine of the blocks' results on the host; one along the last
// axes a kernel of a block per row (-ag-gpu-split-reductions, -ag-gpu-block-reductions),
// with the loops over the same rows that follow it (a softmax's sum and division:
// -ag-gpu-fuse-blocks); one along leading axes a kernel of partials of each output and a kernel combining
// them, or of a thread per output element (-ag-gpu-parallel-loops-first). A loop with run-time checks (a
// gather's index) is a kernel whose checks set a flag the host reads after the launch,
// rerunning the loop on the host for the error (-ag-gpu-kernel-checks); the flag also
// bounds float32 sin and cos (the rerun computes them beyond the kernels' range).
// Float32 erf, expm1, log1p, sin and cos and rsqrt become arithmetic in the kernels
// (-ag-gpu-expand-math). A matmul's thread computes a tile of 4 x 4
// outputs, and a block of them 32 x 128 outputs with A and B staged in shared memory
// where the sizes allow (-ag-gpu-register-tiles); an elementwise kernel's thread four
// neighbouring elements, each buffer read and written by one vector access where it
// is aligned (-ag-gpu-vector-access). Not done yet (issue 18): the other math that
// needs libdevice (pow, tan, float64 exp, ...), which runs on the host.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Pipelines.h"

#include "ag/passes/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

static void addKernels(mlir::OpPassManager &pm, const ag::SharedCanonicalizer &canonicalize) {
  using namespace ag;
  // Run-time broadcasts tested once per block, and a version of the code where none
  // happens, whose elementwise chains fusion then makes one loop.
  pm.addPass(createVersionBroadcasts());
  pm.addPass(createLowerAgEffects());
  pm.addPass(canonicalize.create());
  pm.addPass(mlir::createCSEPass());
  // Elementwise work computed again in each consumer rather than stored and read back
  // (a softmax's exponentials: in its sum and in its division).
  pm.addPass(createFuseElementwise(FuseElementwiseOptions{/*maxBodyOps=*/64, /*recompute=*/true}));
  // x ** 2 as x * x (its exponent folded into the payload by fusion).
  pm.addPass(createExactPowers());
  // Float sums and products reassociated as on the CPU (in TensorFlow's freedom of
  // order), before a reduction to one value is split into partials below.
  pm.addPass(createReassociateReductions());
  // A matmul's multiply-adds fused as on the CPU and on the GPU (the kernels' and the
  // emulated launches' results are the same).
  pm.addPass(createMatmulLoopOrder(MatmulLoopOrderOptions{/*reorder=*/false}));
  // A reduction to one value, or along the last axes, as a kernel of partials (the
  // first has no parallel loop, the second's threads would each read a row); the other
  // reductions' parallel loops outermost (one kernel, a thread per output element).
  pm.addNestedPass<mlir::func::FuncOp>(createGPUSplitReductions());
  pm.addNestedPass<mlir::func::FuncOp>(createGPUParallelLoopsFirst());
  pm.addPass(canonicalize.create());

  addBufferization(pm, canonicalize);
  pm.addPass(mlir::createConvertBufferizationToMemRefPass());

  // Every linalg op as scf.parallel over its parallel dimensions; those a GPU can run,
  // kernels.
  pm.addPass(mlir::createConvertLinalgToParallelLoopsPass());
  pm.addPass(canonicalize.create());
  // A loop's run-time checks (a gather's index) recorded in a flag the host reads after
  // it, so that the loop is a kernel too.
  pm.addNestedPass<mlir::func::FuncOp>(createGPUKernelChecks());
  // A reduction's blocks: a block of threads each, combined by gpu.all_reduce; the loops
  // of a row's work after one (a softmax's sum and division) in the same block.
  pm.addPass(mlir::createCSEPass()); // the rows' and lanes' counts, one value each
  pm.addNestedPass<mlir::func::FuncOp>(createGPUFuseBlocks());
  pm.addNestedPass<mlir::func::FuncOp>(createGPUBlockReductions());
  // A kernel's inner loop adding into one element (a matmul's k loop): the element in a
  // register, stored once.
  pm.addNestedPass<mlir::func::FuncOp>(createRegisterAccumulators());
  // A matmul's thread computes a tile of 4 x 4 outputs (four loads of A and four of B
  // for sixteen multiply-adds); the copies' index arithmetic and loads merged. Where
  // the rows are a multiple of 32 and the columns of 128, a kernel of blocks of 32 x 128
  // outputs, A and B staged in shared memory a slice of 16 k's at a time.
  pm.addNestedPass<mlir::func::FuncOp>(createGPURegisterTiles());
  pm.addPass(mlir::createCSEPass());
  // An elementwise kernel's thread computes four neighbouring elements, each buffer read
  // and written by one 16-byte access where it is aligned.
  pm.addNestedPass<mlir::func::FuncOp>(createGPUVectorAccess());
  pm.addNestedPass<mlir::func::FuncOp>(createGPUMapLoops());
  pm.addPass(mlir::createConvertParallelLoopToGpuPass());
  pm.addPass(canonicalize.create());
  pm.addPass(mlir::createGpuKernelOutliningPass());
  // rsqrt, erf, expm1 and log1p as arithmetic, before the kernels are emulated or
  // lowered: what the emulated suite checks is what the GPU runs.
  pm.addNestedPass<mlir::gpu::GPUModuleOp>(createGPUExpandMath());
}

static void addBinaries(mlir::OpPassManager &pm, const ag::SharedCanonicalizer &canonicalize,
                        llvm::ArrayRef<std::string> chips) {
  using namespace ag;
  // The kernels' float32 exp, tanh and log as arithmetic (no libdevice), their affine
  // index arithmetic and control flow lowered, then NVVM, one target per chip.
  mlir::OpPassManager &kernels = pm.nest<mlir::gpu::GPUModuleOp>();
  kernels.addPass(createApproximateExp());
  kernels.addPass(createApproximateTanh());
  kernels.addPass(createApproximateLog());
  kernels.addPass(mlir::createLowerAffinePass());
  kernels.addPass(mlir::createSCFToControlFlowPass());
  for (const std::string &chip : chips) {
    mlir::GpuNVVMAttachTargetOptions target;
    target.chip = chip;
    target.optLevel = 3;
    pm.addPass(mlir::createGpuNVVMAttachTarget(target));
  }
  mlir::OpPassManager &nvvm = pm.nest<mlir::gpu::GPUModuleOp>();
  nvvm.addPass(mlir::createConvertGpuOpsToNVVMOps());
  // Its calls of libdevice's one-instruction functions (fabs, fma, floor, ...) as those
  // instructions: no libdevice, whatever CUDA_HOME says.
  nvvm.addPass(createGPUDefineMath());
  // float32 denormals read and written as zeros (PTX's .ftz), as on the host.
  nvvm.addPass(createGPUFlushDenormals());
  nvvm.addPass(canonicalize.create());
  nvvm.addPass(mlir::createReconcileUnrealizedCastsPass());
  mlir::GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa"; // PTX text
  pm.addPass(mlir::createGpuModuleToBinaryPass(binary));
}

void ag::buildGPUKernelPipeline(mlir::OpPassManager &pm) {
  addKernels(pm, SharedCanonicalizer());
}

void ag::buildGPUBinaryPipeline(mlir::OpPassManager &pm, llvm::ArrayRef<std::string> chips) {
  addBinaries(pm, SharedCanonicalizer(), chips);
}

void ag::buildGPUPipeline(mlir::OpPassManager &pm, const GPUPipelineOptions &options) {
  SharedCanonicalizer canonicalize;
  addKernels(pm, canonicalize);
  // The caller's tensors copied by the driver (they may be in GPU memory: see
  // -ag-gpu-driver-copies, after deallocation), except where the launches run on the CPU.
  pm.addNestedPass<mlir::func::FuncOp>(
      createGPUStageBuffers(GPUStageBuffersOptions{/*driverCopies=*/!options.emulate}));
  addBufferDeallocation(pm, canonicalize);
  if (!options.emulate)
    pm.addNestedPass<mlir::func::FuncOp>(createGPUDriverCopies());
  if (options.emulate) {
    pm.addPass(createGPUEmulateLaunches());
  } else {
    addBinaries(pm, canonicalize, options.chips);
    pm.addPass(createGPUFatBinary(GPUFatBinaryOptions{options.toolkit}));
  }
  LowerToLLVMOptions lowering;
  lowering.gpuLaunches = true;
  addLowerToLLVM(pm, canonicalize, lowering);
}
