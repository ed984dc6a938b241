// RUN: ag-opt %s -split-input-file -ag-gpu-register-tiles="min-outputs=0 shared-memory=false" -cse | FileCheck %s
// RUN: ag-opt %s -split-input-file -ag-gpu-register-tiles=shared-memory=false -cse | FileCheck %s --check-prefix=SMALL
// -ag-gpu-register-tiles: a matmul's parallel loop (a thread per output element, its sum
// over k carried by -ag-register-accumulators) becomes a loop of a thread per tile
// of 4 rows x 4 columns 32 apart (a warp's threads take 128 neighbouring columns); a
// full tile's sixteen sums go through one loop over k that loads four elements of A and
// four of B (merged by CSE) for sixteen multiply-adds, in the same order for each
// element as before; a tile at the edge computes its elements inside the bounds one
// after another. Sizes known only at run time: the tiled loop where there are at least
// 4 rows, 128 columns and min-outputs elements, the original otherwise. Constant sizes
// that are multiples of 4 and 128: the tiled loop alone, with no edge. A batch matmul
// tiles its last two dimensions. Left alone: a loop of constant sizes below
// min-outputs (the SMALL run's default, 524,288), or fewer than 128 columns; a loop with no
// load shared along a dimension (a reduction along the middle axis), one of a single
// dimension, one whose inner loop's bounds depend on a tile dimension.

