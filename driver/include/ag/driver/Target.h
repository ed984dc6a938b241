//===- Target.h - What agc generates code for ------------------------------===//
//
// A Target owns everything that depends on where the code runs: the pass pipeline from
// `scf` to the LLVM dialect, its LLVM target machine (triple, CPU, features), LLVM's
// optimization pipeline and object or assembly emission. The driver (Driver.h) runs the
// target-independent stages and hands the rest to it. `--target` selects one by
// TargetKind: the CPU, or NVPTX (host code for the CPU that launches kernels for NVIDIA
// GPUs, their PTX embedded in the same object).
//
// Includes no MLIR: the agc driver stays a light translation unit.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_DRIVER_TARGET_H
#define AG_DRIVER_TARGET_H

#include "ag/driver/CABI.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace ag::driver {

/// CPUAndNVPTX (`--target=cpu,nvptx`): one object with both, each function's GPU version
/// used where a GPU is usable and its CPU version otherwise (agc_uses_gpu says which).
enum class TargetKind { CPU, NVPTX, CPUAndNVPTX };

/// The CPU objects are compiled for by default: x86-64-v3 (AVX2, FMA, BMI2: every x86-64
/// CPU since Intel Haswell, 2013, and AMD Excavator and Zen), never the build machine's
/// own, so that an object runs wherever it is linked.
inline constexpr const char *kDefaultCPU = "x86-64-v3";

struct CodeGenOptions {
  /// An LLVM CPU name (x86-64-v2, skylake-avx512, znver4, ...), or "native": this
  /// machine's CPU with its features. Empty: kDefaultCPU.
  std::string cpu;
  unsigned optLevel = 2; ///< -O0 .. -O3.
  /// -g: DWARF line tables mapping the CPU code to the Python source's lines.
  bool debugInfo = false;
  /// NVPTX: the GPUs kernels are generated for, as LLVM names them (sm_80, sm_90, ...);
  /// without a CUDA toolkit, the first one's PTX is what the object embeds.
  std::vector<std::string> gpuChips = {"sm_80", "sm_90"};
  /// NVPTX, for testing without a GPU: the kernels run on the CPU, as sequential loops
  /// where they are launched (-ag-gpu-emulate-launches); no PTX.
  bool gpuEmulate = false;
  /// NVPTX: the CUDA toolkit's directory (bin/ptxas, bin/fatbinary), whose tools make
  /// each kernel module a fat binary of every chip's cubin and PTX; empty: the first
  /// chip's PTX alone is embedded.
  std::string cudaToolkit;
};

class Target {
public:
  virtual ~Target();
  TargetKind getKind() const { return kind; }
  /// The name `--target` takes: "cpu", "nvptx", "cpu,nvptx".
  virtual llvm::StringRef getName() const = 0;
  /// Adds the passes from `scf` to nothing but the LLVM dialect (CPUAndNVPTX: the CPU's;
  /// see gpuPart).
  virtual void buildPipeline(mlir::OpPassManager &pm) const = 0;
  /// CPUAndNVPTX: the NVPTX target whose pipeline makes each function's GPU version
  /// (the driver lowers the program with both and joins them: joinGPUVersion, CABI.h).
  virtual const Target *gpuPart() const { return nullptr; }
  /// Whether the pipeline makes kernels (NVPTX or CPUAndNVPTX).
  bool makesKernels() const { return kind != TargetKind::CPU; }
  /// Starts, on another thread, the part of emit that does not depend on the program:
  /// the target machine, the code generator's pipeline for an object (or, with
  /// `assembly`, assembly text), the tables LLVM builds at their first use; so that it
  /// runs while the program is lowered. The next emit of that file type takes it (and
  /// waits for it); without a call, emit does it all itself. (A program refused
  /// meanwhile waits for the thread when the target goes: 2–3 ms at most.)
  virtual void prepare(bool assembly) const {}
  /// Optimizes `lowered` and emits an object file (or, with `assembly`, assembly text).
  virtual llvm::Error emit(LoweredModule &lowered, bool assembly,
                           llvm::SmallVectorImpl<char> &out) const = 0;

protected:
  explicit Target(TargetKind kind) : kind(kind) {}

private:
  TargetKind kind;
};

/// The target `kind` with `options`; an error (a usage error: an unknown --mcpu or
/// --gpu-arch) says what is wrong and what is valid.
llvm::Expected<std::unique_ptr<Target>> createTarget(TargetKind kind,
                                                     const CodeGenOptions &options);

/// A compiled module loaded into this process, its entry points callable.
class LoadedModule {
public:
  virtual ~LoadedModule();
  /// The address of exported symbol `name`.
  virtual llvm::Expected<void *> lookup(llvm::StringRef name) = 0;
};

/// Loads an object file `object` (emitted for this machine's CPU, by either target) into
/// this process, resolving agc's runtime and the C library against this process (agc
/// run). It runs no constructors: an nvptx object's, which record its kernels, are
/// called through exportStructors (CABI.h).
llvm::Expected<std::unique_ptr<LoadedModule>> loadObject(llvm::SmallVectorImpl<char> &&object);

} // namespace ag::driver

#endif // AG_DRIVER_TARGET_H
