//===- OrderConstantGlobals.cpp - Bufferization's constants in program order -===//
//
// See Passes.td (-ag-order-constant-globals).
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/SetVector.h"

namespace ag {
#define GEN_PASS_DEF_ORDERCONSTANTGLOBALS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {
struct OrderConstantGlobals : ag::impl::OrderConstantGlobalsBase<OrderConstantGlobals> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // The constant globals, in the order of their first use, with that use's location.
    llvm::SetVector<memref::GlobalOp> order;
    llvm::DenseMap<Operation *, Location> firstUse;
    module.walk([&](memref::GetGlobalOp get) {
      auto global = symbols.lookup<memref::GlobalOp>(get.getName());
      if (!global || !global.getConstant() || !global.getSymName().starts_with("__constant_"))
        return;
      if (order.insert(global))
        firstUse.try_emplace(global, get.getLoc());
    });
    if (order.empty())
      return;
    // Two renamings, so that no new name meets an old one.
    for (const char *prefix : {"__agc_renaming_", "__constant_"}) {
      for (auto [i, global] : llvm::enumerate(order)) {
        auto name = StringAttr::get(&getContext(), prefix + std::to_string(i));
        if (failed(symbols.replaceAllSymbolUses(global, name, module)))
          return signalPassFailure();
        symbols.setSymbolName(global, name);
      }
    }
    // Before the first function, in order.
    Operation *anchor = nullptr;
    for (Operation &op : module.getBody()->getOperations())
      if (!isa<memref::GlobalOp>(op)) {
        anchor = &op;
        break;
      }
    for (memref::GlobalOp global : order) {
      global->setLoc(firstUse.find(global)->second);
      if (anchor)
        global->moveBefore(anchor);
      else
        global->moveBefore(module.getBody(), module.getBody()->end());
    }
  }
};
} // namespace
