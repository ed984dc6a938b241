// RUN: ag-opt %s -split-input-file -ag-gpu-block-reductions | FileCheck %s
// -ag-gpu-block-reductions: a parallel loop whose body combines a block's lanes in an
// scf.for marked ag.block_lanes (what -ag-gpu-split-reductions writes) becomes a
// gpu.launch of a block per iteration and a thread per lane: the lane's partial, the
// block's gpu.all_reduce of them, combined with the loop's initial value, and what
// follows the loop: stores by thread 0, the rest by all. Several lanes' loops (a fused
// row softmax, -ag-gpu-fuse-blocks): an all_reduce each, a loop of no result the lane's
// share. Iterations of several dimensions are numbered row-major on x; narrow values are
// combined as 32-bit ones. Left alone: a load of a buffer stored at the top level, a
// lanes' loop whose count is computed inside the parallel loop, a combiner
// gpu.all_reduce does not have.

// CHECK-LABEL: func.func @blocks_of_256
// CHECK-SAME:  (%[[X:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>, %[[G:.*]]: index, %[[N:.*]]: index)
// CHECK-NOT:   scf.parallel
// CHECK:       gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[G]], %{{.*}} = %[[ONE:.*]], %{{.*}} = %[[ONE]]) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256:.*]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]])
// CHECK-NEXT:    %[[FIRST:.*]] = arith.muli %[[BX]], %[[C256]]
// CHECK-NEXT:    %[[T:.*]] = arith.addi %[[FIRST]], %[[TX]]
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi ult, %[[T]], %[[N]]
// CHECK-NEXT:    %[[AT:.*]] = arith.select %[[IN]], %[[T]], %{{.*}}
// CHECK-NEXT:    %[[V:.*]] = memref.load %[[X]][%[[AT]]]
// CHECK-NEXT:    %[[P:.*]] = arith.select %[[IN]], %[[V]], %{{.*}}
// CHECK-NEXT:    %[[ALL:.*]] = gpu.all_reduce add %[[P]] uniform {
// CHECK-NEXT:    } : (f32) -> f32
// CHECK-NEXT:    %[[R:.*]] = arith.addf %[[ALL]], %{{.*}} fastmath<reassoc> : f32
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[LEAD:.*]] = arith.cmpi eq, %[[TX]], %[[C0]]
// CHECK-NEXT:    scf.if %[[LEAD]] {
// CHECK-NEXT:      memref.store %[[R]], %[[OUT]][%[[BX]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.terminator
func.func @blocks_of_256(%x: memref<?xf32>, %out: memref<?xf32>, %g: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%b) = (%c0) to (%g) step (%c1) {
    %first = arith.muli %b, %c256 : index
    %r = scf.for %lane = %c0 to %c256 step %c1 iter_args(%a = %zero) -> (f32) {
      %t = arith.addi %first, %lane : index
      %in = arith.cmpi ult, %t, %n : index
      %at = arith.select %in, %t, %c0 : index
      %v = memref.load %x[%at] : memref<?xf32>
      %p = arith.select %in, %v, %zero : f32
      %s = arith.addf %p, %a fastmath<reassoc> : f32
      scf.yield %s : f32
    } {ag.block_lanes = 256 : i64}
    memref.store %r, %out[%b] : memref<?xf32>
    scf.reduce
  }
  return
}

// -----

// Two parallel dimensions: the grid is their product, a block's iteration its
// delinearization; an int8 maximum combined as an int32 one (sign-extended), narrowed.
// CHECK-LABEL: func.func @rows
// CHECK-SAME:  (%[[M:.*]]: memref<?x?x?xi8>, %[[OUT:.*]]: memref<?x?xi8>, %[[D0:.*]]: index, %[[D1:.*]]: index, %[[L:.*]]: index)
// CHECK:       %[[GRID:.*]] = arith.muli %[[D0]], %[[D1]]
// CHECK:       gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[GRID]], {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[L]],
// CHECK-NEXT:    %[[J:.*]] = arith.remui %[[BX]], %[[D1]]
// CHECK-NEXT:    %[[I:.*]] = arith.divui %[[BX]], %[[D1]]
// CHECK-NEXT:    %[[V:.*]] = memref.load %[[M]][%[[I]], %[[J]], %[[TX]]]
// CHECK-NEXT:    %[[WIDE:.*]] = arith.extsi %[[V]] : i8 to i32
// CHECK-NEXT:    %[[ALL:.*]] = gpu.all_reduce maxsi %[[WIDE]] uniform
// CHECK:         %[[NARROW:.*]] = arith.trunci %[[ALL]] : i32 to i8
// CHECK-NEXT:    %[[R:.*]] = arith.maxsi %[[NARROW]], %{{.*}} : i8
// CHECK:         scf.if
// CHECK-NEXT:      memref.store %[[R]], %[[OUT]][%[[I]], %[[J]]]
func.func @rows(%m: memref<?x?x?xi8>, %out: memref<?x?xi8>, %d0: index, %d1: index, %l: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %min = arith.constant -128 : i8
  scf.parallel (%i, %j) = (%c0, %c0) to (%d0, %d1) step (%c1, %c1) {
    %r = scf.for %lane = %c0 to %l step %c1 iter_args(%a = %min) -> (i8) {
      %v = memref.load %m[%i, %j, %lane] : memref<?x?x?xi8>
      %s = arith.maxsi %v, %a : i8
      scf.yield %s : i8
    } {ag.block_lanes = 1024 : i64}
    memref.store %r, %out[%i, %j] : memref<?x?xi8>
    scf.reduce
  }
  return
}

