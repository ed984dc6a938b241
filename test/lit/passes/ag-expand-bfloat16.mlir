// RUN: ag-opt %s -ag-expand-bfloat16 | FileCheck %s
// -ag-expand-bfloat16: a float32 to bfloat16 truncation (scalar or vector) becomes integer
// operations, so that LLVM calls no __truncsfbf2; an extension from bfloat16 a shift;
// other conversions stay.

// CHECK-LABEL: func.func @to_bfloat16(
// CHECK-NOT:     arith.truncf
// CHECK:         arith.bitcast %{{.*}} : f32 to i32
// CHECK:         arith.bitcast %{{.*}} : i16 to bf16
// CHECK-NOT:     arith.truncf
// CHECK:         return
func.func @to_bfloat16(%x: f32) -> bf16 {
  %b = arith.truncf %x : f32 to bf16
  return %b : bf16
}

// CHECK-LABEL: func.func @vector_to_bfloat16(
// CHECK-NOT:     arith.truncf
// CHECK:         arith.bitcast %{{.*}} : vector<8xi16> to vector<8xbf16>
func.func @vector_to_bfloat16(%x: vector<8xf32>) -> vector<8xbf16> {
  %b = arith.truncf %x : vector<8xf32> to vector<8xbf16>
  return %b : vector<8xbf16>
}

// CHECK-LABEL: func.func @from_bfloat16(
// CHECK-NOT:     arith.extf
// CHECK:         arith.shli
// CHECK:         arith.bitcast %{{.*}} : i32 to f32
func.func @from_bfloat16(%b: bf16) -> f32 {
  %x = arith.extf %b : bf16 to f32
  return %x : f32
}

// CHECK-LABEL: func.func @half_stays(
// CHECK:         arith.truncf %{{.*}} : f32 to f16
func.func @half_stays(%x: f32) -> f16 {
  %h = arith.truncf %x : f32 to f16
  return %h : f16
}