// CHECK-LABEL: func.func @matmul
// CHECK-SAME:  (%[[A:[a-z0-9_]+]]: memref<?x?xf32>, %[[B:[a-z0-9_]+]]: memref<?x?xf32>, %[[M:[a-z0-9_]+]]: index, %[[N:[a-z0-9_]+]]: index, %[[K:[a-z0-9_]+]]: index)
// CHECK:       %[[ZERO:[a-z0-9_]+]] = arith.constant 0.0
// CHECK:       %[[C:[a-z0-9_]+]] = memref.alloc
// CHECK:       %[[OUTPUTS:[a-z0-9_]+]] = arith.muli %[[M]], %[[N]]
// CHECK:       %[[COLS:[a-z0-9_]+]] = arith.cmpi sge, %[[N]], %[[C128:[a-z0-9_]+]]
// CHECK:       %[[ROWS:[a-z0-9_]+]] = arith.cmpi sge, %[[M]], %[[C4:[a-z0-9_]+]]
// CHECK:       %[[FILLS:[a-z0-9_]+]] = arith.andi %[[ROWS]], %[[COLS]]
// CHECK:       %[[BIG:[a-z0-9_]+]] = arith.andi %[[FILLS]], %{{.*}}
// CHECK:       scf.if %[[BIG]] {
// CHECK-DAG:     %[[TROWS:[a-z0-9_]+]] = affine.apply #{{.*}}()[%[[M]]]
// CHECK-DAG:     %[[TCOLS:[a-z0-9_]+]] = affine.apply #{{.*}}()[%[[N]]]
// CHECK:         scf.parallel (%[[IT:[a-z0-9_]+]], %[[JT:[a-z0-9_]+]]) = (%{{.*}}, %{{.*}}) to (%[[TROWS]], %[[TCOLS]]) step
// CHECK-DAG:       %[[I0:[a-z0-9_]+]] = affine.apply #[[ROW0:[a-z0-9_]+]](%[[IT]])
// CHECK-DAG:       %[[J0:[a-z0-9_]+]] = affine.apply #[[COL0:[a-z0-9_]+]](%[[JT]])
// CHECK-DAG:       %[[I3:[a-z0-9_]+]] = affine.apply #{{.*}}(%[[IT]])
// CHECK-DAG:       %[[J3:[a-z0-9_]+]] = affine.apply #{{.*}}(%[[JT]])
// CHECK:           %[[JFITS:[a-z0-9_]+]] = arith.cmpi slt, %[[J3]], %[[N]]
// CHECK:           %[[IFITS:[a-z0-9_]+]] = arith.cmpi slt, %[[I3]], %[[M]]
// CHECK:           %[[FULL:[a-z0-9_]+]] = arith.andi %[[IFITS]], %[[JFITS]]
// CHECK:           scf.if %[[FULL]] {
// CHECK-DAG:         %[[J1:[a-z0-9_]+]] = affine.apply #{{.*}}(%[[JT]])
// CHECK-DAG:         %[[J2:[a-z0-9_]+]] = affine.apply #{{.*}}(%[[JT]])
// CHECK-DAG:         %[[I1:[a-z0-9_]+]] = affine.apply #{{.*}}(%[[IT]])
// CHECK-DAG:         %[[I2:[a-z0-9_]+]] = affine.apply #{{.*}}(%[[IT]])
// CHECK:             %[[RUNS:[a-z0-9_]+]] = arith.cmpi slt, %{{.*}}, %[[K]]
// CHECK-NEXT:        scf.if %[[RUNS]] {
// CHECK-NEXT:          %[[SUMS:[a-z0-9_]+]]:16 = scf.for %[[KK:[a-z0-9_]+]] = %{{.*}} to %[[K]] step %{{.*}} iter_args(%[[S0:[a-z0-9_]+]] = %[[ZERO]], %[[S1:[a-z0-9_]+]] = %[[ZERO]], {{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT:            %[[X0:[a-z0-9_]+]] = memref.load %[[A]][%[[I0]], %[[KK]]]
// CHECK-NEXT:            %[[X1:[a-z0-9_]+]] = memref.load %[[A]][%[[I1]], %[[KK]]]
// CHECK-NEXT:            %[[X2:[a-z0-9_]+]] = memref.load %[[A]][%[[I2]], %[[KK]]]
// CHECK-NEXT:            %[[X3:[a-z0-9_]+]] = memref.load %[[A]][%[[I3]], %[[KK]]]
// CHECK-NEXT:            %[[Y0:[a-z0-9_]+]] = memref.load %[[B]][%[[KK]], %[[J0]]]
// CHECK-NEXT:            %[[Y1:[a-z0-9_]+]] = memref.load %[[B]][%[[KK]], %[[J1]]]
// CHECK-NEXT:            %[[Y2:[a-z0-9_]+]] = memref.load %[[B]][%[[KK]], %[[J2]]]
// CHECK-NEXT:            %[[Y3:[a-z0-9_]+]] = memref.load %[[B]][%[[KK]], %[[J3]]]
// CHECK-NEXT:            %[[P00:[a-z0-9_]+]] = arith.mulf %[[X0]], %[[Y0]]
// CHECK-NEXT:            %[[P01:[a-z0-9_]+]] = arith.mulf %[[X0]], %[[Y1]]
// CHECK-COUNT-14:        arith.mulf
// CHECK-NEXT:            %[[T00:[a-z0-9_]+]] = arith.addf %[[S0]], %[[P00]]
// CHECK-NEXT:            %[[T01:[a-z0-9_]+]] = arith.addf %[[S1]], %[[P01]]
// CHECK-COUNT-14:        arith.addf
// CHECK-NEXT:            scf.yield %[[T00]], %[[T01]], {{.*}} : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT:          }
// CHECK-NEXT:          memref.store %[[SUMS]]#0, %[[C]][%[[I0]], %[[J0]]]
// CHECK-NEXT:          memref.store %[[SUMS]]#1, %[[C]][%[[I0]], %[[J1]]]
// CHECK-COUNT-13:      memref.store %[[SUMS]]
// CHECK-NEXT:          memref.store %[[SUMS]]#15, %[[C]][%[[I3]], %[[J3]]]
// CHECK-NEXT:        } else {
// CHECK-NEXT:          memref.store %[[ZERO]], %[[C]][%[[I0]], %[[J0]]]
// CHECK-COUNT-15:      memref.store %[[ZERO]]
// CHECK-NEXT:        }
// CHECK-NEXT:      } else {
// CHECK-NEXT:        %[[EROWS:[a-z0-9_]+]] = affine.min #{{.*}}()[%[[I0]], %[[M]]]
// CHECK-NEXT:        scf.for %[[EA:[a-z0-9_]+]] = %{{.*}} to %[[EROWS]] step
// CHECK-NEXT:          scf.for %[[EB:[a-z0-9_]+]] = %{{.*}} to %[[C4]] step
// CHECK-NEXT:            %[[EI:[a-z0-9_]+]] = affine.apply #{{.*}}(%[[EA]], %[[IT]])
// CHECK-NEXT:            %[[EJ:[a-z0-9_]+]] = affine.apply #{{.*}}(%[[EB]], %[[JT]])
// CHECK-NEXT:            %[[INSIDE:[a-z0-9_]+]] = arith.cmpi slt, %[[EJ]], %[[N]]
// CHECK-NEXT:            scf.if %[[INSIDE]] {
// CHECK-NEXT:              arith.cmpi slt, %{{.*}}, %[[K]]
// CHECK-NEXT:              scf.if
// CHECK-NEXT:                scf.for %[[EK:[a-z0-9_]+]] = {{.*}} -> (f32) {
// CHECK-NEXT:                  memref.load %[[A]][%[[EI]], %[[EK]]]
// CHECK-NEXT:                  memref.load %[[B]][%[[EK]], %[[EJ]]]
// CHECK:                     memref.store %{{.*}}, %[[C]][%[[EI]], %[[EJ]]]
// CHECK:                   } else {
// CHECK-NEXT:                memref.store %[[ZERO]], %[[C]][%[[EI]], %[[EJ]]]
// CHECK:           scf.reduce
// CHECK:         } else {
// The original loop, a thread per element.
// CHECK-NEXT:      scf.parallel (%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]) = (%{{.*}}, %{{.*}}) to (%[[M]], %[[N]]) step
// CHECK:             scf.for {{.*}} -> (f32) {
// CHECK-NEXT:          memref.load %[[A]][%[[I]],
// CHECK-NEXT:          memref.load %[[B]][%{{.*}}, %[[J]]]
// CHECK:       return %[[C]]
// SMALL-LABEL: func.func @matmul
// SMALL:       arith.cmpi sge, %{{.*}}, %c524288
// SMALL:       scf.if
func.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %m: index, %n: index, %k: index) -> memref<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %runs = arith.cmpi slt, %c0, %k : index
    scf.if %runs {
      %sum = scf.for %kk = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%i, %kk] : memref<?x?xf32>
        %y = memref.load %b[%kk, %j] : memref<?x?xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<?x?xf32>
    } else {
      memref.store %zero, %c[%i, %j] : memref<?x?xf32>
    }
    scf.reduce
  }
  return %c : memref<?x?xf32>
}

