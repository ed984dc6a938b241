//===- Registration.cpp - agc's passes and pipelines in MLIR's registry ----===//
#include "ag/passes/Pipelines.h"

#include "ag/passes/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <mutex>

void ag::registerAgcPasses() {
  static std::once_flag registered;
  std::call_once(registered, [] {
    registerAgPasses();
    mlir::PassPipelineRegistration<>("agc-to-scf", "agc's passes from the ag dialect to scf",
                                     buildAgToSCFPipeline);
    mlir::PassPipelineRegistration<>(
        "agc-cpu", "agc's CPU pipeline, from scf to nothing but the LLVM dialect (kernels "
        "sized for AVX2)",
        [](mlir::OpPassManager &pm) { buildCPUPipeline(pm); });
    mlir::PassPipelineRegistration<>(
        "agc-gpu-kernels", "agc's GPU pipeline, from scf to host code and gpu.module kernels",
        buildGPUKernelPipeline);
    mlir::PassPipelineRegistration<>(
        "agc-gpu-binary", "agc's gpu.module kernels to PTX for sm_80 and sm_90",
        [](mlir::OpPassManager &pm) { buildGPUBinaryPipeline(pm, {"sm_80", "sm_90"}); });
    mlir::PassPipelineRegistration<>(
        "agc-nvptx", "agc's whole nvptx pipeline, from scf to the LLVM dialect with kernels for sm_80 and sm_90",
        [](mlir::OpPassManager &pm) { buildGPUPipeline(pm, GPUPipelineOptions()); });
  });
}
