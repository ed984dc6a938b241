//===- Pipeline.h - From the AST to each printable stage of MLIR and LLVM --===//
//
// The stages after the analyses, in order: `ag` (MLIRGen's output), `scf` (ag lowered to
// structured control flow), `llvm-dialect` (bufferized and converted: nothing but the
// LLVM dialect, checked), `llvm-ir` (translated). The pass pipelines are textual, so that
// `cpuPipeline()` can be printed and replayed with ag-opt.
//
// This header includes no MLIR: the agc driver stays a light translation unit.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_PASSES_PIPELINE_H
#define AG_PASSES_PIPELINE_H

#include "ag/frontend/AST.h"
#include "ag/frontend/Diagnostics.h"
#include "ag/frontend/analysis/Tracer.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace ag {

enum class IRStage { Ag, Scf, LlvmDialect, LlvmIr };

/// The passes from `ag` to `scf`, as ag-opt's --pass-pipeline takes them.
std::string scfPipeline();
/// The passes from `scf` to the LLVM dialect for the CPU, the final check included.
std::string cpuPipeline();

/// One tensor a compiled function takes or returns, as its signature types it.
struct TensorSignature {
  std::string name;           ///< The Python parameter; empty for a result.
  std::string dtype;          ///< "float32", "float64", "int32", "int64", "bool".
  std::vector<int64_t> shape; ///< -1 for a dynamic dimension.
};

/// A compiled function: what its C entry point takes and gives.
struct FunctionSignature {
  std::string name;      ///< The Python function (its specialization: `f`, `f_1`, ...).
  std::string pythonName; ///< The Python function as written.
  Location loc;          ///< Where it is defined.
  std::vector<TensorSignature> inputs, results;
  /// The structure of the Python result as JSON with each result's index in place:
  /// `0`, `[0, 1]`, `null`.
  std::string resultStructure;
};

/// A module lowered to LLVM IR, with the signatures of its functions.
struct LoweredModule {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  std::vector<FunctionSignature> functions;
  bool hasState = false; ///< It defines __agc_init (module-level tf.Variables).
  LoweredModule();
  LoweredModule(LoweredModule &&);
  LoweredModule &operator=(LoweredModule &&);
  ~LoweredModule();
};

/// Generates, lowers and translates `module`'s functions (only `only`, when given) to
/// LLVM IR. Nothing after reporting errors on `diag`.
std::optional<LoweredModule> lowerToLLVM(const ast::Module &module,
                                         const analysis::ArgumentSpec &spec,
                                         DiagnosticEngine &diag, llvm::StringRef only = "");

/// Registers agc's passes and its two pipelines with MLIR's pass registry, so that
/// ag-opt runs them by name: `--agc-to-scf` and `--agc-cpu` (the CPU pipeline from scf).
void registerAgcPasses();

/// Generates the MLIR of `module`'s functions (only `only`, when given), lowers it to
/// `stage` and prints it on `os`. False after reporting errors on `diag`, located at the
/// Python source wherever the IR knows where it came from.
bool emitIR(const ast::Module &module, const analysis::ArgumentSpec &spec,
            DiagnosticEngine &diag, IRStage stage, llvm::raw_ostream &os,
            llvm::StringRef only = "");

} // namespace ag

#endif // AG_PASSES_PIPELINE_H
