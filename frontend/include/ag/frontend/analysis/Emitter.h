//===- Emitter.h - What the Tracer tells a code generator, as it traces ----===//
//
// The Tracer is the one place where agc interprets Python: it evaluates Python values,
// resolves static control flow, unrolls Python loops, inlines calls and types tensors.
// A code generator does not interpret Python again: it is an Emitter, which the Tracer
// calls at each point where a traced function would create a graph node in TensorFlow:
// a constant, an op, a staged branch or loop, a variable access. Each tensor Value then
// carries the Emitter's handle for it (Value::ir), an opaque pointer that the frontend
// never looks into, so this header needs no MLIR.
//
// Staged control flow is bracketed: beginCond / beginElse / endCond around the two
// branches of a staged if, and beginLoop / loopBody / endLoop around the test and the
// body of a staged loop. The Tracer passes, in endCond and endLoop, the values of exactly
// the names the AutoGraph analysis carries, in its order, plus the flags it uses for
// `break`, `continue` and `return` under staged conditions.
//
// Every hook returns false after reporting an error with a location; the trace then fails.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_ANALYSIS_EMITTER_H
#define AG_FRONTEND_ANALYSIS_EMITTER_H

#include "ag/frontend/analysis/Value.h"

#include "ag/frontend/analysis/TFOps.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ag::analysis {

/// Arguments of a call, as evaluated.
struct CallArgs {
  std::vector<Value> positional;
  std::vector<std::pair<std::string, Value>> keywords;
  Location loc; ///< The whole call.

  /// Which keywords get() has given out (bit k: keywords[k]): the typing rule and the
  /// lowering of a TensorFlow function read what they honour, and the tracer refuses a
  /// keyword neither read rather than ignore it (Tracer::Impl::callTF).
  mutable uint64_t keywordsRead = 0;

  /// The argument at `index`, or the keyword `name`; null when absent.
  const Value *get(unsigned index, llvm::StringRef name) const {
    if (index < positional.size())
      return &positional[index];
    for (size_t k = 0; k < keywords.size(); ++k)
      if (keywords[k].first == name) {
        if (k < 64)
          keywordsRead |= uint64_t(1) << k;
        return &keywords[k].second;
      }
    return nullptr;
  }
  size_t count() const { return positional.size() + keywords.size(); }
};

/// One item of a tensor subscript, evaluated: `x[i]`, `x[a:b:c]`, `x[None]`, `x[...]`.
struct IndexItem {
  enum class Kind { Index, Slice, NewAxis, Ellipsis };
  Kind kind = Kind::Index;
  Value index;                            ///< Index: a Python int or a scalar int tensor.
  std::optional<int64_t> lo, hi, step;    ///< Slice: Python bounds, absent when omitted.
  Location loc;
  /// Slice: a bound that is a scalar integer tensor (the Python bound is then absent).
  Value loTensor, hiTensor;
};

class Emitter {
public:
  virtual ~Emitter();

  /// A traced function starts, called `name` (its Python name, or `model.method` for a
  /// method of a module-level instance): gives each tensor argument its handle.
  virtual bool beginFunction(const ast::FunctionDefStmt &function, llvm::StringRef name,
                             llvm::MutableArrayRef<Value> args) = 0;
  /// The traced function ends, returning `result` (a tensor, a Python value, a tuple).
  virtual bool endFunction(const ast::FunctionDefStmt &function, const Value &result) = 0;

  /// `out` (a tensor type) gets a handle holding Python value `python` (a number, a bool,
  /// or a nested list of them; a list holding tensors packs them).
  virtual bool constant(Value &out, const Value &python, const Location &loc) = 0;
  /// `out` gets a handle holding tensor `from` as `out`'s type (its shape may be less or
  /// more specific: a join of branches, a shape invariant, set_shape).
  virtual bool castTo(Value &out, const Value &from, const Location &loc) = 0;
  /// TensorFlow op `op` (TFOps.def) on `args` as written (Python values included),
  /// giving `out` (already typed by the Tracer) its handle. Operators come here too, with
  /// their tensors converted: `a + b` is TFOp::Add.
  virtual bool op(TFOp op, const CallArgs &args, Value &out) = 0;
  /// `base[items]`, typed as `out`.
  virtual bool subscript(const Value &base, llvm::ArrayRef<IndexItem> items, Value &out,
                         const Location &loc) = 0;

  /// The number of rows of `iterated`, which a staged `for` goes over, as an int32 scalar
  /// `out` read from the tensor itself, even where its static shape knows it: TensorFlow's
  /// While op takes the tensor as an input, so what computes it runs (and may raise)
  /// whenever the loop runs, whether or not the body reads a row.
  virtual bool rowCount(const Value &iterated, Value &out, const Location &loc) = 0;

  /// The call at `loc` is what a `for` statement iterates over. A tf.range there is only
  /// the loop's bounds: TensorFlow prunes the range tensor itself from the graph, so its
  /// checks (start <= limit when delta > 0, ...) never run.
  virtual void iterable(const Location &loc) { (void)loc; }
  /// A module-level tf.Variable called `name`, starting as `init`; `variable.ir` becomes
  /// its identity.
  virtual bool variable(Value &variable, const Value &init, llvm::StringRef name,
                        const Location &loc) = 0;
  /// Module-level code bound `name` to `value` (a tf.Variable gets its Python name).
  virtual void bound(const Value &value, llvm::StringRef name) = 0;
  /// Reads `variable` into `out` (in program order with its writes).
  virtual bool readVariable(const Value &variable, Value &out, const Location &loc) = 0;
  /// variable.assign / assign_add / assign_sub (`how`) of tensor `value`.
  virtual bool assignVariable(llvm::StringRef how, const Value &variable, const Value &value,
                              const Location &loc) = 0;
  /// A tf.TensorArray method (`new`, `write`, `read`, `stack`, `size`, `unstack`) on
  /// `self`; `out` is the new array (new, write, unstack) or the tensor read.
  virtual bool tensorArray(llvm::StringRef method, const Value &self, const CallArgs &args,
                           Value &out) = 0;

  /// A staged if on `test`: what follows is the main branch. Returns a token.
  virtual void *beginCond(const Value &test, const Location &loc) = 0;
  /// What follows is the else branch.
  virtual void beginElse(void *token) = 0;
  /// Ends both branches: each yields its values (tensors or Python numbers, converted
  /// to the types of `results`); `results` get the handles of the staged if's results.
  virtual bool endCond(void *token, llvm::ArrayRef<Value> thenValues,
                       llvm::ArrayRef<Value> elseValues, llvm::MutableArrayRef<Value> results) = 0;

  /// A staged loop over `vars` (tensors with handles, typed as the loop carries them):
  /// what follows is its test, and `vars` get the handles the test sees.
  virtual void *beginLoop(llvm::MutableArrayRef<Value> vars, const Location &loc) = 0;
  /// The test is `test`: what follows is the body, and `vars` get the handles it sees.
  virtual bool loopBody(void *token, const Value &test, llvm::MutableArrayRef<Value> vars) = 0;
  /// The body ends with `next` for `vars`; `results` get the loop's results.
  virtual bool endLoop(void *token, llvm::ArrayRef<Value> next,
                       llvm::MutableArrayRef<Value> results) = 0;
};

} // namespace ag::analysis

#endif // AG_FRONTEND_ANALYSIS_EMITTER_H
