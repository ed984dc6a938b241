// RUN: ag-opt %s -ag-lower-effects -split-input-file -verify-diagnostics | FileCheck %s
// -ag-lower-effects: tf.print becomes calls to agc's runtime, item by item, with the
// separators and the end as text; a tf.Variable read copies its memref.global, a write
// materializes into it; a check calls the runtime's agrt_fail (or agrt_fail_values) when
// its condition is false, and what it guards is used directly after it.

// CHECK-DAG: llvm.mlir.global internal constant @__agc_str{{[0-9]+}}("x =\00")
// CHECK-DAG: llvm.mlir.global internal constant @__agc_str{{[0-9]+}}(" \00")
// CHECK-DAG: llvm.mlir.global internal constant @__agc_str{{[0-9]+}}("\0A\00")
// CHECK-DAG: func.func private @agrt_print_begin(i32, i64)
// CHECK-DAG: func.func private @agrt_print_text(!llvm.ptr)
// CHECK-DAG: func.func private @agrt_print_f32(memref<*xf32>)
// CHECK-DAG: func.func private @agrt_print_end()
// CHECK-LABEL: func.func @print
func.func @print(%x: tensor<3xf32>) {
  // CHECK: %[[STREAM:.*]] = arith.constant 2 : i32
  // CHECK: %[[SUMMARIZE:.*]] = arith.constant 3 : i64
  // CHECK: call @agrt_print_begin(%[[STREAM]], %[[SUMMARIZE]])
  // CHECK: call @agrt_print_text
  // CHECK: call @agrt_print_text
  // CHECK: %[[B:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<3xf32> to memref<3xf32>
  // CHECK: %[[U:.*]] = memref.cast %[[B]] : memref<3xf32> to memref<*xf32>
  // CHECK: call @agrt_print_f32(%[[U]])
  // CHECK: call @agrt_print_text
  // CHECK: call @agrt_print_end()
  // CHECK-NOT: ag.print
  ag.print %x : tensor<3xf32> {items = ["x =", 0], sep = " ", end = "\n", stream = "stderr", summarize = 3}
  return
}

// -----

memref.global "private" @v : memref<i32> = dense<5>

// CHECK-LABEL: func.func @variable
func.func @variable(%x: tensor<i32>) -> tensor<i32> {
  // CHECK: %[[G:.*]] = memref.get_global @v : memref<i32>
  // CHECK: %[[COPY:.*]] = memref.alloc() : memref<i32>
  // CHECK: memref.copy %[[G]], %[[COPY]]
  // CHECK: %[[T:.*]] = bufferization.to_tensor %[[COPY]] restrict writable
  // CHECK: %[[G2:.*]] = memref.get_global @v : memref<i32>
  // CHECK: bufferization.materialize_in_destination %{{.*}} in restrict writable %[[G2]]
  // CHECK: return %[[T]]
  %v = ag.variable_read @v : tensor<i32>
  ag.variable_write @v, %x : tensor<i32>
  return %v : tensor<i32>
}

// -----

func.func @unknown_variable() -> tensor<i32> {
  // expected-error @+1 {{'ag.variable_read' op names no memref.global}}
  %v = ag.variable_read @missing : tensor<i32>
  return %v : tensor<i32>
}

// -----

// CHECK-LABEL: func.func @checks
// CHECK-SAME: (%[[OK:.*]]: i1, %[[V:.*]]: i64, %[[I:.*]]: index, %[[T:.*]]: tensor<?xf32>)
func.func @checks(%ok: i1, %v: i64, %i: index, %t: tensor<?xf32>) -> f32 {
  // CHECK: %[[FAILED:.*]] = arith.xori %[[OK]], %true
  // CHECK: scf.if %[[FAILED]] {
  // CHECK:   call @agrt_fail(%{{.*}}) : (!llvm.ptr) -> ()
  // CHECK: }
  ag.assert %ok, "m.py:1:1: failed"
  // CHECK: scf.if
  // CHECK:   call @agrt_fail_values(%{{.*}}, %[[V]], %{{.*}}, %{{.*}}) : (!llvm.ptr, i64, i64, i64) -> ()
  // CHECK-NOT: ag.assert
  // CHECK: tensor.extract %[[T]][%[[I]]]
  %g = ag.assert %ok, "m.py:2:1: index {0}"(%v) : i64 guards %i : index
  %e = tensor.extract %t[%g] : tensor<?xf32>
  return %e : f32
}
