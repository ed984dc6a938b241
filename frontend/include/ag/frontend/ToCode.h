//===- ToCode.h - The converted program, as Python --------------------------===//
//
// Requires: the module's AST, the merged trace of its @tf.functions (traceModule) and the
// analyses of each function. Produces: the module as Python that runs under stock
// TensorFlow with AutoGraph turned off, showing what AutoGraph would do:
//
//   - a staged if becomes tf.cond with two branch functions that return the carried
//     outputs (the carried inputs enter as parameter defaults);
//   - a staged while or for becomes tf.while_loop with explicit loop variables (a for
//     walks an index over the evaluated iterable);
//   - a staged `and`, `or`, `not` or conditional expression becomes tf.cond /
//     tf.logical_not;
//   - static control flow is resolved: a Python if that always took one branch is that
//     branch; Python loops stay Python loops, which run while tracing, as before;
//   - each staged block has a comment naming what it carries and why;
//   - @tf.function gains autograph=False.
//
// A staged if whose branches both end in return becomes `return tf.cond(...)`; an if
// whose one branch returns takes the rest of its block into the other branch first.
// break and continue inside a staged loop become flags (break_N, continue_N) with a staged
// guard around what follows them. (A return inside a staged loop never gets here: tracing
// refuses it, as TensorFlow does.) ToCodeStyle::AutoGraph prints the same decisions in the
// ag__.if_stmt / while_stmt / for_stmt form.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_TOCODE_H
#define AG_FRONTEND_TOCODE_H

#include "ag/frontend/Diagnostics.h"
#include "ag/frontend/analysis/Tracer.h"

#include "llvm/Support/raw_ostream.h"

namespace ag {

enum class ToCodeStyle {
  /// tf.cond and tf.while_loop with branch and body functions (the default).
  TensorFlow,
  /// ag__.if_stmt, ag__.while_stmt, ag__.for_stmt with get_state / set_state and nonlocal
  /// names, the form tf.autograph.to_code prints (ag__ is
  /// tensorflow.python.autograph.operators).
  AutoGraph,
};

/// Prints the converted `module` (only function `only` when not empty) to `os`. Returns
/// false after reporting through `diag`.
bool printConvertedModule(const ast::Module &module, const analysis::TraceResult &trace,
                          analysis::Tracer &tracer, llvm::StringRef only, ToCodeStyle style,
                          DiagnosticEngine &diag, llvm::raw_ostream &os);

} // namespace ag

#endif // AG_FRONTEND_TOCODE_H
