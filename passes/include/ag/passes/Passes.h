//===- Passes.h - agc's passes ---------------------------------------------===//
//
// Declared in Passes.td (one pass per file in passes/ag/ and passes/cpu/), registered
// with registerAgPasses() so that ag-opt can run each alone.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_PASSES_PASSES_H
#define AG_PASSES_PASSES_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace ag {

/// The mark -ag-gpu-stage-buffers puts on the copies of the caller's tensors that
/// -ag-gpu-driver-copies makes copies by the CUDA driver.
inline constexpr llvm::StringLiteral kThroughDriverAttr = "ag.through_driver";

/// The metadata of the location -ag-version-broadcasts gives the `scf.if` of its two
/// versions (then: some operand broadcasts; else: none does), which --print-kernels reads.
inline constexpr llvm::StringLiteral kBroadcastVersions = "ag.broadcast_versions";

/// The mark -ag-gpu-map-loops puts on a host loop of launches, each at most 65,535 blocks
/// along the grid's axis the mark names ("y" or "z"), which --print-kernels reads.
inline constexpr llvm::StringLiteral kGridLaunchesAttr = "ag.grid_launches";

/// Whether `op` is nested in the version of -ag-version-broadcasts's code where an
/// operand broadcasts (the then branch of the `scf.if` it made).
bool inBroadcastVersion(mlir::Operation *op);

#define GEN_PASS_DECL
#include "ag/passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ag/passes/Passes.h.inc"

} // namespace ag

#endif // AG_PASSES_PASSES_H
