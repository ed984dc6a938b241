//===- agc.cpp - The agc command-line driver ------------------------------===//
//
// Subcommands (DESIGN.md §4):
//   agc compile FILE.py [-o OUT] [--header OUT.h] [--target cpu|nvptx|cpu,nvptx] [--signature S]
//                       [-D name=value]... [--function NAME]... [--emit=STAGE] [-MD -MF OUT.d]
//   agc to-code FILE.py[:FUNC]
//   agc run FILE.py:FUNC [--args JSON] [--kwargs JSON]
//   agc --emit=STAGE FILE.py          (shorthand for agc compile --emit=STAGE FILE.py)
//
// Exit status: 0 success; 1 the program was refused (diagnostics on stderr); 2 usage
// error, including a stage or subcommand this version does not implement yet; 3 run-time
// error. Output files are written to a temporary file and renamed into place.
//
//===----------------------------------------------------------------------------------===//
#include "ag/frontend/ASTDump.h"
#include "ag/frontend/ToCode.h"
#include "ag/frontend/analysis/TFOps.h"
#include "ag/frontend/analysis/Tracer.h"
#include "ag/frontend/Diagnostics.h"
#include "ag/frontend/Parser.h"
#include "ag/frontend/Source.h"
#include "ag/frontend/TreeSitter.h"
#include "ag/driver/Driver.h"

#include "Run.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>

namespace cl = llvm::cl;

namespace {

enum ExitCode { kSuccess = 0, kRefused = 1, kUsage = 2, kRuntime = 3 };

/// Pipeline stages, in pipeline order (a later stage implies every earlier one ran).
enum class Stage { Ast, Analysis, Dot, Svg, Ag, Scf, Gpu, LlvmDialect, LlvmIr, Asm, Ptx, Obj };

/// The last stage this version of agc can produce.
constexpr Stage kLastImplementedStage = Stage::Obj;

cl::OptionCategory agcCategory("agc options");
cl::SubCommand compileCmd("compile",
                          "Compile a Python file to an object file and a C header");
cl::SubCommand toCodeCmd("to-code", "Print the converted Python of a file or one function");
cl::SubCommand runCmd("run", "Compile and run one function, printing its result as JSON");

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<FILE.py>"),
                               cl::sub(cl::SubCommand::getTopLevel()), cl::sub(compileCmd),
                               cl::cat(agcCategory));
cl::opt<std::string> target(cl::Positional, cl::desc("<FILE.py[:FUNC]>"), cl::Required,
                            cl::sub(toCodeCmd), cl::sub(runCmd), cl::cat(agcCategory));

cl::opt<Stage> emit(
    "emit", cl::desc("Print one stage of the pipeline instead of compiling to an object"),
    cl::values(clEnumValN(Stage::Ast, "ast", "the located AST"),
               clEnumValN(Stage::Analysis, "analysis", "staging decisions, liveness, definitions and carried names of every if/while/for"),
               clEnumValN(Stage::Dot, "dot", "a Graphviz graph of each function's control flow: tf.cond and tf.while_loop as clusters with what they carry, static control flow resolved"),
               clEnumValN(Stage::Svg, "svg", "the graph of --emit=dot drawn as SVG by Graphviz's dot (Debian: graphviz)"),
               clEnumValN(Stage::Ag, "ag", "MLIR: ag.cond / ag.while_loop and upstream tensor ops, located at the Python source"),
               clEnumValN(Stage::Scf, "scf", "MLIR after lowering ag to scf"),
               clEnumValN(Stage::Gpu, "gpu", "MLIR for --target=nvptx: host functions launching the gpu.module kernels"),
               clEnumValN(Stage::LlvmDialect, "llvm-dialect", "MLIR in the LLVM dialect, bufferized (the host code of --target=nvptx, with its launches)"),
               clEnumValN(Stage::LlvmIr, "llvm-ir", "LLVM IR for the CPU (for nvptx, the host code, the kernels' PTX embedded)"),
               clEnumValN(Stage::Asm, "asm", "assembly for the CPU"),
               clEnumValN(Stage::Ptx, "ptx", "PTX of the kernels for --target=nvptx, for each --gpu-arch"),
               clEnumValN(Stage::Obj, "obj", "the object file and its C header (the default)")),
    cl::init(Stage::Obj), cl::sub(cl::SubCommand::getTopLevel()), cl::sub(compileCmd),
    cl::cat(agcCategory));

cl::opt<std::string> outputFile("o", cl::desc("Write the output here (default: stdout for "
                                              "text stages)"),
                                cl::value_desc("file"), cl::sub(cl::SubCommand::getTopLevel()),
                                cl::sub(compileCmd), cl::cat(agcCategory));
cl::opt<unsigned> optLevel("O", cl::desc("Optimization level of the generated code, 0 to 3 "
                                          "(default 2)"),
                           cl::Prefix, cl::init(2), cl::sub(cl::SubCommand::getTopLevel()),
                           cl::sub(compileCmd), cl::sub(runCmd), cl::cat(agcCategory));
