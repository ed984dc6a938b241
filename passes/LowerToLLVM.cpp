//===- LowerToLLVM.cpp - host code to the LLVM dialect, for every target --===//
//
// See Pipelines.h: after bufferization and deallocation, the loops, math and buffers of
// host code to nothing but the LLVM dialect (with OpenMP regions for the CPU's threads,
// and with launches of GPU kernels for nvptx), then the check that nothing else is left.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Pipelines.h"

#include "ag/passes/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

void ag::addLowerToLLVM(mlir::OpPassManager &pm, const SharedCanonicalizer &canonicalize,
                        const LowerToLLVMOptions &options) {
  pm.addPass(mlir::createConvertLinalgToLoopsPass());
  if (options.threads) {
    // A chunk's loop adding into its element of the partial sums: the sum carried in a
    // register. (In the OpenMP region that the next makes, the element and the input
    // are pointers loaded from the region's arguments, which LLVM cannot tell apart: it
    // stored the sum every step, and vectorized behind a run-time overlap check with a
    // scalar copy of the loop unrolled 8 times.)
    pm.addNestedPass<mlir::func::FuncOp>(createRegisterAccumulators());
    // scf.parallel on all cores: OpenMP regions, run by LLVM's libomp, as wide as the
    // runtime says. (Without, scf-to-cf makes each a sequential nest.)
    pm.addPass(mlir::createConvertSCFToOpenMPPass());
    pm.addPass(createThreadCount());
  }
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
  // bfloat16 arithmetic in float32, each result rounded back (as Eigen's bfloat16
  // operators compute), and the conversions as integer operations: LLVM made both calls
  // of __truncsfbf2 on a CPU without AVX512-BF16, which Debian 12's libgcc lacks.
  mlir::arith::ArithEmulateUnsupportedFloatsOptions bf16InF32;
  bf16InF32.sourceTypeStrs = {"bf16"};
  bf16InF32.targetTypeStr = "f32";
  pm.addPass(mlir::arith::createArithEmulateUnsupportedFloats(bf16InF32));
  pm.addPass(createExpandBFloat16());
  pm.addPass(mlir::createConvertMathToFuncs());
  pm.addPass(mlir::createConvertMathToLibmPass());
  // expand_shapes of several dynamic sizes in a group, which the next crashes on.
  pm.addPass(createExpandShapeMetadata());
  pm.addPass(mlir::memref::createExpandStridedMetadataPass());
  pm.addPass(mlir::createLowerAffinePass());
  pm.addPass(mlir::createSCFToControlFlowPass());
  pm.addPass(mlir::createConvertVectorToLLVMPass());
  // Buffers come from the runtime's allocator.
  mlir::FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  memrefToLLVM.useAlignedAlloc = true;
  pm.addPass(mlir::createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  if (options.gpuLaunches) {
    // gpu.launch_func's operands as LLVM values (its launch, and gpu.binary's
    // embedding, are the translation's: #gpu.select_object); buffers a kernel can read.
    pm.addPass(mlir::createGpuToLLVMConversionPass());
    pm.addPass(createGPUManagedBuffers());
  }
  pm.addPass(mlir::createConvertToLLVMPass());
  pm.addPass(mlir::createReconcileUnrealizedCastsPass());
  pm.addPass(canonicalize.create());
  // The stack a call's descriptor or a launch's arguments take in a loop, given back
  // after it (else each iteration takes more). After the canonicalizer, which drops the
  // conversion's dead uses of the memory.
  pm.addPass(createStackScopes());
  pm.addPass(createCheckLLVMLowered());
}
