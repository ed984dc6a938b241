// RUN: not ag-opt %s -ag-check-llvm-lowered --split-input-file 2>&1 | FileCheck %s
// -ag-check-llvm-lowered: the last pass of the CPU pipeline fails at every operation that
// is not in the LLVM dialect, at the operation's own location (MLIRGen makes that the
// Python source), where mlir-opt would succeed silently.

// The first part passes: it prints nothing on stderr.
llvm.func @lowered(%a: i32) -> i32 {
  llvm.return %a : i32
}

// -----

// CHECK-NOT: lowered
// CHECK: model.py:3:12: error: agc could not lower 'arith.addi' to the LLVM dialect
// CHECK: model.py:4:5: error: agc could not lower 'func.return' to the LLVM dialect
// CHECK: model.py:2:1: error: agc could not lower 'func.func' to the LLVM dialect
func.func @left_over(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32 loc("model.py":3:12)
  return %b : i32 loc("model.py":4:5)
} loc("model.py":2:1)
