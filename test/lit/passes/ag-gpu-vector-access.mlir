// RUN: ag-opt %s -split-input-file -ag-gpu-vector-access -cse | FileCheck %s
// -ag-gpu-vector-access: an elementwise parallel loop (a thread per element) becomes a
// loop of a thread per four neighbouring elements of its innermost dimension; each load
// and store along it one vector access of four elements, aligned to their bytes, where
// the host found every such buffer aligned (its first element, and its rows) and the
// four are inside the bounds; element by element otherwise. Ops that do not depend on
// the index are computed once for the four, the others once for each. Left alone: a
// loop along whose innermost dimension an access is not contiguous (a transpose, a
// reversal), an innermost dimension of fewer than 4, a stride known not to be a multiple
// of 4, a loop with a loop or conditional in its body, one of bools alone.

// The fused chain of the benchmark, of a size known at run time. (The maps: the first
// element's byte address, the thread's first element.)
// CHECK-DAG:   #[[BYTES4:map[0-9]*]] = affine_map<()[s0, s1] -> (s0 + s1 * 4)>
// CHECK-DAG:   #[[TIMES4:map[0-9]*]] = affine_map<(d0) -> (d0 * 4)>
// CHECK-LABEL: func.func @chain
// CHECK-SAME:  (%[[X:[a-z0-9_]+]]: memref<?xf32>, %[[Y:[a-z0-9_]+]]: memref<?xf32>, %[[N:[a-z0-9_]+]]: index, %[[TWO:[a-z0-9_]+]]: f32)
// CHECK:       %{{.*}}, %[[XOFF:[a-z0-9_]+]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[X]]
// CHECK:       %[[XP:[a-z0-9_]+]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK:       %[[XF:[a-z0-9_]+]] = affine.apply #[[BYTES4]]()[%[[XP]], %[[XOFF]]]
// CHECK:       %[[XR:[a-z0-9_]+]] = arith.remui %[[XF]], %[[C16:[a-z0-9_]+]]
// CHECK:       %[[XA:[a-z0-9_]+]] = arith.cmpi eq, %[[XR]], %[[C0:[a-z0-9_]+]]
// CHECK:       %[[XT:[a-z0-9_]+]] = arith.andi %{{.*}}, %[[XA]]
// CHECK:       %{{.*}}, %[[YOFF:[a-z0-9_]+]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[Y]]
// CHECK:       %[[YP:[a-z0-9_]+]] = memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK:       %[[YF:[a-z0-9_]+]] = affine.apply #[[BYTES4]]()[%[[YP]], %[[YOFF]]]
// CHECK:       %[[YR:[a-z0-9_]+]] = arith.remui %[[YF]], %[[C16]]
// CHECK:       %[[YA:[a-z0-9_]+]] = arith.cmpi eq, %[[YR]], %[[C0]]
// CHECK:       %[[BOTH:[a-z0-9_]+]] = arith.andi %[[XT]], %[[YA]]
// CHECK:       %[[QUADS:[a-z0-9_]+]] = affine.apply #{{.*}}()[%[[N]]]
// CHECK:       scf.parallel (%[[V:[a-z0-9_]+]]) = (%{{.*}}) to (%[[QUADS]]) step
// CHECK-NEXT:    %[[I0:[a-z0-9_]+]] = affine.apply #[[TIMES4]](%[[V]])
// CHECK-NEXT:    %[[END:[a-z0-9_]+]] = affine.apply #{{.*}}(%[[V]])
// CHECK-NEXT:    %[[INSIDE:[a-z0-9_]+]] = arith.cmpi sle, %[[END]], %[[N]]
// CHECK-NEXT:    %[[FULL:[a-z0-9_]+]] = arith.andi %[[BOTH]], %[[INSIDE]]
// CHECK-NEXT:    scf.if %[[FULL]] {
// CHECK-NEXT:      %[[X4:[a-z0-9_]+]] = vector.load %[[X]][%[[I0]]] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK-NEXT:      %[[E0:[a-z0-9_]+]] = vector.extract %[[X4]][0]
// CHECK-NEXT:      %[[E1:[a-z0-9_]+]] = vector.extract %[[X4]][1]
// CHECK-NEXT:      %[[E2:[a-z0-9_]+]] = vector.extract %[[X4]][2]
// CHECK-NEXT:      %[[E3:[a-z0-9_]+]] = vector.extract %[[X4]][3]
// CHECK-NEXT:      %[[M0:[a-z0-9_]+]] = arith.mulf %[[E0]], %[[TWO]]
// CHECK-NEXT:      %[[M1:[a-z0-9_]+]] = arith.mulf %[[E1]], %[[TWO]]
// CHECK-NEXT:      %[[M2:[a-z0-9_]+]] = arith.mulf %[[E2]], %[[TWO]]
// CHECK-NEXT:      %[[M3:[a-z0-9_]+]] = arith.mulf %[[E3]], %[[TWO]]
// CHECK-NEXT:      %[[A0:[a-z0-9_]+]] = arith.addf %[[M0]], %[[E0]]
// CHECK-NEXT:      %[[A1:[a-z0-9_]+]] = arith.addf %[[M1]], %[[E1]]
// CHECK-NEXT:      %[[A2:[a-z0-9_]+]] = arith.addf %[[M2]], %[[E2]]
// CHECK-NEXT:      %[[A3:[a-z0-9_]+]] = arith.addf %[[M3]], %[[E3]]
// CHECK-NEXT:      %[[Y4:[a-z0-9_]+]] = vector.from_elements %[[A0]], %[[A1]], %[[A2]], %[[A3]] : vector<4xf32>
// CHECK-NEXT:      vector.store %[[Y4]], %[[Y]][%[[I0]]] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[LAST:[a-z0-9_]+]] = affine.min #{{.*}}(%[[I0]])[%[[N]]]
// CHECK-NEXT:      scf.for %[[I:[a-z0-9_]+]] = %[[I0]] to %[[LAST]] step
// CHECK-NEXT:        %[[S:[a-z0-9_]+]] = memref.load %[[X]][%[[I]]]
// CHECK-NEXT:        %[[SM:[a-z0-9_]+]] = arith.mulf %[[S]], %[[TWO]]
// CHECK-NEXT:        %[[SA:[a-z0-9_]+]] = arith.addf %[[SM]], %[[S]]
// CHECK-NEXT:        memref.store %[[SA]], %[[Y]][%[[I]]]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.reduce
// CHECK-NOT:   scf.parallel
func.func @chain(%x: memref<?xf32>, %y: memref<?xf32>, %n: index, %two: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %m = arith.mulf %v, %two : f32
    %a = arith.addf %m, %v : f32
    memref.store %a, %y[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// -----

// Rows of a view (a dynamic offset and row stride): the host tests the first element's
// address (pointer + 4 * offset) and the row stride. A bias along the columns is a vector
// load too; a value per row (not depending on the column) is loaded once for the four.
// float64: vectors of 32 bytes.
// CHECK:       #[[BYTES8:map[0-9]*]] = affine_map<()[s0, s1] -> (s0 + s1 * 8)>
// CHECK-LABEL: func.func @rows
// CHECK-SAME:  (%[[M:[a-z0-9_]+]]: memref<?x?xf64, strided<[?, 1], offset: ?>>, %[[B:[a-z0-9_]+]]: memref<?xf64>, %[[R:[a-z0-9_]+]]: memref<?xf64>, %[[O:[a-z0-9_]+]]: memref<?x?xf64>
// CHECK:       %{{.*}}, %[[OFF:[a-z0-9_]+]], %{{.*}}:2, %[[STRIDES:[a-z0-9_]+]]:2 = memref.extract_strided_metadata %[[M]]
// CHECK:       %[[MP:[a-z0-9_]+]] = memref.extract_aligned_pointer_as_index %[[M]]
// CHECK:       %[[FIRST:[a-z0-9_]+]] = affine.apply #[[BYTES8]]()[%[[MP]], %[[OFF]]]
// CHECK:       arith.remui %[[FIRST]], %[[C32:[a-z0-9_]+]]
// CHECK:       arith.remui %[[STRIDES]]#0, %[[C4:[a-z0-9_]+]]
// CHECK:       scf.parallel (%[[ROW:[a-z0-9_]+]], %[[V:[a-z0-9_]+]]) =
// CHECK:         scf.if
// CHECK-DAG:       vector.load %[[M]][%[[ROW]], %[[I0:[a-z0-9_]+]]] {alignment = 32 : i64} : memref<?x?xf64, strided<[?, 1], offset: ?>>, vector<4xf64>
// CHECK-DAG:       vector.load %[[B]][%[[I0]]] {alignment = 32 : i64} : memref<?xf64>, vector<4xf64>
// CHECK-DAG:       memref.load %[[R]][%[[ROW]]]
// CHECK-NOT:       memref.load
// CHECK:           vector.store %{{.*}}, %[[O]][%[[ROW]], %[[I0]]] {alignment = 32 : i64}
// CHECK:         } else {
// CHECK:           scf.for
func.func @rows(%m: memref<?x?xf64, strided<[?, 1], offset: ?>>, %b: memref<?xf64>,
                %r: memref<?xf64>, %o: memref<?x?xf64>, %rows: index, %cols: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%rows, %cols) step (%c1, %c1) {
    %v = memref.load %m[%i, %j] : memref<?x?xf64, strided<[?, 1], offset: ?>>
    %w = memref.load %b[%j] : memref<?xf64>
    %s = memref.load %r[%i] : memref<?xf64>
    %p = arith.mulf %v, %w : f64
    %q = arith.addf %p, %s : f64
    memref.store %q, %o[%i, %j] : memref<?x?xf64>
    scf.reduce
  }
  return
}

// -----

// A constant size: four elements a thread, the last thread's one alone; int8, vectors of
// 4 bytes. A fill (a store alone) too.
// CHECK-LABEL: func.func @bytes
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%c3) step
// CHECK:         vector.load {{.*}} {alignment = 4 : i64} : memref<9xi8>, vector<4xi8>
// CHECK:         vector.store {{.*}} {alignment = 4 : i64} : memref<9xi8>, vector<4xi8>
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%c3) step
// CHECK:         vector.store {{.*}} {alignment = 16 : i64} : memref<9xf32>, vector<4xf32>
func.func @bytes(%x: memref<9xi8>, %y: memref<9xi8>, %z: memref<9xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %one = arith.constant 1 : i8
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c9) step (%c1) {
    %v = memref.load %x[%i] : memref<9xi8>
    %a = arith.addi %v, %one : i8
    memref.store %a, %y[%i] : memref<9xi8>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c9) step (%c1) {
    memref.store %zero, %z[%i] : memref<9xf32>
    scf.reduce
  }
  return
}