cl::opt<std::string> mcpu("mcpu", cl::desc("The CPU to generate code for: an LLVM CPU name, "
                                           "or native for this machine's (default: x86-64-v3 "
                                           "for compile, native for run)"),
                          cl::value_desc("cpu"), cl::sub(cl::SubCommand::getTopLevel()),
                          cl::sub(compileCmd), cl::sub(runCmd), cl::cat(agcCategory));
cl::opt<bool> debugInfo("g", cl::desc("Emit DWARF line tables that map the object's CPU code to "
                                      "the Python source's lines (gdb breaks at model.py:12; "
                                      "addr2line, perf and backtraces show Python lines)"),
                        cl::sub(cl::SubCommand::getTopLevel()), cl::sub(compileCmd),
                        cl::sub(runCmd), cl::cat(agcCategory));
cl::opt<bool> noRuntimeChecks(
    "fno-runtime-checks",
    cl::desc("Do not check indices, integer divisors and sizes at run time (faster; a bad "
             "index then reads or writes out of bounds). tf.debugging assertions stay"),
    cl::sub(cl::SubCommand::getTopLevel()), cl::sub(compileCmd), cl::sub(runCmd),
    cl::cat(agcCategory));
cl::opt<std::string> prefix("prefix", cl::desc("The prefix of the C entry points: PREFIX_f "
                                             "(default: the source file's name, model.py "
                                             "gives model_f)"),
                            cl::value_desc("name"), cl::sub(compileCmd), cl::cat(agcCategory));
cl::opt<std::string> headerFile("header", cl::desc("Write the C header here"),
                                cl::value_desc("file"), cl::sub(compileCmd),
                                cl::cat(agcCategory));
cl::opt<ag::driver::TargetKind> targetKind(
    "target", cl::desc("Code generation target"),
    cl::values(clEnumValN(ag::driver::TargetKind::CPU, "cpu", "x86-64 (the default; see --mcpu)"),
               clEnumValN(ag::driver::TargetKind::CPUAndNVPTX, "cpu,nvptx",
                          "both in one object: each function's GPU version where a GPU is usable, its CPU version elsewhere (agc_uses_gpu; AGC_DEVICE=cpu|gpu chooses)"),
               clEnumValN(ag::driver::TargetKind::NVPTX, "nvptx",
                          "NVIDIA GPUs: host code for the CPU that launches GPU kernels, their PTX in the same object (see --gpu-arch)")),
    cl::init(ag::driver::TargetKind::CPU), cl::sub(compileCmd), cl::sub(runCmd),
    cl::cat(agcCategory));
cl::opt<bool> printKernels(
    "print-kernels",
    cl::desc("With --target=nvptx: list the GPU kernels, one line per launch (where, which "
             "function, threads per block, blocks), instead of compiling"),
    cl::sub(cl::SubCommand::getTopLevel()), cl::sub(compileCmd), cl::cat(agcCategory));
cl::list<std::string> gpuArchs(
    "gpu-arch",
    cl::desc("The NVIDIA GPUs --target=nvptx generates kernels for, as LLVM names them "
             "(default: sm_80,sm_90)"),
    cl::value_desc("sm_NN,..."), cl::CommaSeparated, cl::sub(cl::SubCommand::getTopLevel()),
    cl::sub(compileCmd), cl::sub(runCmd), cl::cat(agcCategory));
cl::opt<std::string> cudaToolkit(
    "cuda-toolkit",
    cl::desc("With --target=nvptx: the CUDA toolkit whose ptxas and fatbinary put every "
             "--gpu-arch chip's cubin and PTX in a fat binary, or 'none' for the first chip's "
             "PTX alone (default: $CUDA_HOME, $CUDA_PATH or /usr/local/cuda where its bin/ "
             "has both tools, else none)"),
    cl::value_desc("dir|none"), cl::sub(cl::SubCommand::getTopLevel()), cl::sub(compileCmd),
    cl::sub(runCmd), cl::cat(agcCategory));
cl::opt<bool> gpuEmulate(
    "gpu-emulate",
    cl::desc("With --target=nvptx, for testing without a GPU: run the kernels on the CPU, "
             "as sequential loops where they are launched (no PTX)"),
    cl::Hidden, cl::sub(compileCmd), cl::sub(runCmd), cl::cat(agcCategory));
cl::list<std::string> signatures(
    "signature",
    cl::desc("Input signature of a function whose source has no input_signature, e.g. "
             "'f(x: float32[None], n: int32[])' (repeat for several functions)"),
    cl::value_desc("sig"), cl::sub(cl::SubCommand::getTopLevel()), cl::sub(compileCmd), cl::sub(toCodeCmd),
    cl::cat(agcCategory));