// -----

// A row's max, then each element's difference from it (a lanes' loop of no result):
// the max's all_reduce, then the lane's columns, by every thread.
// CHECK-LABEL: func.func @max_then_spread
// CHECK:       gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in
// CHECK:         %[[P:.*]] = memref.load
// CHECK-NEXT:    %[[M:.*]] = gpu.all_reduce maximumf %[[P]] uniform
// CHECK:         %[[R:.*]] = arith.maximumf %[[M]], %{{.*}}
// CHECK-NEXT:    scf.for %[[C:.*]] = %[[TX]] to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[V:.*]] = memref.load %{{.*}}[%[[BX]], %[[C]]]
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[V]], %[[R]]
// CHECK-NEXT:      memref.store %[[D]], %{{.*}}[%[[BX]], %[[C]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.terminator
func.func @max_then_spread(%m: memref<?x?xf32>, %out: memref<?x?xf32>, %rows: index, %cols: index, %l: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ninf = arith.constant 0xFF800000 : f32
  scf.parallel (%r) = (%c0) to (%rows) step (%c1) {
    %mx = scf.for %lane = %c0 to %l step %c1 iter_args(%a = %ninf) -> (f32) {
      %v = memref.load %m[%r, %lane] : memref<?x?xf32>
      %n = arith.maximumf %v, %a : f32
      scf.yield %n : f32
    } {ag.block_lanes = 1024 : i64}
    scf.for %lane = %c0 to %l step %c1 {
      scf.for %c = %lane to %cols step %l {
        %v = memref.load %m[%r, %c] : memref<?x?xf32>
        %d = arith.subf %v, %mx : f32
        memref.store %d, %out[%r, %c] : memref<?x?xf32>
      }
    } {ag.block_lanes = 1024 : i64}
    scf.reduce
  }
  return
}

// -----

// Left alone: a load of a buffer stored at the top level (thread 0 stores, the others
// may read before), a count computed in the loop, a combiner gpu.all_reduce does not
// have (subtraction).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:   gpu.launch
// CHECK-COUNT-3: scf.parallel
// CHECK-NOT:   gpu.launch
func.func @left_alone(%x: memref<?xf32>, %out: memref<?xf32>, %g: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%b) = (%c0) to (%g) step (%c1) {
    memref.store %zero, %out[%b] : memref<?xf32>
    %r = scf.for %lane = %c0 to %c256 step %c1 iter_args(%a = %zero) -> (f32) {
      %v = memref.load %out[%lane] : memref<?xf32>
      %s = arith.addf %v, %a : f32
      scf.yield %s : f32
    } {ag.block_lanes = 256 : i64}
    memref.store %r, %out[%b] : memref<?xf32>
    scf.reduce
  }
  scf.parallel (%b) = (%c0) to (%g) step (%c1) {
    %count = arith.addi %b, %c1 : index
    %r = scf.for %lane = %c0 to %count step %c1 iter_args(%a = %zero) -> (f32) {
      %v = memref.load %x[%lane] : memref<?xf32>
      %s = arith.addf %v, %a : f32
      scf.yield %s : f32
    } {ag.block_lanes = 256 : i64}
    memref.store %r, %out[%b] : memref<?xf32>
    scf.reduce
  }
  scf.parallel (%b) = (%c0) to (%g) step (%c1) {
    %r = scf.for %lane = %c0 to %c256 step %c1 iter_args(%a = %zero) -> (f32) {
      %v = memref.load %x[%lane] : memref<?xf32>
      %s = arith.subf %v, %a : f32
      scf.yield %s : f32
    } {ag.block_lanes = 256 : i64}
    memref.store %r, %out[%b] : memref<?xf32>
    scf.reduce
  }
  return
}
