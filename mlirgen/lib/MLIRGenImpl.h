//===- MLIRGenImpl.h - The MLIRGen emitter, shared by its source files -----===//
//
// Private to the mlirgen library. MLIRGen.cpp holds functions and values,
// MLIRGenControl.cpp staged control flow, MLIRGenState.cpp variables and tensor arrays;
// OpTable.cpp dispatches each TensorFlow op
// (TFOps.def) to its emitter, one file per family: OpsElementwise.cpp, OpsReduction.cpp,
// OpsCreation.cpp, OpsShape.cpp, OpsEffects.cpp; OpsIndexing.cpp holds subscripts.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_MLIRGEN_LIB_MLIRGENIMPL_H
#define AG_MLIRGEN_LIB_MLIRGENIMPL_H

#include "ag/mlirgen/MLIRGen.h"
#include "ag/frontend/analysis/Emitter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringMap.h"

#include <functional>
#include <memory>

namespace ag {

// The names every file of the library uses.
using analysis::CallArgs;
using analysis::DType;
using analysis::TFOp;
using analysis::Value;
using mlir::OpBuilder;
using mlir::RankedTensorType;

class MLIRGen final : public analysis::Emitter {
public:
  MLIRGen(mlir::MLIRContext &context, DiagnosticEngine &diag);
  ~MLIRGen() override;

  /// The module built so far; takes it.
  mlir::OwningOpRef<mlir::ModuleOp> takeModule();

  // --- Emitter ------------------------------------------------------------------------
  bool beginFunction(const ast::FunctionDefStmt &function, llvm::StringRef name,
                     llvm::MutableArrayRef<analysis::Value> args) override;
  bool endFunction(const ast::FunctionDefStmt &function, const analysis::Value &result) override;
  bool constant(analysis::Value &out, const analysis::Value &python, const Location &loc) override;
  bool castTo(analysis::Value &out, const analysis::Value &from, const Location &loc) override;
  bool op(analysis::TFOp op, const analysis::CallArgs &args, analysis::Value &out) override;
  bool subscript(const analysis::Value &base, llvm::ArrayRef<analysis::IndexItem> items,
                 analysis::Value &out, const Location &loc) override;
  void iterable(const Location &loc) override { iterated = loc; }
  bool rowCount(const analysis::Value &iterated, analysis::Value &out, const Location &loc) override;
  bool variable(analysis::Value &variable, const analysis::Value &init, llvm::StringRef name,
                const Location &loc) override;
  void bound(const analysis::Value &value, llvm::StringRef name) override;
  bool readVariable(const analysis::Value &variable, analysis::Value &out,
                    const Location &loc) override;
  bool assignVariable(llvm::StringRef how, const analysis::Value &variable,
                      const analysis::Value &value, const Location &loc) override;
  bool tensorArray(llvm::StringRef method, const analysis::Value &self,
                   const analysis::CallArgs &args, analysis::Value &out) override;
  void *beginCond(const analysis::Value &test, const Location &loc) override;
  void beginElse(void *token) override;
  bool endCond(void *token, llvm::ArrayRef<analysis::Value> thenValues,
               llvm::ArrayRef<analysis::Value> elseValues,
               llvm::MutableArrayRef<analysis::Value> results) override;
  void *beginLoop(llvm::MutableArrayRef<analysis::Value> vars, const Location &loc) override;
  bool loopBody(void *token, const analysis::Value &test,
                llvm::MutableArrayRef<analysis::Value> vars) override;
  bool endLoop(void *token, llvm::ArrayRef<analysis::Value> next,
               llvm::MutableArrayRef<analysis::Value> results) override;

