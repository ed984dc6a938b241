// RUN: ag-opt %s -ag-gpu-map-loops -canonicalize | FileCheck %s
// RUN: ag-opt %s -ag-gpu-map-loops -convert-parallel-loops-to-gpu -canonicalize | FileCheck %s --check-prefix=LAUNCH
// -ag-gpu-map-loops: an outermost parallel loop whose body a kernel can compute is tiled
// into blocks of threads and mapped (innermost dimension on x: 256 threads for one
// dimension, 32 x 8 for two, a narrow static dimension's count and the rest of the 256
// to the dimension outside it; the blocks on the grid's x, y and z, in a host loop of
// launches of at most 65,535 blocks along y or z where they might take more); a call, a
// reduction, an allocation, math that is not one instruction, a float remainder, or more
// than three dimensions keep a loop on the host.

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

// Two dimensions of sizes known only at run time: blocks of 32 x 8 threads, the rows'
// blocks on the grid's y; they might be more than it takes, so the launch is in a host
// loop, each launch at most 65,535 blocks of rows (524,280 rows) from row 8 c.
// CHECK-LABEL: func.func @two_dims
// CHECK-SAME:  (%{{.*}}: memref<?x?xf32>, %[[M:.*]]: index, %[[N:.*]]: index)
// CHECK:       %[[COUNT:.*]] = arith.ceildivsi %[[M]], %c8
// CHECK:       %[[BLOCKS:.*]] = arith.maxsi %[[COUNT]], %c0
// CHECK:       scf.for %[[C:.*]] = %c0 to %[[BLOCKS]] step %c65535 {
// CHECK:         %[[FIRST:.*]] = arith.muli %[[C]], %c8
// CHECK:         %[[END:.*]] = arith.addi %[[FIRST]], %c524280
// CHECK:         %[[LAST:.*]] = arith.minsi %[[M]], %[[END]]
// CHECK:         scf.parallel (%{{.*}}, %{{.*}}) = (%[[FIRST]], %c0) to (%[[LAST]], %[[N]]) step (%c8, %c32) {
// CHECK:           {mapping = [#gpu.loop_dim_map<processor = thread_y, {{.*}}>, #gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK:         {mapping = [#gpu.loop_dim_map<processor = block_y, {{.*}}>, #gpu.loop_dim_map<processor = block_x, {{.*}}>]}
// CHECK-NEXT:  }
// CHECK-NEXT:  return
// LAUNCH-LABEL: func.func @two_dims
// LAUNCH:       scf.for
// LAUNCH:         gpu.launch blocks({{.*}}) in ({{.*}} = %{{.*}}, {{.*}} = %{{.*}}, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c8, {{.*}} = %c1)
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

// Rows of 3 known only at run time: blocks of 3 x 85 threads, and a host loop of
// launches of at most 65,535 blocks along y (5,570,475 rows) each, launch c's first
// row 85 c.
// LAUNCH-LABEL: func.func @tall
// LAUNCH-SAME:  (%{{.*}}: memref<?x3xf32>, %[[ROWS:.*]]: index)
// LAUNCH:       %[[COUNT:.*]] = arith.ceildivsi %[[ROWS]], %c85
// LAUNCH:       %[[BLOCKS:.*]] = arith.maxsi %[[COUNT]], %c0
// LAUNCH:       scf.for %[[C:.*]] = %c0 to %[[BLOCKS]] step %c65535 {
// LAUNCH:         %[[FIRST:.*]] = arith.muli %[[C]], %c85
// LAUNCH:         %[[END:.*]] = arith.addi %[[FIRST]], %c5570475
// LAUNCH:         %[[LAST:.*]] = arith.minsi %[[ROWS]], %[[END]]
// LAUNCH:         %[[GRID:.*]] = affine.apply #{{.*}}(%[[LAST]])[%[[FIRST]]]
// LAUNCH:         gpu.launch blocks(%{{.*}}, %[[BY:.*]], %{{.*}}) in ({{.*}} = %c1, {{.*}} = %[[GRID]], {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c3, {{.*}} = %c85, {{.*}} = %c1)
// LAUNCH:           affine.apply #{{.*}}()[%[[FIRST]], %[[BY]]]
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
// A static z past 65,535 (3,000,000 / 8 = 375,000 blocks): six launches, of at most
// 65,535 blocks along z.
// LAUNCH-LABEL: func.func @deep_past_z
// LAUNCH:       scf.for %{{.*}} = %c0 to %c375000 step %c65535 {
// LAUNCH:         gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}} = %c1, {{.*}} = %{{.*}}) threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c1, {{.*}} = %c8)
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

// Rows known only at run time but at most 32 (min(m, 32), by upstream's integer range
// analysis: a column sum's rows of partials): 4 blocks of rows at most, one launch. At
// most 600,000 rows: 75,000 blocks of rows, more than the grid's y takes, a host loop of
// launches.
// LAUNCH-LABEL: func.func @bounded_rows
// LAUNCH-NOT:   scf.for
// LAUNCH:       gpu.launch blocks({{.*}}) in ({{.*}} = %c16, {{.*}} = %{{.*}}, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c8, {{.*}} = %c1)
// LAUNCH-NOT:   scf.for
// LAUNCH:       scf.for %{{.*}} = %c0 to %{{.*}} step %c65535 {
// LAUNCH-NEXT:    arith.muli %{{.*}}, %c8
// LAUNCH:         gpu.launch blocks({{.*}}) in ({{.*}} = %c16, {{.*}} = %{{.*}}, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c8, {{.*}} = %c1)
// LAUNCH:       } {ag.grid_launches = "y"}
// LAUNCH-NEXT:  return
func.func @bounded_rows(%x: memref<?x512xf32>, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c512 = arith.constant 512 : index
  %c600000 = arith.constant 600000 : index
  %few = arith.minui %m, %c32 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%few, %c512) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<?x512xf32>
    %a = math.absf %v : f32
    memref.store %a, %x[%i, %j] : memref<?x512xf32>
    scf.reduce
  }
  %many = arith.minui %m, %c600000 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%many, %c512) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<?x512xf32>
    %a = math.absf %v : f32
    memref.store %a, %x[%i, %j] : memref<?x512xf32>
    scf.reduce
  }
  return
}
