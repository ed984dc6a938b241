//===- Dialects.h - The dialects and interfaces agc's pipelines use --------===//
//
// See Dialects.cpp. Private to the driver.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_DRIVER_LIB_DIALECTS_H
#define AG_DRIVER_LIB_DIALECTS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace ag::driver {

/// The ag dialect and the upstream dialects on tensors and buffers that MLIRGen and every
/// target's pipeline up to bufferization use, with their tiling, value-bounds and
/// bufferization interfaces.
void registerTensorDialects(mlir::DialectRegistry &registry);

/// The LLVM and OpenMP dialects, every used dialect's conversion to the LLVM dialect,
/// and the translations to LLVM IR: what the CPU target's pipeline ends with.
void registerLLVMDialects(mlir::DialectRegistry &registry);

/// The gpu and NVVM dialects, the NVVM target that serializes kernels to PTX, and their
/// translations to LLVM IR: what --target=nvptx adds.
void registerGPUDialects(mlir::DialectRegistry &registry);

} // namespace ag::driver

#endif // AG_DRIVER_LIB_DIALECTS_H
