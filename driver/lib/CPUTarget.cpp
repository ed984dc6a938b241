//===- CPUTarget.cpp - The targets: their pipelines, machine and emission --===//
//
// Both targets emit an object for the host's CPU. The CPU target runs passes/cpu's
// pipeline (ag::buildCPUPipeline); the NVPTX target runs passes/gpu's
// (ag::buildGPUPipeline), whose host code launches kernels whose PTX the translation to
// LLVM IR has embedded. Then, in process, through an LLVM TargetMachine for the host
// triple: a portable CPU level by default (or --mcpu), position-independent code, LLVM's
// default optimization pipeline at the requested level, then an object file or assembly.
// What that takes besides the program (the target machine, the code generator's pipeline,
// tables LLVM builds at first use) is made on a second CPU while the program is lowered
// (Target::prepare), where there is one.
// agc run loads the same object into this process with ORC's LLJIT, resolving agc's
// runtime to the copy linked into agc itself and the C library to this process's.
//
//===----------------------------------------------------------------------------------===//
#include "ag/driver/Target.h"

#include "ag/driver/Driver.h"

#include "ag/passes/Pipelines.h"

#include "agc/runtime.h"

#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

#include <future>
#include <mutex>
#include <system_error>

#include <pthread.h>
#include <sched.h>

// libgcc's float16 conversions (GCC 12 and later): LLVM calls them where the CPU has no
// F16C (`agc run --mcpu=x86-64`); declared only to take their addresses for the JIT.
extern "C" void __extendhfsf2();
extern "C" void __extendhfdf2();
extern "C" void __truncsfhf2();
extern "C" void __truncdfhf2();
// agc's runtime's (runtime.c): the float to bfloat16 rounding Debian 12's libgcc lacks.
extern "C" void __truncsfbf2();

using namespace ag;
using namespace ag::driver;
using namespace llvm;

static void initializeTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    InitializeNativeTargetAsmParser();
  });
}

/// The LLVM target of this machine's triple (which `triple` gets).
static Expected<const llvm::Target *> hostTarget(Triple &triple) {
  initializeTargets();
  triple = Triple(sys::getDefaultTargetTriple());
  std::string error;
  const llvm::Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return createStringError(inconvertibleErrorCode(), "no target for %s: %s",
                             triple.str().c_str(), error.c_str());
  return target;
}

/// The LLVM CPU name and feature string `options` ask for.
static std::pair<std::string, std::string> cpuAndFeatures(const Triple &triple,
                                                          const CodeGenOptions &options) {
  bool native = options.cpu == "native";
  std::string cpu = native ? sys::getHostCPUName().str()
                           : options.cpu.empty() ? std::string(kDefaultCPU) : options.cpu;
  std::string features;
  if (native) {
    // The host's own features, sorted: the same machine gives the same string.
    std::vector<std::string> names;
    for (const auto &entry : sys::getHostCPUFeatures())
      names.push_back((entry.second ? "+" : "-") + entry.first().str());
    llvm::sort(names);
    features = join(names, ",");
  }
  // No vector gathers or scatters: they are slow on AMD's cores and, since the
  // microcode fix for Intel's "Downfall", on Intel's too. Without this LLVM vectorizes a
  // 16-lane split reduction of matrix rows along the rows, with a gather per load (the
  // row maximum of softmax ran at a third of the speed).
  if (triple.isX86())
    features += std::string(features.empty() ? "" : ",") + "+prefer-no-gather,+prefer-no-scatter";
  return {cpu, features};
}

