// RUN: ag-opt %s -split-input-file -verify-diagnostics -ag-gpu-emulate-launches | FileCheck %s
// -ag-gpu-emulate-launches (agc --gpu-emulate, testing without a GPU): a launch becomes
// loops over blocks z, y, x and threads z, y, x running the kernel's body on the
// launch's operands, its ids the loops' indices and its sizes the launch's; the kernel
// modules go. A kernel with a barrier is refused; one with a gpu.all_reduce at its top
// level runs in phases.

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

// -----

// A gpu.all_reduce at the kernel's top level: each block runs its threads up to it,
// storing each thread's operand (and a value the later phase uses) at the thread's
// linear index, combines the operands as a pairwise tree (i with i + s for s = 1, 2, 4,
// ... below the block's threads: the order of the warp shuffles), then runs its
// threads again with the result.
// CHECK-LABEL: func.func @f
// CHECK-SAME:  (%[[X:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>, %[[G:.*]]: index, %[[T:.*]]: index)
// CHECK:       %[[YX:.*]] = arith.muli %[[T]], %c1
// CHECK-NEXT:  %[[THREADS:.*]] = arith.muli %[[YX]], %c1
// CHECK-NEXT:  %[[SIZE:.*]] = arith.maxui %[[THREADS]], %c1
// CHECK-NEXT:  %[[CARRY:.*]] = memref.alloc(%[[SIZE]]) : memref<?xindex>
// CHECK-NEXT:  %[[OPS:.*]] = memref.alloc(%[[SIZE]]) : memref<?xf32>
// CHECK:       scf.for %[[BX:.*]] = %c0 to %[[G]]
// The first phase: each thread's operand and its index i.
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        scf.for %[[TX:.*]] = %c0 to %[[T]]
// CHECK:               %[[LIN:.*]] = arith.addi %{{.*}}, %[[TX]]
// CHECK-NEXT:          %[[BASE:.*]] = arith.muli %[[BX]], %[[T]]
// CHECK-NEXT:          %[[I:.*]] = arith.addi %[[BASE]], %[[TX]]
// CHECK-NEXT:          memref.store %[[I]], %[[CARRY]][%[[LIN]]]
// CHECK-NEXT:          %[[V:.*]] = memref.load %[[X]][%[[I]]]
// CHECK-NEXT:          memref.store %[[V]], %[[OPS]][%[[LIN]]]
// The tree.
// CHECK:         scf.while (%[[S:.*]] = %{{.*}}) : (index) -> index {
// CHECK-NEXT:      %[[MORE:.*]] = arith.cmpi ult, %[[S]], %[[THREADS]]
// CHECK-NEXT:      scf.condition(%[[MORE]]) %[[S]]
// CHECK:         } do {
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             %[[OWN:.*]] = memref.load %[[OPS]][%[[J]]]
// CHECK-NEXT:        %[[OTHER:.*]] = memref.load %[[OPS]][%{{.*}}]
// CHECK-NEXT:        %[[SUM:.*]] = arith.addf %[[OWN]], %[[OTHER]] : f32
// CHECK-NEXT:        memref.store %[[SUM]], %[[OPS]][%[[J]]]
// CHECK:         %[[TOTAL:.*]] = memref.load %[[OPS]][%c0{{.*}}]
// The second phase: the index loaded back, the result stored by thread 0.
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        scf.for %[[TX2:.*]] = %c0 to %[[T]]
// CHECK:               %[[LIN2:.*]] = arith.addi %{{.*}}, %[[TX2]]
// CHECK-NEXT:          %[[I2:.*]] = memref.load %[[CARRY]][%[[LIN2]]]
// CHECK:               %[[LEAD:.*]] = arith.cmpi eq, %[[TX2]], %c0
// CHECK-NEXT:          scf.if %[[LEAD]] {
// CHECK:                 %[[W:.*]] = arith.divf %[[TOTAL]], %{{.*}}
// CHECK-NEXT:            memref.store %[[W]], %[[OUT]][%[[I2]]]
// CHECK:       memref.dealloc %[[CARRY]]
// CHECK-NEXT:  memref.dealloc %[[OPS]]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%x: memref<?xf32>, %out: memref<?xf32>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %d = gpu.block_dim x
      %base = arith.muli %b, %d : index
      %i = arith.addi %base, %t : index
      %v = memref.load %x[%i] : memref<?xf32>
      %sum = gpu.all_reduce add %v uniform {} : (f32) -> f32
      %c0 = arith.constant 0 : index
      %lead = arith.cmpi eq, %t, %c0 : index
      scf.if %lead {
        %two = arith.constant 2.0 : f32
        %w = arith.divf %sum, %two : f32
        memref.store %w, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @f(%x: memref<?xf32>, %out: memref<?xf32>, %g: index, %t: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%g, %c1, %c1) threads in (%t, %c1, %c1)
        args(%x : memref<?xf32>, %out : memref<?xf32>)
    return
  }
}
