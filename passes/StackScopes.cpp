//===- StackScopes.cpp - stack taken outside the entry block given back ---===//
//
// Outside a function's entry block, an alloca takes more stack each time it runs and
// gives none back until the function returns. Two things put one there: a call of the
// runtime that takes a memref by pointer (tf.print's agrt_print_*: the lowering writes
// the memref's descriptor on the stack at the call), and a kernel launch (the
// translation of a gpu.launch_func writes the kernel's arguments into arrays on the
// stack where the launch is). In a staged loop, every iteration took more: a loop of
// 1,000,000 tf.print calls, or of 100,000 launches, overflowed the stack (SIGSEGV in the
// caller's process). Each such use is put between a save and a restore of the stack
// pointer, as a C compiler does for a variable-length array in a loop:
//
//   %d = llvm.alloca %one x !llvm.struct<...>        (not in the entry block)
//   llvm.store %descriptor, %d
//   llvm.call @agrt_print_i32(%i, %d)
//     => %sp = llvm.intr.stacksave : !llvm.ptr
//        %d = llvm.alloca ... ; llvm.store ... ; llvm.call ...
//        llvm.intr.stackrestore %sp : !llvm.ptr
//   gpu.launch_func @m::@k ...
//     => %sp = llvm.intr.stacksave ; gpu.launch_func ... ; llvm.intr.stackrestore %sp
//
// An alloca is given a scope only where every use of its memory is in its own block, by
// loads, stores into it, address arithmetic and calls (agc's runtime functions keep no
// pointer they are given; what a call returns that may hold an address counts as the
// memory, and its uses must be such too): the scope ends after the last. Scopes that overlap in a
// block become one; one that would hold an alloca without a scope of its own is not
// made. Allocas in the entry block are left, and so are those of nested regions (an
// OpenMP region's, which its translation puts at the outlined function's entry).
//
// Last in the host code's lowering to LLVM (both targets).
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace ag {
#define GEN_PASS_DEF_STACKSCOPES
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// Whether a value of `type` may hold an address: a pointer, or an aggregate of one.
bool mayHoldPointer(Type type) {
  bool found = false;
  type.walk([&](LLVM::LLVMPointerType) { found = true; });
  return found;
}

/// The last op of its block that uses `alloca`'s memory, or null where a use is in
/// another block or region, or of a kind that could keep the address.
Operation *lastUse(LLVM::AllocaOp alloca) {
  Block *block = alloca->getBlock();
  Operation *last = alloca;
  SmallVector<Value> addresses{alloca.getResult()};
  while (!addresses.empty()) {
    Value address = addresses.pop_back_val();
    for (OpOperand &use : address.getUses()) {
      Operation *user = use.getOwner();
      if (user->getBlock() != block)
        return nullptr;
      if (auto gep = dyn_cast<LLVM::GEPOp>(user)) {
        addresses.push_back(gep.getResult());
      } else if (auto store = dyn_cast<LLVM::StoreOp>(user)) {
        if (store.getValue() == address) // the address itself stored: it escapes
          return nullptr;
      } else if (auto call = dyn_cast<LLVM::CallOp>(user)) {
        // What it returns may point into the memory: its uses count as the memory's.
        for (Value result : call->getResults())
          if (mayHoldPointer(result.getType()))
            addresses.push_back(result);
      } else if (!isa<LLVM::LoadOp, LLVM::MemcpyOp, LLVM::MemsetOp>(user)) {
        return nullptr;
      }
      if (last->isBeforeInBlock(user))
        last = user;
    }
  }
  return last;
}

struct Scope {
  Operation *first, *last;
};

/// Gives `block`'s stack back after each use: its allocas' and its launches'.
void scopeBlock(Block &block, Type pointer) {
  SmallVector<Scope> scopes;
  SmallVector<Operation *> unscoped; // allocas whose memory is used past any scope
  for (Operation &op : block) {
    if (auto alloca = dyn_cast<LLVM::AllocaOp>(op)) {
      if (Operation *last = lastUse(alloca))
        scopes.push_back({&op, last});
      else
        unscoped.push_back(&op);
    } else if (isa<gpu::LaunchFuncOp>(op)) {
      scopes.push_back({&op, &op});
    }
  }
  // In block order of their first ops; one that starts before the previous ends joins it.
  SmallVector<Scope> merged;
  for (Scope scope : scopes) {
    if (!merged.empty() && !merged.back().last->isBeforeInBlock(scope.first)) {
      if (merged.back().last->isBeforeInBlock(scope.last))
        merged.back().last = scope.last;
      continue;
    }
    merged.push_back(scope);
  }
  for (Scope scope : merged) {
    auto inside = [&](Operation *op) {
      return !op->isBeforeInBlock(scope.first) && !scope.last->isBeforeInBlock(op);
    };
    if (llvm::any_of(unscoped, inside))
      continue;
    OpBuilder b(scope.first);
    Value saved = LLVM::StackSaveOp::create(b, scope.first->getLoc(), pointer);
    b.setInsertionPointAfter(scope.last);
    LLVM::StackRestoreOp::create(b, scope.last->getLoc(), saved);
  }
}

struct StackScopes : ag::impl::StackScopesBase<StackScopes> {
  void runOnOperation() override {
    Type pointer = LLVM::LLVMPointerType::get(&getContext());
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      if (func.isExternal() || func->getParentOfType<gpu::GPUModuleOp>())
        return;
      for (Block &block : llvm::drop_begin(func.getBody()))
        scopeBlock(block, pointer);
    });
  }
};

} // namespace
