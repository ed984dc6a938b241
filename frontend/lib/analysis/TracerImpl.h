//===- TracerImpl.h - The Tracer's state, shared by its source files ------===//
//
// Private to the analysis library. Tracer.cpp holds the module and functions,
// TracerStmts.cpp statements, TracerConditionals.cpp ifs and the flags of exits,
// TracerLoops.cpp loops, TracerExpr.cpp, TracerOperators.cpp and TracerCalls.cpp
// expressions and Python semantics, TFOps.cpp (with TFOpRules.cpp) the tf.* functions,
// TracerMethods.cpp the methods of tensors and state, TracerNest.cpp the tuples, lists and
// dicts that staged blocks carry leaf by leaf, TracerSets.cpp Python sets, TracerNumpy.cpp
// the NumPy arrays made while tracing, TracerExplicit.cpp tf.cond, tf.while_loop, tf.case and
// tf.switch_case.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_LIB_ANALYSIS_TRACERIMPL_H
#define AG_FRONTEND_LIB_ANALYSIS_TRACERIMPL_H

#include "ag/frontend/analysis/ControlExits.h"
#include "ag/frontend/analysis/Emitter.h"
#include "ag/frontend/analysis/Tracer.h"

#include "llvm/ADT/StringMap.h"

#include <deque>
#include <functional>
#include <map>

namespace ag::analysis {

using Env = llvm::StringMap<Value>;

/// The names assignment target `target` binds (a name, or the names in a tuple or list of
/// targets), appended to `out`.
void assignedNames(const ast::Expr &target, std::vector<ast::Identifier> &out);

/// The names statement `stmt` binds where it runs (not in the blocks it holds): assignment
/// targets, a def's or class's name, the names an import binds; appended to `out`.
void boundNames(const ast::Stmt &stmt, std::vector<ast::Identifier> &out);

/// A library module's path as the tracer names it: `tensorflow.math` is `tf.math`.
std::string canonicalModule(llvm::StringRef name);

/// Where `name` is first bound in `stmts` (recursively, not in nested functions).
const ast::Expr *findBinding(const ast::StmtList &stmts, llvm::StringRef name);

/// The bindings of one call of a user function. A function defined in the call closes
/// over them, as Python's closures do: when it runs, it reads them as they are then, so a
/// scope outlives its call when such a function may (Tracer::Impl::closedOver).
struct CallScope {
  Env locals;
  /// The scope of the call that defined the function of this one (its closure); null for
  /// a function of the main module, and for module-level code.
  const CallScope *parent = nullptr;
  /// An imported module's names: lookups stop here (they never reach the main module's).
  const struct ImportedModule *module = nullptr;
};

/// A module of the user's that the program imports (TracerImports.cpp).
struct ImportedModule {
  std::string name; ///< Dotted: "pkg.mod".
  std::string path; ///< The file: ".../pkg/mod.py" or ".../pkg/__init__.py".
  bool package = false;
  const ast::Module *ast = nullptr;
  /// Its names (a CallScope, so that its functions close over it): `names` from the start
  /// of its evaluation, owned by `scope` once done.
  CallScope *names = nullptr;
  std::unique_ptr<CallScope> scope;
  bool evaluating = false;
  Location importedAt; ///< The first import of it, for notes.
};

/// A field of a dataclass: an annotated name of its body, with or without a default.
struct AnnotatedField {
  std::string name;
  bool hasDefault;
};

/// Nested structures (TracerNest.cpp): a tuple, list or dict that a staged block carries
/// leaf by leaf, as TensorFlow's nest does.
bool isNest(const Value &v);
/// Where `b` differs in structure from `a` (kinds, lengths, dict keys, namedtuple
/// classes), in words naming the place from `path`; empty when they share one.
std::string nestDifference(const Value &a, const Value &b, const std::string &path);
/// A leaf of a nested structure and its path from the name (`d['s']`, `v[0]`, `p.lo`).
struct NestLeaf {
  std::string path;
  Value value;
};
/// Appends the leaves of `v` (itself, if it is not a nest) in the order of `structure`,
/// which `v` shares (a dict's keys in `structure`'s order).
void flattenNest(const Value &v, const Value &structure, const std::string &path,
                 std::vector<NestLeaf> &out);
/// `structure` with its leaves taken from `leaves` from `next` on: lists and dicts new.
Value packNest(const Value &structure, llvm::ArrayRef<Value> leaves, size_t &next);

/// How a statement list finished, for Python-level control flow.
enum class Flow { Normal, Break, Continue, Return, Error };

class Tracer::Impl {
public:
  Impl(const ast::Module &module, DiagnosticEngine &diag) : module(module), diag(diag) {}

  // --- Tracer*.cpp: module, functions, statements, control flow ---------------------
  bool evaluateModule();
  std::optional<std::vector<Value>> argumentsFor(const ast::FunctionDefStmt &function,
                                                 const ArgumentSpec &spec, std::string *missing);
  std::optional<TraceResult> trace(const ast::FunctionDefStmt &function,
                                   llvm::ArrayRef<Value> args);
  const FunctionAnalysis &analysisOf(const ast::FunctionDefStmt &function);

  /// Calls a user function: binds the arguments, traces the body, returns its value.
  /// `defaults` are the values of its parameters' defaults where it was defined (null for
  /// an entry point, whose defaults are evaluated at the top level).
  std::optional<Value> callFunction(const ast::FunctionDefStmt &function, const CallScope *closure,
                                    const CallArgs &args,
                                    const std::vector<Value> *defaults = nullptr);
  /// The function `def` defines here: its defaults evaluated, closing over the current
  /// call's names (a `def` statement, a lambda).
  std::optional<Value> functionValue(const ast::FunctionDefStmt &def);
  /// The items a Python loop or comprehension iterates over `iter` (a list, tuple, range
  /// or str), or nothing after reporting.
  std::optional<std::vector<Value>> pythonItems(const Value &iter, const Location &loc);
  /// `[e for ...]`, `(e for ...)` (a list: what consumes it is traced at once).
  std::optional<Value> evalComprehension(const ast::ComprehensionExpr &c);