/// The CPU pipeline's options for `options`: line tables with -g, and the vector
/// registers of the CPU they name, which it sizes its kernels for: AVX-512's 32 of 512
/// bits, AVX's 16 of 256, SSE's 16 of 128.
static CPUPipelineOptions cpuPipelineOptions(const CodeGenOptions &options) {
  CPUPipelineOptions pipeline;
  pipeline.debugInfo = options.debugInfo;
  Triple triple;
  Expected<const llvm::Target *> target = hostTarget(triple);
  if (!target) {
    consumeError(target.takeError()); // emit() reports it
    return pipeline;
  }
  if (!triple.isX86())
    return pipeline;
  auto [cpu, features] = cpuAndFeatures(triple, options);
  std::unique_ptr<MCSubtargetInfo> info((*target)->createMCSubtargetInfo(triple, cpu, features));
  if (!info)
    return pipeline;
  bool avx512 = info->checkFeatures("+avx512f"), avx = info->checkFeatures("+avx");
  pipeline.vectorBits = avx512 ? 512 : avx ? 256 : 128;
  pipeline.vectorRegisters = avx512 ? 32 : 16;
  return pipeline;
}

static Expected<std::unique_ptr<TargetMachine>> hostMachine(const CodeGenOptions &options) {
  Triple triple;
  Expected<const llvm::Target *> target = hostTarget(triple);
  if (!target)
    return target.takeError();
  auto [cpu, features] = cpuAndFeatures(triple, options);
  CodeGenOptLevel level = options.optLevel == 0   ? CodeGenOptLevel::None
                          : options.optLevel == 1 ? CodeGenOptLevel::Less
                          : options.optLevel == 3 ? CodeGenOptLevel::Aggressive
                                                  : CodeGenOptLevel::Default;
  std::unique_ptr<TargetMachine> machine((*target)->createTargetMachine(
      triple, cpu, features, TargetOptions(), Reloc::PIC_, std::nullopt, level));
  if (!machine)
    return createStringError(inconvertibleErrorCode(), "cannot make a target machine for CPU '%s'",
                             cpu.c_str());
  return machine;
}

/// Whether `cpu` names a CPU of this machine's target (or is "native"); the error says
/// which names are valid.
static Error checkCPU(StringRef cpu) {
  if (cpu.empty() || cpu == "native")
    return Error::success();
  Triple triple;
  Expected<const llvm::Target *> target = hostTarget(triple);
  if (!target)
    return target.takeError();
  std::unique_ptr<MCSubtargetInfo> info((*target)->createMCSubtargetInfo(triple, "", ""));
  if (info && info->isCPUStringValid(cpu))
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           "unknown --mcpu '%s' for %s (try native, x86-64-v2, x86-64-v3, "
                           "x86-64-v4, skylake-avx512, znver4; `llc -mcpu=help` lists them all)",
                           cpu.str().c_str(), triple.str().c_str());
}

/// Marks `alwaysinline` each function of `m` that only `m` calls, and from one place: the
/// body MLIR lowers a Python function to, called by its C-interface wrapper alone. The
/// inliner of -O1 and above would inline it there anyway (its last call), but only after
/// the function passes have simplified it once on its own; inlined first, it is
/// simplified once. The code is the same; `agc compile` of the tanh loop spends about 2
/// ms (a tenth of LLVM's time) less. Only into a caller of the same denormal mode: the
/// compiled code's functions assume denormals flushed (describeDenormals), the entry
/// points do not, and a body inlined into one would be folded as if they were kept.
static void inlineSingleCallees(Module &m) {
  auto sameMode = [](const Function &a, const Function &b) {
    for (StringRef attribute : {"denormal-fp-math", "denormal-fp-math-f32"})
      if (a.getFnAttribute(attribute).getValueAsString() !=
          b.getFnAttribute(attribute).getValueAsString())
        return false;
    return true;
  };
  for (Function &f : m) {
    if (f.isDeclaration() || !f.hasLocalLinkage() || !f.hasOneUse() ||
        f.hasFnAttribute(Attribute::NoInline))
      continue;
    auto *call = dyn_cast<CallBase>(f.use_begin()->getUser());
    if (call && call->getCalledOperand() == &f && call->getFunction() != &f &&
        sameMode(f, *call->getFunction()))
      f.addFnAttr(Attribute::AlwaysInline);
  }
}

