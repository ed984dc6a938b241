// RUN: ag-opt %s -split-input-file -verify-diagnostics -ag-gpu-emulate-launches | FileCheck %s
// -ag-gpu-emulate-launches (agc --gpu-emulate, testing without a GPU): a launch becomes
// loops over blocks z, y, x and threads z, y, x running the kernel's body on the
// launch's operands, its ids the loops' indices and its sizes the launch's, after the
// runtime's check that the grid and blocks are ones a GPU takes; the kernel modules go. A kernel with barriers (gpu.barrier, gpu.all_reduce) runs in phases, the
// ops between two barriers for every thread of the block before the next; a barrier is
// refused where the block's threads may not all reach it together.

// CHECK-NOT:   gpu.module
// CHECK:       func.func private @agrt_gpu_check_launch(i64, i64, i64, i64, i64, i64)
// CHECK-LABEL: func.func @f
// CHECK-SAME:  (%[[X:.*]]: memref<?xf32>, %[[N:.*]]: index, %[[G:.*]]: index)
// CHECK:       %[[GX:.*]] = arith.index_cast %[[G]] : index to i64
// CHECK:       call @agrt_gpu_check_launch(%[[GX]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
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

// A barrier in a conditional the threads do not all take alike: refused.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k() kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %lead = arith.cmpi eq, %t, %c0 : index
      // expected-error @below {{--gpu-emulate: a conditional with a barrier has a condition that depends on the thread}}
      scf.if %lead {
        gpu.barrier
      }
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

// A barrier in a while loop: refused.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%go: i1) kernel {
      scf.while : () -> () {
        scf.condition(%go)
      } do {
        // expected-error @below {{--gpu-emulate: 'gpu.barrier' in a region other than a loop or conditional}}
        gpu.barrier
        scf.yield
      }
      gpu.return
    }
  }
  func.func @f(%go: i1) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%go : i1)
    return
  }
}

// -----

// Workgroup memory and barriers in a loop the block's threads run together (a matmul's
// slices, -ag-gpu-register-tiles): the memory a buffer of the launch; the loop once for
// the block, each phase of its body for every thread; its carried sum in a buffer of
// the threads, stored before the loop and by its yield, read after it.
// CHECK-LABEL: func.func @f
// CHECK-SAME:  (%[[X:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>, %[[STEPS:.*]]: index)
// CHECK:       %[[TILE:.*]] = memref.alloc() : memref<32xf32>
// CHECK:       %[[SUMS:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK:       scf.for %{{.*}} = %c0 to %c1
// The sum's initial value, for every thread.
// CHECK:         scf.for %[[TX:.*]] = %c0 to %c32
// CHECK:           memref.store %{{.*}}, %[[SUMS]][%{{.*}}]
// The loop, once for the block; its phases: each thread's element into the tile, then
// each thread's neighbour's read from it.
// CHECK:         scf.for %[[S:.*]] = %c0{{.*}} to %[[STEPS]]
// CHECK:           scf.for %{{.*}} = %c0 to %c32
// CHECK:             memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<32xf32>
// CHECK:           scf.for %{{.*}} = %c0 to %c32
// CHECK:             %[[OLD:.*]] = memref.load %[[SUMS]][%{{.*}}]
// CHECK:             %[[NEXT:.*]] = memref.load %[[TILE]][%{{.*}}] : memref<32xf32>
// CHECK:             %[[NEW:.*]] = arith.addf %[[OLD]], %[[NEXT]]
// CHECK:             memref.store %[[NEW]], %[[SUMS]][%{{.*}}]
// After it: the sum read back.
// CHECK:         scf.for %{{.*}} = %c0 to %c32
// CHECK:           %[[SUM:.*]] = memref.load %[[SUMS]][%{{.*}}]
// CHECK:           memref.store %[[SUM]], %[[OUT]][%{{.*}}]
// CHECK:       memref.dealloc %[[TILE]]
// CHECK:       memref.dealloc %[[SUMS]]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%x: memref<?xf32>, %out: memref<?xf32>, %steps: index)
        workgroup(%tile : memref<32xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c31 = arith.constant 31 : index
      %zero = arith.constant 0.0 : f32
      %r = scf.for %s = %c0 to %steps step %c1 iter_args(%sum = %zero) -> (f32) {
        gpu.barrier
        %v = memref.load %x[%s] : memref<?xf32>
        memref.store %v, %tile[%t] : memref<32xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %u = arith.subi %c31, %t : index
        %w = memref.load %tile[%u] : memref<32xf32, #gpu.address_space<workgroup>>
        %next = arith.addf %sum, %w : f32
        scf.yield %next : f32
      }
      memref.store %r, %out[%t] : memref<?xf32>
      gpu.return
    }
  }
  func.func @f(%x: memref<?xf32>, %out: memref<?xf32>, %steps: index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%x : memref<?xf32>, %out : memref<?xf32>, %steps : index)
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