cl::list<std::string> functions(
    "function",
    cl::desc("Compile this function of the file's top level, and what it calls (repeat for "
             "several; default: every @tf.function). 'model.method' is a method of an "
             "instance the file makes at its top level ('model = Model(...)'), 'model' its "
             "__call__. Other functions are not traced, so what agc cannot compile in them "
             "is no error"),
    cl::value_desc("name"), cl::sub(cl::SubCommand::getTopLevel()), cl::sub(compileCmd),
    cl::cat(agcCategory));
cl::list<std::string> defines("D", cl::desc("A Python argument: every parameter called "
                                            "'name' takes the Python literal 'value'"),
                              cl::value_desc("name=value"), cl::Prefix,
                              cl::sub(cl::SubCommand::getTopLevel()), cl::sub(compileCmd), cl::sub(toCodeCmd),
                              cl::cat(agcCategory));
cl::list<std::string> importDirs("I", cl::desc("Look for the modules the file imports in this "
                                               "directory too, after the file's own (repeat "
                                               "for several; AGC_PATH's come last)"),
                                  cl::value_desc("dir"), cl::Prefix,
                                  cl::sub(cl::SubCommand::getTopLevel()), cl::sub(compileCmd),
                                  cl::sub(toCodeCmd), cl::sub(runCmd), cl::cat(agcCategory));
cl::list<std::string> filePrefixMap(
    "ffile-prefix-map",
    cl::desc("In what the object carries (run-time error messages, -g's DWARF), name a "
             "source file under the directory OLD as under NEW instead, so that objects "
             "built in different directories are the same bytes (e.g. "
             "-ffile-prefix-map=$PWD/=; repeat for several, the last match wins)"),
    cl::value_desc("OLD=NEW"), cl::sub(cl::SubCommand::getTopLevel()), cl::sub(compileCmd),
    cl::cat(agcCategory));
cl::opt<bool> writeDepfile(
    "MD", cl::desc("Also write a depfile (Make syntax, as clang's -MD): the object's "
                   "dependencies, every Python file the compile read (the file and the "
                   "modules it imports); OUT.d beside OUT.o unless -MF says where"),
    cl::sub(cl::SubCommand::getTopLevel()), cl::sub(compileCmd), cl::cat(agcCategory));
cl::opt<std::string> depfile("MF", cl::desc("Where -MD writes the depfile (implies -MD)"),
                             cl::value_desc("file"), cl::sub(cl::SubCommand::getTopLevel()),
                             cl::sub(compileCmd), cl::cat(agcCategory));
cl::opt<std::string> depTarget("MT", cl::desc("The target the depfile names (default: the "
                                              "object's path)"),
                               cl::value_desc("target"), cl::sub(cl::SubCommand::getTopLevel()),
                               cl::sub(compileCmd), cl::cat(agcCategory));
cl::opt<ag::ToCodeStyle> codeStyle(
    "style", cl::desc("How to-code prints staged control flow"),
    cl::values(clEnumValN(ag::ToCodeStyle::TensorFlow, "tensorflow",
                          "tf.cond and tf.while_loop (default)"),
               clEnumValN(ag::ToCodeStyle::AutoGraph, "autograph",
                          "ag__.if_stmt / while_stmt / for_stmt, as tf.autograph.to_code")),
    cl::init(ag::ToCodeStyle::TensorFlow), cl::sub(toCodeCmd), cl::cat(agcCategory));
cl::opt<std::string> runArgs("args", cl::desc("Positional arguments, a JSON list"),
                             cl::value_desc("json"), cl::sub(runCmd), cl::cat(agcCategory));
cl::opt<std::string> runKwargs("kwargs", cl::desc("Keyword arguments, a JSON object"),
                               cl::value_desc("json"), cl::sub(runCmd), cl::cat(agcCategory));
enum class RunEntry { Tensor, Scalar };
cl::opt<RunEntry> runEntry(
    "entry", cl::desc("The entry point agc run calls"),
    cl::values(clEnumValN(RunEntry::Tensor, "tensor",
                          "agc_run_f_v (PREFIX_f_v of the C interface), the tensors in two "
                          "arrays (default)"),
               clEnumValN(RunEntry::Scalar, "scalar",
                          "agc_run_f_scalar (PREFIX_f_scalar), the values in and out, called "
                          "as C calls it, where the function has one (all its inputs and "
                          "results 0-d), agc_run_f_v otherwise; the JSON printed names the one "
                          "called (\"entry\")")),
    cl::init(RunEntry::Tensor), cl::sub(runCmd), cl::cat(agcCategory));
cl::opt<unsigned> errorLimit("error-limit",
                             cl::desc("Stop reporting after this many errors (0: no limit)"),
                             cl::init(ag::DiagnosticEngine::kDefaultErrorLimit),
                             cl::sub(cl::SubCommand::getTopLevel()), cl::sub(compileCmd),
                             cl::sub(toCodeCmd), cl::sub(runCmd), cl::cat(agcCategory));

cl::opt<bool> listOps("list-ops",
                      cl::desc("Print every TensorFlow function agc supports, with its dtypes, "
                               "as a Markdown table, and exit"),
                      cl::sub(cl::SubCommand::getTopLevel()), cl::cat(agcCategory));