  // --- TracerExpr.cpp, TracerOperators.cpp, TracerCalls.cpp: expressions ------------
  std::optional<Value> eval(const ast::Expr &expr);
  std::optional<Value> evalUnary(const ast::Expr &expr);
  std::optional<Value> evalBoolOp(const ast::Expr &expr);
  std::optional<Value> evalCompare(const ast::Expr &expr);
  std::optional<Value> evalCall(const ast::Expr &expr);
  std::optional<Value> evalIfExp(const ast::Expr &expr);
  std::optional<Value> lookup(const ast::NameExpr &name);
  /// Where `id` is bound as lookup resolves it (the call, the calls it closes over, the
  /// module), or null: what a method that mutates its receiver (list.append) updates.
  Value *bindingOf(llvm::StringRef id);
  std::optional<Value> binary(ast::BinaryOp op, const Value &lhs, const Value &rhs,
                              const Location &loc);
  std::optional<Value> compare(ast::CmpOp op, const Value &lhs, const Value &rhs,
                               const Location &loc);
  /// The result of operator `op` (not `@`) or comparison `op` on tensors `a` and `b`,
  /// after TensorFlow's checks; types only (binary and compare emit the op).
  std::optional<Value> tensorBinaryType(ast::BinaryOp op, const Value &a, const Value &b,
                                        const Location &loc);
  std::optional<Value> tensorCompareType(ast::CmpOp op, const Value &a, const Value &b,
                                         const Location &loc);
  /// Python truth of a Python value; nothing for a tensor.
  std::optional<bool> truth(const Value &value) const;
  /// A Python scalar or nested list as a tensor (dtype by TensorFlow's rules, or `want`).
  std::optional<Value> toTensor(const Value &value, const Location &loc,
                                std::optional<DType> want = std::nullopt);
  /// The dtype and shape toTensor gives `value`, reported where it cannot convert, with
  /// no IR: what typing needs (the typing rules, and a merge whose values convert inside
  /// their own branches). Type inference never emits.
  std::optional<Value> tensorTypeOf(const Value &value, const Location &loc,
                                    std::optional<DType> want = std::nullopt);
  /// The shape of a list holding tensors (`v` or an item of it), packed as `dtype`:
  /// its tensors of that dtype (any but string with `castTensors`), its Python scalars
  /// convertible to it, its items of compatible shapes; reported otherwise.
  std::optional<Shape> packedShape(const Value &v, DType dtype, bool castTensors,
                                   const Location &loc);
  /// A tensor of `value`'s dtype and shape, from a tensor, a Variable or a Python value.
  std::optional<Value> asTensor(const Value &value, const Location &loc) {
    if (value.kind == Value::Kind::Tensor)
      return value;
    return toTensor(value, loc); // a Variable is read
  }
  std::optional<Value> call(const Value &callee, const CallArgs &args, const ast::CallExpr &expr);
  /// range, len, print, int, float, ... called from traced code.
  std::optional<Value> parseNumber(llvm::StringRef name, llvm::StringRef text,
                                   const Location &loc);
  std::optional<Value> callBuiltin(llvm::StringRef name, const CallArgs &args);
  /// sum, any, all, sorted, reversed, enumerate, zip, map, filter: over Python iterables.
  std::optional<Value> callIterableBuiltin(llvm::StringRef name, const CallArgs &args);
  /// Calls `fn` (a user function, lambda, builtin or tf function) with `operands`, as
  /// map, filter and sorted's key do.
  std::optional<Value> callValue(const Value &fn, const CallArgs &args);
  std::optional<Value> callValue(const Value &fn, std::vector<Value> operands,
                                 const Location &loc);
  std::optional<Value> subscript(const Value &value, const ast::Expr &index, const Location &loc);
  std::optional<Value> subscriptSequence(const Value &base, const ast::Expr &index);
  std::optional<Value> subscriptTensor(const Value &base, const ast::Expr &index,
                                       const Location &loc);
  std::optional<Value> attribute(const Value &value, llvm::StringRef attr, const Location &loc);