static void optimize(Module &m, TargetMachine &machine, unsigned level) {
  if (level > 0)
    inlineSingleCallees(m);
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  // The pipeline skips the functions marked optnone: the entry points (CABI.cpp's
  // markEntryPoint), which are written as they are to be compiled.
  PassInstrumentationCallbacks instrumentation;
  OptNoneInstrumentation optNone(/*DebugLogging=*/false);
  optNone.registerCallbacks(instrumentation);
  PassBuilder pb(&machine, PipelineTuningOptions(), std::nullopt, &instrumentation);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  OptimizationLevel opt = level == 0   ? OptimizationLevel::O0
                          : level == 1 ? OptimizationLevel::O1
                          : level == 3 ? OptimizationLevel::O3
                                       : OptimizationLevel::O2;
  ModulePassManager mpm = level == 0 ? pb.buildO0DefaultPipeline(opt)
                                     : pb.buildPerModuleDefaultPipeline(opt);
  mpm.run(m, mam);
}

namespace {
/// What emitting a file takes besides the program: the target machine and the code
/// generator's pipeline, which writes into `bytes`.
struct Backend {
  std::unique_ptr<TargetMachine> machine;
  SmallVector<char, 0> bytes;
  raw_svector_ostream os{bytes};
  legacy::PassManager codegen;
};
} // namespace

/// The backend for `options`, emitting an object file (or, with `assembly`, assembly).
static Expected<std::unique_ptr<Backend>> makeBackend(const CodeGenOptions &options,
                                                      bool assembly) {
  Expected<std::unique_ptr<TargetMachine>> machine = hostMachine(options);
  if (!machine)
    return machine.takeError();
  auto backend = std::make_unique<Backend>();
  backend->machine = std::move(*machine);
  if (backend->machine->addPassesToEmitFile(backend->codegen, backend->os, nullptr,
                                            assembly ? CodeGenFileType::AssemblyFile
                                                     : CodeGenFileType::ObjectFile))
    return createStringError(inconvertibleErrorCode(), "the target cannot emit this file type");
  return backend;
}

/// Makes what the code generator of `machine` builds at its first use and every program
/// needs: the subtarget of a function without target attributes (every function agc
/// emits; CPU and features come from the machine) and x86's table of instructions with
/// a memory operand unfolded, which its loop-invariant code motion reads (sorting some
/// 20,000 entries: a seventh of the code generator's instructions on the tanh loop).
static void warmUp(const TargetMachine &machine) {
  LLVMContext context;
  Module module("agc-warm-up", context);
  Function *f = Function::Create(FunctionType::get(Type::getVoidTy(context), false),
                                 GlobalValue::ExternalLinkage, "f", module);
  if (const TargetSubtargetInfo *subtarget = machine.getSubtargetImpl(*f))
    if (const TargetInstrInfo *info = subtarget->getInstrInfo())
      (void)info->getOpcodeAfterMemoryUnfold(0, /*UnfoldLoad=*/true, /*UnfoldStore=*/false);
}

namespace {
/// The host's architecture (x86-64), for the CPU `options` name; with kind NVPTX, host
/// code launching kernels for the GPUs `options` name.
class HostTarget final : public driver::Target {
public:
  HostTarget(TargetKind kind, CodeGenOptions options)
      : Target(kind), options(std::move(options)) {
    if (kind == TargetKind::CPUAndNVPTX)
      gpu = std::make_unique<HostTarget>(TargetKind::NVPTX, this->options);
  }
  StringRef getName() const override {
    switch (getKind()) {
    case TargetKind::NVPTX:
      return "nvptx";
    case TargetKind::CPUAndNVPTX:
      return "cpu,nvptx";
    default:
      return "cpu";
    }
  }
  void buildPipeline(mlir::OpPassManager &pm) const override {
    if (getKind() == TargetKind::NVPTX)
      buildGPUPipeline(pm, GPUPipelineOptions{options.gpuChips, options.gpuEmulate,
                                              options.cudaToolkit});
    else
      buildCPUPipeline(pm, cpuPipelineOptions(options));
  }
  const Target *gpuPart() const override { return gpu.get(); }
  void prepare(bool assembly) const override;
  Error emit(LoweredModule &lowered, bool assembly, SmallVectorImpl<char> &out) const override;

private:
  CodeGenOptions options;
  std::unique_ptr<HostTarget> gpu; ///< CPUAndNVPTX: the GPU versions' target.
  /// prepare's backend, being made (valid until emit takes it), and its file type.
  mutable std::future<Expected<std::unique_ptr<Backend>>> prepared;
  mutable bool preparedAssembly = false;
};
} // namespace