cl::opt<bool> timePhases("time-phases",
                         cl::desc("Print the wall time of each phase to stderr"),
                         cl::sub(cl::SubCommand::getTopLevel()), cl::sub(compileCmd),
                         cl::cat(agcCategory));

/// Wall time since construction, printed as `agc: time: PHASE: N ms` with --time-phases.
class PhaseTimer {
public:
  explicit PhaseTimer(const char *phase)
      : phase(phase), start(std::chrono::steady_clock::now()) {}
  ~PhaseTimer() {
    if (!timePhases)
      return;
    std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
    llvm::errs() << "agc: time: " << phase << ": " << llvm::format("%.2f", ms.count()) << " ms\n";
  }

private:
  const char *phase;
  std::chrono::steady_clock::time_point start;
};

void printVersion(llvm::raw_ostream &os) {
  os << "agc " AGC_VERSION " (LLVM " LLVM_VERSION_STRING;
  if (auto grammar = ag::ts::PythonGrammar::get())
    os << ", tree-sitter-python ABI " << grammar->getAbiVersion();
  else
    llvm::consumeError(grammar.takeError());
  os << ")\n";
}

int usageError(const llvm::Twine &message) {
  llvm::errs() << "agc: error: " << message << "\n"
               << "Run 'agc --help' for usage.\n";
  return kUsage;
}

/// The --signature and -D options, by function and by parameter name.
std::optional<ag::analysis::ArgumentSpec> argumentSpec(ag::DiagnosticEngine &diag) {
  ag::analysis::ArgumentSpec spec;
  spec.runtimeChecks = !noRuntimeChecks;
  spec.functions.assign(functions.begin(), functions.end());
  spec.importDirs.assign(importDirs.begin(), importDirs.end());
  for (const std::string &map : filePrefixMap) {
    auto [from, to] = llvm::StringRef(map).split('=');
    if (from.empty() || !llvm::StringRef(map).contains('=')) {
      diag.usageError("-ffile-prefix-map=" + map + ": expected OLD=NEW");
      return std::nullopt;
    }
    spec.filePrefixMap.emplace_back(from.str(), to.str());
  }
  for (const std::string &sig : signatures) {
    llvm::StringRef name = llvm::StringRef(sig).split('(').first.trim();
    if (name.empty() || !llvm::StringRef(sig).contains('(')) {
      diag.usageError("--signature '" + sig + "': expected NAME(param: dtype[dims], ...)");
      return std::nullopt;
    }
    spec.signatures[name] = sig;
  }
  for (const std::string &define : defines) {
    auto [name, value] = llvm::StringRef(define).split('=');
    if (name.trim().empty() || !llvm::StringRef(define).contains('=')) {
      diag.usageError("-D " + define + ": expected name=value");
      return std::nullopt;
    }
    spec.defines[name.trim()] = value.trim().str();
  }
  return spec;
}

/// Writes `data` to `path` atomically (a temporary renamed into place); false after
/// reporting.
bool writeFile(llvm::StringRef path, llvm::StringRef data) {
  // A device or a pipe (/dev/stdout, /dev/full) cannot take a rename: written in place,
  // with every error of the write and of the close reported (a full disk included).
  llvm::sys::fs::file_status status;
  if (path != "-" && !llvm::sys::fs::status(path, status) &&
      status.type() != llvm::sys::fs::file_type::regular_file) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (!ec) {
      os << data;
      os.close();
      ec = os.error();
      os.clear_error();
    }
    if (ec) {
      llvm::errs() << "agc: error: cannot write output: '" << path << "': " << ec.message() << '\n';
      return false;
    }
    return true;
  }
  if (llvm::Error err = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
        os << data;
        return llvm::Error::success();
      })) {
    llvm::errs() << "agc: error: cannot write output: " << llvm::toString(std::move(err)) << '\n';
    return false;
  }
  return true;
}

/// Whether `dir`'s bin/ has the CUDA toolkit's ptxas and fatbinary.
bool hasToolkit(llvm::StringRef dir) {
  for (const char *tool : {"ptxas", "fatbinary"}) {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, "bin", tool);
    if (!llvm::sys::fs::can_execute(path))
      return false;
  }
  return true;
}

/// The toolkit --cuda-toolkit names or, by default, the first found; "" for none; an
/// error for a directory without the tools.
llvm::Expected<std::string> toolkitDirectory() {
  if (cudaToolkit == "none")
    return std::string();
  if (!cudaToolkit.empty()) {
    if (hasToolkit(cudaToolkit))
      return cudaToolkit.getValue();
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--cuda-toolkit '%s' has no bin/ptxas and bin/fatbinary "
                                   "(or say --cuda-toolkit=none for PTX alone)",
                                   cudaToolkit.c_str());
  }
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *dir = std::getenv(variable))
      if (*dir && hasToolkit(dir))
        return std::string(dir);
  if (hasToolkit("/usr/local/cuda"))
    return std::string("/usr/local/cuda");
  return std::string();
}

