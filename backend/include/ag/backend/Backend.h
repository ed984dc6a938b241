//===- Backend.h - LLVM IR to native code, C entry points and the C header --===//
//
// After the passes: a LoweredModule (LLVM IR plus the signature of each function) gets
// one exported C entry point per function, `<prefix>_<function>`, and `<prefix>_init`,
// which call agc's runtime (agc/runtime.h); every other symbol becomes internal, so that
// several compiled modules link into one program. It is then optimized and emitted for
// the host (or --mcpu) as an object or assembly, in process, byte-identical for the same
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

struct CodeGenOptions {
  std::string cpu;        ///< Empty: the host's CPU, with its features.
  unsigned optLevel = 2;  ///< -O0 .. -O3.
};

/// `name` as a C identifier: `my-model` -> `my_model`, a leading digit prefixed with `_`.
std::string cIdentifier(llvm::StringRef name);

/// Adds the exported entry points `<prefix>_<fn>` and `<prefix>_init` to `lowered`, and
/// makes every other definition internal.
void addEntryPoints(LoweredModule &lowered, llvm::StringRef prefix);

/// The C header that declares the entry points of `lowered` (after addEntryPoints).
std::string cHeader(const LoweredModule &lowered, llvm::StringRef prefix,
                    llvm::StringRef sourcePath);

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