void HostTarget::prepare(bool assembly) const {
  if (prepared.valid())
    return;
  // Only where the process may run on two CPUs: on one, the thread would take the
  // lowering's time.
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) < 2)
    return;
  // The target registry is initialized here, before the thread starts, as the lowering
  // reads it too; the thread reads only its own copy of the options.
  initializeTargets();
  try {
    // Linux starts a thread on its parent's CPU and moves it elsewhere only after some
    // milliseconds, longer than this work takes: the two would share one CPU (on a
    // 2-core VM, the lowering took as much longer as the thread ran).
    int cpu = sched_getcpu();
    if (cpu >= 0)
      CPU_CLR(cpu, &allowed); // (at least one other CPU is left in it)
    prepared = std::async(std::launch::async, [options = options, assembly, allowed] {
      pthread_setaffinity_np(pthread_self(), sizeof allowed, &allowed);
      Expected<std::unique_ptr<Backend>> backend = makeBackend(options, assembly);
      if (backend)
        warmUp(*(*backend)->machine);
      return backend;
    });
    preparedAssembly = assembly;
  } catch (const std::system_error &) {
    // No thread: emit makes the backend itself.
  }
}

Error HostTarget::emit(LoweredModule &lowered, bool assembly, SmallVectorImpl<char> &out) const {
  Expected<std::unique_ptr<Backend>> backend =
      prepared.valid() && preparedAssembly == assembly ? prepared.get()
                                                       : makeBackend(options, assembly);
  if (!backend)
    return backend.takeError();
  TargetMachine &machine = *(*backend)->machine;
  Module &m = *lowered.module;
  m.setTargetTriple(machine.getTargetTriple());
  m.setDataLayout(machine.createDataLayout());
  optimize(m, machine, options.optLevel);
  callScalarEntriesDirectly(m);
  (*backend)->codegen.run(m);
  out.assign((*backend)->bytes.begin(), (*backend)->bytes.end());
  return Error::success();
}


driver::Target::~Target() = default;

Expected<std::unique_ptr<driver::Target>> driver::createTarget(TargetKind kind,
                                                               const CodeGenOptions &options) {
  if (Error err = checkCPU(options.cpu))
    return err;
  if (kind != TargetKind::CPU)
    if (Error err = checkGPUChips(options.gpuChips))
      return err;
  return std::make_unique<HostTarget>(kind, options);
}

driver::LoadedModule::~LoadedModule() = default;

namespace {
class JitModule final : public driver::LoadedModule {
public:
  explicit JitModule(std::unique_ptr<orc::LLJIT> jit) : jit(std::move(jit)) {}
  Expected<void *> lookup(StringRef name) override {
    Expected<orc::ExecutorAddr> address = jit->lookup(name);
    if (!address)
      return address.takeError();
    return address->toPtr<void *>();
  }

private:
  std::unique_ptr<orc::LLJIT> jit;
};
} // namespace