ag::driver::CodeGenOptions codeGenOptions() {
  ag::driver::CodeGenOptions options;
  options.cpu = mcpu;
  options.optLevel = optLevel;
  options.debugInfo = debugInfo;
  if (!gpuArchs.empty())
    options.gpuChips.assign(gpuArchs.begin(), gpuArchs.end());
  options.gpuEmulate = gpuEmulate;
  if (llvm::Expected<std::string> toolkit = toolkitDirectory())
    options.cudaToolkit = *toolkit;
  else
    llvm::consumeError(toolkit.takeError()); // reported by main, before any work
  return options;
}

/// `path` as Make reads a file name in a rule: spaces, `#` and backslashes before them
/// escaped with a backslash, `$` doubled (as clang writes its depfiles).
std::string makeEscaped(llvm::StringRef path) {
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    char c = path[i];
    if (c == ' ' || c == '\t' || c == '#') {
      for (size_t j = i; j > 0 && path[j - 1] == '\\'; --j)
        out += '\\'; // the backslashes before it, doubled
      out += '\\';
    } else if (c == '$') {
      out += '$';
    }
    out += c;
  }
  return out;
}

/// The depfile of `target`: one rule, `target: ` and the files, one per line.
std::string depfileText(llvm::StringRef target, llvm::ArrayRef<std::string> files) {
  std::string out = makeEscaped(target) + ":";
  for (const std::string &file : files) {
    llvm::SmallString<128> clean(file); // ./helper.py as helper.py
    llvm::sys::path::remove_dots(clean, /*remove_dot_dot=*/false);
    out += " \\\n  " + makeEscaped(clean);
  }
  return out + "\n";
}

/// A compile that found no function to compile (no top-level @tf.function, no
/// --function) writes an object with no entry points: says so, and names what
/// --function would compile.
void warnNoEntryPoints(llvm::StringRef path, const ag::ast::Module &module,
                       ag::DiagnosticEngine &diag) {
  std::vector<std::pair<ag::Location, std::string>> candidates;
  for (const std::string &name : module.tfFunctionMethodEntries()) {
    std::string why;
    if (std::optional<ag::ast::Module::Entry> entry = module.findEntry(name, why))
      candidates.push_back({entry->def->getNameLoc(),
                            "the @tf.function method '" + entry->def->getName().str() +
                                "' of '" + entry->receiver + "' compiles with --function " +
                                name});
  }
  for (const ag::ast::StmtPtr &stmt : module.getBody())
    if (const auto *def = llvm::dyn_cast<ag::ast::FunctionDefStmt>(stmt.get())) {
      std::string name = def->getName().str();
      candidates.push_back({def->getNameLoc(),
                            "'" + name + "' is not a @tf.function: --function " + name +
                                " compiles it (with --signature '" + name +
                                "(x: float32[None])' where it takes tensors and has no "
                                "input_signature)"});
    }
  diag.warning(ag::Location(), "'" + path + "' has no @tf.function at its top level and no "
                               "--function was given: the object has no entry points");
  constexpr size_t kShown = 5;
  for (size_t i = 0; i < candidates.size() && i < kShown; ++i)
    diag.note(candidates[i].first, candidates[i].second);
}

