//===- MLIRGen.h - Traced Python to MLIR: func + ag + upstream tensor ops ---===//
//
// Requires: a parsed module that the analyses accept. Produces: a builtin.module with one
// func.func per traced @tf.function (tensor arguments in signature order, results the
// returned tensors), in which staged control flow is ag.cond / ag.while_loop carrying
// exactly the names the AutoGraph analysis chose, tensor math is linalg / tensor / arith
// / math, tf.print and tf.Variable access are ag ops, and each op is located at the
// Python `file:line:col` it came from. Module-level tf.Variables are memref.globals.
//
// How: the Tracer interprets the Python (static control flow resolved, Python loops
// unrolled, calls inlined) and tells an Emitter what it builds; MLIRGen is that Emitter.
// The module is traced once without it (refusals, and the element shapes of
// tf.TensorArrays), then once more with it. The result is verified.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_MLIRGEN_MLIRGEN_H
#define AG_MLIRGEN_MLIRGEN_H

#include "ag/frontend/AST.h"
#include "ag/frontend/Diagnostics.h"
#include "ag/frontend/analysis/Tracer.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace ag {

/// The MLIR of the entry points of `module` (analysis::entryPoints: the functions
/// `spec` selects, else every @tf.function), traced with the arguments `spec` gives.
/// Returns null after reporting errors on `diag`. `readFiles`, where given, gets every
/// Python file the compile read: `module`'s, then each module it imports (for depfiles).
mlir::OwningOpRef<mlir::ModuleOp> mlirGen(mlir::MLIRContext &context, const ast::Module &module,
                                          const analysis::ArgumentSpec &spec,
                                          DiagnosticEngine &diag,
                                          std::vector<std::string> *readFiles = nullptr);

} // namespace ag

#endif // AG_MLIRGEN_MLIRGEN_H
