// RUN: ag-opt %s -ag-gpu-map-loops -canonicalize | FileCheck %s
// RUN: ag-opt %s -ag-gpu-map-loops -convert-parallel-loops-to-gpu -canonicalize | FileCheck %s --check-prefix=LAUNCH
// -ag-gpu-map-loops: an outermost parallel loop whose body a kernel can compute is tiled
// into blocks of threads and mapped (innermost dimension on x: 256 threads for one
// dimension, 32 x 8 for two, a narrow static dimension's count and the rest of the 256
// to the dimension outside it; the blocks on the grid's x, y and z, or all on x, numbered
// row-major, where y or z might take more than 65,535); a call, a reduction, an allocation, math that is not one
// instruction, a float remainder, or more than three dimensions keep a loop on the host.

// CHECK-LABEL: func.func @elementwise
// CHECK:       scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%{{.*}}) step (%c256)
// CHECK:         affine.min
// CHECK:         scf.parallel
// CHECK:           math.exp
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
func.func @elementwise(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %e = math.exp %v : f32
    %f = math.fma %e, %v, %v : f32
    memref.store %f, %y[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// Two dimensions of sizes known only at run time: blocks of 32 x 8 threads, all on the
// grid's x (the rows' blocks might be more than its y takes), block g the rows' block
// g / (n / 32) and the columns' g % (n / 32).
// CHECK-LABEL: func.func @two_dims
// CHECK:       arith.maxsi
// CHECK:       %[[COLS:.*]] = arith.maxsi
// CHECK:       scf.parallel (%[[G:.*]]) = (%c0) to (%{{.*}}) step (%c1) {
// CHECK:         %[[COL:.*]] = arith.remui %[[G]], %[[COLS]]
// CHECK:         %[[ROW:.*]] = arith.divui %[[G]], %[[COLS]]
// CHECK:         arith.muli %[[COL]], %c32
// CHECK:         arith.muli %[[ROW]], %c8
// CHECK:       {mapping = [#gpu.loop_dim_map<processor = thread_y, {{.*}}>, #gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK:       {mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>]}
func.func @two_dims(%x: memref<?x?xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<?x?xf32>
    %a = math.absf %v : f32
    memref.store %a, %x[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  return
}

func.func private @agrt_fail(!llvm.ptr)

// CHECK-LABEL: func.func @host_only
// CHECK-NOT:   mapping
// CHECK:       return
func.func @host_only(%x: memref<?xf32>, %y: memref<?xf64>, %s: memref<f32>, %n: index,
                     %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  // A call of the runtime (a failed check).
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    func.call @agrt_fail(%p) : (!llvm.ptr) -> ()
    scf.reduce
  }
  // A reduction.
  %sum = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      scf.reduce.return %t : f32
    }
  }
  memref.store %sum, %s[] : memref<f32>
  // An allocation.
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %b = memref.alloc() : memref<4xf32>
    memref.dealloc %b : memref<4xf32>
    scf.reduce
  }
  // float64 exp (libdevice's, not approximated), sin, a float remainder.
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %y[%i] : memref<?xf64>
    %e = math.exp %v : f64
    memref.store %e, %y[%i] : memref<?xf64>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %e = math.sin %v : f32
    %r = arith.remf %e, %v : f32
    memref.store %r, %x[%i] : memref<?xf32>
    scf.reduce
  }
  // Four dimensions.
  scf.parallel (%i, %j, %k, %l) = (%c0, %c0, %c0, %c0) to (%n, %n, %n, %n) step (%c1, %c1, %c1, %c1) {
    memref.store %zero, %x[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// Static sizes: the threads' bounds folded as convert-parallel-loops-to-gpu needs them
// without canonicalize, which would merge a thread loop of constant bounds (1024 is 4
// blocks of 256) into its block loop and leave both on the host; a dimension of fewer
// iterations than the block's is the block's size (5 threads, 3 x 32).
// LAUNCH-LABEL: func.func @static_multiple
// LAUNCH:       gpu.launch blocks({{.*}}) in ({{.*}} = %c4, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c256, {{.*}} = %c1, {{.*}} = %c1)
func.func @static_multiple(%x: memref<1024xf32>, %y: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%i) = (%c0) to (%c1024) step (%c1) {
    %v = memref.load %x[%i] : memref<1024xf32>
    memref.store %v, %y[%i] : memref<1024xf32>
    scf.reduce
  }
  return
}

// LAUNCH-LABEL: func.func @static_small
// LAUNCH:       gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c5, {{.*}} = %c1, {{.*}} = %c1)
// LAUNCH-LABEL: func.func @static_narrow
// LAUNCH:       gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c3, {{.*}} = %c1)
func.func @static_small(%x: memref<5xf32>, %y: memref<5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  scf.parallel (%i) = (%c0) to (%c5) step (%c1) {
    %v = memref.load %x[%i] : memref<5xf32>
    memref.store %v, %y[%i] : memref<5xf32>
    scf.reduce
  }
  return
}

func.func @static_narrow(%x: memref<3x64xf32>, %y: memref<3x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c64) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<3x64xf32>
    memref.store %v, %y[%i, %j] : memref<3x64xf32>
    scf.reduce
  }
  return
}