/// --emit=asm, and compiling to OUT.o and OUT.h (the default).
int compileToNative(llvm::StringRef path, const ag::ast::Module &module,
                    const ag::driver::Target &target, ag::DiagnosticEngine &diag) {
  std::optional<ag::analysis::ArgumentSpec> spec = argumentSpec(diag);
  if (!spec)
    return diag.hadUsageError() ? kUsage : kRefused;
  // The code generator's set-up, on the other core while the program is lowered.
  target.prepare(emit == Stage::Asm);
  std::optional<ag::driver::LoweredModule> lowered;
  {
    PhaseTimer timer("mlir");
    lowered = ag::driver::lowerToLLVM(module, *spec, diag, target);
  }
  if (!lowered)
    return diag.hadUsageError() ? kUsage : kRefused;
  if (lowered->functions.empty() && functions.empty())
    warnNoEntryPoints(path, module, diag);
  // The entry points are named after the Python module (model.py gives model_f), or
  // --prefix; none may take a name of agc's runtime.
  std::string stem = path == "-" ? "module" : llvm::sys::path::stem(path).str();
  std::string symbolPrefix = prefix.empty() ? ag::driver::cIdentifier(stem) : prefix.getValue();
  for (const ag::driver::FunctionSignature &sig : lowered->functions) {
    std::string entry = symbolPrefix + "_" + sig.name;
    if (llvm::StringRef(entry).starts_with("agc_") || llvm::StringRef(entry).starts_with("agrt_")) {
      if (sig.loc.isValid())
        diag.error(sig.loc, "the C entry point of '" + sig.pythonName + "' would be '" + entry +
                                "', a name of agc's runtime (agc_* and agrt_* are); choose "
                                "another with --prefix");
      else
        diag.error("the C entry point '" + entry + "' would be a name of agc's runtime; "
                   "choose another with --prefix");
      return kRefused;
    }
  }
  // Nor may two take one name (functions `f` and `f_v`: f's entry point with arrays is
  // `model_f_v`), which LLVM would resolve by renaming one.
  {
    std::map<std::string, std::pair<const ag::driver::FunctionSignature *, std::string>> taken;
    taken[symbolPrefix + "_init"] = {nullptr, "module initializer"};
    taken[symbolPrefix + "_teardown"] = {nullptr, "module teardown"};
    for (const ag::driver::FunctionSignature &sig : lowered->functions)
      for (auto &[name, what] : ag::driver::entryPointNames(*lowered, sig, symbolPrefix)) {
        auto [at, fresh] = taken.try_emplace(name, &sig, what);
        if (fresh)
          continue;
        const auto &[other, otherWhat] = at->second;
        std::string message = "the " + what + " of '" + sig.pythonName + "' would be '" + name +
                              "', which is already the " + otherWhat +
                              (other ? " of '" + other->pythonName + "'" : std::string());
        if (sig.loc.isValid())
          diag.error(sig.loc, message);
        else
          diag.error(message);
        if (other && other->loc.isValid() && other != &sig)
          diag.note(other->loc, "'" + other->pythonName + "' is defined here; rename one of "
                                "the two functions");
        else
          diag.note(sig.loc, "rename the function");
        return kRefused;
      }
  }
  ag::driver::addEntryPoints(*lowered, symbolPrefix);
  llvm::SmallVector<char, 0> code;
  {
    PhaseTimer timer("codegen");
    if (llvm::Error err = target.emit(*lowered, emit == Stage::Asm, code)) {
      llvm::errs() << "agc: error: " << llvm::toString(std::move(err)) << "\n";
      return diag.hadUsageError() ? kUsage : kRefused;
    }
  }
  llvm::StringRef bytes(code.data(), code.size());
  if (emit == Stage::Asm)
    return writeFile(outputFile.empty() ? "-" : outputFile.getValue(), bytes) ? kSuccess : kRefused;
  std::string object = outputFile.empty() ? stem + ".o" : outputFile.getValue();
  std::string header = headerFile;
  if (header.empty()) {
    llvm::SmallString<128> h(object);
    llvm::sys::path::replace_extension(h, ".h");
    header = h.str().str();
  }
  std::string text = ag::driver::cHeader(*lowered, symbolPrefix, llvm::sys::path::filename(path),
                                         defines);
  std::string deps;
  if (writeDepfile || !depfile.empty()) {
    if (depfile.empty()) {
      llvm::SmallString<128> d(object);
      llvm::sys::path::replace_extension(d, ".d");
      deps = d.str().str();
    } else {
      deps = depfile;
    }
  }
  if (!writeFile(object, bytes))
    return kRefused;
  if (!writeFile(header, text)) {
    llvm::sys::fs::remove(object); // no object without its header
    return kRefused;
  }
  // The depfile last: a build that finds it finds the object and header it describes.
  if (!deps.empty() &&
      !writeFile(deps, depfileText(depTarget.empty() ? object : depTarget.getValue(),
                                   lowered->readFiles))) {
    llvm::sys::fs::remove(object);
    llvm::sys::fs::remove(header);
    return kRefused;
  }
  return kSuccess;
}

/// `graph` drawn as SVG by Graphviz's dot, found on PATH; nothing, with `why`, where it
/// cannot be.
std::optional<std::string> renderSVG(llvm::StringRef graph, std::string &why) {
  llvm::ErrorOr<std::string> dot = llvm::sys::findProgramByName("dot");
  if (!dot) {
    why = "--emit=svg draws the graph with Graphviz's dot, which is not on PATH (Debian: "
          "apt install graphviz); --emit=dot prints the graph itself";
    return std::nullopt;
  }
  // Both temporaries are removed however this returns.
  llvm::SmallString<128> input, output;
  std::optional<llvm::FileRemover> removeInput, removeOutput;
  if (!llvm::sys::fs::createTemporaryFile("agc-graph", "dot", input))
    removeInput.emplace(input);
  if (!llvm::sys::fs::createTemporaryFile("agc-graph", "svg", output))
    removeOutput.emplace(output);
  if (!removeInput || !removeOutput) {
    why = "--emit=svg: cannot create a temporary file";
    return std::nullopt;
  }
  std::optional<std::string> svg;
  std::error_code ec;
  {
    llvm::raw_fd_ostream file(input, ec);
    file << graph;
  }
  std::string message;
  llvm::StringRef args[] = {"dot", "-Tsvg", input, "-o", output};
  if (!ec && llvm::sys::ExecuteAndWait(*dot, args, std::nullopt, {}, 60, 0, &message) == 0) {
    if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer = llvm::MemoryBuffer::getFile(output))
      svg = (*buffer)->getBuffer().str();
  }
  if (!svg)
    why = "--emit=svg: " + *dot + " failed" + (message.empty() ? "" : ": " + message);
  return svg;
}

