//===- Tracer.h - AutoGraph's decisions, made by tracing at compile time ---===//
//
// Requires: the module's AST and, per function, its FunctionAnalysis (for the names each
// block carries). Attaches: a Decision for every if, while, for, conditional expression
// and `and`/`or` that was reached: staged (its test is a tensor; it becomes tf.cond or
// tf.while_loop) or static (a Python value the compiler evaluated), with the reason and,
// for a staged block, the types of the names it carries.
//
// How: the Tracer is an abstract interpreter that does what tracing under tf.function
// does. Python values are computed; tensors are symbolic (a dtype and a shape). A Python
// `if` runs the taken branch; a Python loop is unrolled; a staged `if` runs both branches
// and merges the carried names; a staged loop runs its body once with its loop variables
// as tensors and checks that their dtypes and shapes hold. Calls to functions of the same
// module are traced inline with their arguments. Module-level code (imports, constants,
// tf.Variable) is evaluated first.
//
// Misuse is refused the way TensorFlow refuses it while tracing, but located: a name set
// in only one branch of a staged if, a loop variable undefined before a staged loop or
// changing dtype or shape in it, a tensor used as a Python bool, mismatched dtypes, an
// unknown tf function, a call to an undefined function. The first error ends the trace
// of that function, as it ends a trace in TensorFlow.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_ANALYSIS_TRACER_H
#define AG_FRONTEND_ANALYSIS_TRACER_H

#include "ag/frontend/AST.h"
#include "ag/frontend/Diagnostics.h"
#include "ag/frontend/analysis/FunctionAnalysis.h"
#include "ag/frontend/analysis/Value.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PointerUnion.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ag::analysis {

/// What was decided for one if/while/for/IfExp/BoolOp, over every time it was reached.
struct Decision {
  bool staged = false;      ///< Staged at least once.
  bool tookTrue = false;    ///< Static: the test was true at least once.
  bool tookFalse = false;   ///< Static: the test was false at least once.
  unsigned reached = 0;     ///< How many times tracing reached it.
  unsigned iterations = 0;  ///< Unrolled loops: iterations, over all times reached.
  std::string reason;       ///< Why, in words ("the test is a bool tensor").
  /// Staged blocks: the carried names and their values after the block.
  std::vector<std::pair<std::string, Value>> carried;
  /// Names bound when the block was reached, every time it was (sorted).
  std::vector<std::string> definedBefore;
  /// Staged loops: shape invariants set with set_loop_options, by loop variable (and
  /// those of the loop variables below whose type has a dimension known only at run time).
  std::vector<std::pair<std::string, Shape>> shapeInvariants;
  /// Staged loops: the loop variables unbound before the loop, as TensorFlow starts them:
  /// zeros of the type one iteration gives (`like`; 0 for a dimension known only at run
  /// time), or (`fromRange`) the start of the tf.range a for iterates. Where one starts
  /// as zeros, the loop checks after it that it ran at least once.
  struct Started {
    std::string name;
    Value like;
    bool fromRange = false;
  };
  std::vector<Started> started;
  /// Staged for loops: over a tf.data.Dataset (to-code prints Dataset.reduce).
  bool overDataset = false;
  /// Expressions only: which construct, and where.
  const char *construct = nullptr;
  Location loc;
};

/// What a Decision is about: an if, while or for statement, or an expression that may be
/// staged (and, or, not, x if c else y).
using DecisionKey = llvm::PointerUnion<const ast::Stmt *, const ast::Expr *>;

struct TraceResult {
  /// A std::map: the tracer holds a Decision& while it traces the statements inside (a
  /// loop's body), which add decisions of their own; a node-based map keeps it valid.
  std::map<DecisionKey, Decision> decisions;
  Value result;
  /// What Python print() wrote while tracing, line by line.
  std::vector<std::string> printed;
};

/// Arguments for one function: tensors from an input signature, Python values from -D.
struct ArgumentSpec {
  /// --signature text per function name: "f(x: float32[None], n: int32[])".
  llvm::StringMap<std::string> signatures;
  /// -D name=value, a Python literal.
  llvm::StringMap<std::string> defines;
  /// The functions to compile, by name (--function, agc run FILE:F): any function at the
  /// top level of the file. Empty: every @tf.function there.
  std::vector<std::string> functions;
  /// Where `import` looks for the user's modules after the importing file's directory
  /// (-I DIR, in order); AGC_PATH's directories follow.
  std::vector<std::string> importDirs;
  /// Whether the generated code checks at run time what TensorFlow checks (bounds,
  /// division by zero, sizes); -fno-runtime-checks turns it off. Assertions the program
  /// writes (tf.debugging) are kept either way.
  bool runtimeChecks = true;
  /// -ffile-prefix-map=OLD=NEW, in command-line order: in what the output carries
  /// (run-time error messages, DWARF), a source file's path that starts with the
  /// directory OLD has it replaced by NEW, the last matching pair winning, as with GCC
  /// and clang. Diagnostics at compile time keep the path as given.
  std::vector<std::pair<std::string, std::string>> filePrefixMap;
};

struct EntryPoint;

class Tracer {
public:
  Tracer(const ast::Module &module, DiagnosticEngine &diag);
  ~Tracer();

  /// Evaluates the module-level statements. One that agc cannot evaluate (a Keras model)
  /// reports nothing: its names become refused where a traced function uses them. False
  /// after a usage error only.
  bool evaluateModule();

  /// The arguments `function` is traced with: its @tf.function input_signature, else the
  /// --signature for it, with -D values and parameter defaults for the rest. Returns
  /// nothing after reporting a malformed signature or value; and, when a parameter has no
  /// value at all, either reports that or, given `missing`, names the parameter there
  /// without reporting.
  std::optional<std::vector<Value>> argumentsFor(const ast::FunctionDefStmt &function,
                                                 const ArgumentSpec &spec,
                                                 std::string *missing = nullptr);

