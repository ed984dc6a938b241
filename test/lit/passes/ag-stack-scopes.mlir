// RUN: ag-opt %s -split-input-file -ag-stack-scopes | FileCheck %s
// -ag-stack-scopes: the stack that a call's descriptor or a launch's arguments take
// outside a function's entry block (here in a loop's body) is given back after its last
// use: between llvm.intr.stacksave and llvm.intr.stackrestore.

// A runtime call that takes a memref by pointer, in a loop (tf.print's).
// CHECK-LABEL: llvm.func @print_in_loop
// CHECK:       ^bb1(%{{.*}}: i64):
// CHECK-NEXT:  %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
// CHECK-NEXT:  llvm.alloca
// CHECK-NEXT:  llvm.store
// CHECK-NEXT:  llvm.call @agrt_print_i32
// CHECK-NEXT:  llvm.intr.stackrestore %[[SP]] : !llvm.ptr
// CHECK-NEXT:  llvm.add
llvm.func @agrt_print_i32(i64, !llvm.ptr)
llvm.func @print_in_loop(%n: i64, %descriptor: !llvm.struct<(ptr, ptr, i64)>) {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^bb1(%zero : i64)
^bb1(%i: i64):
  %d = llvm.alloca %one x !llvm.struct<(ptr, ptr, i64)> : (i64) -> !llvm.ptr
  llvm.store %descriptor, %d : !llvm.struct<(ptr, ptr, i64)>, !llvm.ptr
  llvm.call @agrt_print_i32(%zero, %d) : (i64, !llvm.ptr) -> ()
  %next = llvm.add %i, %one : i64
  %more = llvm.icmp "slt" %next, %n : i64
  llvm.cond_br %more, ^bb1(%next : i64), ^bb2
^bb2:
  llvm.return
}

// -----

// Two allocas whose uses interleave: one scope for both. The entry block's alloca is
// left as it is (it runs once).
// CHECK-LABEL: llvm.func @interleaved
// CHECK:       llvm.alloca
// CHECK-NOT:   llvm.intr.stacksave
// CHECK:       ^bb1:
// CHECK-NEXT:  %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
// CHECK-NEXT:  %[[A:.*]] = llvm.alloca
// CHECK-NEXT:  %[[B:.*]] = llvm.alloca
// CHECK-NEXT:  llvm.call @use(%[[A]])
// CHECK-NEXT:  llvm.call @use(%[[B]])
// CHECK-NEXT:  llvm.intr.stackrestore %[[SP]] : !llvm.ptr
// CHECK-NOT:   llvm.intr.stack
// CHECK:       llvm.return
llvm.func @use(!llvm.ptr)
llvm.func @interleaved(%c: i1) {
  %one = llvm.mlir.constant(1 : i64) : i64
  %e = llvm.alloca %one x i64 : (i64) -> !llvm.ptr
  llvm.call @use(%e) : (!llvm.ptr) -> ()
  llvm.br ^bb1
^bb1:
  %a = llvm.alloca %one x i64 : (i64) -> !llvm.ptr
  %b = llvm.alloca %one x i64 : (i64) -> !llvm.ptr
  llvm.call @use(%a) : (!llvm.ptr) -> ()
  llvm.call @use(%b) : (!llvm.ptr) -> ()
  llvm.cond_br %c, ^bb1, ^bb2
^bb2:
  llvm.return
}

// -----

// Memory used in another block, or whose address is stored, keeps its stack until the
// function returns; and a scope that would hold such an alloca is not made.
// CHECK-LABEL: llvm.func @left_alone
// CHECK-NOT:   llvm.intr.stacksave
// CHECK:       llvm.return
llvm.func @use(!llvm.ptr)
llvm.func @left_alone(%c: i1, %slot: !llvm.ptr) {
  %one = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^bb1
^bb1:
  %a = llvm.alloca %one x i64 : (i64) -> !llvm.ptr
  %kept = llvm.alloca %one x i64 : (i64) -> !llvm.ptr
  llvm.store %kept, %slot : !llvm.ptr, !llvm.ptr
  llvm.call @use(%a) : (!llvm.ptr) -> ()
  %later = llvm.alloca %one x i64 : (i64) -> !llvm.ptr
  llvm.cond_br %c, ^bb1, ^bb2
^bb2:
  llvm.call @use(%later) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// A kernel launch in a loop: its translation's argument arrays.
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]

  // CHECK-LABEL: llvm.func @launches
  // CHECK:       ^bb1(%{{.*}}: i64):
  // CHECK-NEXT:  %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
  // CHECK-NEXT:  gpu.launch_func @kernels::@step
  // CHECK-NEXT:  llvm.intr.stackrestore %[[SP]] : !llvm.ptr
  // CHECK-NEXT:  llvm.add
  llvm.func @launches(%n: i64, %data: !llvm.ptr) {
    %zero = llvm.mlir.constant(0 : i64) : i64
    %one = llvm.mlir.constant(1 : i64) : i64
    llvm.br ^bb1(%zero : i64)
  ^bb1(%i: i64):
    gpu.launch_func @kernels::@step blocks in (%one, %one, %one) threads in (%one, %one, %one) : i64 args(%data : !llvm.ptr)
    %next = llvm.add %i, %one : i64
    %more = llvm.icmp "slt" %next, %n : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
}

// -----

// What a call returns may point into the memory: its uses are the memory's. The scope
// of %a ends after the use of what @identity returned; %b's returned pointer is used in
// another block, so %b keeps its stack.
// CHECK-LABEL: llvm.func @returned
// CHECK:       ^bb1:
// CHECK-NEXT:  %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
// CHECK-NEXT:  llvm.alloca
// CHECK-NEXT:  llvm.call @identity
// CHECK-NEXT:  llvm.call @use
// CHECK-NEXT:  llvm.intr.stackrestore %[[SP]] : !llvm.ptr
// CHECK-NEXT:  llvm.alloca
// CHECK-NOT:   llvm.intr.stack
// CHECK:       llvm.return
llvm.func @identity(!llvm.ptr) -> !llvm.ptr
llvm.func @use(!llvm.ptr)
llvm.func @returned(%c: i1) {
  %one = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^bb1
^bb1:
  %a = llvm.alloca %one x i64 : (i64) -> !llvm.ptr
  %p = llvm.call @identity(%a) : (!llvm.ptr) -> !llvm.ptr
  llvm.call @use(%p) : (!llvm.ptr) -> ()
  %b = llvm.alloca %one x i64 : (i64) -> !llvm.ptr
  %q = llvm.call @identity(%b) : (!llvm.ptr) -> !llvm.ptr
  llvm.cond_br %c, ^bb1, ^bb2
^bb2:
  llvm.call @use(%q) : (!llvm.ptr) -> ()
  llvm.return
}
