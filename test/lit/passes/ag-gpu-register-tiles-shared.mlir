// RUN: ag-opt %s -split-input-file -ag-gpu-register-tiles=min-outputs=0 -cse -canonicalize | FileCheck %s
// RUN: ag-opt %s -split-input-file -ag-gpu-register-tiles=min-outputs=0 -cse | ag-opt -split-input-file -ag-gpu-register-tiles=min-outputs=0 -canonicalize | FileCheck %s --check-prefix=AGAIN
// -ag-gpu-register-tiles with shared memory (the default): a matmul whose rows are a
// multiple of 32 and columns of 128 becomes a gpu.launch of blocks of 32 x 8 threads,
// each thread a tile of 4 x 4 outputs (rows 32 * by + 4 * ty + a, columns
// 128 * bx + tx + 32 * c), each block 32 x 128 outputs. Its loop over k goes by slices
// of 16: between two barriers the block's 256 threads load the slice's 32 x 16 elements
// of A (two each) and 16 x 128 of B (eight each) into workgroup memory, then each
// thread's sixteen sums take the slice's 16 steps from it, four loads of A and four of
// B a step; the k's after the last whole slice (k = 40: 32 to 40) from global memory as
// before. Sizes known only at run time: the kernel where the rows divide by 32, the
// columns by 128 and there are min-outputs outputs, the register tiles (or the
// original) otherwise. Rows that are not a multiple of 32, or a batch of more matrices
// than the grid's z takes: no kernel.

// CHECK-LABEL: func.func @static
// CHECK-SAME:  (%[[A:[a-z0-9_]+]]: memref<64x40xf32>, %[[B:[a-z0-9_]+]]: memref<40x256xf32>)
// CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:   %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:   %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:   %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:   %[[C40:.*]] = arith.constant 40 : index
// CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.0
// CHECK:       %[[C:.*]] = memref.alloc
// CHECK:       gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %{{.*}}) in (%{{.*}} = %[[C2]], %{{.*}} = %[[C2]], %{{.*}} = %c1) threads(%[[TX:.*]], %[[TY:.*]], %{{.*}}) in (%{{.*}} = %[[C32]], %{{.*}} = %[[C8]], %{{.*}} = %c1) workgroup(%[[AT:.*]] : memref<512xf32, #gpu.address_space<workgroup>>, %[[BT:.*]] : memref<2048xf32, #gpu.address_space<workgroup>>)
// CHECK:         %[[SLICES:.*]]:16 = scf.for %[[KT:.*]] = %c0 to %[[C32]] step %[[C16]] iter_args(%{{.*}} = %[[ZERO]], {{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT:      gpu.barrier
// CHECK-COUNT-2:   memref.store %{{.*}}, %[[AT]][%{{.*}}] : memref<512xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-8:   memref.store %{{.*}}, %[[BT]][%{{.*}}] : memref<2048xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      %[[STEPS:.*]]:16 = scf.for %{{.*}} = %c0 to %[[C16]] step %c1 iter_args
// CHECK-NOT:         memref.load %[[A]]
// CHECK-NOT:         memref.load %[[B]]
// CHECK-COUNT-4:     memref.load %[[AT]]
// CHECK-COUNT-4:     memref.load %[[BT]]
// CHECK-COUNT-16:    arith.mulf
// CHECK-COUNT-16:    arith.addf
// CHECK:             scf.yield
// CHECK:           scf.yield %[[STEPS]]#0, %[[STEPS]]#1
// CHECK:         %[[SUMS:.*]]:16 = scf.for %[[K:.*]] = %[[C32]] to %[[C40]] step %c1 iter_args(%{{.*}} = %[[SLICES]]#0, %{{.*}} = %[[SLICES]]#1,
// CHECK-COUNT-4:   memref.load %[[A]][%{{.*}}, %[[K]]]
// CHECK-COUNT-4:   memref.load %[[B]][%[[K]], %{{.*}}]
// CHECK:         memref.store %[[SUMS]]#0, %[[C]]
// CHECK-COUNT-15: memref.store %[[SUMS]]
// CHECK-NEXT:    gpu.terminator
func.func @static(%a: memref<64x40xf32>, %b: memref<40x256xf32>) -> memref<64x256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c40 = arith.constant 40 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x256xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c256) step (%c1, %c1) {
    %r = scf.for %k = %c0 to %c40 step %c1 iter_args(%s = %zero) -> (f32) {
      %x = memref.load %a[%i, %k] : memref<64x40xf32>
      %y = memref.load %b[%k, %j] : memref<40x256xf32>
      %p = arith.mulf %x, %y fastmath<contract> : f32
      %t = arith.addf %s, %p fastmath<contract> : f32
      scf.yield %t : f32
    }
    memref.store %r, %c[%i, %j] : memref<64x256xf32>
    scf.reduce
  }
  return %c : memref<64x256xf32>
}

