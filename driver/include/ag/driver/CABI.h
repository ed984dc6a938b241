//===- CABI.h - The C interface of a compiled module -----------------------===//
//
// What a compiled function takes and gives at its C entry point (its signature), a module
// lowered to LLVM IR with those signatures, and the two things built from them: one
// exported entry point per function, `<prefix>_<function>`, and `<prefix>_init`, which
// call agc's runtime (agc/runtime.h), with every other symbol made internal so that
// several compiled modules link into one program; and the C header that declares them.
//
// LLVM only: no MLIR, no frontend.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_DRIVER_CABI_H
#define AG_DRIVER_CABI_H

#include "ag/frontend/Diagnostics.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace ag::driver {

/// One tensor a compiled function takes or returns, as its signature types it.
struct TensorSignature {
  std::string name;           ///< The Python parameter; empty for a result.
  std::string dtype;          ///< "float32", "float64", "int32", "int64", "bool".
  std::vector<int64_t> shape; ///< -1 for a dynamic dimension.
};

/// A compiled function: what its C entry point takes and gives.
struct FunctionSignature {
  std::string name;       ///< The Python function (its specialization: `f`, `f_1`, ...).
  std::string pythonName; ///< The Python function as written.
  Location loc;           ///< Where it is defined.
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
  /// Every Python file the compile read: the main file, then each imported module's.
  std::vector<std::string> readFiles;
  LoweredModule();
  LoweredModule(LoweredModule &&);
  LoweredModule &operator=(LoweredModule &&);
  ~LoweredModule();
};

/// `name` as a C identifier: `my-model` -> `my_model`, a leading digit prefixed with `_`.
std::string cIdentifier(llvm::StringRef name);

/// agc_dtype's value (agc/runtime.h) for a dtype name ("float32", ...); 0 for none.
int dtypeCode(llvm::StringRef dtype);

/// How an element of one dtype is passed by value at a scalar entry point
/// (`<prefix>_<fn>_scalar`): its C type and the class and width a caller's ABI gives it.
/// float16 and bfloat16 are their bits (uint16_t), as in a tensor (agc/runtime.h); bool
/// is C's bool (one byte, 0 or 1).
struct ScalarCType {
  enum Kind { Float, Signed, Unsigned, Bool };
  llvm::StringRef name; ///< "float", "int32_t", "bool", ...
  Kind kind;
  unsigned bits; ///< 8, 16, 32 or 64.
};
/// The scalar C type of an element of `dtype`; nullptr where there is none (complex and
/// string elements).
const ScalarCType *scalarCType(llvm::StringRef dtype);

/// The exported functions addEntryPoints defines for `sig`, each with what it is (for a
/// message): `<prefix>_<fn>`, `<prefix>_<fn>_v` and, for a function whose inputs and
/// results are all 0-d, `<prefix>_<fn>_scalar`. (Two functions whose names collide must
/// be refused before addEntryPoints, which would rename one.)
std::vector<std::pair<std::string, std::string>>
entryPointNames(const LoweredModule &lowered, const FunctionSignature &sig,
                llvm::StringRef prefix);
/// Adds the exported entry points `<prefix>_<fn>` and `<prefix>_init` to `lowered`, and
/// makes every other definition internal.
void addEntryPoints(LoweredModule &lowered, llvm::StringRef prefix);

/// After LLVM's optimization of `m` (addEntryPoints's module): each scalar entry point
/// (`<prefix>_<fn>_scalar`, for a function whose inputs and results are all 0-d) whose
/// optimized body calls nothing that needs agrt_call's bookkeeping (no allocation, no
/// check that can fail, no thread, no string) calls it directly, setting the denormal
/// mode itself.
void callScalarEntriesDirectly(llvm::Module &m);
/// For --target=cpu,nvptx: joins `gpu`, the program lowered for nvptx, to `lowered`, the
/// same program lowered for the CPU (both translated in `lowered`'s context). Each
/// function's C interface (`_mlir_ciface_NAME`) and the state's initializer
/// (`__agc_init`) then call the GPU version where a GPU is usable and the CPU version
/// otherwise (agc_uses_gpu, decided once per process); the GPU version's own symbols
/// get a `.gpu` suffix. Before addEntryPoints.
void joinGPUVersion(LoweredModule &lowered, std::unique_ptr<llvm::Module> gpu);

/// For a loader that runs no constructors (agc run's JIT): the module's constructors and
/// destructors (an nvptx object's, which record and release its kernels) removed from
/// llvm.global_ctors/_dtors and called, in their order, by exported functions
/// `<prefix>_constructors` and `<prefix>_destructors`. False, and nothing added, where
/// the module has none.
bool exportStructors(LoweredModule &lowered, llvm::StringRef prefix);

/// The C header that declares the entry points of `lowered` (after addEntryPoints).
/// `defines` are the -D name=value the module was specialized with: the header records
/// them.
std::string cHeader(const LoweredModule &lowered, llvm::StringRef prefix,
                    llvm::StringRef sourcePath, llvm::ArrayRef<std::string> defines = {});

} // namespace ag::driver

#endif // AG_DRIVER_CABI_H