// -----

// A comparison: its operands' loads are vector loads, its bools stored one at a time.
// CHECK-LABEL: func.func @compare
// CHECK:       scf.parallel (%[[V:[a-z0-9_]+]])
// CHECK-NEXT:    %[[I0:[a-z0-9_]+]] = affine.apply #{{.*}}(%[[V]])
// CHECK:         scf.if
// CHECK-NEXT:      %[[I1:[a-z0-9_]+]] = affine.apply #{{.*}}(%[[V]])
// CHECK-NEXT:      %[[I2:[a-z0-9_]+]] = affine.apply #{{.*}}(%[[V]])
// CHECK-NEXT:      %[[I3:[a-z0-9_]+]] = affine.apply #{{.*}}(%[[V]])
// CHECK-NEXT:      vector.load %arg0[%[[I0]]]
// CHECK-COUNT-4:   vector.extract
// CHECK-NEXT:      vector.load %arg1[%[[I0]]]
// CHECK-COUNT-4:   vector.extract
// CHECK-COUNT-4:   arith.cmpf olt
// CHECK-NEXT:      memref.store %{{.*}}, %arg2[%[[I0]]] : memref<?xi1>
// CHECK-NEXT:      memref.store %{{.*}}, %arg2[%[[I1]]] : memref<?xi1>
// CHECK-NEXT:      memref.store %{{.*}}, %arg2[%[[I2]]] : memref<?xi1>
// CHECK-NEXT:      memref.store %{{.*}}, %arg2[%[[I3]]] : memref<?xi1>
// CHECK-NEXT:    } else {
func.func @compare(%x: memref<?xf32>, %y: memref<?xf32>, %b: memref<?xi1>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %u = memref.load %x[%i] : memref<?xf32>
    %v = memref.load %y[%i] : memref<?xf32>
    %p = arith.cmpf olt, %u, %v : f32
    memref.store %p, %b[%i] : memref<?xi1>
    scf.reduce
  }
  return
}

