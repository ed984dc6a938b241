//===- RuntimeDecls.h - declarations of agc's runtime functions in a module -===//
//
// The passes that call agc's runtime (libagc_runtime: agrt_fail, agrt_num_threads,
// agrt_gpu_check_launch, ...) declare each function once, private, at the start of the
// module: -ag-lower-effects, -ag-thread-count, -ag-gpu-emulate-launches.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_PASSES_RUNTIMEDECLS_H
#define AG_PASSES_RUNTIMEDECLS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace ag {

/// The runtime function `name` of type `type`, declared once in `module` (the existing
/// declaration where there is one).
inline mlir::func::FuncOp declareRuntime(mlir::ModuleOp module, llvm::StringRef name,
                                         mlir::FunctionType type) {
  if (auto existing = module.lookupSymbol<mlir::func::FuncOp>(name))
    return existing;
  auto builder = mlir::OpBuilder::atBlockBegin(module.getBody());
  auto fn = mlir::func::FuncOp::create(builder, module.getLoc(), name, type);
  fn.setPrivate();
  return fn;
}

} // namespace ag

#endif // AG_PASSES_RUNTIMEDECLS_H
