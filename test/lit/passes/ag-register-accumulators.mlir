// RUN: ag-opt %s -split-input-file -ag-register-accumulators | FileCheck %s
// -ag-register-accumulators: a matmul's k loop inside its parallel loop, which loads
// the result's element, adds a product and stores it back every k, carries the element
// as an iteration argument instead: loaded once before, stored once after, under an
// scf.if that the loop runs (not where its bounds are constants). A reduction over two
// axes is carried through both loops where the bounds are constants. Where the parallel
// loop before fills the buffer with one value over the same bounds (a matmul's zeros),
// that value is the first one, stored where the inner loop runs no iteration, and the
// fill is gone (one kernel, not two); not where something between reads the buffer.
// A CPU thread's chunk of a sum, adding into its element of the partial sums through a
// subview, is carried too (and a buffer with a view the loop does not touch). Left
// alone: a buffer that may alias another (an argument, one an scf.if yields), a view of
// the buffer the body reads, a second access to the element's buffer in the body,
// indices that change with the loop, a store before the load, a call in the body, a
// loop outside any parallel loop.

// CHECK-LABEL: func.func @matmul
// CHECK-SAME:  (%[[A:.*]]: memref<?x?xf32>, %[[B:.*]]: memref<?x?xf32>, %[[M:.*]]: index, %[[N:.*]]: index, %[[K:.*]]: index)
// CHECK:       %[[ZERO:.*]] = arith.constant 0.0
// CHECK:       %[[C:.*]] = memref.alloc
// CHECK-NEXT:  scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK-NEXT:    %[[RUNS:.*]] = arith.cmpi slt, %{{.*}}, %[[K]] : index
// CHECK-NEXT:    scf.if %[[RUNS]] {
// CHECK-NEXT:      %[[SUM:.*]] = scf.for %[[KK:.*]] = %{{.*}} to %[[K]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:        %[[X:.*]] = memref.load %[[A]][%[[I]], %[[KK]]]
// CHECK-NEXT:        %[[Y:.*]] = memref.load %[[B]][%[[KK]], %[[J]]]
// CHECK-NEXT:        %[[P:.*]] = arith.mulf %[[X]], %[[Y]]
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[ACC]], %[[P]]
// CHECK-NEXT:        scf.yield %[[S]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.store %[[SUM]], %[[C]][%[[I]], %[[J]]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      memref.store %[[ZERO]], %[[C]][%[[I]], %[[J]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.reduce
// CHECK:       return %[[C]]
func.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %m: index, %n: index, %k: index) -> memref<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    memref.store %zero, %c[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    scf.for %kk = %c0 to %k step %c1 {
      %x = memref.load %a[%i, %kk] : memref<?x?xf32>
      %y = memref.load %b[%kk, %j] : memref<?x?xf32>
      %acc = memref.load %c[%i, %j] : memref<?x?xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      memref.store %s, %c[%i, %j] : memref<?x?xf32>
    }
    scf.reduce
  }
  return %c : memref<?x?xf32>
}

// -----

// Constant bounds: no guard; two reduction axes: both loops carry the element, which
// is loaded and stored once per parallel iteration. A loop with results of its own
// keeps them.
// CHECK-LABEL: func.func @two_axes
// CHECK:       %[[OUT:.*]] = memref.alloc
// CHECK:       scf.parallel (%[[I:.*]]) =
// CHECK-NEXT:    %[[FIRST:.*]] = memref.load %[[OUT]][%[[I]]]
// CHECK-NEXT:    %[[OUTER:.*]]:2 = scf.for {{.*}} iter_args(%[[N:.*]] = %{{.*}}, %[[ACC:.*]] = %[[FIRST]]) -> (i32, f32) {
// CHECK-NEXT:      %[[INNER:.*]] = scf.for {{.*}} iter_args(%[[ACC2:.*]] = %[[ACC]]) -> (f32) {
// CHECK-NEXT:        memref.load %{{.*}}
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[ACC2]], %{{.*}}
// CHECK-NEXT:        scf.yield %[[S]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[N1:.*]] = arith.addi %[[N]]
// CHECK-NEXT:      scf.yield %[[N1]], %[[INNER]] : i32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.store %[[OUTER]]#1, %[[OUT]][%[[I]]]
// CHECK-NEXT:    memref.store %[[OUTER]]#0, %{{.*}}[%[[I]]]
func.func @two_axes(%x: memref<8x16x32xf32>) -> (memref<8xf32>, memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %out = memref.alloc() : memref<8xf32>
  %count = memref.alloc() : memref<8xi32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %n = scf.for %j = %c0 to %c16 step %c1 iter_args(%t = %zero) -> (i32) {
      scf.for %k = %c0 to %c32 step %c1 {
        %v = memref.load %x[%i, %j, %k] : memref<8x16x32xf32>
        %acc = memref.load %out[%i] : memref<8xf32>
        %s = arith.addf %acc, %v : f32
        memref.store %s, %out[%i] : memref<8xf32>
      }
      %t1 = arith.addi %t, %one : i32
      scf.yield %t1 : i32
    }
    memref.store %n, %count[%i] : memref<8xi32>
    scf.reduce
  }
  return %out, %count : memref<8xf32>, memref<8xi32>
}

