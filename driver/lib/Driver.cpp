//===- Driver.cpp - MLIRGen, the pass pipelines, and printing each stage ---===//
//
// See Driver.h. MLIR's diagnostics are bridged to agc's: a location that MLIRGen made
// from the Python source is reported there, with the source line and a caret.
//
//===----------------------------------------------------------------------------------===//
#include "ag/driver/Driver.h"

#include "Dialects.h"

#include "ag/dialect/AgDialect.h"
#include "ag/mlirgen/MLIRGen.h"
#include "ag/passes/Passes.h"
#include "ag/passes/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/IR/Attributes.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <cstdlib>
#include <mutex>

using namespace ag;
using namespace ag::driver;

namespace {

/// The first file location inside `loc` (through fused, named and call-site locations).
Location sourceLocation(DiagnosticEngine &diag, mlir::Location loc) {
  mlir::FileLineColLoc found;
  loc->walk([&](mlir::Location inner) {
    if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(inner)) {
      found = file;
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  if (!found)
    return {};
  return diag.locate(found.getFilename(), found.getLine(), found.getColumn());
}

void report(DiagnosticEngine &diag, const mlir::Diagnostic &d) {
  Location at = sourceLocation(diag, d.getLocation());
  std::string message = d.str();
  switch (d.getSeverity()) {
  case mlir::DiagnosticSeverity::Error:
    if (at.isValid())
      diag.error(at, message);
    else
      diag.error(message);
    break;
  case mlir::DiagnosticSeverity::Warning:
    diag.warning(at, message);
    break;
  default:
    diag.note(at, message);
    break;
  }
  for (const mlir::Diagnostic &note : d.getNotes())
    diag.note(sourceLocation(diag, note.getLocation()), note.str());
}

/// Verifying the IR after every pass took 7% of a small program's compile; agc
/// verifies each pipeline's result, and after every pass with this (the passes' own lit
/// tests, through ag-opt, always do).
llvm::cl::opt<bool> verifyEachPass(
    "verify-each", llvm::cl::Hidden, llvm::cl::init(false),
    llvm::cl::desc("Verify the IR after every pass, not only after each pipeline"));

/// Where a compile's MLIR time goes, pass by pass (MLIR's report, on stderr at exit).
llvm::cl::opt<bool> passTiming("mlir-timing", llvm::cl::Hidden, llvm::cl::init(false),
                               llvm::cl::desc("Report the time of each MLIR pass"));

/// Runs the passes `build` adds on `module`, then verifies the result.
bool runPipeline(mlir::MLIRContext &context, mlir::ModuleOp module,
                 llvm::function_ref<void(mlir::OpPassManager &)> build) {
  mlir::PassManager pm(&context);
  pm.enableVerifier(verifyEachPass);
  if (passTiming)
    pm.enableTiming();
  build(pm);
  if (mlir::failed(pm.run(module)))
    return false;
  // A pass that produced invalid IR: reported as MLIR's verifier says, an internal error.
  return mlir::succeeded(mlir::verify(module));
}

} // namespace

namespace {

/// The dtype name of a tensor element type.
std::string dtypeOf(mlir::Type type) {
  // Signless: the unsigned dtypes (and strings) are marked on the signature instead.
  if (type.isF32())
    return "float32";
  if (type.isF64())
    return "float64";
  if (type.isF16())
    return "float16";
  if (type.isBF16())
    return "bfloat16";
  if (auto c = llvm::dyn_cast<mlir::ComplexType>(type))
    return c.getElementType().isF32() ? "complex64" : "complex128";
  if (type.isInteger(1))
    return "bool";
  if (type.isInteger(8))
    return "int8";
  if (type.isInteger(16))
    return "int16";
  if (type.isInteger(32))
    return "int32";
  return "int64";
}

TensorSignature signatureOf(mlir::Type type, llvm::StringRef name) {
  auto tensor = llvm::cast<mlir::RankedTensorType>(type);
  TensorSignature sig{name.str(), dtypeOf(tensor.getElementType()), {}};
  for (int64_t d : tensor.getShape())
    sig.shape.push_back(mlir::ShapedType::isDynamic(d) ? -1 : d);
  return sig;
}

/// The signatures of the functions MLIRGen made, read before lowering changes them.
std::vector<FunctionSignature> signaturesOf(mlir::ModuleOp module, DiagnosticEngine &diag) {
  std::vector<FunctionSignature> out;
  for (auto fn : module.getOps<mlir::func::FuncOp>()) {
    auto structure = fn->getAttrOfType<mlir::StringAttr>("ag.result");
    if (!structure)
      continue; // not a traced function (__agc_init)
    FunctionSignature sig;
    sig.name = fn.getSymName().str();
    sig.pythonName = sig.name;
    if (auto python = fn->getAttrOfType<mlir::StringAttr>("ag.python_name"))
      sig.pythonName = python.getValue().str();
    if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(fn.getLoc()))
      sig.loc = diag.locate(file.getFilename(), file.getLine(), file.getColumn());
    auto names = fn->getAttrOfType<mlir::ArrayAttr>("ag.arg_names");
    // A string tensor's handles are i64s, marked `ag.dtype = "string"`.
    auto marked = [](mlir::DictionaryAttr attrs, TensorSignature sig) {
      if (auto dtype = attrs ? attrs.getAs<mlir::StringAttr>("ag.dtype") : nullptr)
        sig.dtype = dtype.getValue().str();
      return sig;
    };
    for (auto [i, type] : llvm::enumerate(fn.getArgumentTypes()))
      sig.inputs.push_back(marked(
          fn.getArgAttrDict(i),
          signatureOf(type, names && i < names.size()
                                ? llvm::cast<mlir::StringAttr>(names[i]).getValue()
                                : "")));
    for (auto [i, type] : llvm::enumerate(fn.getResultTypes()))
      sig.results.push_back(marked(fn.getResultAttrDict(i), signatureOf(type, "")));
    // Read: the marks go, so that the translation to LLVM IR does not see them.
    for (unsigned i = 0; i < fn.getNumArguments(); ++i)
      fn.removeArgAttr(i, "ag.dtype");
    for (unsigned i = 0; i < fn.getNumResults(); ++i)
      fn.removeResultAttr(i, mlir::StringAttr::get(fn.getContext(), "ag.dtype"));
    sig.resultStructure = structure.getValue().str();
    out.push_back(std::move(sig));
  }
  return out;
}

/// Tells LLVM what the runtime's allocation functions are (as it knows malloc and free):
/// a new block aliases nothing, so a loop that accumulates into one keeps it in
/// registers, and a block allocated and freed unused goes away.
void describeAllocator(llvm::Module &module) {
  llvm::LLVMContext &ctx = module.getContext();
  if (llvm::Function *alloc = module.getFunction("_mlir_memref_to_llvm_aligned_alloc")) {
    alloc->addRetAttr(llvm::Attribute::NoAlias);
    alloc->addParamAttr(0, llvm::Attribute::AllocAlign);
    alloc->addFnAttr(llvm::Attribute::getWithAllocSizeArgs(ctx, 1, std::nullopt));
    alloc->addFnAttr(llvm::Attribute::get(
        ctx, llvm::Attribute::AllocKind,
        static_cast<uint64_t>(llvm::AllocFnKind::Alloc | llvm::AllocFnKind::Aligned |
                              llvm::AllocFnKind::Uninitialized)));
    alloc->addFnAttr("alloc-family", "agrt");
    alloc->addFnAttr(llvm::Attribute::NoUnwind);
  }
  // (Declared where blocks are allocated and none freed, for a scalar entry point's
  // body frees its results', which LLVM then drops with them: CABI.cpp.)
  if (module.getFunction("_mlir_memref_to_llvm_aligned_alloc"))
    module.getOrInsertFunction("_mlir_memref_to_llvm_free",
                               llvm::FunctionType::get(llvm::Type::getVoidTy(ctx),
                                                       {llvm::PointerType::getUnqual(ctx)},
                                                       false));
  if (llvm::Function *free = module.getFunction("_mlir_memref_to_llvm_free")) {
    free->addParamAttr(0, llvm::Attribute::AllocatedPointer);
    free->addFnAttr(llvm::Attribute::get(ctx, llvm::Attribute::AllocKind,
                                         static_cast<uint64_t>(llvm::AllocFnKind::Free)));
    free->addFnAttr("alloc-family", "agrt");
    free->addFnAttr(llvm::Attribute::NoUnwind);
  }
}

/// Tells LLVM that the generated code runs with denormals flushed to zero (the runtime
/// sets the mode around every call, as TensorFlow's kernels run), so that what it folds
/// while compiling agrees with what the code computes.
void describeDenormals(llvm::Module &module) {
  for (llvm::Function &f : module.functions())
    if (!f.isDeclaration()) {
      f.addFnAttr("denormal-fp-math", "preserve-sign,preserve-sign");
      f.addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
    }
}

/// Environment variables unset for the lifetime of this object, then restored.
class ScopedUnsetEnv {
public:
  explicit ScopedUnsetEnv(std::initializer_list<const char *> names) {
    for (const char *name : names)
      if (const char *value = std::getenv(name)) {
        saved.emplace_back(name, value);
        ::unsetenv(name);
      }
  }
  ~ScopedUnsetEnv() {
    for (const auto &[name, value] : saved)
      ::setenv(name.c_str(), value.c_str(), /*overwrite=*/1);
  }

private:
  std::vector<std::pair<std::string, std::string>> saved;
};

/// The kernels never need CUDA's libdevice (-ag-gpu-define-math), but MLIR's serializer
/// links it wherever one of these names a toolkit, and reports an error (of no
/// consequence) where it names none: hidden from it, the PTX is the same on every
/// machine.
const std::initializer_list<const char *> kToolkitVariables = {"CUDA_ROOT", "CUDA_HOME",
                                                               "CUDA_PATH"};

/// For the nvptx target's pipeline, which serializes kernels: the toolkit hidden.
std::optional<ScopedUnsetEnv> hideToolkit(const Target &target) {
  if (!target.makesKernels())
    return std::nullopt;
  return std::optional<ScopedUnsetEnv>(std::in_place, kToolkitVariables);
}

/// The context agc's MLIR stages run in: the dialects, interfaces and translations they
/// use (Dialects.cpp).
std::unique_ptr<mlir::MLIRContext> makeContext(bool gpu = false) {
  mlir::DialectRegistry registry;
  registerTensorDialects(registry);
  registerLLVMDialects(registry);
  if (gpu)
    registerGPUDialects(registry);
  return std::make_unique<mlir::MLIRContext>(registry, mlir::MLIRContext::Threading::DISABLED);
}

/// How --emit prints MLIR: with locations inline, each on its op, not as #loc aliases
/// (readable, and checkable).
mlir::OpPrintingFlags printingFlags() {
  mlir::OpPrintingFlags flags;
  flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  flags.useLocalScope();
  return flags;
}

/// For a target with a GPU part (cpu,nvptx): `ir`, at scf, through the target's CPU
/// pipeline, and a copy of it through the GPU part's, which is returned (null after
/// reporting a failure).
mlir::OwningOpRef<mlir::ModuleOp> lowerBothVersions(mlir::MLIRContext &context,
                                                    mlir::ModuleOp ir, const Target &target) {
  mlir::OwningOpRef<mlir::ModuleOp> gpuIr = ir.clone();
  if (!runPipeline(context, ir, [&](mlir::OpPassManager &pm) { target.buildPipeline(pm); }) ||
      !runPipeline(context, *gpuIr,
                   [&](mlir::OpPassManager &pm) { target.gpuPart()->buildPipeline(pm); }))
    return nullptr;
  return gpuIr;
}

/// MLIRGen (which says what files it read in `readFiles`, where given), then the passes
/// up to `stage` (after scf, the target's: `targetPipeline`);
/// prints the MLIR stages on `os`. Returns the module, or null after reporting.
mlir::OwningOpRef<mlir::ModuleOp> runStages(mlir::MLIRContext &context, const ast::Module &module,
                                           const analysis::ArgumentSpec &spec,
                                           DiagnosticEngine &diag,
                                           llvm::function_ref<void(mlir::OpPassManager &)> targetPipeline,
                                           IRStage stage, llvm::raw_ostream *os,
                                           std::vector<FunctionSignature> *signatures,
                                           std::vector<std::string> *readFiles = nullptr) {
  mlir::OwningOpRef<mlir::ModuleOp> ir = mlirGen(context, module, spec, diag, readFiles);
  if (!ir)
    return nullptr;
  // What the program computes and never uses (a value the user drops, the first test of
  // a staged while that the tracer evaluated as Python does): upstream's dead code
  // elimination, which keeps every op with an effect (ag.check, prints, assignments).
  mlir::IRRewriter rewriter(&context);
  (void)mlir::runRegionDCE(rewriter, (*ir)->getRegions());
  // Always read: reading drops the string marks the translation to LLVM IR refuses.
  std::vector<FunctionSignature> read = signaturesOf(*ir, diag);
  if (signatures)
    *signatures = std::move(read);
  mlir::OpPrintingFlags flags = printingFlags();
  if (stage == IRStage::Ag) {
    if (os)
      ir->print(*os, flags);
    return ir;
  }
  if (!runPipeline(context, *ir, buildAgToSCFPipeline))
    return nullptr;
  if (stage == IRStage::Scf) {
    if (os)
      ir->print(*os, flags);
    return ir;
  }
  if (!runPipeline(context, *ir, targetPipeline))
    return nullptr;
  if (stage == IRStage::LlvmDialect && os)
    ir->print(*os, flags);
  return ir;
}

} // namespace

std::optional<LoweredModule> driver::lowerToLLVM(const ast::Module &module,
                                                 const analysis::ArgumentSpec &spec,
                                                 DiagnosticEngine &diag, const Target &target) {
  std::unique_ptr<mlir::MLIRContext> context =
      makeContext(/*gpu=*/target.makesKernels());
  mlir::ScopedDiagnosticHandler handler(context.get(), [&](mlir::Diagnostic &d) {
    report(diag, d);
    return mlir::success();
  });
  LoweredModule out;
  auto targetPipeline = [&](mlir::OpPassManager &pm) { target.buildPipeline(pm); };
  std::optional<ScopedUnsetEnv> toolkit = hideToolkit(target);
  const Target *gpu = target.gpuPart();
  // With a GPU part: the CPU's pipeline on the program, the GPU's on a copy of it.
  mlir::OwningOpRef<mlir::ModuleOp> ir =
      runStages(*context, module, spec, diag, targetPipeline,
                gpu ? IRStage::Scf : IRStage::LlvmIr, nullptr, &out.functions,
                &out.readFiles);
  if (!ir)
    return std::nullopt;
  mlir::OwningOpRef<mlir::ModuleOp> gpuIr;
  if (gpu && !(gpuIr = lowerBothVersions(*context, *ir, target)))
    return std::nullopt;
  out.hasState = ir->lookupSymbol("__agc_init") != nullptr;
  out.context = std::make_unique<llvm::LLVMContext>();
  out.module = mlir::translateModuleToLLVMIR(*ir, *out.context);
  std::unique_ptr<llvm::Module> gpuModule =
      gpu ? mlir::translateModuleToLLVMIR(*gpuIr, *out.context) : nullptr;
  if (!out.module || (gpu && !gpuModule)) {
    diag.error("internal error: the LLVM dialect did not translate to LLVM IR");
    return std::nullopt;
  }
  if (gpu)
    joinGPUVersion(out, std::move(gpuModule));
  describeAllocator(*out.module);
  describeDenormals(*out.module);
  return out;
}

bool driver::emitIR(const ast::Module &module, const analysis::ArgumentSpec &spec,
                    DiagnosticEngine &diag, const Target &target, IRStage stage,
                    llvm::raw_ostream &os) {
  if (stage == IRStage::LlvmIr) {
    std::optional<LoweredModule> lowered = lowerToLLVM(module, spec, diag, target);
    if (!lowered)
      return false;
    lowered->module->print(os, nullptr);
    return true;
  }
  std::unique_ptr<mlir::MLIRContext> context =
      makeContext(/*gpu=*/target.makesKernels());
  mlir::ScopedDiagnosticHandler handler(context.get(), [&](mlir::Diagnostic &d) {
    report(diag, d);
    return mlir::success();
  });
  auto targetPipeline = [&](mlir::OpPassManager &pm) { target.buildPipeline(pm); };
  std::optional<ScopedUnsetEnv> toolkit = hideToolkit(target);
  const Target *gpu = target.gpuPart();
  if (!gpu || stage != IRStage::LlvmDialect)
    return static_cast<bool>(
        runStages(*context, module, spec, diag, targetPipeline, stage, &os, nullptr));
  // Both versions, each after a line that names it.
  mlir::OwningOpRef<mlir::ModuleOp> ir =
      runStages(*context, module, spec, diag, targetPipeline, IRStage::Scf, nullptr, nullptr);
  if (!ir)
    return false;
  mlir::OwningOpRef<mlir::ModuleOp> gpuIr = lowerBothVersions(*context, *ir, target);
  if (!gpuIr)
    return false;
  os << "// agc: the CPU version (--target=cpu)\n";
  ir->print(os, printingFlags());
  os << "// agc: the GPU version (--target=nvptx)\n";
  gpuIr->print(os, printingFlags());
  return true;
}

namespace {

/// A launch dimension: its value where constant, else `?`.
std::string dimension(mlir::Value v) {
  llvm::APInt value;
  if (mlir::matchPattern(v, mlir::m_ConstantInt(&value)))
    return std::to_string(value.getSExtValue());
  return "?";
}

/// One line per gpu.launch_func of `ir`'s host functions: its Python location, the
/// function, the kernel, threads per block and blocks (? for a size known at run time),
/// whether a host loop launches it again for each 65,535 blocks along the grid's y or z
/// (-ag-gpu-map-loops), and whether it runs only where an operand broadcasts
/// (-ag-version-broadcasts).
void listKernels(mlir::ModuleOp ir, DiagnosticEngine &diag, llvm::raw_ostream &os) {
  for (auto fn : ir.getOps<mlir::func::FuncOp>())
    fn.walk([&](mlir::gpu::LaunchFuncOp launch) {
      Location at = sourceLocation(diag, launch.getLoc());
      if (at.isValid())
        os << at << ": ";
      mlir::gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
      mlir::gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
      os << "kernel @" << launch.getKernelModuleName().getValue() << " in "
         << fn.getSymName() << ": blocks of " << dimension(block.x) << "x"
         << dimension(block.y) << "x" << dimension(block.z) << " threads, grid of "
         << dimension(grid.x) << "x" << dimension(grid.y) << "x" << dimension(grid.z)
         << " blocks";
      // (Outermost first: z, then y.)
      llvm::SmallVector<llvm::StringRef, 2> chunked;
      for (mlir::Operation *op = launch->getParentOp(); op; op = op->getParentOp())
        if (auto axis = op->getAttrOfType<mlir::StringAttr>(ag::kGridLaunchesAttr))
          chunked.insert(chunked.begin(), axis.getValue());
      if (!chunked.empty())
        os << ", launched again for each 65,535 blocks along " << llvm::join(chunked, " and ");
      if (ag::inBroadcastVersion(launch))
        os << " (only where an operand of size 1 broadcasts)";
      os << "\n";
    });
}

} // namespace

bool driver::emitKernels(const ast::Module &module, const analysis::ArgumentSpec &spec,
                         DiagnosticEngine &diag, llvm::ArrayRef<std::string> chips,
                         KernelOutput what, llvm::raw_ostream &os) {
  bool ptx = what == KernelOutput::PTX;
  std::unique_ptr<mlir::MLIRContext> context = makeContext(/*gpu=*/true);
  mlir::ScopedDiagnosticHandler handler(context.get(), [&](mlir::Diagnostic &d) {
    report(diag, d);
    return mlir::success();
  });
  auto kernels = [&](mlir::OpPassManager &pm) {
    buildGPUKernelPipeline(pm);
    if (ptx)
      buildGPUBinaryPipeline(pm, chips);
  };
  ScopedUnsetEnv toolkit(kToolkitVariables);
  mlir::OwningOpRef<mlir::ModuleOp> ir =
      runStages(*context, module, spec, diag, kernels, IRStage::LlvmDialect, nullptr, nullptr);
  if (!ir)
    return false;
  if (what == KernelOutput::List) {
    listKernels(*ir, diag, os);
    return true;
  }
  if (!ptx) {
    ir->print(os, printingFlags());
    return true;
  }
  // Each kernel module's PTX for each chip, in order, each a whole PTX module after a
  // line that names it.
  for (auto binary : ir->getOps<mlir::gpu::BinaryOp>())
    for (mlir::Attribute attr : binary.getObjectsAttr()) {
      auto object = llvm::cast<mlir::gpu::ObjectAttr>(attr);
      auto target = llvm::cast<mlir::NVVM::NVVMTargetAttr>(object.getTarget());
      os << "// agc: kernel module @" << binary.getSymName() << " for " << target.getChip()
         << "\n"
         << object.getObject().getValue();
    }
  return true;
}

llvm::Error driver::checkGPUChips(llvm::ArrayRef<std::string> chips) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTargetMC();
  });
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "this agc was built without LLVM's NVPTX back end: " + error);
  std::unique_ptr<llvm::MCSubtargetInfo> info(target->createMCSubtargetInfo(triple, "", ""));
  for (const std::string &chip : chips)
    if (!llvm::StringRef(chip).starts_with("sm_") || !info->isCPUStringValid(chip))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "unknown --gpu-arch '%s' (try sm_80, sm_86, sm_89, sm_90, sm_100; `llc "
          "-march=nvptx64 -mcpu=help` lists them all)",
          chip.c_str());
  return llvm::Error::success();
}