  // --- TFOps.cpp, TracerMethods.cpp: tf.* functions and methods ----------------------
  std::optional<Value> callTF(llvm::StringRef path, const CallArgs &args);
  /// Whether the typing rule or the lowering of tf function `path` (op `op`) read every
  /// keyword of `args` but name= and those given None; reports the first it did not.
  bool honoursKeywords(llvm::StringRef path, TFOp op, const CallArgs &args);
  std::optional<Value> addN(const CallArgs &args);
  std::optional<Value> callMethod(const Value &method, const CallArgs &args,
                                  const ast::CallExpr &expr);
  /// Calls method `name` of tf.TensorArray `self`: typed, and handed to the Emitter.
  std::optional<Value> callTensorArray(const Value &self, llvm::StringRef name,
                                       const CallArgs &args);
  /// write, read, stack, size, unstack of a tf.TensorArray, typed.
  std::optional<Value> tensorArrayMethod(const Value &self, llvm::StringRef name,
                                         const CallArgs &args);
  /// Whether method `type.name` got from `lo` to `hi` positional arguments (and keywords
  /// only where `keywords`); reports otherwise.
  bool checkArity(llvm::StringRef type, llvm::StringRef name, const CallArgs &args, size_t lo,
                  size_t hi, bool keywords);
  /// The methods of a Python list and dict (append, pop, get, items, update, ...).
  std::optional<Value> listMethod(const Value &self, llvm::StringRef name, const CallArgs &args);
  std::optional<Value> dictMethod(const Value &self, llvm::StringRef name, const CallArgs &args);
  // --- TracerExplicit.cpp: tf.cond, tf.while_loop, tf.case, tf.switch_case -----------
  /// Whether tf function `path` is explicit control flow (or tf.no_op, tf.group).
  static bool isExplicitControlFlow(llvm::StringRef path);
  std::optional<Value> explicitControlFlow(llvm::StringRef path, const CallArgs &args);
  std::optional<Value> explicitCond(const CallArgs &args);
  std::optional<Value> explicitWhileLoop(const CallArgs &args);
  std::optional<Value> explicitCase(const CallArgs &args);
  std::optional<Value> explicitSwitchCase(const CallArgs &args);
  /// A branch of a staged cond: what gives its value when traced (a call of the user's
  /// function), its name in errors ("true_fn"), and that function (for notes), if any.
  struct Branch {
    std::function<std::optional<Value>()> run;
    std::string name;
    const Value *fn;
  };
  /// A staged cond on `pred` (a bool tensor of one element) whose branches `thenBranch` and
  /// `elseBranch` return values of one nested structure, leaves of one dtype (None in both,
  /// or tensors and Python numbers): what tf.cond, tf.case and tf.switch_case (`api`)
  /// lower to. Returns the structure with the cond's results.
  std::optional<Value> stagedCond(const Value &pred, const Branch &thenBranch,
                                  const Branch &elseBranch, llvm::StringRef api,
                                  const Location &loc);
  /// What traces the test or body of a staged loop, given its loop variables.
  using LoopFn = std::function<std::optional<Value>(const std::vector<Value> &)>;
  /// A staged while loop over `loopVars` (a tuple or list, of nested structures whose
  /// leaves are tensors, Python numbers or TensorArrays), as tf.while_loop does it: `cond`
  /// gives the test, `body` the next values (loop_vars' structure, or one value for one
  /// variable), each leaf of its dtype and of a shape its entry shape (or
  /// `invariantLeaves`, one per leaf, if any) admits; `most` is maximum_iterations (an
  /// int32 scalar tensor). Returns the loop's results, packed as `loopVars`.
  std::optional<Value> stagedWhileLoop(const Value &loopVars, llvm::ArrayRef<Value> invariantLeaves,
                                       std::optional<Value> most, const LoopFn &cond,
                                       const LoopFn &body, const Location &loc);
  /// tf.map_fn, tf.vectorized_map, tf.scan, tf.foldl, tf.foldr (TracerFunctional.cpp), as
  /// staged loops.
  static bool isFunctionalOp(llvm::StringRef path);
  std::optional<Value> functionalOp(llvm::StringRef path, const CallArgs &args);
  // --- TracerComposite.cpp: tf functions TensorFlow writes over other ops -------------
  /// Whether tf function `path` is one (tf.nn.gelu, tf.one_hot, tf.einsum, ...).
  static bool isComposite(llvm::StringRef path);
  std::optional<Value> composite(llvm::StringRef path, const CallArgs &args);
  // --- TracerData.cpp: tf.data pipelines ----------------------------------------------
  static bool isDatasetSource(llvm::StringRef path);
  /// tf.data.Dataset.range, from_tensor_slices, zip (and a located refusal of the rest).
  std::optional<Value> datasetSource(llvm::StringRef path, const CallArgs &args);
  /// map, take, skip, enumerate, repeat, batch, reduce of a dataset.
  std::optional<Value> datasetMethod(const Value &self, llvm::StringRef name,
                                     const CallArgs &args);
  /// How many elements dataset `ds` has: an int32 scalar tensor.
  std::optional<Value> datasetCount(const Value &ds, const Location &loc);
  /// The element of `ds` at `index` (an int32 scalar tensor, or a Python int).
  std::optional<Value> datasetElement(const Value &ds, const Value &index, const Location &loc);
  /// Rows [lo, hi) of `ds` as one batch: tensors with that many rows (`rows` of them where
  /// known, else -1); slices of a source's tensors (through zip, take and skip), else
  /// datasetStacked.
  std::optional<Value> datasetRows(const Value &ds, const Value &lo, const Value &hi,
                                   int64_t rows, const Location &loc);
  /// Elements [lo, hi) of `ds`, one at a time through a staged loop into TensorArrays,
  /// stacked leaf by leaf: the rows of a dataset that map or filter made.
  std::optional<Value> datasetStacked(const Value &ds, const Value &lo, const Value &hi,
                                      const Location &loc);
  /// The tf.print and assertion ops traced so far (a Dataset.filter predicate may have none).
  unsigned effectsTraced = 0;
  /// For its life nothing is emitted, and when it ends the decisions and TensorArray
  /// shapes that tracing made are forgotten (with `quiet`, its diagnostics and failure
  /// too, kept in `swallowed`): a first trace that only learns types, as AutoGraph
  /// stages a loop's first iteration and tf.map_fn learns what fn returns.
  struct TypingOnly {
    TypingOnly(Impl &impl, bool quiet);
    ~TypingOnly();
    Impl &impl;
    bool quiet;
    Emitter *emitter;
    bool failed;
    std::vector<StoredDiagnostic> swallowed;
    std::vector<StoredDiagnostic> *sink = nullptr;
    std::optional<std::map<DecisionKey, Decision>> decisions;
    std::map<std::pair<unsigned, unsigned>, Shape> arrays;
  };
  /// The leaves of branch output `out` in the order of `structure`, converted to tensors
  /// where the branch runs (None kept); `who` ("the true branch") names it in errors.
  std::optional<std::vector<Value>> branchLeaves(const Value &out, const Value &structure,
                                                 const std::string &who, llvm::StringRef api,
                                                 const Location &loc);
  /// `pred` checked as the predicate of tf.cond or tf.case (`api`), as a tensor.
  std::optional<Value> predicate(const Value &pred, llvm::StringRef api, const Location &loc);
  // --- TracerNumpy.cpp: NumPy arrays made while tracing --------------------------------
  /// np.array, np.zeros, ... (nothing, without reporting, for another function).
  std::optional<Value> numpyFunction(llvm::StringRef path, const CallArgs &args);
  /// A dtype= of NumPy's (np.float32, float, 'int32', tf.int64); nothing when absent, and
  /// nothing with `failed` set after reporting.
  std::optional<DType> numpyDType(const Value *value, const Location &loc);
  std::optional<Value> arrayAttribute(const Value &array, llvm::StringRef attr,
                                      const Location &loc);
  /// A constant tensor of `dtype` holding `array` (NumPy's astype conversion).
  std::optional<Value> arrayToTensor(const Value &array, DType dtype, const Location &loc);
  /// `v` with its NumPy arrays (in tuples, lists and dicts too, which are then new) made
  /// constants of `dtype`, or each of its own dtype.
  bool arraysToConstants(Value &v, std::optional<DType> dtype, const Location &loc);
  /// Replaces the NumPy arrays among a TensorFlow function's arguments (in lists and tuples
  /// too) with constants, of the dtype of the first tensor argument (or dtype=) if any.
  /// tf.add_n takes the dtype of each input as it is (TensorFlow 2.21 refuses a float64
  /// array beside float32 tensors there): `hintFromTensors` false.
  bool convertArrays(CallArgs &args, bool hintFromTensors = true);
  // --- TracerSets.cpp: Python sets ----------------------------------------------------
  std::optional<Value> setMethod(const Value &self, llvm::StringRef name, const CallArgs &args);
  /// A new set of `elements`, after checking that each is hashable.
  std::optional<Value> makeSet(const std::vector<Value> &elements, const Location &loc);
  /// `lhs | rhs`, `&`, `-`, `^` on two sets; nothing when either is not a set (no report).
  std::optional<Value> setOperator(ast::BinaryOp op, const Value &lhs, const Value &rhs,
                                   const Location &loc);
  /// `<=`, `<`, `>=`, `>` on two sets (subset and superset); nothing for other operands.
  std::optional<bool> setCompare(ast::CmpOp op, const Value &lhs, const Value &rhs);
  /// The items of an iterable where their order does not matter (sorted, min, len, ...):
  /// a set's in any order, others' as pythonItems gives them.
  std::optional<std::vector<Value>> itemsInAnyOrder(const Value &iterable, const Location &loc);
  /// A set's elements in Python's iteration order, or a located refusal where agc does not
  /// know it.
  std::optional<std::vector<Value>> setItemsInOrder(const Value &set, const Location &loc);
  /// Whether `v` can be printed as Python would print it (a set in it has a known order).
  bool checkPrintable(const Value &v, const Location &loc);
  /// `d[key]`, and the check that `key` can be a dict key.
  std::optional<Value> dictItem(const Value &dict, const Value &key, const Location &loc);
  bool checkHashable(const Value &key, const Location &loc);
  /// Whether Python object `container` (a list or dict) may be changed here: not inside a
  /// staged block it was made before (reported at `loc`). `store`: the change sets an item
  /// or attribute, which TensorFlow carries as a compound symbol and agc does not.
  bool mayChange(const Value &container, const Location &loc, bool store = false);
  /// `container[index] = value` and `del container[index]` on a list or dict.
  bool setItem(const Value &container, const ast::Expr &index, const Value *value,
               const Location &loc);
  /// The keyword arguments a `**` operand gives (a dict of str keys), appended to `args`.
  bool unpackKeywords(const Value &mapping, const Location &loc, CallArgs &args);
  /// Broadcasts two shapes by NumPy's rules; reports and returns nothing when they clash.
  std::optional<Shape> broadcast(const Shape &a, const Shape &b, const Location &loc);
  /// A shape from a Python list/tuple of ints (or None), a TensorShape, or a 1-D tensor.
  std::optional<Shape> shapeFrom(const Value &value, const Location &loc);
  std::optional<DType> dtypeArg(const Value *value, const Location &loc);

