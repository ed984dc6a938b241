// RUN: ag-opt %s -split-input-file -verify-diagnostics -ag-gpu-emulate-launches | FileCheck %s
// -ag-gpu-emulate-launches (agc --gpu-emulate, testing without a GPU): a launch becomes
// loops over blocks z, y, x and threads z, y, x running the kernel's body on the
// launch's operands, its ids the loops' indices and its sizes the launch's; the kernel
// modules go. A kernel with a barrier is refused.

// CHECK-NOT:   gpu.module
// CHECK-LABEL: func.func @f
// CHECK-SAME:  (%[[X:.*]]: memref<?xf32>, %[[N:.*]]: index, %[[G:.*]]: index)
// CHECK:       scf.for %{{.*}} = %c0 to %c1
// CHECK-NEXT:    scf.for %{{.*}} = %c0 to %c1
// CHECK-NEXT:      scf.for %[[BX:.*]] = %c0 to %[[G]]
// CHECK-NEXT:        scf.for %{{.*}} = %c0 to %c1
// CHECK-NEXT:          scf.for %{{.*}} = %c0 to %c1
// CHECK-NEXT:            scf.for %[[TX:.*]] = %c0 to %c256
// CHECK-NEXT:              %[[BASE:.*]] = arith.muli %[[BX]], %c256
// CHECK-NEXT:              %[[I:.*]] = arith.addi %[[BASE]], %[[TX]]
// CHECK-NEXT:              %[[IN:.*]] = arith.cmpi slt, %[[I]], %[[N]]
// CHECK-NEXT:              scf.if %[[IN]] {
// CHECK-NEXT:                memref.load %[[X]][%[[I]]]
// CHECK:                     memref.store %{{.*}}, %[[X]][%[[I]]]
// CHECK-NOT:   gpu.launch_func
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%x: memref<?xf32>, %n: index) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %d = gpu.block_dim x
      %base = arith.muli %b, %d : index
      %i = arith.addi %base, %t : index
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        %v = memref.load %x[%i] : memref<?xf32>
        %w = arith.addf %v, %v : f32
        memref.store %w, %x[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @f(%x: memref<?xf32>, %n: index, %g: index) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @k::@k blocks in (%g, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%x : memref<?xf32>, %n : index)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k() kernel {
      // expected-error @below {{--gpu-emulate: 'gpu.barrier' is not emulated}}
      gpu.barrier
      gpu.return
    }
  }
  func.func @f() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
