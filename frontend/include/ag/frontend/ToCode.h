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
// break, continue, and a return inside a staged loop are not converted yet: they are
// reported as not supported by agc's to-code.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_TOCODE_H
#define AG_FRONTEND_TOCODE_H

#include "ag/frontend/Diagnostics.h"
#include "ag/frontend/analysis/Tracer.h"

#include "llvm/Support/raw_ostream.h"

namespace ag {

/// Prints the converted `module` (only function `only` when not empty) to `os`. Returns
/// false after reporting through `diag`.
bool printConvertedModule(const ast::Module &module, const analysis::TraceResult &trace,
                          analysis::Tracer &tracer, llvm::StringRef only,
                          DiagnosticEngine &diag, llvm::raw_ostream &os);

} // namespace ag

#endif // AG_FRONTEND_TOCODE_H