  // --- TracerClasses.cpp: classes, instances, decorators, Python's library -------------
  Flow execClassDef(const ast::ClassDefStmt &def);
  /// `value` (a function or class just defined) through `decorators`, bottom-up, skipping
  /// `tfFunction` (@tf.function, the identity while tracing).
  std::optional<Value> applyDecorators(const ast::ExprList &decorators, Value value,
                                       const ast::Expr *tfFunction);
  static std::vector<AnnotatedField> annotatedFields(const ast::ClassDefStmt &def);
  /// Calls a class, an instance (__call__), a bound method or a wrapper (partial, ...).
  std::optional<Value> callObject(const Value &callee, const CallArgs &args);
  std::optional<Value> callClass(const Value &cls, const CallArgs &args);
  bool initDataclass(const Value &cls, const Value &self, const CallArgs &args);
  std::optional<Value> makeDataclass(const Value &cls, const Object *options,
                                     const Location &loc);
  /// The attribute `name` of class `cls` along its MRO from position `from` (not bound),
  /// or null; `owner` gets the class that holds it.
  static const Value *classAttribute(Object &cls, llvm::StringRef name, size_t from = 0,
                                     Object **owner = nullptr);
  /// `obj.attr` of an instance, a class or super().
  std::optional<Value> objectAttribute(const Value &base, llvm::StringRef attr,
                                       const Location &loc);
  bool setAttribute(const Value &base, llvm::StringRef attr, const Value &value,
                    const Location &loc);
  /// Before `container` keeps `value`: a tensor kept in an object made before the trace
  /// began is noted, to be forgotten when the trace ends. (True: it may.)
  bool mayHold(const Value &container, const Value &value, const Location &loc);
  /// After tracing `traced`: the tensors it kept in module-level objects become refused
  /// values, an error where another function reads one.
  void forgetKeptTensors(const ast::FunctionDefStmt &traced);
  /// Reports a refused value `v` used at `loc` (`what` names it, "'x'"), with its notes.
  std::nullopt_t useOfRefused(const Value &v, const Location &loc, const llvm::Twine &what);
  /// functools.*, dataclasses.*: Python's library that tracing runs.
  std::optional<Value> callLibrary(llvm::StringRef path, const CallArgs &args);
  /// math.* and numpy.* functions of Python numbers (nothing, without reporting, for a
  /// name that is not one of them).
  std::optional<Value> mathFunction(llvm::StringRef path, const CallArgs &args);
  /// property, staticmethod, classmethod, super, getattr, hasattr, setattr, type.
  std::optional<Value> callClassBuiltin(llvm::StringRef name, const CallArgs &args);

