//===- Pipeline.cpp - The CPU pipeline, from scf to the LLVM dialect -------===//
//
// See Pipelines.h. On tensors: the ag effects lowered, elementwise fusion, the matmul and
// reduction passes; then one-shot bufferization, buffer deallocation, linalg to loops,
// the math passes, and conversion to the LLVM dialect, buffers allocated through the
// runtime's allocator (runtime/lib/alloc.c); then the check that nothing else is left.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Pipelines.h"

#include "ag/passes/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

void ag::buildCPUPipeline(mlir::OpPassManager &pm) {
  SharedCanonicalizer canonicalize;
  pm.addPass(createLowerAgEffects());
  pm.addPass(canonicalize.create());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(createFuseElementwise());
  // Large work in chunks the cores share (scf.forall on tensors), before the matmul
  // kernel, which then applies to each chunk's matmul.
  pm.addPass(createTileForThreads());
  pm.addPass(createMatmulMicrokernel());
  pm.addPass(createMatmulLoopOrder());
  pm.addPass(createReassociateReductions());
  pm.addPass(canonicalize.create());
  // An elementwise result over an input nothing else reads (a loop's carried tensor
  // updated in place); the caller's tensors marked read-only.
  pm.addPass(createReuseInputBuffers());

  addBufferization(pm, canonicalize);
  // The chunk loops parallel where no run-time error can be raised in them (after CSE,
  // which merges the equal slices a chunk writes and inserts, so that their copy folds).
  pm.addPass(mlir::createCSEPass());
  pm.addPass(canonicalize.create());
  pm.addPass(createParallelLoops());
  // Upstream's buffer deallocation pipeline (buildBufferDeallocationPipeline, default
  // options), with the shared canonicalizer.
  pm.addPass(mlir::memref::createExpandReallocPass({/*emitDeallocs=*/false}));
  pm.addPass(canonicalize.create());
  pm.addPass(mlir::bufferization::createOwnershipBasedBufferDeallocationPass());
  pm.addPass(canonicalize.create());
  pm.addPass(mlir::bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(mlir::bufferization::createLowerDeallocationsPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(canonicalize.create());
  pm.addPass(mlir::createConvertBufferizationToMemRefPass());

  pm.addPass(mlir::createConvertLinalgToLoopsPass());
  // scf.parallel on all cores: OpenMP regions, run by LLVM's libomp, as wide as the
  // runtime says.
  pm.addPass(mlir::createConvertSCFToOpenMPPass());
  pm.addPass(createThreadCount());
  // Its memref.alloca_scope around each loop body, inlined: nothing in them allocates on
  // the stack, and scf-to-cf cannot give a scope the blocks of a loop.
  pm.addPass(canonicalize.create());
  // float16 and bfloat16 math (exp, tanh, ...) in float32, rounded back: as TensorFlow's
  // Eigen half computes it, and what libm has functions for.
  // Complex arithmetic as float arithmetic (|z| and z / w with care for overflow).
  pm.addPass(mlir::createConvertComplexToStandardPass());
  pm.addPass(mlir::math::createMathExtendToSupportedTypes());
  pm.addPass(createApproximateExp());
  pm.addPass(createApproximateTanh());
  pm.addPass(createApproximateLog());
  pm.addPass(createMathToIntrinsics());
  pm.addPass(mlir::createConvertMathToFuncs());
  pm.addPass(mlir::createConvertMathToLibmPass());
  pm.addPass(mlir::memref::createExpandStridedMetadataPass());
  pm.addPass(mlir::createLowerAffinePass());
  pm.addPass(mlir::createSCFToControlFlowPass());
  pm.addPass(mlir::createConvertVectorToLLVMPass());
  // Buffers come from the runtime's allocator.
  mlir::FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  memrefToLLVM.useAlignedAlloc = true;
  pm.addPass(mlir::createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addPass(mlir::createConvertToLLVMPass());
  pm.addPass(mlir::createReconcileUnrealizedCastsPass());
  pm.addPass(canonicalize.create());
  pm.addPass(createCheckLLVMLowered());
}
