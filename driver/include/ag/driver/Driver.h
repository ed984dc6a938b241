//===- Driver.h - From the AST to each printable stage of MLIR and LLVM ----===//
//
// The stages after the analyses, in order: `ag` (MLIRGen's output), `scf` (ag lowered to
// structured control flow: passes/ag), `llvm-dialect` (the target's pipeline: bufferized
// and converted, nothing but the LLVM dialect, checked), `llvm-ir` (translated). Then the
// Target emits the object (Target.h) and the C ABI gives it entry points (CABI.h).
//
// This header includes no MLIR: the agc driver stays a light translation unit.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_DRIVER_DRIVER_H
#define AG_DRIVER_DRIVER_H

#include "ag/driver/CABI.h"
#include "ag/driver/Target.h"
#include "ag/frontend/AST.h"
#include "ag/frontend/Diagnostics.h"
#include "ag/frontend/analysis/Tracer.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace ag::driver {

enum class IRStage { Ag, Scf, LlvmDialect, LlvmIr };

/// Generates, lowers for `target` and translates `module`'s entry points (the functions
/// `spec` selects, else every @tf.function) to LLVM IR. Nothing after reporting errors
/// on `diag`.
std::optional<LoweredModule> lowerToLLVM(const ast::Module &module,
                                         const analysis::ArgumentSpec &spec,
                                         DiagnosticEngine &diag, const Target &target);

/// Generates the MLIR of `module`'s entry points, lowers it to
/// `stage` for `target` and prints it on `os`. False after reporting errors on `diag`,
/// located at the Python source wherever the IR knows where it came from.
bool emitIR(const ast::Module &module, const analysis::ArgumentSpec &spec,
            DiagnosticEngine &diag, const Target &target, IRStage stage,
            llvm::raw_ostream &os);

/// Whether each of `chips` names an NVIDIA GPU LLVM's NVPTX back end generates code for
/// (sm_80, sm_90, ...); the error says which does not.
llvm::Error checkGPUChips(llvm::ArrayRef<std::string> chips);

/// What emitKernels prints.
enum class KernelOutput {
  IR,  ///< host functions and gpu.module kernels (--emit=gpu)
  PTX, ///< each kernel module's PTX per chip (--emit=ptx)
  List ///< each launch: where, which kernel, its block and grid (--print-kernels)
};

/// --target=nvptx, as far as this version goes (issue 18): generates `module`'s entry
/// points and lowers them to host functions that launch GPU kernels and the kernels'
/// gpu.module ops (the parallel loops a GPU can run), and prints `what`: that IR; the PTX
/// of each kernel module for each of `chips` (sm_80, ...), each after a line
/// `// agc: kernel module @NAME for CHIP`; or a line per kernel launch. False after
/// reporting errors on `diag`.
bool emitKernels(const ast::Module &module, const analysis::ArgumentSpec &spec,
                 DiagnosticEngine &diag, llvm::ArrayRef<std::string> chips, KernelOutput what,
                 llvm::raw_ostream &os);

} // namespace ag::driver

#endif // AG_DRIVER_DRIVER_H