  // --- TracerStrings.cpp: f-strings, str.format, str's methods ---------------------------
  /// `value` formatted by `spec` (the format-spec mini-language) after `conversion` ('r',
  /// 's', 'a' or 0), or nothing after reporting at `loc`.
  std::optional<std::string> formatValue(const Value &value, char conversion,
                                         llvm::StringRef spec, const Location &loc);
  std::optional<Value> evalJoinedStr(const ast::JoinedStrExpr &s);
  std::optional<Value> strFormat(const Value &self, const CallArgs &args);
  std::optional<Value> strMethod(const Value &self, llvm::StringRef name, const CallArgs &args);

  // --- TracerImports.cpp: programs of several files -----------------------------------
  Flow execImport(const ast::ImportStmt &stmt);
  Flow execImportFrom(const ast::ImportFromStmt &stmt);
  /// The module `name` (dotted), found along the search path from `fromDir` and evaluated
  /// once per evaluation of the program; null (with nothing reported) when it is not a
  /// file of the user's, and null after reporting when it cannot be imported.
  /// `package` prefixes the dotted name of a relative import (whose file is looked for in
  /// `fromDir` only); `top` gets the first module of the chain (`pkg` of `pkg.mod`).
  ImportedModule *importModule(llvm::StringRef name, llvm::StringRef fromDir,
                               const Location &loc, bool &failedImport,
                               llvm::StringRef package = "", ImportedModule **top = nullptr);
  /// A module's value: `tf`-style path for a library, or one naming an ImportedModule.
  Value moduleValue(const ImportedModule &m);
  /// The imported module whose code is running (its scope), or null for the main module.
  const ImportedModule *currentModule() const;
  /// The scope a function defined here closes over when it is not in a call: an imported
  /// module's, else null (the main module's names).
  const CallScope *moduleScope() const;
  /// Runs the statements of a module body (the main module's or an imported one's) in
  /// the current frame: a statement that fails makes the names it binds refused.
  void evaluateBody(const ast::StmtList &body, const Location *importedAt);

  // --- TracerConditionals.cpp: emission (only with an Emitter attached) ---------------
  /// Tells the emitter about op `op`; false (and the trace failed) when it refuses.
  bool emitOp(TFOp op, const CallArgs &args, Value &out) {
    if (!emitter || emitter->op(op, args, out))
      return true;
    failed = true;
    return false;
  }
  bool emitOp(TFOp op, std::vector<Value> operands, Value &out, const Location &loc) {
    CallArgs args;
    args.positional = std::move(operands);
    args.loc = loc;
    return emitOp(op, args, out);
  }
  /// A scalar bool tensor constant.
  std::optional<Value> boolTensor(bool b, const Location &loc);
  /// The statements of `stmts` from `from` on, under `if not (break or continue or
  /// return flags)`, as AutoGraph guards the code after a conditional exit.
  Flow execGuarded(const ast::StmtList &stmts, size_t from);
  /// Ends a staged if (or guard) `token` whose branches left `thenEnv` and `elseEnv`,
  /// carrying `names` (values in frame().locals give the merged types, or are computed
  /// here for flags); updates frame().locals with the results.
  bool emitMerge(void *token, const std::vector<std::string> &names, const Env &thenEnv,
                 const Env &elseEnv, const Location &loc);
  /// The exit flags and the return slot (ControlExits.h) whose value differs between
  /// `before` and either branch.
  std::vector<std::string> changedFlags(const Env &before, const Env &a, const Env &b) const;
  /// `a and b`, `a or b` from operand `k` on, `acc` being a tensor: staged.
  std::optional<Value> stagedBoolOp(const ast::BoolOpExpr &b, size_t k, Value acc);

  // --- reporting ----------------------------------------------------------------------
  std::nullopt_t error(const Location &loc, const llvm::Twine &message) {
    diag.error(loc, message);
    failed = true;
    return std::nullopt;
  }
  void note(const Location &loc, const llvm::Twine &message) { diag.note(loc, message); }