// -----

// The buffer read between the fill and the loop: the fill stays, the first value is
// loaded.
// CHECK-LABEL: func.func @read_between
// CHECK:       scf.parallel
// CHECK-NEXT:    memref.store %{{.*}}, %[[OUT:.*]][%{{.*}}]
// CHECK:       memref.load %[[OUT]]
// CHECK:       scf.parallel (%[[I:.*]]) =
// CHECK-NEXT:    %[[FIRST:.*]] = memref.load %[[OUT]][%[[I]]]
// CHECK-NEXT:    scf.for {{.*}} iter_args(%{{.*}} = %[[FIRST]]) -> (f32)
func.func @read_between(%x: memref<8x32xf32>) -> (memref<8xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %zero, %out[%i] : memref<8xf32>
    scf.reduce
  }
  %peek = memref.load %out[%c0] : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    scf.for %k = %c0 to %c32 step %c1 {
      %v = memref.load %x[%i, %k] : memref<8x32xf32>
      %acc = memref.load %out[%i] : memref<8xf32>
      %s = arith.addf %acc, %v : f32
      memref.store %s, %out[%i] : memref<8xf32>
    }
    scf.reduce
  }
  return %out, %peek : memref<8xf32>, f32
}

// -----

// A CPU thread's chunk of a sum (after linalg's loops, before the OpenMP regions): its
// element of the partial sums is a subview of them, the input a subview of the
// argument. The sum is carried; the views the loop does not touch (a second view of the
// partial sums, read after the parallel loop) do not stop it. The combine after the
// parallel loop is no inner loop of one and is left alone.
// CHECK-LABEL: func.func @chunk_sum
// CHECK-SAME:  (%[[X:.*]]: memref<?xf32>, %[[N:.*]]: index)
// CHECK:       %[[PARTS:.*]] = memref.alloc() : memref<16xf32>
// CHECK:       scf.parallel (%[[T:.*]]) =
// CHECK:         %[[IN:.*]] = memref.subview %[[X]]
// CHECK-NEXT:    %[[MINE:.*]] = memref.subview %[[PARTS]][%[[T]]] [1] [1]
// CHECK-NEXT:    %[[RUNS:.*]] = arith.cmpi slt, %{{.*}}, %[[N]] : index
// CHECK-NEXT:    scf.if %[[RUNS]] {
// CHECK-NEXT:      %[[FIRST:.*]] = memref.load %[[MINE]][]
// CHECK-NEXT:      %[[SUM:.*]] = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[FIRST]]) -> (f32) {
// CHECK-NEXT:        %[[V:.*]] = memref.load %[[IN]]
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[V]], %[[ACC]] fastmath<reassoc> : f32
// CHECK-NEXT:        scf.yield %[[S]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.store %[[SUM]], %[[MINE]][]
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.reduce
// CHECK:       scf.for
// CHECK-NOT:   iter_args
// CHECK:       return
func.func @chunk_sum(%x: memref<?xf32>, %n: index) -> memref<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %parts = memref.alloc() : memref<16xf32>
  %total = memref.alloc() : memref<f32>
  memref.store %zero, %total[] : memref<f32>
  scf.for %t = %c0 to %c16 step %c1 {
    memref.store %zero, %parts[%t] : memref<16xf32>
  }
  scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
    %offset = arith.muli %t, %n : index
    %in = memref.subview %x[%offset] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    %mine = memref.subview %parts[%t] [1] [1] : memref<16xf32> to memref<f32, strided<[], offset: ?>>
    scf.for %k = %c0 to %n step %c1 {
      %v = memref.load %in[%k] : memref<?xf32, strided<[1], offset: ?>>
      %acc = memref.load %mine[] : memref<f32, strided<[], offset: ?>>
      %s = arith.addf %v, %acc fastmath<reassoc> : f32
      memref.store %s, %mine[] : memref<f32, strided<[], offset: ?>>
    }
    scf.reduce
  }
  %half = memref.subview %parts[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  scf.for %t = %c0 to %c16 step %c1 {
    %p = memref.load %parts[%t] : memref<16xf32>
    %acc = memref.load %total[] : memref<f32>
    %s = arith.addf %p, %acc fastmath<reassoc> : f32
    memref.store %s, %total[] : memref<f32>
  }
  %h = memref.load %half[%c0] : memref<8xf32, strided<[1]>>
  memref.store %h, %total[] : memref<f32>
  memref.dealloc %parts : memref<16xf32>
  return %total : memref<f32>
}

// -----