// -----

// Left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:   vector.
// CHECK:       return
func.func @left_alone(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %v: memref<?xf32>,
                      %b: memref<?xi1>, %s: memref<?x1001xf32>, %t: memref<?x1001xf32>,
                      %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  // A transpose: the read along the innermost index is not contiguous.
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %e = memref.load %x[%j, %i] : memref<?x?xf32>
    memref.store %e, %y[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  // A reversal.
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %r = arith.subi %n, %i : index
    %e = memref.load %v[%r] : memref<?xf32>
    memref.store %e, %v[%i] : memref<?xf32>
    scf.reduce
  }
  // Fewer than four along the innermost dimension.
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c3) step (%c1, %c1) {
    %e = memref.load %x[%i, %j] : memref<?x?xf32>
    memref.store %e, %y[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  // Rows of 1001 elements: no row but the first would be aligned.
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %e = memref.load %s[%i, %j] : memref<?x1001xf32>
    memref.store %e, %t[%i, %j] : memref<?x1001xf32>
    scf.reduce
  }
  // Bools alone (a byte each in memory, a bit each in a vector: no vector access).
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %e = memref.load %b[%i] : memref<?xi1>
    %f = arith.xori %e, %e : i1
    memref.store %f, %b[%i] : memref<?xi1>
    scf.reduce
  }
  // A conditional in the body.
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %e = memref.load %v[%i] : memref<?xf32>
    %p = arith.cmpf ogt, %e, %e : f32
    scf.if %p {
      memref.store %e, %v[%i] : memref<?xf32>
    }
    scf.reduce
  }
  return
}