  // --- state --------------------------------------------------------------------------
  struct Loop {
    const ast::Stmt *stmt;
    bool staged;
  };
  /// One call of a user function (or module-level code: no function, no analysis).
  struct Frame {
    Frame(const ast::FunctionDefStmt *function, const FunctionAnalysis *analysis,
          const CallScope *closure)
        : function(function), analysis(analysis),
          scope(std::make_unique<CallScope>(CallScope{{}, closure})), locals(scope->locals) {}
    const ast::FunctionDefStmt *function;
    const FunctionAnalysis *analysis;
    std::unique_ptr<CallScope> scope;
    Env &locals; ///< scope->locals: the call's own names
    /// A function defined in this call may outlive it, reading its scope.
    bool closedOver = false;
    std::vector<Loop> loops;
    /// Staged ifs entered and not yet left, each with the loop depth at its entry.
    std::vector<std::pair<const ast::IfStmt *, size_t>> stagedIfs;
    /// The value returned so far, merged over every return reached.
    std::optional<Value> returnValue;
    /// The first return reached, for notes.
    const ast::Stmt *returnAt = nullptr;
    /// A return under a staged condition: the function may also go on past it.
    const ast::Stmt *conditionalReturnAt = nullptr;
    /// A staged if that returned on one path only, not yet followed by a return on every
    /// path (AutoGraph's retval_ is undefined on the other path until then).
    const ast::IfStmt *openReturn = nullptr;
    /// Emitting: a staged block may have set a break/continue/return flag, so the rest
    /// of the statement list runs under a staged `if not flag` (AutoGraph's guard).
    bool pendingGuard = false;
    /// Emitting: guards entered and not yet left (a return under one is staged).
    unsigned guards = 0;
    /// Object::made() when the call began: what a guard may not change was made before
    /// (the code a guard runs goes on to the end of the call, so what the call made
    /// itself is not used outside it).
    uint64_t firstObject = Object::made();
    /// Why AutoGraph does not convert this call's code ("a constructor (__init__)", ...),
    /// or empty where it does: there a tensor used as a Python bool is an error, as in
    /// TensorFlow, instead of a staged if or loop. Calls from unconverted code are
    /// unconverted too.
    std::string unconverted;
  };

  /// Calls made in its scope run unconverted, `why` saying why (constructors, __enter__,
  /// properties: Python calls them, not converted code).
  struct UnconvertedScope {
    UnconvertedScope(Impl &impl, std::string why) : impl(impl) {
      saved = std::exchange(impl.unconvertedCall, std::move(why));
    }
    ~UnconvertedScope() { impl.unconvertedCall = std::move(saved); }
    Impl &impl;
    std::string saved;
  };
  std::string unconvertedCall;
  /// Reports a tensor used as a Python bool (`what`: "the test of an if") or iterated in
  /// code AutoGraph does not convert (frame().unconverted says why); returns nullopt.
  std::nullopt_t refuseUnconverted(const Location &loc, const llvm::Twine &what,
                                   bool iterating = false);

  Flow execList(const ast::StmtList &stmts, size_t from = 0);
  Flow exec(const ast::Stmt &stmt);
  Flow execIf(const ast::IfStmt &stmt);
  Flow execWhile(const ast::WhileStmt &stmt);
  Flow execFor(const ast::ForStmt &stmt);
  Flow execWith(const ast::WithStmt &stmt);
  Flow execRaise(const ast::RaiseStmt &stmt);
  Flow execTry(const ast::TryStmt &stmt);
  Flow execStagedIf(const ast::IfStmt &stmt, const Value &test);
  /// One pass of a Python (unrolled) loop's body: nothing to go on with the next pass, or
  /// the flow that ends the loop (Break: it ends without its else clause).
  std::optional<Flow> unrolledPass(const ast::Stmt &loop, const ast::StmtList &body, Decision &d);
  /// A staged while (`test`) or for (`forStmt` over `iterated`, whose items are typed
  /// `element`).
  Flow execStagedLoop(const ast::Stmt &stmt, const ast::StmtList &body, const ast::Expr *test,
                      const ast::ForStmt *forStmt, const Value *element, const Value *iterated);
  /// After one pass of a staged loop's body: loop variable `name`, which entered as
  /// `before0` (written `entryDescription`), must keep its dtype and a shape its entry
  /// shape (or invariant) admits. Returns the value the loop carries, or nothing after
  /// reporting.
  /// `after` is what it holds then (null where the body deleted it); `name` may be a
  /// leaf's path (`v[0]`).
  std::optional<Value> checkLoopVariable(const ast::Stmt &stmt, const std::string &name,
                                         const Value &before0, const Value *after,
                                         const std::string &entryDescription);
  /// The values that names `undefined` (unbound before staged loop `stmt`) have after
  /// one pass of its body, traced without emitting and then forgotten, as AutoGraph
  /// stages one iteration to learn their types; nothing after reporting that one is not
  /// bound by it.
  std::optional<llvm::StringMap<Value>>
  probeIteration(const ast::Stmt &stmt, const ast::StmtList &body, const ast::ForStmt *forStmt,
                 const Value *element, llvm::ArrayRef<std::string> undefined,
                 const llvm::StringMap<Shape> &invariants);
  /// The values of `names` after one pass of the body of staged loop `stmt`, traced without
  /// emitting and then forgotten, its loop variables entering as tensors of the shapes
  /// `invariants` give; nothing (with `missing` the first name not bound, and what tracing
  /// reported in `swallowed`) where the pass fails or leaves one unbound.
  std::optional<llvm::StringMap<Value>>
  probeValues(const ast::Stmt &stmt, const ast::StmtList &body, const ast::ForStmt *forStmt,
              const Value *element, llvm::ArrayRef<std::string> names,
              const llvm::StringMap<Shape> &invariants, std::string &missing,
              std::vector<StoredDiagnostic> &swallowed);
  /// What a name unbound before a staged loop starts as, `like` being its value after one
  /// iteration: zeros of its type (0 where a dimension is unknown, whose invariant then
  /// goes into `invariants`), leaf by leaf for a nest.
  std::optional<Value> loopPlaceholder(const Value &like, const std::string &path,
                                       const ast::Stmt &stmt, llvm::StringMap<Shape> &invariants);
  Flow execBreakContinue(const ast::Stmt &stmt, Flow flow);
  Flow execReturn(const ast::ReturnStmt &stmt);
  bool assign(const ast::Expr &target, const Value &value);
  /// Where an assignment to `name` in the current function goes when the function
  /// declares it `global` (the module's names; `isGlobal` set) or `nonlocal` (the
  /// enclosing call that binds it); null for a local name.
  Env *declaredScope(llvm::StringRef name, bool &isGlobal);
  /// The type of tuple, list or dict `name` after a staged if whose branches give `x` and
  /// `y` (`what` names them: "the main and else branches"): one structure, whose leaves
  /// are tensors of one dtype (or None in both). Nothing after reporting.
  /// Reports TensorFlow's refusal of None (or a structure holding one) that a staged if
  /// produces: `name` is None at the end of `branch` ("main" or "else").
  void noneAtEnd(const std::string &name, const char *branch, const Location &loc,
                 const Location &boundAt);
  std::optional<Value> joinNests(const std::string &name, const Value &x, const Value &y,
                                 const char *what, const Location &loc);
  /// Merges the carried names of a staged block from two environments; false on error.
  bool mergeBranches(const ast::IfStmt &stmt, const Env &then, const Env &orelse,
                     Flow thenFlow, Flow elseFlow);
  /// (Module-level code is traced with no TraceResult: its decisions go to a scratch one.)
  Decision &decision(DecisionKey node) {
    return (result ? result : &moduleLevel)->decisions[node];
  }
  /// The decision about block `stmt`, counted reached, with the names bound now.
  Decision &blockDecision(const ast::Stmt &stmt);
  /// The decision about expression `expr` (and, or, not, x if c else y), counted reached.
  Decision &exprDecision(const ast::Expr &expr, const char *construct) {
    Decision &d = decision(&expr);
    d.construct = construct;
    d.loc = expr.loc();
    ++d.reached;
    return d;
  }
  Frame &frame() { return frames.back(); }
  /// The loop variables' shape invariants set by set_loop_options at the top of `body`;
  /// nothing after reporting a set_loop_options elsewhere in it.
  std::optional<llvm::StringMap<Shape>> shapeInvariants(const ast::StmtList &body);