// Left alone (each loop still loads and stores in its body).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:   iter_args
// CHECK:       return
func.func private @touch(memref<4xf32>)
func.func @left_alone(%arg: memref<4xf32>, %x: memref<4x4xf32>, %flag: i1) -> (memref<4xf32>, memref<4xf32, strided<[1]>>, memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %viewed = memref.alloc() : memref<8xf32>
  %view = memref.subview %viewed[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %twice = memref.alloc() : memref<4xf32>
  %moving = memref.alloc() : memref<4xf32>
  %before = memref.alloc() : memref<4xf32>
  %called = memref.alloc() : memref<4xf32>
  %yielded = memref.alloc() : memref<4xf32>
  %either = scf.if %flag -> memref<4xf32> {
    scf.yield %yielded : memref<4xf32>
  } else {
    scf.yield %arg : memref<4xf32>
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    // An argument: the other buffers may be it.
    scf.for %k = %c0 to %c4 step %c1 {
      %v = memref.load %x[%i, %k] : memref<4x4xf32>
      %acc = memref.load %arg[%i] : memref<4xf32>
      %s = arith.addf %acc, %v : f32
      memref.store %s, %arg[%i] : memref<4xf32>
    }
    // A view of the buffer read in the body: the element under another name.
    scf.for %k = %c0 to %c4 step %c1 {
      %v = memref.load %view[%k] : memref<4xf32, strided<[1]>>
      %acc = memref.load %viewed[%i] : memref<8xf32>
      %s = arith.addf %acc, %v : f32
      memref.store %s, %viewed[%i] : memref<8xf32>
    }
    // The buffer read again in the body.
    scf.for %k = %c0 to %c4 step %c1 {
      %v = memref.load %twice[%k] : memref<4xf32>
      %acc = memref.load %twice[%i] : memref<4xf32>
      %s = arith.addf %acc, %v : f32
      memref.store %s, %twice[%i] : memref<4xf32>
    }
    // Indices that change with the loop.
    scf.for %k = %c0 to %c4 step %c1 {
      %acc = memref.load %moving[%k] : memref<4xf32>
      %s = arith.addf %acc, %acc : f32
      memref.store %s, %moving[%k] : memref<4xf32>
    }
    // The store before the load.
    scf.for %k = %c0 to %c4 step %c1 {
      %v = memref.load %x[%i, %k] : memref<4x4xf32>
      memref.store %v, %before[%i] : memref<4xf32>
      %acc = memref.load %before[%i] : memref<4xf32>
      %s = arith.addf %acc, %v : f32
      memref.store %s, %x[%i, %k] : memref<4x4xf32>
    }
    // A buffer another value may be (an scf.if yields it), which the body writes.
    scf.for %k = %c0 to %c4 step %c1 {
      %v = memref.load %x[%i, %k] : memref<4x4xf32>
      %acc = memref.load %yielded[%i] : memref<4xf32>
      %s = arith.addf %acc, %v : f32
      memref.store %s, %yielded[%i] : memref<4xf32>
      memref.store %v, %either[%k] : memref<4xf32>
    }
    // A call in the body.
    scf.for %k = %c0 to %c4 step %c1 {
      %v = memref.load %x[%i, %k] : memref<4x4xf32>
      %acc = memref.load %called[%i] : memref<4xf32>
      %s = arith.addf %acc, %v : f32
      memref.store %s, %called[%i] : memref<4xf32>
      func.call @touch(%arg) : (memref<4xf32>) -> ()
    }
    scf.reduce
  }
  // Outside any parallel loop.
  scf.for %k = %c0 to %c4 step %c1 {
    %v = memref.load %x[%k, %k] : memref<4x4xf32>
    %acc = memref.load %twice[%c0] : memref<4xf32>
    %s = arith.addf %acc, %v : f32
    memref.store %s, %twice[%c0] : memref<4xf32>
  }
  return %arg, %view, %twice, %moving, %before, %either : memref<4xf32>, memref<4xf32, strided<[1]>>, memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>
}

// -----

// Left alone: a chunk's element of the partial sums where the body also reads the
// partial sums under another subview (the element may be among them), or the
// allocation they are views of directly.
// CHECK-LABEL: func.func @views_left_alone
// CHECK-NOT:   iter_args
// CHECK:       return
func.func @views_left_alone(%x: memref<?xf32>, %n: index) -> memref<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %parts = memref.alloc() : memref<16xf32>
  scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
    %mine = memref.subview %parts[%t] [1] [1] : memref<16xf32> to memref<f32, strided<[], offset: ?>>
    %all = memref.subview %parts[0] [16] [1] : memref<16xf32> to memref<16xf32, strided<[1]>>
    scf.for %k = %c0 to %n step %c1 {
      %v = memref.load %all[%t] : memref<16xf32, strided<[1]>>
      %acc = memref.load %mine[] : memref<f32, strided<[], offset: ?>>
      %s = arith.addf %v, %acc : f32
      memref.store %s, %mine[] : memref<f32, strided<[], offset: ?>>
    }
    scf.for %k = %c0 to %n step %c1 {
      %v = memref.load %parts[%t] : memref<16xf32>
      %acc = memref.load %mine[] : memref<f32, strided<[], offset: ?>>
      %s = arith.addf %v, %acc : f32
      memref.store %s, %mine[] : memref<f32, strided<[], offset: ?>>
    }
    scf.reduce
  }
  return %parts : memref<16xf32>
}