// Run again on its own output: the kernel is left as it is (no parallel loop).
// AGAIN-LABEL: func.func @static
// AGAIN:       gpu.launch
// AGAIN-NOT:   gpu.launch
// AGAIN-NOT:   scf.parallel

// -----

// AGAIN-LABEL: func.func @dynamic
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME:  (%{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?xf32>, %[[M:[a-z0-9_]+]]: index, %[[N:[a-z0-9_]+]]: index, %[[K:[a-z0-9_]+]]: index)
// CHECK-DAG:   %[[COLS:.*]] = arith.remui %[[N]], %c128
// CHECK-DAG:   %[[ROWS:.*]] = arith.remui %[[M]], %c32
// And the grid's y, the blocks of rows, within its 65,535: 2,097,120 rows at most.
// CHECK-DAG:   arith.cmpi ule, %[[M]], %c2097120
// CHECK:       scf.if %{{.*}} {
// The whole slices' end: k's count rounded down to a multiple of 16.
// CHECK:         %[[COUNT:.*]] = arith.maxsi %[[K]], %c0
// CHECK:         %[[END:.*]] = affine.apply #{{.*}}()[%[[COUNT]]]
// CHECK:         gpu.launch
// CHECK:           scf.for %{{.*}} = %c0 to %[[END]] step %c16
// CHECK:             gpu.barrier
// CHECK:           scf.for %{{.*}} = %[[END]] to %[[K]] step %c1
// CHECK:       } else {
// The register tiles where the blocks do not fill.
// CHECK:         scf.if
// CHECK:           scf.parallel
// CHECK:         } else {
// CHECK:           scf.parallel
func.func @dynamic(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %m: index, %n: index, %k: index) -> memref<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %r = scf.for %kk = %c0 to %k step %c1 iter_args(%s = %zero) -> (f32) {
      %x = memref.load %a[%i, %kk] : memref<?x?xf32>
      %y = memref.load %b[%kk, %j] : memref<?x?xf32>
      %p = arith.mulf %x, %y fastmath<contract> : f32
      %t = arith.addf %s, %p fastmath<contract> : f32
      scf.yield %t : f32
    }
    memref.store %r, %c[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  return %c : memref<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @rows_of_8
// CHECK-NOT:   gpu.launch
// CHECK:       scf.parallel
func.func @rows_of_8(%a: memref<8x5xf32>, %b: memref<5x128xf32>) -> memref<8x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<8x128xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c128) step (%c1, %c1) {
    %r = scf.for %k = %c0 to %c5 step %c1 iter_args(%s = %zero) -> (f32) {
      %x = memref.load %a[%i, %k] : memref<8x5xf32>
      %y = memref.load %b[%k, %j] : memref<5x128xf32>
      %p = arith.mulf %x, %y : f32
      %t = arith.addf %s, %p : f32
      scf.yield %t : f32
    }
    memref.store %r, %c[%i, %j] : memref<8x128xf32>
    scf.reduce
  }
  return %c : memref<8x128xf32>
}

// -----

// A batch of 70,000 matrices: more blocks along the grid's z than it takes (65,535): the
// register tiles, no kernel of its own.
// CHECK-LABEL: func.func @large_batch
// CHECK-NOT:   gpu.launch
// CHECK:       scf.parallel
func.func @large_batch(%a: memref<70000x32x5xf32>, %b: memref<70000x5x128xf32>) -> memref<70000x32x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %batch = arith.constant 70000 : index
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<70000x32x128xf32>
  scf.parallel (%h, %i, %j) = (%c0, %c0, %c0) to (%batch, %c32, %c128) step (%c1, %c1, %c1) {
    %r = scf.for %k = %c0 to %c5 step %c1 iter_args(%s = %zero) -> (f32) {
      %x = memref.load %a[%h, %i, %k] : memref<70000x32x5xf32>
      %y = memref.load %b[%h, %k, %j] : memref<70000x5x128xf32>
      %p = arith.mulf %x, %y : f32
      %t = arith.addf %s, %p : f32
      scf.yield %t : f32
    }
    memref.store %r, %c[%h, %i, %j] : memref<70000x32x128xf32>
    scf.reduce
  }
  return %c : memref<70000x32x128xf32>
}
