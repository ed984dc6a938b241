// RUN: ag-opt %s -ag-math-to-intrinsics | FileCheck %s
// -ag-math-to-intrinsics: math ops with one exactly rounded result become LLVM
// intrinsics (which vectorize) instead of libm calls; the functions libm approximates stay.

// CHECK-LABEL: func.func @exact
// CHECK: %[[FMA:.*]] = llvm.intr.fma(%arg0, %arg1, %arg2) : (f32, f32, f32) -> f32
// CHECK: %[[SQRT:.*]] = llvm.intr.sqrt(%[[FMA]]) : (f32) -> f32
// CHECK: %[[FLOOR:.*]] = llvm.intr.floor(%[[SQRT]]) : (f32) -> f32
// CHECK: %[[CEIL:.*]] = llvm.intr.ceil(%[[FLOOR]]) : (f32) -> f32
// CHECK: %[[TRUNC:.*]] = llvm.intr.trunc(%[[CEIL]]) : (f32) -> f32
// CHECK: %[[EVEN:.*]] = llvm.intr.roundeven(%[[TRUNC]]) : (f32) -> f32
// CHECK: %[[ABS:.*]] = llvm.intr.fabs(%[[EVEN]]) : (f32) -> f32
// CHECK: %[[SIGN:.*]] = llvm.intr.copysign(%[[ABS]], %arg0) : (f32, f32) -> f32
// CHECK: return %[[SIGN]]
func.func @exact(%a: f32, %b: f32, %c: f32) -> f32 {
  %0 = math.fma %a, %b, %c : f32
  %1 = math.sqrt %0 : f32
  %2 = math.floor %1 : f32
  %3 = math.ceil %2 : f32
  %4 = math.trunc %3 : f32
  %5 = math.roundeven %4 : f32
  %6 = math.absf %5 : f32
  %7 = math.copysign %6, %a : f32
  return %7 : f32
}

// f64 and vectors alike.
// CHECK-LABEL: func.func @wide
// CHECK: llvm.intr.sqrt(%arg0) : (f64) -> f64
// CHECK: llvm.intr.floor(%arg1) : (vector<8xf32>) -> vector<8xf32>
func.func @wide(%d: f64, %v: vector<8xf32>) -> (f64, vector<8xf32>) {
  %0 = math.sqrt %d : f64
  %1 = math.floor %v : vector<8xf32>
  return %0, %1 : f64, vector<8xf32>
}

// Functions libm approximates are left alone.
// CHECK-LABEL: func.func @approximated
// CHECK: math.exp
// CHECK: math.tanh
// CHECK: math.log
func.func @approximated(%x: f32) -> f32 {
  %0 = math.exp %x : f32
  %1 = math.tanh %0 : f32
  %2 = math.log %1 : f32
  return %2 : f32
}
