// RUN: ag-opt %s -ag-gpu-map-loops -canonicalize | FileCheck %s
// RUN: ag-opt %s -ag-gpu-map-loops -convert-parallel-loops-to-gpu -canonicalize | FileCheck %s --check-prefix=LAUNCH
// -ag-gpu-map-loops: an outermost parallel loop whose body a kernel can compute is tiled
// into blocks of threads and mapped (innermost dimension on x: 256 threads for one
// dimension, 32 x 8 for two); a call, a reduction, an allocation, math that is not one
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

// CHECK-LABEL: func.func @two_dims
// CHECK:       scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step (%c8, %c32)
// CHECK:       {mapping = [#gpu.loop_dim_map<processor = thread_y, {{.*}}>, #gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK:       {mapping = [#gpu.loop_dim_map<processor = block_y, {{.*}}>, #gpu.loop_dim_map<processor = block_x, {{.*}}>]}
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