Expected<std::unique_ptr<driver::LoadedModule>> driver::loadObject(SmallVectorImpl<char> &&object) {
  initializeTargets();
  Expected<std::unique_ptr<orc::LLJIT>> jit = orc::LLJITBuilder().create();
  if (!jit)
    return jit.takeError();
  orc::JITDylib &main = (*jit)->getMainJITDylib();
  // agc's runtime: the copy linked into agc.
  orc::SymbolMap runtime;
  auto add = [&](const char *name, void *address) {
    runtime[(*jit)->mangleAndIntern(name)] = {orc::ExecutorAddr::fromPtr(address),
                                             JITSymbolFlags::Exported};
  };
  add("agrt_invoke", reinterpret_cast<void *>(&agrt_invoke));
  add("agrt_null_output", reinterpret_cast<void *>(&agrt_null_output));
  add("agrt_fail", reinterpret_cast<void *>(&agrt_fail));
  add("agrt_fail_values", reinterpret_cast<void *>(&agrt_fail_values));
  add("agrt_print_begin", reinterpret_cast<void *>(&agrt_print_begin));
  add("agrt_print_text", reinterpret_cast<void *>(&agrt_print_text));
  add("agrt_print_f32", reinterpret_cast<void *>(&agrt_print_f32));
  add("agrt_print_f64", reinterpret_cast<void *>(&agrt_print_f64));
  add("agrt_print_i32", reinterpret_cast<void *>(&agrt_print_i32));
  add("agrt_print_i64", reinterpret_cast<void *>(&agrt_print_i64));
  add("agrt_print_i1", reinterpret_cast<void *>(&agrt_print_i1));
  add("agrt_print_end", reinterpret_cast<void *>(&agrt_print_end));
  add("agrt_num_threads", reinterpret_cast<void *>(&agrt_num_threads));
  add("memrefCopy", reinterpret_cast<void *>(&memrefCopy));
  add("_mlir_memref_to_llvm_aligned_alloc",
      reinterpret_cast<void *>(&_mlir_memref_to_llvm_aligned_alloc));
  add("_mlir_memref_to_llvm_free", reinterpret_cast<void *>(&_mlir_memref_to_llvm_free));
  // An nvptx object's kernels, launches and buffers.
  add("mgpuModuleLoad", reinterpret_cast<void *>(&mgpuModuleLoad));
  add("mgpuModuleLoadJIT", reinterpret_cast<void *>(&mgpuModuleLoadJIT));
  add("mgpuModuleUnload", reinterpret_cast<void *>(&mgpuModuleUnload));
  add("mgpuModuleGetFunction", reinterpret_cast<void *>(&mgpuModuleGetFunction));
  add("mgpuLaunchKernel", reinterpret_cast<void *>(&mgpuLaunchKernel));
  add("agrt_gpu_check_launch", reinterpret_cast<void *>(&agrt_gpu_check_launch));
  add("mgpuStreamCreate", reinterpret_cast<void *>(&mgpuStreamCreate));
  add("mgpuStreamDestroy", reinterpret_cast<void *>(&mgpuStreamDestroy));
  add("mgpuStreamSynchronize", reinterpret_cast<void *>(&mgpuStreamSynchronize));
  add("mgpuMemAlloc", reinterpret_cast<void *>(&mgpuMemAlloc));
  add("mgpuMemFree", reinterpret_cast<void *>(&mgpuMemFree));
  add("mgpuMemcpy", reinterpret_cast<void *>(&mgpuMemcpy));
  add("agrt_gpu_aligned_alloc", reinterpret_cast<void *>(&agrt_gpu_aligned_alloc));
  add("agc_uses_gpu", reinterpret_cast<void *>(&agc_uses_gpu));
  // float16 conversions without F16C, from libgcc (linked into agc, as into the objects
  // a C compiler links).
  add("__extendhfsf2", reinterpret_cast<void *>(&__extendhfsf2));
  add("__extendhfdf2", reinterpret_cast<void *>(&__extendhfdf2));
  add("__truncsfhf2", reinterpret_cast<void *>(&__truncsfhf2));
  add("__truncdfhf2", reinterpret_cast<void *>(&__truncdfhf2));
  add("__truncsfbf2", reinterpret_cast<void *>(&__truncsfbf2));
  if (Error err = main.define(orc::absoluteSymbols(std::move(runtime))))
    return err;
  // The C library and libm: this process's.
  Expected<std::unique_ptr<orc::DynamicLibrarySearchGenerator>> process =
      orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          (*jit)->getDataLayout().getGlobalPrefix());
  if (!process)
    return process.takeError();
  main.addGenerator(std::move(*process));
  std::unique_ptr<MemoryBuffer> buffer = MemoryBuffer::getMemBufferCopy(
      StringRef(object.data(), object.size()), "agc-module.o");
  if (Error err = (*jit)->addObjectFile(std::move(buffer)))
    return err;
  return std::make_unique<JitModule>(std::move(*jit));
}
