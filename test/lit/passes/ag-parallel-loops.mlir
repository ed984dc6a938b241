// RUN: ag-opt %s -ag-parallel-loops | FileCheck %s
// -ag-parallel-loops: a bufferized chunk loop becomes scf.parallel when no call and no heap
// allocation is in it (nothing that may raise a run-time error on a worker thread), and
// sequential scf.for loops otherwise; a buffer each chunk allocates for itself becomes its
// slice of one buffer allocated before the loop.

// CHECK-LABEL: func.func @plain
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}})
// CHECK: math.exp
// CHECK-NOT: scf.forall
func.func @plain(%x: memref<1024xf32>, %y: memref<1024xf32>) {
  scf.forall (%c) in (16) {
    %o = affine.apply affine_map<(c) -> (c * 64)>(%c)
    %xs = memref.subview %x[%o] [64] [1] : memref<1024xf32> to memref<64xf32, strided<[1], offset: ?>>
    %ys = memref.subview %y[%o] [64] [1] : memref<1024xf32> to memref<64xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                    iterator_types = ["parallel"]}
        ins(%xs : memref<64xf32, strided<[1], offset: ?>>) outs(%ys : memref<64xf32, strided<[1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        %e = math.exp %in : f32
        linalg.yield %e : f32
    }
  }
  return
}

// A call (it may raise an error, with a longjmp): the chunks in order on this thread.
// CHECK-LABEL: func.func @calls
// CHECK-NOT: scf.parallel
// CHECK: scf.for
// CHECK: call @agrt_fail
func.func private @agrt_fail(!llvm.ptr)
func.func @calls(%m: !llvm.ptr, %flags: memref<16xi1>) {
  scf.forall (%c) in (16) {
    %f = memref.load %flags[%c] : memref<16xi1>
    scf.if %f {
      func.call @agrt_fail(%m) : (!llvm.ptr) -> ()
    }
  }
  return
}

// A buffer with a size known only inside the loop (its allocation may fail, an error):
// sequential.
// CHECK-LABEL: func.func @allocates
// CHECK-NOT: scf.parallel
// CHECK: scf.for
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
func.func @allocates(%sizes: memref<16xindex>) {
  scf.forall (%c) in (16) {
    %n = memref.load %sizes[%c] : memref<16xindex>
    %b = memref.alloc(%n) : memref<?xf32>
    %z = arith.constant 0.0 : f32
    linalg.fill ins(%z : f32) outs(%b : memref<?xf32>)
  }
  return
}

// The matmul kernel's panel, of a size known before the loop: one buffer of 16 panels,
// allocated before it, each chunk using its own.
// CHECK-LABEL: func.func @panel
// CHECK: %[[ALL:.*]] = memref.alloc(%[[K:.*]]) {alignment = 64 : i64} : memref<16x?x16xf32>
// CHECK: scf.parallel (%[[C:.*]]) =
// CHECK: scf.for
// CHECK: memref.subview %[[ALL]][%[[C]], 0, 0] [1, %[[K]], 16] [1, 1, 1] : memref<16x?x16xf32> to memref<?x16xf32, strided<[16, 1], offset: ?>>
// CHECK: linalg.copy
func.func @panel(%b: memref<?x64xf32>, %k: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c16 = arith.constant 16 : index
  scf.forall (%c) in (16) {
    scf.for %j = %c0 to %c64 step %c16 {
      %src = memref.subview %b[0, %j] [%k, 16] [1, 1] : memref<?x64xf32> to memref<?x16xf32, strided<[64, 1], offset: ?>>
      %p = memref.alloc(%k) {alignment = 64 : i64} : memref<?x16xf32>
      linalg.copy ins(%src : memref<?x16xf32, strided<[64, 1], offset: ?>>) outs(%p : memref<?x16xf32>)
    }
  }
  return
}
