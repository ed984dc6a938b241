// RUN: ag-opt %s -split-input-file -ag-gpu-fuse-blocks | FileCheck %s
// -ag-gpu-fuse-blocks: a row softmax's three loops (the rows' maxima and sums, block
// loops of -ag-gpu-split-reductions, and the [rows, columns] division) become one block
// loop: the later bodies follow the first's, a load at the row of what an earlier part
// stored there is the stored value, the [rows, columns] loop a lanes' loop of no result
// (lane l takes columns l, l + L, ...); the allocations between move before it. Left
// alone: different rows, a loop writing a buffer the block's loop reads, a read of the
// stored buffer at another row, a write into a buffer that may alias another (an
// argument).

// CHECK-LABEL: func.func @softmax
// CHECK-SAME:  (%[[X:.*]]: memref<?x?xf32>, %[[ROWS:.*]]: index, %[[COLS:.*]]: index, %[[L:.*]]: index)
// CHECK:       %[[MAX:.*]] = memref.alloc(%[[ROWS]])
// CHECK-NEXT:  %[[SUM:.*]] = memref.alloc(%[[ROWS]])
// CHECK-NEXT:  %[[OUT:.*]] = memref.alloc(%[[ROWS]], %[[COLS]])
// CHECK-NEXT:  scf.parallel (%[[R:.*]]) = (%{{.*}}) to (%[[ROWS]])
// CHECK-NEXT:    %[[M:.*]] = scf.for %[[LANE:.*]] = %{{.*}} to %[[L]] {{.*}} -> (f32) {
// CHECK:           arith.maximumf
// CHECK:         } {ag.block_lanes = 1024 : i64}
// CHECK-NEXT:    memref.store %[[M]], %[[MAX]][%[[R]]]
// CHECK-NEXT:    %[[S:.*]] = scf.for %{{.*}} = %{{.*}} to %[[L]] {{.*}} -> (f32) {
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[X]][%[[R]], %{{.*}}]
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[V]], %[[M]]
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[D]]
// CHECK-NEXT:      arith.addf %[[E]]
// CHECK:         } {ag.block_lanes = 1024 : i64}
// CHECK-NEXT:    memref.store %[[S]], %[[SUM]][%[[R]]]
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[LANE2:.*]] = %[[C0]] to %[[L]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[C:.*]] = %[[LANE2]] to %[[COLS]] step %[[L]] {
// CHECK-NEXT:        %[[W:.*]] = memref.load %[[X]][%[[R]], %[[C]]]
// CHECK-NEXT:        %[[D2:.*]] = arith.subf %[[W]], %[[M]]
// CHECK-NEXT:        %[[E2:.*]] = math.exp %[[D2]]
// CHECK-NEXT:        %[[Q:.*]] = arith.divf %[[E2]], %[[S]]
// CHECK-NEXT:        memref.store %[[Q]], %[[OUT]][%[[R]], %[[C]]]
// CHECK:         } {ag.block_lanes = 1024 : i64}
// CHECK-NEXT:    scf.reduce
// CHECK-NOT:   scf.parallel
func.func @softmax(%x: memref<?x?xf32>, %rows: index, %cols: index, %l: index) -> memref<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = memref.alloc(%rows) : memref<?xf32>
  scf.parallel (%r) = (%c0) to (%rows) step (%c1) {
    %m = scf.for %lane = %c0 to %l step %c1 iter_args(%a = %ninf) -> (f32) {
      %v = memref.load %x[%r, %lane] : memref<?x?xf32>
      %n = arith.maximumf %v, %a : f32
      scf.yield %n : f32
    } {ag.block_lanes = 1024 : i64}
    memref.store %m, %max[%r] : memref<?xf32>
    scf.reduce
  }
  %sum = memref.alloc(%rows) : memref<?xf32>
  scf.parallel (%r) = (%c0) to (%rows) step (%c1) {
    %s = scf.for %lane = %c0 to %l step %c1 iter_args(%a = %zero) -> (f32) {
      %v = memref.load %x[%r, %lane] : memref<?x?xf32>
      %mr = memref.load %max[%r] : memref<?xf32>
      %d = arith.subf %v, %mr : f32
      %e = math.exp %d : f32
      %n = arith.addf %e, %a : f32
      scf.yield %n : f32
    } {ag.block_lanes = 1024 : i64}
    memref.store %s, %sum[%r] : memref<?xf32>
    scf.reduce
  }
  %out = memref.alloc(%rows, %cols) : memref<?x?xf32>
  scf.parallel (%r, %c) = (%c0, %c0) to (%rows, %cols) step (%c1, %c1) {
    %v = memref.load %x[%r, %c] : memref<?x?xf32>
    %mr = memref.load %max[%r] : memref<?xf32>
    %d = arith.subf %v, %mr : f32
    %e = math.exp %d : f32
    %sr = memref.load %sum[%r] : memref<?xf32>
    %q = arith.divf %e, %sr : f32
    memref.store %q, %out[%r, %c] : memref<?x?xf32>
    scf.reduce
  }
  return %out : memref<?x?xf32>
}

// -----