  // --- helpers shared with the op files (Ops*.cpp) ------------------------------------
  mlir::Location loc(const Location &at);
  mlir::Type elementType(analysis::DType dtype);
  /// The tensor type of a typed Value; null (after reporting) for an unknown rank or a
  /// string.
  mlir::RankedTensorType tensorType(const analysis::Value &value, const Location &at);
  /// `value` as an SSA tensor of type `type`: a tensor (cast when its shape differs), a
  /// variable (read), a Python value (a constant), or nothing (zeros: a value never used).
  mlir::Value materialize(const analysis::Value &value, mlir::RankedTensorType type,
                          const Location &at);
  /// `value` as a tensor of its own type, a Python value as `dtype` (or its own).
  mlir::Value operand(const analysis::Value &value, const Location &at,
                      std::optional<analysis::DType> dtype = std::nullopt);
  /// The SSA value behind a handle, cloned into the function when module-level code made it.
  mlir::Value use(const void *handle);
  static const void *handle(mlir::Value v) { return v.getAsOpaquePointer(); }
  /// A dense constant of `type` from a Python number, bool or nested list.
  mlir::Value denseConstant(const analysis::Value &python, mlir::RankedTensorType type,
                            const Location &at);
  /// An index (or `type`) scalar constant.
  mlir::Value indexConstant(int64_t v, mlir::Location l);
  mlir::Value scalarConstant(double v, mlir::Type type, mlir::Location l);
  /// The size of dimension `dim` of tensor `t`, as an index.
  mlir::Value dimSize(mlir::Value t, int64_t dim, mlir::Location l);
  /// Whether sizes `a` and `b` (index values) are the same size by construction: the same
  /// value, or tensor.dim of the same tensor and dimension (dimSize looks through the
  /// reshapes that keep a size, as keepdims= does).
  static bool sameSize(mlir::Value a, mlir::Value b);
  /// tensor.empty of `type`, its dynamic sizes taken from `sizes` (one per dimension;
  /// only the dynamic ones are read).
  mlir::Value empty(mlir::RankedTensorType type, llvm::ArrayRef<mlir::Value> sizes,
                    mlir::Location l);
  /// `x` with the dimensions `reversed` marks in reverse order (tf.reverse; a slice with
  /// a negative step is a slice of it).
  mlir::Value reverseDims(mlir::Value x, llvm::ArrayRef<bool> reversed, mlir::Location l);
  /// A tensor of `type` filled with `scalar`.
  mlir::Value filled(mlir::RankedTensorType type, llvm::ArrayRef<mlir::Value> sizes,
                     mlir::Value scalar, mlir::Location l);
  /// The elementwise op `body` over `operands`, broadcast by NumPy's rules to `type`.
  using ScalarBody = std::function<mlir::Value(mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;
  mlir::Value elementwise(mlir::RankedTensorType type, llvm::ArrayRef<mlir::Value> operands,
                          const ScalarBody &body, mlir::Location l);
  /// `o` broadcast along its dynamic dimensions where `stretch` holds at run time: a copy
  /// whose dimension j is `want[j]` where `have[j]` (o's size, then 1) differs from it;
  /// otherwise `o` itself. Dimensions with no `want` stay as they are.
  mlir::Value broadcastTo(mlir::Value o, llvm::ArrayRef<mlir::Value> have,
                          llvm::ArrayRef<mlir::Value> want, mlir::Value stretch,
                          mlir::Location l);
  /// `t` reshaped to `type` (same element count), sizes from `sizes` where dynamic.
  mlir::Value reshape(mlir::Value t, mlir::RankedTensorType type,
                      llvm::ArrayRef<mlir::Value> sizes, mlir::Location l);
  bool fail(const Location &at, const llvm::Twine &message);
  /// A run-time check at `l` (ag.assert): unless `ok` holds, the call fails with
  /// `file:line:col: message`, where {0}, {1}, {2} are the run-time `values` (integers or
  /// indices). Nothing when `ok` is the constant true, or when checks are off.
  ///
  /// `guards` are the operands of the op the check protects, replaced by the check's
  /// results: the op must use those, so that the check is dead when the op is (TensorFlow
  /// prunes an op nothing uses, and never raises its error). A check that guards nothing
  /// always runs.
  void check(mlir::Value ok, const llvm::Twine &message, llvm::ArrayRef<mlir::Value> values,
             mlir::Location l, llvm::MutableArrayRef<mlir::Value> guards) {
    check(builder, ok, message, values, l, guards);
  }
  /// The same, built with `b` (inside the body of a linalg op).
  void check(mlir::OpBuilder &b, mlir::Value ok, const llvm::Twine &message,
             llvm::ArrayRef<mlir::Value> values, mlir::Location l,
             llvm::MutableArrayRef<mlir::Value> guards);
  /// `r`, made to depend on `deps`: what computes `deps` (and the checks guarding them)
  /// runs exactly when `r` is used. For a result that reads none of its operands (a join
  /// or slice with no elements): an ag.assert that always holds, guarding `r` and `deps`,
  /// which -ag-prune-dead drops once it has decided what is live.
  mlir::Value dependOn(mlir::Value r, mlir::ValueRange deps, mlir::Location l);
  /// The checks of a new tensor's dynamic `sizes`: none negative, and not more bytes than
  /// kMaxTensorBytes (a size computed at run time could otherwise wrap the allocation).
  void checkSizes(mlir::RankedTensorType type, llvm::MutableArrayRef<mlir::Value> sizes,
                  mlir::Location l);
  static int64_t elementBytes(mlir::RankedTensorType type);
  /// Ranks above this are refused (the C interface's agc_tensor holds AGC_MAX_RANK sizes).
  static constexpr unsigned kMaxRank = 8;
  /// Larger tensors are refused (at compile time when static, at run time otherwise).
  static constexpr int64_t kMaxTensorBytes = int64_t(1) << 50;
  /// Makes `r` the IR of `out`, through a tensor.cast where its type is less (or more)
  /// static than the tracer's `type`; true.
  bool produce(analysis::Value &out, mlir::Value r, mlir::RankedTensorType type, mlir::Location l);
  /// A call of runtime function `name` (declared in the module on first use), built with
  /// `b`; its result, if any.
  mlir::Value runtimeCall(mlir::OpBuilder &b, mlir::Location l, llvm::StringRef name,
                          mlir::TypeRange results, mlir::ValueRange args);
  /// A string handle (OpsStrings.cpp) for constant `text`.
  mlir::Value stringLiteral(mlir::OpBuilder &b, llvm::StringRef text, mlir::Location l);
  /// The address of a constant, NUL-terminated copy of `text` (one global per text).
  mlir::Value cString(mlir::OpBuilder &b, llvm::StringRef text, mlir::Location l);
  /// A string tensor of `type` from Python strs `scalars` laid out as `dims`.
  mlir::Value stringConstant(llvm::ArrayRef<const analysis::Value *> scalars,
                             llvm::ArrayRef<int64_t> dims, mlir::RankedTensorType type,
                             const Location &at);
  /// `x + y` (Add), `x == y` (Equal) or `x != y` (NotEqual) of two string handles.
  mlir::Value stringBinary(analysis::TFOp op, mlir::OpBuilder &b, mlir::Location l,
                           mlir::Value x, mlir::Value y);
  /// Elementwise op `op` on complex elements `args` (OpsComplex.cpp); null for an op
  /// complex numbers do not have.
  mlir::Value complexScalarOp(analysis::TFOp op, mlir::OpBuilder &b, mlir::Location l,
                              mlir::ValueRange args);
  /// tf.where(condition) with one argument: the coordinates of the true elements.
  bool whereTrue(const analysis::CallArgs &args, analysis::Value &out);
  /// `file:line:col: ` of `l`, for run-time messages ("" when it has none).
  std::string where(mlir::Location l);
  /// The axes an `axis` argument names, normalized, sorted; all of them when absent.
  std::optional<llvm::SmallVector<int64_t>> axes(const analysis::Value *axis, unsigned rank,
                                                 const Location &at);

  mlir::MLIRContext &context;
  DiagnosticEngine &diag;
  mlir::OpBuilder builder;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// Module-level code (constants, tf.Variable initial values) is built here, then
  /// cloned into the functions that use it.
  mlir::func::FuncOp moduleInit;
  mlir::func::FuncOp function; ///< The function being traced, if any.
  llvm::StringMap<unsigned> names; ///< Functions and variables named so far.
  /// The constant globals of string literals, by text (LLVM::GlobalOp).
  llvm::StringMap<mlir::Operation *> stringGlobals;
  /// What the last `for` statement iterates over (see Emitter::iterable).
  Location iterated;
  /// Whether to emit run-time checks (bounds, division by zero, sizes); on by default.
  bool runtimeChecks = true;
  /// -ffile-prefix-map (ArgumentSpec::filePrefixMap), applied by loc(); and the name
  /// each source file is given in locations, once worked out.
  std::vector<std::pair<std::string, std::string>> filePrefixMap;
  llvm::StringMap<std::string> locationFileNames;
  /// Set while an elementwise body is built whose integer divisors were checked before
  /// the loop over the elements (emitBinary): safeDivisor then checks nothing.
  bool divisorsChecked = false;
  /// Set while the elementwise body of a 0-d op is built: one value, in straight-line
  /// code, not an element of a loop that may be vectorized.
  bool scalarBody = false;

  /// A staged if being built: its branches' blocks, detached until endCond.
  struct CondState {
    mlir::Value test;
    mlir::OpBuilder::InsertPoint outer;
    std::unique_ptr<mlir::Block> thenBlock = std::make_unique<mlir::Block>();
    std::unique_ptr<mlir::Block> elseBlock = std::make_unique<mlir::Block>();
    mlir::Location loc;
  };
  /// A staged loop being built: its test and body blocks, detached until endLoop.
  struct LoopState {
    mlir::OpBuilder::InsertPoint outer;
    llvm::SmallVector<mlir::Value> inits;
    llvm::SmallVector<mlir::Type> types;
    std::unique_ptr<mlir::Block> before = std::make_unique<mlir::Block>();
    std::unique_ptr<mlir::Block> after = std::make_unique<mlir::Block>();
    mlir::Location loc;
  };
  std::vector<std::unique_ptr<CondState>> conds;
  std::vector<std::unique_ptr<LoopState>> loops;

private:
  /// Frees the blocks of staged ifs and loops left unfinished by a failed trace.
  void dropPending();

  // --- the op files: one method per LOWERING of TFOps.def ---------------------------------
#define AG_EMITTER(NAME)                                                                   \
  bool emit##NAME(analysis::TFOp, const analysis::CallArgs &, analysis::Value &);
  AG_EMITTER(Unary)
  AG_EMITTER(Complex)
  AG_EMITTER(ComplexPart)
  AG_EMITTER(Binary)
  AG_EMITTER(Where)
  AG_EMITTER(StringJoin)
  AG_EMITTER(StringFormat)
  AG_EMITTER(StringOp)
  AG_EMITTER(Gather)
  AG_EMITTER(GatherNd)
  AG_EMITTER(Sort)
  AG_EMITTER(Tile)
  AG_EMITTER(Pad)
  AG_EMITTER(Reverse)
  AG_EMITTER(Cumulative)
  AG_EMITTER(ScatterRows)
  AG_EMITTER(BinarySearch)
  AG_EMITTER(Clip)
  AG_EMITTER(Cast)
  AG_EMITTER(Reduce)
  AG_EMITTER(Argmax)
  AG_EMITTER(Softmax)
  AG_EMITTER(Matmul)
  AG_EMITTER(Constant)
  AG_EMITTER(Fill)
  AG_EMITTER(Eye)
  AG_EMITTER(Range)
  AG_EMITTER(Transpose)
  AG_EMITTER(Reshape)
  AG_EMITTER(Concat)
  AG_EMITTER(Shape)
  AG_EMITTER(Print)
  AG_EMITTER(Assert)
  /// Typed by the tracer, not built by this version: a located refusal.
  AG_EMITTER(Unsupported)
  /// Never ops: values while tracing (Python) and state with hooks of their own; an
  /// internal error if the tracer hands them over as ops.
  AG_EMITTER(Python)
  AG_EMITTER(Variable)
  AG_EMITTER(TensorArray)
#undef AG_EMITTER

  /// The dimension sizes of `out` for an op whose result shape the Tracer typed: static
  /// ones as constants, dynamic ones from `shapeTensor` (an int tensor of the sizes).
  llvm::SmallVector<mlir::Value> sizesFromShapeTensor(mlir::RankedTensorType type,
                                                      mlir::Value shapeTensor, mlir::Location l);
  /// An integer divisor `y` of op `name` made safe for the hardware, with its check: the
  /// call fails where `y` is 0, and `y` is replaced by 1 where it is 0 or -1 (MIN / -1
  /// traps). Returns the safe divisor and whether `y` was -1 (the caller's result there
  /// is -x for a quotient, 0 for a remainder, as TensorFlow's wrapping gives).
public:
  std::pair<mlir::Value, mlir::Value> safeDivisor(mlir::OpBuilder &b, mlir::Location l,
                                                  llvm::StringRef name, mlir::Value y);
  /// Integer divisor `y` of op `name` after its check (the call fails where it is 0),
  /// not made safe: what safeDivisor starts from.
  mlir::Value checkedDivisor(mlir::OpBuilder &b, mlir::Location l, llvm::StringRef name,
                             mlir::Value y);

private:
  /// A size given as a Python int or a scalar integer tensor, as an index.
  mlir::Value sizeOf(const analysis::Value &v, const Location &at);
  /// The check that tensor `t` holds `count` elements (what a reshape keeps); `t` as
  /// guarded by it, for the reshape to use.
  mlir::Value checkReshape(mlir::Value t, mlir::Value count, mlir::Location l);
public:
  /// Elementwise op `op` on one element: `args` whose dtype is `in` (TFOps.def's SCALAR;
  /// null for an op that is not elementwise).
  mlir::Value scalarOp(analysis::TFOp op, mlir::OpBuilder &b, mlir::Location l,
                       mlir::ValueRange args, analysis::DType in);

private:
  /// Reduces `input` over sorted `dims` with the scalar `combine` from `init`.
  mlir::Value reduce(mlir::Value input, llvm::ArrayRef<int64_t> dims, mlir::Value init,
                     const ScalarBody &combine, mlir::Location l);
};

// --- helpers shared by the op files ---------------------------------------------------
/// A scalar constant of `type` built with `b`.
mlir::Value constantOf(mlir::OpBuilder &b, mlir::Location l, mlir::Type type, double v);
/// Scalar `x` converted from dtype `from` to `to` (element type `toType`) as tf.cast
/// converts: float to int truncates, to bool is `!= 0`.
mlir::Value castScalar(mlir::OpBuilder &b, mlir::Location l, mlir::Value x, analysis::DType from,
                       analysis::DType to, mlir::Type toType);
/// castScalar where `from` or `to` is complex (OpsComplex.cpp): a real number becomes the
/// real part; a complex number becomes its real part (a bool: the real part is not 0).
mlir::Value complexCast(mlir::OpBuilder &b, mlir::Location l, mlir::Value x, analysis::DType from,
                        analysis::DType to, mlir::Type toType);
/// The dtype the operands of an elementwise op convert to: the first tensor's.
std::optional<analysis::DType> tensorDType(llvm::ArrayRef<const analysis::Value *> values);
/// The sizes of `t`'s dimensions, as index values.
llvm::SmallVector<mlir::Value> sizesOf(MLIRGen &gen, mlir::Value t, mlir::Location l);
/// `t` with its dimensions permuted by `perm` (linalg.transpose).
mlir::Value transposed(MLIRGen &gen, mlir::Value t, llvm::ArrayRef<int64_t> perm, mlir::Location l);

} // namespace ag

#endif // AG_MLIRGEN_LIB_MLIRGENIMPL_H
