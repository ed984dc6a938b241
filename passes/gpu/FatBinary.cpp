//===- FatBinary.cpp - every chip's code in one CUDA fat binary ------------===//
//
// gpu-module-to-binary gives each kernel module one object per chip of --gpu-arch, as
// PTX text; the translation embeds one object (#gpu.select_object: the first). Where
// the CUDA toolkit is installed, this pass assembles each chip's PTX with its ptxas
// (a cubin: the GPU's own code, loaded without compiling) and packs every cubin and
// every PTX into one fat binary with its fatbinary, which becomes the module's only
// object: the driver then loads the cubin of the GPU it has, or compiles the PTX of the
// newest chip not newer than it. fatbinary's output depends only on its inputs (each
// image named by the module, not by the temporary files), so objects stay reproducible.
//
//   gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = "...">,
//                  #gpu.object<#nvvm.target<chip = "sm_90">, assembly = "...">]
//     => gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_80">,
//                                   properties = {section = ".nv_fatbin"}, fatbin = "...">]
//
// The fat binary goes to the object's .nv_fatbin section, as nvcc's do, where NVIDIA's
// cuobjdump finds it.
// With no toolkit (an empty `toolkit` option) the module is left as it is.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <deque>
#include <optional>

namespace ag {
#define GEN_PASS_DEF_GPUFATBINARY
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// A temporary file, removed when this goes.
struct TempFile {
  llvm::SmallString<128> path;
  std::optional<llvm::FileRemover> remover;
  LogicalResult create(StringRef suffix) {
    if (llvm::sys::fs::createTemporaryFile("agc-fatbin", suffix, path))
      return failure();
    remover.emplace(path);
    return success();
  }
};

struct GPUFatBinary : ag::impl::GPUFatBinaryBase<GPUFatBinary> {
  using Base::Base;

  /// Runs `tool` of the toolkit with `args`; on failure, an error at `at` with its output.
  LogicalResult run(Operation *at, StringRef tool, ArrayRef<std::string> args) {
    llvm::SmallString<128> program(toolkit);
    llvm::sys::path::append(program, "bin", tool);
    TempFile output;
    if (failed(output.create("log")))
      return at->emitError() << "cannot make a temporary file for " << tool;
    SmallVector<StringRef> argv{program};
    for (const std::string &a : args)
      argv.push_back(a);
    std::optional<StringRef> redirects[] = {std::nullopt, StringRef(output.path),
                                            StringRef(output.path)};
    std::string error;
    int status = llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects, 0, 0, &error);
    if (status == 0)
      return success();
    auto text = llvm::MemoryBuffer::getFile(output.path);
    // At the kernel's location, without the op (this is the machine's toolkit, not an
    // internal error: the op's dump would say nothing).
    InFlightDiagnostic diag = mlir::emitError(at->getLoc())
                              << "the CUDA toolkit's " << tool << " failed"
                              << (error.empty() ? "" : ": " + error) << "\n"
                              << (text ? (*text)->getBuffer().take_back(2000) : "");
    diag.attachNote() << "a toolkit older than the PTX that LLVM writes refuses it; without "
                         "a toolkit (agc --cuda-toolkit=none) the object holds the PTX alone";
    return diag;
  }

  LogicalResult pack(gpu::BinaryOp binary) {
    std::deque<TempFile> files; // stable: the references below stay valid
    SmallVector<std::string> images;
    gpu::ObjectAttr first;
    for (Attribute attr : binary.getObjectsAttr()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
      StringRef chip = target ? target.getChip() : "";
      if (object.getFormat() != gpu::CompilationTarget::Assembly || !chip.consume_front("sm_"))
        return binary.emitError() << "-ag-gpu-fat-binary: an object that is not NVVM PTX";
      if (!first)
        first = object;
      TempFile &ptx = files.emplace_back();
      TempFile &cubin = files.emplace_back();
      if (failed(ptx.create("ptx")) || failed(cubin.create("cubin")))
        return binary.emitError() << "cannot make a temporary file for the fat binary";
      {
        std::error_code ec;
        llvm::raw_fd_ostream os(ptx.path, ec);
        os << object.getObject().getValue();
        if (ec || os.has_error())
          return binary.emitError() << "cannot write " << ptx.path;
      }
      if (failed(run(binary, "ptxas",
                     {"-arch=sm_" + chip.str(), ptx.path.str().str(), "-o",
                      cubin.path.str().str()})))
        return failure();
      images.push_back("--image3=kind=elf,sm=" + chip.str() + ",file=" + cubin.path.str().str());
      images.push_back("--image3=kind=ptx,sm=" + chip.str() + ",file=" + ptx.path.str().str());
    }
    if (!first)
      return success();
    TempFile fat;
    if (failed(fat.create("fatbin")))
      return binary.emitError() << "cannot make a temporary file for the fat binary";
    SmallVector<std::string> args{"--create=" + fat.path.str().str(), "-64",
                                  "--ident=" + binary.getSymName().str()};
    args.append(images.begin(), images.end());
    if (failed(run(binary, "fatbinary", args)))
      return failure();
    auto bytes = llvm::MemoryBuffer::getFile(fat.path, /*IsText=*/false);
    if (!bytes)
      return binary.emitError() << "cannot read the fat binary " << fat.path;
    MLIRContext *context = &getContext();
    // In the object's .nv_fatbin section, where nvcc puts its fat binaries: NVIDIA's
    // tools (cuobjdump --list-elf, --list-ptx) find the kernels there.
    auto properties = DictionaryAttr::get(
        context, {NamedAttribute(StringAttr::get(context, gpu::elfSectionName),
                                 StringAttr::get(context, ".nv_fatbin"))});
    auto object = gpu::ObjectAttr::get(context, first.getTarget(), gpu::CompilationTarget::Fatbin,
                                       StringAttr::get(context, (*bytes)->getBuffer()),
                                       properties, /*kernels=*/nullptr);
    binary.setObjectsAttr(ArrayAttr::get(context, {object}));
    return success();
  }

  void runOnOperation() override {
    if (toolkit.empty())
      return;
    for (auto binary : getOperation().getOps<gpu::BinaryOp>())
      if (failed(pack(binary)))
        return signalPassFailure();
  }
};

} // namespace