// Rows of 4 elements: blocks of 4 x 64 threads (not 4 x 8: a warp would have 24 lanes
// idle); 15,625 blocks along y, within the grid's 65,535.
// LAUNCH-LABEL: func.func @narrow_rows
// LAUNCH:       gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}} = %c15625, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c4, {{.*}} = %c64, {{.*}} = %c1)
func.func @narrow_rows(%x: memref<1000000x4xf32>, %y: memref<1000000x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %rows = arith.constant 1000000 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%rows, %c4) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<1000000x4xf32>
    memref.store %v, %y[%i, %j] : memref<1000000x4xf32>
    scf.reduce
  }
  return
}

// Rows of 3 known only at run time: blocks of 3 x 85 threads, and the blocks all on x
// (the rows' blocks might be more than 65,535: 5,570,475 rows and more), block g the
// rows' block g / 1 and the columns' g % 1 (folded: g and 0), its first row 85 g.
// CHECK-LABEL: func.func @tall
// CHECK-SAME:  (%{{.*}}: memref<?x3xf32>, %[[ROWS:.*]]: index)
// CHECK:       %[[COUNT:.*]] = arith.ceildivsi %[[ROWS]], %c85
// CHECK:       %[[NONNEG:.*]] = arith.maxsi %[[COUNT]], %c0
// CHECK:       scf.parallel (%[[G:.*]]) = (%c0) to (%[[TOTAL:.*]]) step (%c1) {
// CHECK:         %[[ROW:.*]] = arith.muli %[[G]], %c85
// CHECK:         scf.parallel {{.*}} step (%c1, %c1)
// CHECK:           memref.load %{{.*}}[
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_y, {{.*}}>, #gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>]}
// LAUNCH-LABEL: func.func @tall
// LAUNCH:       gpu.launch blocks({{.*}}) in ({{.*}} = %{{.*}}, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c3, {{.*}} = %c85, {{.*}} = %c1)
func.func @tall(%x: memref<?x3xf32>, %rows: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%rows, %c3) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<?x3xf32>
    %a = math.absf %v : f32
    memref.store %a, %x[%i, %j] : memref<?x3xf32>
    scf.reduce
  }
  return
}

// Three dimensions: 3 x 7 x 12 threads for [n, 7, 3]; 8,334 blocks along z, within.
// LAUNCH-LABEL: func.func @deep
// LAUNCH:       gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}} = %c1, {{.*}} = %c8334) threads({{.*}}) in ({{.*}} = %c3, {{.*}} = %c7, {{.*}} = %c12)
// A static z past 65,535 (3,000,000 / 8 = 375,000 blocks): all on x.
// LAUNCH-LABEL: func.func @deep_past_z
// LAUNCH:       gpu.launch blocks({{.*}}) in ({{.*}} = %c750000, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c1, {{.*}} = %c8)
func.func @deep(%x: memref<100000x7x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %n = arith.constant 100000 : index
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%n, %c7, %c3) step (%c1, %c1, %c1) {
    %v = memref.load %x[%i, %j, %k] : memref<100000x7x3xf32>
    %a = arith.addf %v, %v : f32
    memref.store %a, %x[%i, %j, %k] : memref<100000x7x3xf32>
    scf.reduce
  }
  return
}

func.func @deep_past_z(%x: memref<3000000x1x64xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = arith.constant 3000000 : index
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%n, %c1, %c64) step (%c1, %c1, %c1) {
    %v = memref.load %x[%i, %j, %k] : memref<3000000x1x64xi8>
    %a = arith.addi %v, %v : i8
    memref.store %a, %x[%i, %j, %k] : memref<3000000x1x64xi8>
    scf.reduce
  }
  return
}