  /// A staged block the tracer is in: a staged if's branches, the statements a guard
  /// runs, a staged loop's body, a staged conditional expression or and/or. `firstObject`
  /// is Object::made() at its entry: an object with a smaller serial was made before it.
  struct StagedBlock {
    Location loc;
    const char *what; ///< "if (tf.cond)", "loop (tf.while_loop)", ...
    uint64_t firstObject;
    size_t frameDepth; ///< frames.size() where it is: a store at that depth is in its code.
  };
  /// Those entered and not yet left, across calls (a helper called in a staged branch
  /// is in it too).
  std::vector<StagedBlock> staging;
  /// The entry point being traced (traceEntry): its command-line name, and for a method
  /// its instance, bound to `self`.
  std::string entryName;
  const Value *entrySelf = nullptr;
  /// Object::made() when the current trace began (objects made before are the module's).
  uint64_t traceFirstObject = 0;
  /// The module's objects the current trace kept tensors in.
  std::vector<std::shared_ptr<Object>> keptTensors;
  /// The class each method (a function defined in a class body) belongs to, for super().
  llvm::DenseMap<const ast::FunctionDefStmt *, std::shared_ptr<Object>> methodClasses;
  /// Enters a staged block for the life of the guard.
  struct StagingScope {
    StagingScope(Impl &impl, const Location &loc, const char *what,
                 uint64_t firstObject = Object::made())
        : impl(impl) {
      impl.staging.push_back({loc, what, firstObject, impl.frames.size()});
    }
    ~StagingScope() { impl.staging.pop_back(); }
    Impl &impl;
  };