// -----

// Sizes known while compiling, multiples of 4 and 128: the tiled loop alone, no edge;
// a batch keeps its leading dimension. Below min-outputs (the SMALL run), left alone.
// CHECK-LABEL: func.func @static_batch
// CHECK-NOT:   scf.if
// CHECK:       scf.parallel (%[[BATCH:[a-z0-9_]+]], %[[IT:[a-z0-9_]+]], %[[JT:[a-z0-9_]+]]) = (%{{.*}}, %{{.*}}, %{{.*}}) to (%{{.*}}, %[[TWO:[a-z0-9_]+]], %[[THIRTYTWO:[a-z0-9_]+]]) step
// CHECK-NOT:     scf.if
// CHECK:         %{{.*}}:16 = scf.for %[[KK:[a-z0-9_]+]] = {{.*}} -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) {
// CHECK-NEXT:      memref.load %{{.*}}[%[[BATCH]], %{{.*}}, %[[KK]]]
// CHECK-COUNT-7:   memref.load
// CHECK-NOT:       memref.load
// CHECK:           arith.muli
// CHECK-NOT:     affine.min
// CHECK:         scf.reduce
// SMALL-LABEL: func.func @static_batch
// SMALL:       scf.parallel ({{.*}}) = ({{.*}}) to (%c2, %c8, %c128) step (%c1, %c1, %c1)
func.func @static_batch(%a: memref<2x8x5xi32>, %b: memref<2x5x128xi32>) -> memref<2x8x128xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0 : i32
  %c = memref.alloc() : memref<2x8x128xi32>
  scf.parallel (%n, %i, %j) = (%c0, %c0, %c0) to (%c2, %c8, %c128) step (%c1, %c1, %c1) {
    %sum = scf.for %kk = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> (i32) {
      %x = memref.load %a[%n, %i, %kk] : memref<2x8x5xi32>
      %y = memref.load %b[%n, %kk, %j] : memref<2x5x128xi32>
      %p = arith.muli %x, %y : i32
      %s = arith.addi %acc, %p : i32
      scf.yield %s : i32
    }
    memref.store %sum, %c[%n, %i, %j] : memref<2x8x128xi32>
    scf.reduce
  }
  return %c : memref<2x8x128xi32>
}

