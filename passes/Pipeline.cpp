//===- Pipeline.cpp - MLIRGen, the pass pipelines, and printing each stage -===//
//
// See Pipeline.h. MLIR's diagnostics are bridged to agc's: a location that MLIRGen made
// from the Python source is reported there, with the source line and a caret.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Pipeline.h"

#include "ag/compiler/AgDialect.h"
#include "ag/compiler/MLIRGen.h"
#include "ag/passes/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <mutex>

using namespace ag;

std::string ag::scfPipeline() { return "builtin.module(cse,ag-to-scf,canonicalize,cse)"; }

std::string ag::cpuPipeline() {
  return "builtin.module("
         "ag-lower-effects,canonicalize,cse,"
         "one-shot-bufferize{bufferize-function-boundaries allow-return-allocs-from-loops "
         "function-boundary-type-conversion=identity-layout-map},"
         "canonicalize,buffer-deallocation-pipeline,convert-bufferization-to-memref,"
         "convert-linalg-to-loops,convert-math-to-funcs,convert-math-to-libm,"
         "expand-strided-metadata,lower-affine,convert-scf-to-cf,"
         "convert-to-llvm,reconcile-unrealized-casts,canonicalize,"
         "ag-check-llvm-lowered)";
}

namespace {

/// The first file location inside `loc` (through fused, named and call-site locations).
Location sourceLocation(DiagnosticEngine &diag, mlir::Location loc) {
  mlir::FileLineColLoc found;
  loc->walk([&](mlir::Location inner) {
    if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(inner)) {
      found = file;
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  if (!found)
    return {};
  return diag.locate(found.getFilename(), found.getLine(), found.getColumn());
}

void report(DiagnosticEngine &diag, const mlir::Diagnostic &d) {
  Location at = sourceLocation(diag, d.getLocation());
  std::string message = d.str();
  switch (d.getSeverity()) {
  case mlir::DiagnosticSeverity::Error:
    if (at.isValid())
      diag.error(at, message);
    else
      diag.error(message);
    break;
  case mlir::DiagnosticSeverity::Warning:
    diag.warning(at, message);
    break;
  default:
    diag.note(at, message);
    break;
  }
  for (const mlir::Diagnostic &note : d.getNotes())
    diag.note(sourceLocation(diag, note.getLocation()), note.str());
}

/// Erases operations whose results nobody uses and that have no effect (the conversions
/// the Tracer made only to check types). ag operations stay: they are the staged blocks.
void eraseDeadOps(mlir::ModuleOp module) {
  for (bool changed = true; changed;) {
    changed = false;
    llvm::SmallVector<mlir::Operation *> dead;
    module.walk([&](mlir::Operation *op) {
      if (op->getNumResults() == 0 || llvm::isa<AgDialect>(op->getDialect()) ||
          !mlir::isOpTriviallyDead(op))
        return;
      bool holdsAg = false;
      op->walk([&](mlir::Operation *inner) { holdsAg |= llvm::isa<AgDialect>(inner->getDialect()); });
      if (!holdsAg)
        dead.push_back(op);
    });
    // Only outermost ones: erasing an op erases what it holds.
    for (mlir::Operation *op : dead) {
      if (llvm::any_of(dead, [&](mlir::Operation *other) {
            return other != op && other->isProperAncestor(op);
          }))
        continue;
      op->erase();
      changed = true;
    }
  }
}

bool runPipeline(mlir::MLIRContext &context, mlir::ModuleOp module, const std::string &text) {
  mlir::PassManager pm(&context);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  // The pass manager is anchored on builtin.module already: parse what is inside.
  llvm::StringRef inner = llvm::StringRef(text).drop_front(strlen("builtin.module(")).drop_back();
  if (mlir::failed(mlir::parsePassPipeline(inner, pm, errorStream))) {
    mlir::emitError(module.getLoc()) << "internal error: bad pass pipeline: " << errors;
    return false;
  }
  return mlir::succeeded(pm.run(module));
}

} // namespace

void ag::registerAgcPasses() {
  static std::once_flag registered;
  std::call_once(registered, [] {
    mlir::registerAllPasses();
    registerAgPasses();
    auto pipeline = [](const char *name, const char *summary, std::string (*text)()) {
      mlir::PassPipelineRegistration<>(
          name, summary, [text](mlir::OpPassManager &pm) {
            std::string whole = text();
            llvm::StringRef inner = llvm::StringRef(whole).drop_front(strlen("builtin.module(")).drop_back();
            if (mlir::failed(mlir::parsePassPipeline(inner, pm)))
              llvm::report_fatal_error("agc: bad built-in pass pipeline");
          });
    };
    pipeline("agc-to-scf", "agc's passes from the ag dialect to scf", scfPipeline);
    pipeline("agc-cpu", "agc's CPU pipeline, from scf to nothing but the LLVM dialect", cpuPipeline);
  });
}

bool ag::emitIR(const ast::Module &module, const analysis::ArgumentSpec &spec,
                DiagnosticEngine &diag, IRStage stage, llvm::raw_ostream &os,
                llvm::StringRef only) {
  registerAgcPasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  registerAgcDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    report(diag, d);
    return mlir::success();
  });

  mlir::OwningOpRef<mlir::ModuleOp> ir = mlirGen(context, module, spec, diag, only);
  if (!ir)
    return false;
  eraseDeadOps(*ir);
  mlir::OpPrintingFlags flags;
  flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  // Locations inline, each on its op, not as #loc aliases: readable, and checkable.
  flags.useLocalScope();
  if (stage == IRStage::Ag) {
    ir->print(os, flags);
    return true;
  }
  if (!runPipeline(context, *ir, scfPipeline()))
    return false;
  if (stage == IRStage::Scf) {
    ir->print(os, flags);
    return true;
  }
  if (!runPipeline(context, *ir, cpuPipeline()))
    return false;
  if (stage == IRStage::LlvmDialect) {
    ir->print(os, flags);
    return true;
  }
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule = mlir::translateModuleToLLVMIR(*ir, llvmContext);
  if (!llvmModule) {
    diag.error("internal error: the LLVM dialect did not translate to LLVM IR");
    return false;
  }
  llvmModule->print(os, nullptr);
  return true;
}
