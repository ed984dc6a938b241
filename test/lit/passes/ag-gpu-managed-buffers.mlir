// RUN: ag-opt %s -split-input-file -verify-diagnostics -ag-gpu-managed-buffers | FileCheck %s
// -ag-gpu-managed-buffers: the host code's buffers of an nvptx object come from the
// runtime's GPU allocator (managed memory), not MLIR's generic allocation function;
// frees are unchanged (agrt_free tells them apart).

// CHECK-NOT:   _mlir_memref_to_llvm_aligned_alloc
// CHECK:       llvm.func @agrt_gpu_aligned_alloc(i64, i64) -> !llvm.ptr
// CHECK:       llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
// CHECK-LABEL: llvm.func @f
// CHECK:       llvm.call @agrt_gpu_aligned_alloc(%{{.*}}, %{{.*}})
// CHECK:       llvm.call @_mlir_memref_to_llvm_free
llvm.func @_mlir_memref_to_llvm_aligned_alloc(i64, i64) -> !llvm.ptr
llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
llvm.func @f(%n: i64) {
  %a = llvm.mlir.constant(64 : i64) : i64
  %p = llvm.call @_mlir_memref_to_llvm_aligned_alloc(%a, %n) : (i64, i64) -> !llvm.ptr
  llvm.call @_mlir_memref_to_llvm_free(%p) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// expected-error @below {{'agrt_gpu_aligned_alloc' is already defined in this module}}
llvm.func @_mlir_memref_to_llvm_aligned_alloc(i64, i64) -> !llvm.ptr
llvm.func @agrt_gpu_aligned_alloc(i64, i64) -> !llvm.ptr