/// Parses the file and prints the stage asked for.
int compileFile(llvm::StringRef path) {
  if (printKernels && targetKind == ag::driver::TargetKind::CPU)
    return usageError("--print-kernels lists the kernels of --target=nvptx");
  bool kernels = emit == Stage::Gpu || emit == Stage::Ptx || printKernels;
  std::vector<std::string> chips = codeGenOptions().gpuChips;
  if (kernels)
    if (llvm::Error err = ag::driver::checkGPUChips(chips))
      return usageError(llvm::toString(std::move(err)));
  if ((writeDepfile || !depfile.empty() || !depTarget.empty()) && emit != Stage::Obj)
    return usageError("-MD, -MF and -MT describe an object's dependencies: they go with "
                      "--emit=obj (the default)");
  if (!depTarget.empty() && !writeDepfile && depfile.empty())
    return usageError("-MT names the target of the depfile -MD or -MF writes");
  if (optLevel > 3)
    return usageError("-O" + llvm::Twine(optLevel.getValue()) + ": the level is 0 to 3");
  // The stages before the LLVM dialect are the same for every target; the CPU's pipeline
  // stands in for a target this version does not build.
  llvm::Expected<std::unique_ptr<ag::driver::Target>> target =
      ag::driver::createTarget(kernels ? ag::driver::TargetKind::CPU : targetKind.getValue(),
                               codeGenOptions());
  if (!target)
    return usageError(llvm::toString(target.takeError()));

  llvm::SourceMgr sourceMgr;
  ag::DiagnosticEngine diag(sourceMgr);
  diag.setErrorLimit(errorLimit);
  std::optional<ag::SourceFile> source;
  std::unique_ptr<ag::ast::Module> module;
  {
    PhaseTimer timer("read");
    source = ag::loadSourceFile(path, diag);
  }
  if (!source)
    return diag.hadUsageError() ? kUsage : kRefused;
  {
    PhaseTimer timer("parse+ast");
    module = ag::parseModule(*source, diag);
  }
  if (!module)
    return diag.hadUsageError() ? kUsage : kRefused;
  PhaseTimer timer("emit");

  // The text is built first, so that a refusal leaves no output file behind.
  std::string text;
  llvm::raw_string_ostream textStream(text);
  if (emit == Stage::Ast) {
    ag::ast::dump(*module, textStream);
  } else if (emit == Stage::Analysis) {
    std::optional<ag::analysis::ArgumentSpec> spec = argumentSpec(diag);
    PhaseTimer timer("analysis");
    if (!spec || !ag::analysis::printAnalysisAndDecisions(*module, *spec, diag, textStream))
      return diag.hadUsageError() ? kUsage : kRefused;
  } else if (emit == Stage::Dot || emit == Stage::Svg) {
    std::optional<ag::analysis::ArgumentSpec> spec = argumentSpec(diag);
    PhaseTimer timer("analysis");
    if (!spec || !ag::analysis::printControlFlowDot(*module, *spec, diag, textStream))
      return diag.hadUsageError() ? kUsage : kRefused;
    if (emit == Stage::Svg) {
      std::string why;
      std::optional<std::string> svg = renderSVG(text, why);
      if (!svg)
        return usageError(why);
      text = std::move(*svg);
    }
  } else if (kernels) {
    std::optional<ag::analysis::ArgumentSpec> spec = argumentSpec(diag);
    PhaseTimer timer("mlir");
    if (!spec ||
        !ag::driver::emitKernels(*module, *spec, diag, chips,
                                 printKernels      ? ag::driver::KernelOutput::List
                                 : emit == Stage::Ptx ? ag::driver::KernelOutput::PTX
                                                      : ag::driver::KernelOutput::IR,
                                 textStream))
      return diag.hadUsageError() ? kUsage : kRefused;
  } else if (emit == Stage::Asm || emit == Stage::Obj) {
    return compileToNative(path, *module, **target, diag);
  } else {
    std::optional<ag::analysis::ArgumentSpec> spec = argumentSpec(diag);
    PhaseTimer timer("mlir");
    using ag::driver::IRStage;
    IRStage stage = emit == Stage::Ag            ? IRStage::Ag
                    : emit == Stage::Scf         ? IRStage::Scf
                    : emit == Stage::LlvmDialect ? IRStage::LlvmDialect
                                                 : IRStage::LlvmIr;
    if (!spec || !ag::driver::emitIR(*module, *spec, diag, **target, stage, textStream))
      return diag.hadUsageError() ? kUsage : kRefused;
  }
  return writeFile(outputFile.empty() ? "-" : outputFile.getValue(), text) ? kSuccess : kRefused;
}