// -----

// Constant sizes with fewer than 128 columns: left alone.
// CHECK-LABEL: func.func @narrow
// CHECK:       scf.parallel ({{.*}}) = ({{.*}}) to (%c8, %c64) step (%[[ONE:[a-z0-9_]+]], %[[ONE]])
// CHECK-NOT:   scf.parallel
func.func @narrow(%a: memref<8x5xf32>, %b: memref<5x64xf32>) -> memref<8x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<8x64xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c64) step (%c1, %c1) {
    %sum = scf.for %kk = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = memref.load %a[%i, %kk] : memref<8x5xf32>
      %y = memref.load %b[%kk, %j] : memref<5x64xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      scf.yield %s : f32
    }
    memref.store %sum, %c[%i, %j] : memref<8x64xf32>
    scf.reduce
  }
  return %c : memref<8x64xf32>
}

// -----

// A sum along the middle axis: every load depends on both dimensions (no reuse).
// CHECK-LABEL: func.func @middle_axis
// CHECK:       scf.parallel ({{.*}}) = ({{.*}}) to ({{.*}}) step (%[[ONE:[a-z0-9_]+]], %[[ONE]])
// CHECK-NOT:   scf.parallel
func.func @middle_axis(%x: memref<8x16x32xf32>) -> memref<8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<8x32xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c32) step (%c1, %c1) {
    %sum = scf.for %kk = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %x[%i, %kk, %j] : memref<8x16x32xf32>
      %s = arith.addf %acc, %v : f32
      scf.yield %s : f32
    }
    memref.store %sum, %out[%i, %j] : memref<8x32xf32>
    scf.reduce
  }
  return %out : memref<8x32xf32>
}

// -----

// A triangle: the inner loop's bound depends on the row, so the copies would not run
// the same iterations.
// CHECK-LABEL: func.func @triangle
// CHECK:       scf.parallel ({{.*}}) = ({{.*}}) to ({{.*}}) step (%[[ONE:[a-z0-9_]+]], %[[ONE]])
// CHECK-NOT:   scf.parallel
func.func @triangle(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %n: index) -> memref<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc(%n, %n) : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %end = arith.addi %i, %c1 : index
    %sum = scf.for %kk = %c0 to %end step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = memref.load %a[%i, %kk] : memref<?x?xf32>
      %y = memref.load %b[%kk, %j] : memref<?x?xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      scf.yield %s : f32
    }
    memref.store %sum, %c[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  return %c : memref<?x?xf32>
}

// -----

// A matrix-vector product: one dimension (no tile of two).
// CHECK-LABEL: func.func @matvec
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%[[ONE:[a-z0-9_]+]])
// CHECK-NOT:   scf.parallel
func.func @matvec(%a: memref<?x?xf32>, %v: memref<?xf32>, %m: index, %k: index) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc(%m) : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    %sum = scf.for %kk = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = memref.load %a[%i, %kk] : memref<?x?xf32>
      %y = memref.load %v[%kk] : memref<?xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      scf.yield %s : f32
    }
    memref.store %sum, %c[%i] : memref<?xf32>
    scf.reduce
  }
  return %c : memref<?xf32>
}