// Left alone: a loop over other rows.
// CHECK-LABEL: func.func @other_rows
// CHECK-COUNT-2: scf.parallel
func.func @other_rows(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %other: index, %cols: index, %l: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %z = memref.alloc(%rows, %cols) : memref<?x?xf32>
  %t = memref.alloc(%rows) : memref<?xf32>
  scf.parallel (%r) = (%c0) to (%rows) step (%c1) {
    %s = scf.for %lane = %c0 to %l step %c1 iter_args(%a = %zero) -> (f32) {
      %v = memref.load %y[%r, %lane] : memref<?x?xf32>
      %n = arith.addf %v, %a : f32
      scf.yield %n : f32
    } {ag.block_lanes = 1024 : i64}
    memref.store %s, %t[%r] : memref<?xf32>
    scf.reduce
  }
  scf.parallel (%r, %c) = (%c0, %c0) to (%other, %cols) step (%c1, %c1) {
    %v = memref.load %t[%r] : memref<?xf32>
    memref.store %v, %z[%r, %c] : memref<?x?xf32>
    scf.reduce
  }
  return
}

// -----

// Left alone: a loop that writes a buffer the block's loop reads.
// CHECK-LABEL: func.func @writes_what_it_reads
// CHECK-COUNT-2: scf.parallel
func.func @writes_what_it_reads(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %other: index, %cols: index, %l: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %z = memref.alloc(%rows, %cols) : memref<?x?xf32>
  %t = memref.alloc(%rows) : memref<?xf32>
  scf.parallel (%r) = (%c0) to (%rows) step (%c1) {
    %s = scf.for %lane = %c0 to %l step %c1 iter_args(%a = %zero) -> (f32) {
      %v = memref.load %y[%r, %lane] : memref<?x?xf32>
      %n = arith.addf %v, %a : f32
      scf.yield %n : f32
    } {ag.block_lanes = 1024 : i64}
    memref.store %s, %t[%r] : memref<?xf32>
    scf.reduce
  }
  scf.parallel (%r, %c) = (%c0, %c0) to (%rows, %cols) step (%c1, %c1) {
    %v = memref.load %t[%r] : memref<?xf32>
    memref.store %v, %z[%r, %c] : memref<?x?xf32>
    memref.store %zero, %y[%r, %c] : memref<?x?xf32>
    scf.reduce
  }
  return
}

// -----

// Left alone: a read of the stored buffer at another row.
// CHECK-LABEL: func.func @another_row
// CHECK-COUNT-2: scf.parallel
func.func @another_row(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %other: index, %cols: index, %l: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %z = memref.alloc(%rows, %cols) : memref<?x?xf32>
  %t = memref.alloc(%rows) : memref<?xf32>
  scf.parallel (%r) = (%c0) to (%rows) step (%c1) {
    %s = scf.for %lane = %c0 to %l step %c1 iter_args(%a = %zero) -> (f32) {
      %v = memref.load %y[%r, %lane] : memref<?x?xf32>
      %n = arith.addf %v, %a : f32
      scf.yield %n : f32
    } {ag.block_lanes = 1024 : i64}
    memref.store %s, %t[%r] : memref<?xf32>
    scf.reduce
  }
  scf.parallel (%r, %c) = (%c0, %c0) to (%rows, %cols) step (%c1, %c1) {
    %v = memref.load %t[%c] : memref<?xf32>
    memref.store %v, %z[%r, %c] : memref<?x?xf32>
    scf.reduce
  }
  return
}

// -----

// Left alone: a write into an argument, which may alias what the block's loop reads.
// CHECK-LABEL: func.func @writes_an_argument
// CHECK-COUNT-2: scf.parallel
func.func @writes_an_argument(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %other: index, %cols: index, %l: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %z = memref.alloc(%rows, %cols) : memref<?x?xf32>
  %t = memref.alloc(%rows) : memref<?xf32>
  scf.parallel (%r) = (%c0) to (%rows) step (%c1) {
    %s = scf.for %lane = %c0 to %l step %c1 iter_args(%a = %zero) -> (f32) {
      %v = memref.load %y[%r, %lane] : memref<?x?xf32>
      %n = arith.addf %v, %a : f32
      scf.yield %n : f32
    } {ag.block_lanes = 1024 : i64}
    memref.store %s, %t[%r] : memref<?xf32>
    scf.reduce
  }
  scf.parallel (%r, %c) = (%c0, %c0) to (%rows, %cols) step (%c1, %c1) {
    %v = memref.load %t[%r] : memref<?xf32>
    memref.store %v, %x[%r, %c] : memref<?x?xf32>
    scf.reduce
  }
  return
}

// -----

// The control of the four above: a fresh buffer, at the row: fused.
// CHECK-LABEL: func.func @control
// CHECK-COUNT-1: scf.parallel
// CHECK-NOT:   scf.parallel
func.func @control(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %rows: index, %other: index, %cols: index, %l: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %z = memref.alloc(%rows, %cols) : memref<?x?xf32>
  %t = memref.alloc(%rows) : memref<?xf32>
  scf.parallel (%r) = (%c0) to (%rows) step (%c1) {
    %s = scf.for %lane = %c0 to %l step %c1 iter_args(%a = %zero) -> (f32) {
      %v = memref.load %y[%r, %lane] : memref<?x?xf32>
      %n = arith.addf %v, %a : f32
      scf.yield %n : f32
    } {ag.block_lanes = 1024 : i64}
    memref.store %s, %t[%r] : memref<?xf32>
    scf.reduce
  }
  scf.parallel (%r, %c) = (%c0, %c0) to (%rows, %cols) step (%c1, %c1) {
    %v = memref.load %t[%r] : memref<?xf32>
    memref.store %v, %z[%r, %c] : memref<?x?xf32>
    scf.reduce
  }
  return
}