/// agc to-code FILE.py[:FUNC]: the converted program.
int toCode(llvm::StringRef target) {
  // FILE.py:FUNC names one function; a path may itself hold ':' only before `.py`.
  llvm::StringRef path = target, function;
  if (auto [file, name] = target.rsplit(':'); target.contains(':') && file.ends_with(".py"))
    std::tie(path, function) = std::make_pair(file, name);
  llvm::SourceMgr sourceMgr;
  ag::DiagnosticEngine diag(sourceMgr);
  diag.setErrorLimit(errorLimit);
  std::optional<ag::SourceFile> source = ag::loadSourceFile(path, diag);
  if (!source)
    return diag.hadUsageError() ? kUsage : kRefused;
  std::unique_ptr<ag::ast::Module> module = ag::parseModule(*source, diag);
  std::optional<ag::analysis::ArgumentSpec> spec = module ? argumentSpec(diag) : std::nullopt;
  if (!spec)
    return diag.hadUsageError() ? kUsage : kRefused;
  if (!function.empty())
    spec->functions = {function.str()};
  ag::analysis::Tracer tracer(*module, diag);
  std::optional<ag::analysis::TraceResult> trace = ag::analysis::traceModule(tracer, *module, *spec);
  if (!trace)
    return diag.hadUsageError() ? kUsage : kRefused;
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!ag::printConvertedModule(*module, *trace, tracer, function, codeStyle, diag, os))
    return diag.hadUsageError() ? kUsage : kRefused;
  llvm::outs() << text;
  return kSuccess;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::SetVersionPrinter(printVersion);
  for (cl::SubCommand *sub : {&cl::SubCommand::getTopLevel(), &compileCmd, &toCodeCmd, &runCmd})
    cl::HideUnrelatedOptions(agcCategory, *sub);

  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "agc: an ahead-of-time AutoGraph compiler\n\n"
          "  Compiles Python functions written with TensorFlow ops and ordinary if/while/for\n"
          "  into native code, deciding ahead of time what becomes tf.cond / tf.while_loop.\n\n"
          "  agc compile FILE.py [-o OUT.o] [--header OUT.h] [--function NAME]... [--emit=STAGE] ...\n"
          "  agc to-code FILE.py[:FUNC]\n"
          "  agc run FILE.py:FUNC [--args JSON] [--kwargs JSON]\n"
          "  agc --emit=STAGE FILE.py   (same as agc compile --emit=STAGE FILE.py)\n\n"
          "  Exit status: 0 success, 1 program refused, 2 usage error, 3 run-time error.\n"
          "  compile writes OUT.o and OUT.h (default: FILE's name in the current directory);\n"
          "  link OUT.o with agc's runtime (pkg-config agc-runtime) and -lm.\n"
          "  --target=nvptx makes objects whose host code launches NVIDIA GPU kernels (a\n"
          "  function that launches one needs a GPU and its driver at run time, else its\n"
          "  call fails with status 4).\n",
          &errorStream)) {
    llvm::errs() << errors;
    return kUsage;
  }

  if (listOps) {
    ag::analysis::printSupportedFunctions(llvm::outs());
    return kSuccess;
  }
  // An unknown --mcpu is a usage error whatever the subcommand.
  if (llvm::Error err =
          ag::driver::createTarget(ag::driver::TargetKind::CPU, codeGenOptions()).takeError())
    return usageError(llvm::toString(std::move(err)));
  if (llvm::Error err = toolkitDirectory().takeError())
    return usageError(llvm::toString(std::move(err)));
  if (!prefix.empty() && prefix != ag::driver::cIdentifier(prefix))
    return usageError("--prefix '" + prefix + "' is not a C identifier");
  if (debugInfo && targetKind != ag::driver::TargetKind::CPU)
    return usageError("-g gives line tables for CPU code; the code of --target=nvptx has "
                      "none yet (compile with --target=cpu for them)");
  if (toCodeCmd)
    return toCode(target);
  if (runCmd) {
    // agc run executes in this process: this machine's CPU, unless --mcpu says otherwise.
    ag::driver::CodeGenOptions options = codeGenOptions();
    if (options.cpu.empty())
      options.cpu = "native";
    llvm::Expected<std::unique_ptr<ag::driver::Target>> host =
        ag::driver::createTarget(targetKind, options);
    if (!host)
      return usageError(llvm::toString(host.takeError()));
    return ag::runFunction(target, runArgs, runKwargs, errorLimit, **host, !noRuntimeChecks,
                           {importDirs.begin(), importDirs.end()},
                           runEntry == RunEntry::Scalar);
  }
  if (inputFile.empty())
    return usageError(compileCmd ? "no input file" : "no subcommand or input file given");
  if (!compileCmd && emit.getNumOccurrences() == 0) {
    if (!llvm::StringRef(inputFile).ends_with(".py"))
      return usageError("unknown subcommand '" + inputFile +
                        "' (expected compile, to-code or run)");
    return usageError("no subcommand given; did you mean 'agc compile " + inputFile + "'?");
  }
  return compileFile(inputFile);
}
