//===- Backend.h - LLVM IR to native code, C entry points and the C header --===//
//
// After the passes: a LoweredModule (LLVM IR plus the signature of each function) gets
// one exported C entry point per function, `<prefix>_<function>`, and `<prefix>_init`,
// which call agc's runtime (agc/runtime.h); every other symbol becomes internal, so that
// several compiled modules link into one program. It is then optimized and emitted for
// a portable x86-64 level (or --mcpu) as an object or assembly, in process, byte-identical for the same
// input and options; or loaded into this process to run (agc run). The C header declares
// the entry points.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_BACKEND_BACKEND_H
#define AG_BACKEND_BACKEND_H

#include "ag/passes/Pipeline.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <string>

namespace ag::backend {

/// The CPU objects are compiled for by default: x86-64-v3 (AVX2, FMA, BMI2: every x86-64
/// CPU since Intel Haswell, 2013, and AMD Excavator and Zen), never the build machine's
/// own, so that an object runs wherever it is linked.
inline constexpr const char *kDefaultCPU = "x86-64-v3";

struct CodeGenOptions {
  /// An LLVM CPU name (x86-64-v2, skylake-avx512, znver4, ...), or "native": this
  /// machine's CPU with its features. Empty: kDefaultCPU.
  std::string cpu;
  unsigned optLevel = 2;  ///< -O0 .. -O3.
};

/// Whether `cpu` names a CPU of this machine's target (or is "native"); the error says
/// which names are valid.
llvm::Error checkCPU(llvm::StringRef cpu);

/// `name` as a C identifier: `my-model` -> `my_model`, a leading digit prefixed with `_`.
std::string cIdentifier(llvm::StringRef name);

/// Adds the exported entry points `<prefix>_<fn>` and `<prefix>_init` to `lowered`, and
/// makes every other definition internal.
void addEntryPoints(LoweredModule &lowered, llvm::StringRef prefix);

/// The C header that declares the entry points of `lowered` (after addEntryPoints).
/// `defines` are the -D name=value the module was specialized with: the header records
/// them.
std::string cHeader(const LoweredModule &lowered, llvm::StringRef prefix,
                    llvm::StringRef sourcePath, llvm::ArrayRef<std::string> defines = {});

/// Optimizes `lowered` and emits an object file (or, with `assembly`, assembly text).
llvm::Error emitNative(LoweredModule &lowered, const CodeGenOptions &options, bool assembly,
                       llvm::SmallVectorImpl<char> &out);

/// A compiled module loaded into this process, its entry points callable.
class LoadedModule {
public:
  virtual ~LoadedModule();
  /// The address of exported symbol `name`.
  virtual llvm::Expected<void *> lookup(llvm::StringRef name) = 0;
};

/// Loads object file `object` into this process, resolving agc's runtime and the C
/// library against this process.
llvm::Expected<std::unique_ptr<LoadedModule>> loadObject(llvm::SmallVectorImpl<char> &&object);

} // namespace ag::backend

#endif // AG_BACKEND_BACKEND_H