  /// Traces `function` with `args`. Returns nothing after reporting an error.
  std::optional<TraceResult> trace(const ast::FunctionDefStmt &function,
                                   llvm::ArrayRef<Value> args);

  /// Traces entry point `entry` (see entryPoints) with the arguments `spec` gives it: a
  /// function definition, or a refused one, which reports why; a method is traced with
  /// its module-level instance as `self`. Nothing after reporting.
  std::optional<TraceResult> traceEntry(const EntryPoint &entry, const ArgumentSpec &spec,
                                        std::vector<Value> *args = nullptr);

  DiagnosticEngine &getDiagnostics();

  /// Where imports look after the importing file's directory: `dirs` (-I), then the
  /// directories of the AGC_PATH environment variable (':'-separated, as PYTHONPATH).
  void setImportPath(const std::vector<std::string> &dirs);
  /// Every Python file read so far: the main file, then each module it imported.
  const std::vector<std::string> &getReadFiles() const;
  /// The user's modules the last evaluation imported: dotted name and AST, in import order.
  std::vector<std::pair<std::string, const ast::Module *>> getImportedModules() const;

  /// The analyses of `function`, computed once.
  const FunctionAnalysis &analysisOf(const ast::FunctionDefStmt &function);

  /// From now on, tracing also tells `emitter` what it builds (see Emitter.h); null
  /// detaches it. Element shapes of tf.TensorArrays learnt by earlier traces are kept:
  /// trace once without an emitter, then again with one.
  void setEmitter(class Emitter *emitter);

  /// The implementation (private to the analysis library).
  class Impl;

private:
  std::unique_ptr<Impl> impl;
};

/// A function a compile traces and exports.
struct EntryPoint {
  /// A FunctionDefStmt, or an UnsupportedStmt for a definition agc refused as written
  /// (tracing it reports why).
  const ast::Stmt *stmt;
  /// Its name on the command line: `f`, `model.method`, `model` (its `__call__`).
  std::string name;
  /// For a method: the module-level instance it is traced on (`model`); else empty.
  std::string receiver;
};

/// The functions a compile traces: those `spec.functions` names (top-level functions, and
/// methods of module-level instances, ast::Module::findEntry), else every top-level
/// @tf.function, in source order. Nothing after reporting a name that names none (a usage
/// error).
std::optional<std::vector<EntryPoint>> entryPoints(const ast::Module &module,
                                                   const ArgumentSpec &spec,
                                                   DiagnosticEngine &diag);

/// Traces the entry points of `module` (entryPoints) with the arguments `spec` gives,
/// after evaluating the module, and merges their decisions (a block staged in any trace
/// is staged). Reports and returns nothing when a function cannot be traced (it has no
/// arguments, or tracing it fails), after a note naming each function refused.
std::optional<TraceResult> traceModule(Tracer &tracer, const ast::Module &module,
                                       const ArgumentSpec &spec);

/// What tracing made of the if, while or for `stmt` (`d`: its decision, or null): "staged:
/// <why>", "static: <why>; runs the main branch", "unrolled: <why>; 5 iterations", "not
/// reached while tracing".
std::string describeDecision(const ast::Stmt &stmt, const Decision *d);

/// One function of a module as --emit=analysis and --emit=dot show it: its dataflow
/// analysis and, where it was traced, its arguments and the trace.
struct FunctionView {
  const ast::FunctionDefStmt &function;
  const FunctionAnalysis &analysis;
  /// Whether it was traced, and with what arguments.
  bool traced = false;
  std::vector<Value> args = {};
  /// The trace; null when the function was not traced (`notTraced` says why) or tracing
  /// it failed (an error was reported).
  const TraceResult *trace = nullptr;
  std::string notTraced = {};
  /// For a method traced on an instance the module makes (ast::Module::
  /// tfFunctionMethodEntries): its name on the command line (`model`, `model.method`);
  /// `args` then start with the instance, `self`.
  std::string entry = {};
};

/// Calls `visit` for every function of `module`, in source order (nested ones after their
/// parent), then for each @tf.function method of an instance the module makes at its top
/// level, after evaluating the module and tracing each @tf.function (the methods on their
/// instance) with the arguments `spec` gives. Returns false when an error was reported
/// (the functions are visited all the same).
bool forEachTracedFunction(const ast::Module &module, const ArgumentSpec &spec,
                           DiagnosticEngine &diag,
                           llvm::function_ref<void(const FunctionView &)> visit);

/// Prints `--emit=analysis` for every function of `module`: the dataflow facts of
/// printAnalysis, and for each traced function the staging decision of every block.
/// Returns false when an error was reported.
bool printAnalysisAndDecisions(const ast::Module &module, const ArgumentSpec &spec,
                               DiagnosticEngine &diag, llvm::raw_ostream &os);

/// Prints `--emit=dot`: a Graphviz graph of every function of `module`, each a cluster of
/// its statements (one node each, labelled with its line and source) and the control
/// flow between them; every if, while and for a cluster of its own, labelled with its
/// line and what tracing made of it: tf.cond or tf.while_loop (filled, with the names it
/// carries and their types), or static control flow resolved (a dashed border; the branch
/// not taken grey). Returns false when an error was reported (DotPrinter.cpp).
bool printControlFlowDot(const ast::Module &module, const ArgumentSpec &spec,
                         DiagnosticEngine &diag, llvm::raw_ostream &os);

} // namespace ag::analysis

#endif // AG_FRONTEND_ANALYSIS_TRACER_H