  const ast::Module &module;
  DiagnosticEngine &diag;
  /// The module's names once evaluateModule has run.
  Env globals;
  /// The user's modules the program imported in this evaluation (by dotted name), and
  /// every file parsed (kept for the Tracer's life: values point into their ASTs).
  std::map<std::string, std::unique_ptr<ImportedModule>> imported;
  std::map<std::string, std::unique_ptr<ast::Module>> parsedFiles;
  /// Where imports look after the importing file's directory: -I, then AGC_PATH.
  std::vector<std::string> importPath;
  /// Every Python file the compile read (the main file first), for depfiles.
  std::vector<std::string> readFiles;
  /// Library modules imported that agc neither found nor knows, with where it looked.
  std::map<std::string, std::string> unknownModules;
  /// Whether evaluateModule is running: the module's names are then its frame's (a
  /// function called at module level reads those bound so far).
  bool evaluatingModule = false;
  Env &moduleNames() { return evaluatingModule ? frames.front().locals : globals; }
  /// The names a lookup in module-level scope reads: the imported module's whose code
  /// runs, else the main module's.
  Env &currentModuleNames() {
    const CallScope *scope = moduleScope();
    return scope ? const_cast<CallScope *>(scope)->locals : moduleNames();
  }
  llvm::DenseMap<const ast::FunctionDefStmt *, std::unique_ptr<FunctionAnalysis>> analyses;
  /// A deque, so that a Frame& stays valid while calls push and pop frames above it.
  std::deque<Frame> frames;
  /// The scopes of finished calls that a function defined in them may still read; kept
  /// until the trace ends (no value of one trace reaches another).
  std::vector<std::unique_ptr<CallScope>> closedOver;
  /// Why each module-level statement that failed to evaluate did (Value::refusal points
  /// here; a deque keeps them in place).
  std::deque<std::vector<StoredDiagnostic>> refusals;
  TraceResult *result = nullptr;
  TraceResult moduleLevel; ///< Where decisions of module-level code go (see decision()).
  bool failed = false;
  /// Inside a branch of a staged conditional expression, where AutoGraph leaves nested
  /// conditional expressions unconverted (its lambda bodies), with where that one is.
  unsigned unconvertedIfExp = 0;
  Location stagedIfExpAt;
  Emitter *emitter = nullptr;
  /// The tf.name_scope the statement being traced is in ("a/b/"; empty outside any).
  std::string nameScope;
  /// The last tf.range made: its handle (null until emitted, and without an emitter), its
  /// start (a Python number or a tensor) and its dtype. A staged for over it (TensorFlow's range loop) starts its target at the
  /// start, where one over another tensor starts it as zeros and checks that it ran.
  struct RangeStart {
    const void *ir;
    Value start;
    DType dtype;
  };
  std::optional<RangeStart> lastRange;
  /// Set by execFor for the staged loop it enters: the start of the tf.range it iterates.
  std::optional<RangeStart> stagedRange;
  /// The element shape of each tf.TensorArray, by where it is created (line, column),
  /// joined over every write that any trace has seen.
  std::map<std::pair<unsigned, unsigned>, Shape> tensorArrayShapes;
  static constexpr unsigned kMaxCallDepth = 64;
  /// Python loops warn past kWarnUnroll passes and stop at kMaxUnroll (a loop that
  /// never ends would otherwise hang the compiler).
  static constexpr unsigned kWarnUnroll = 10000;
  static constexpr unsigned kMaxUnroll = 1000000;
  /// The most elements a Python list, tuple or str built while tracing may hold.
  static constexpr int64_t kMaxSequence = int64_t(1) << 24;
};

// --- helpers shared by the tracer's files --------------------------------------------
/// Whether tracing `a` or `b` gives the same thing (the same handle, or the same Python
/// value).
bool sameValue(const Value &a, const Value &b);
/// Whether `a` and `b` are tf.TensorArrays made by one call (one array, maybe written since).
inline bool sameTensorArray(const Value &a, const Value &b) {
  return a.kind == Value::Kind::TensorArray && b.kind == Value::Kind::TensorArray &&
         a.dtype == b.dtype && a.createdAt.file == b.createdAt.file &&
         a.createdAt.begin.line == b.createdAt.begin.line &&
         a.createdAt.begin.column == b.createdAt.begin.column;
}
/// The one tf.TensorArray that `a` and `b` (sameTensorArray) are after the two branches
/// of a staged cond: its element shape joined.
inline Value joinTensorArrays(const Value &a, const Value &b) {
  Value t = a;
  t.shape = a.shape.rankKnown && b.shape.rankKnown ? a.shape.join(b.shape) : Shape::unknownRank();
  return t;
}
/// Binds the arguments of TensorFlow function `api` ("cond") to its `params` as Python
/// does, the first `required` of them required; null where one is not given. Reports
/// Python's TypeError messages.
std::optional<std::vector<const Value *>> bindParams(Tracer::Impl &impl, llvm::StringRef api,
                                                     const CallArgs &args,
                                                     llvm::ArrayRef<const char *> params,
                                                     size_t required);
/// What Python's callable() says, for the values agc can call (an instance: its
/// __call__, checked when called; a tf.* value: a function of tf).
bool isCallable(const Value &v);
/// `shape` as Python writes it for TensorFlow: a tuple of ints and None (None for an
/// unknown rank).
Value shapeValue(const Shape &shape);
/// TensorFlow's error where op `op` has no CPU kernel for `dtype` (the graph builds and
/// fails when it runs), or nothing.
std::optional<std::string> missingKernel(TFOp op, DType dtype);
/// Whether agc compiles `op` with complex64 and complex128 tensors (TFOpRules.cpp); others
/// are refused where a complex tensor takes part.
bool acceptsComplex(TFOp op);
/// A complex tensor among `args` (in lists and tuples too), or null (TFOps.cpp).
const Value *complexTensorIn(const CallArgs &args);
/// A TensorArray of `size` elements of `element`'s dtype and shape (made where `loc` is).
std::optional<Value> tensorArrayFor(Tracer::Impl &impl, const Value &element, const Value &size,
                                    const Location &loc);
/// `value` (a tensor, or a Python number made `dtype`) written at `index` of `ta`.
std::optional<Value> writeAt(Tracer::Impl &impl, const Value &ta, const Value &index,
                             const Value &value, DType dtype, const Location &loc);
/// TensorArrays `tas` stacked after their loop, packed as the leaves of `structure`.
std::optional<Value> stackInto(Tracer::Impl &impl, llvm::ArrayRef<Value> tas,
                               const Value &structure, const Location &loc);
/// A staged loop k = 0 .. count-1 whose body gives `produce(k)`, a nest of `structure`,
/// whose leaves (of `elements`' dtypes and shapes) go into TensorArrays, stacked after the
/// loop and packed as `structure`: what tf.map_fn and a batch of computed elements build.
std::optional<Value> stackedLoop(Tracer::Impl &impl, const Value &count,
                                 llvm::ArrayRef<Value> elements, const Value &structure,
                                 const std::function<std::optional<Value>(const Value &)> &produce,
                                 const Location &loc);
/// Whether op `op` is an effect (tf.print, an assertion) that a trace emits.
bool isEffectOp(TFOp op);
/// Why a test is staged or static, in words.
std::string testReason(const Value &test);
/// Why a Python int operation has no result agc can hold (`what` overflows int64).
std::string intOverflow(llvm::StringRef what);

} // namespace ag::analysis

#endif // AG_FRONTEND_LIB_ANALYSIS_TRACERIMPL_H
