// RUN: ag-opt %s -ag-gpu-kernel-checks | FileCheck %s
// RUN: ag-opt %s -ag-gpu-kernel-checks -ag-gpu-map-loops | FileCheck %s --check-prefix=MAPPED
// -ag-gpu-kernel-checks: a parallel loop whose run-time checks (an scf.if calling
// agrt_fail_values) are directly in its body records them in a flag, the rest of each
// iteration in the check's else branch, and reruns the original loop on the host where
// the flag is set; -ag-gpu-map-loops then maps it. A check nested in an inner loop, a
// written buffer the loop also reads (or may read: @carried), or a written buffer the
// function did not allocate leave the loop as it is (on the host). Float32 sin and cos:
// see @sines.

func.func private @agrt_fail_values(!llvm.ptr, i64, i64, i64)

// CHECK-LABEL: func.func @gather
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         %[[FLAG:.*]] = memref.alloc() : memref<i32>
// CHECK:         memref.store %[[ZERO]], %[[FLAG]][]
// CHECK:         scf.parallel
// CHECK:           %[[BAD:.*]] = arith.cmpi uge
// CHECK-NEXT:      scf.if %[[BAD]] {
// CHECK-NEXT:        memref.store %[[ONE]], %[[FLAG]][]
// CHECK-NEXT:      } else {
// CHECK-NEXT:        memref.load %arg0
// CHECK-NEXT:        %[[BAD2:.*]] = arith.cmpf uno
// CHECK-NEXT:        scf.if %[[BAD2]] {
// CHECK-NEXT:          memref.store %[[ONE]], %[[FLAG]][]
// CHECK-NEXT:        } else {
// CHECK-NEXT:          memref.store
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.reduce
// CHECK:         %[[RAISED:.*]] = memref.load %[[FLAG]][]
// CHECK:         %[[FAILED:.*]] = arith.cmpi ne, %[[RAISED]], %[[ZERO]]
// CHECK:         scf.if %[[FAILED]] {
// CHECK-NEXT:      scf.parallel
// CHECK:             scf.if
// CHECK-NEXT:          func.call @agrt_fail_values
// CHECK:             scf.if
// CHECK-NEXT:          func.call @agrt_fail_values
// CHECK:             memref.store
// CHECK-NOT:     scf.parallel
// CHECK:         return
// MAPPED-LABEL: func.func @gather
// MAPPED:         scf.parallel
// MAPPED:           scf.parallel
// MAPPED:           } {mapping = [#gpu.loop_dim_map<processor = thread_x
// MAPPED:         } {mapping = [#gpu.loop_dim_map<processor = block_x
// MAPPED:         scf.if
// MAPPED-NEXT:      scf.parallel
// MAPPED:             func.call @agrt_fail_values
// MAPPED-NOT:       mapping
// MAPPED:         return
func.func @gather(%table: memref<?xf32>, %ids: memref<?xi32>, %msg: !llvm.ptr) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %n = memref.dim %ids, %c0 : memref<?xi32>
  %size = memref.dim %table, %c0 : memref<?xf32>
  %out = memref.alloc(%n) : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %id = memref.load %ids[%i] : memref<?xi32>
    %k = arith.index_cast %id : i32 to index
    %k64 = arith.index_cast %k : index to i64
    %bad = arith.cmpi uge, %k, %size : index
    scf.if %bad {
      func.call @agrt_fail_values(%msg, %k64, %z, %z) : (!llvm.ptr, i64, i64, i64) -> ()
    }
    %v = memref.load %table[%k] : memref<?xf32>
    %nan = arith.cmpf uno, %v, %v : f32
    scf.if %nan {
      func.call @agrt_fail_values(%msg, %k64, %z, %z) : (!llvm.ptr, i64, i64, i64) -> ()
    }
    memref.store %v, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return %out : memref<?xf32>
}

// A check in an inner loop: the loop stays on the host.
// CHECK-LABEL: func.func @nested_check
// CHECK-NOT:     memref.alloc() : memref<i32>
// CHECK:         scf.parallel
// CHECK:           scf.for
// CHECK:             func.call @agrt_fail_values
// MAPPED-LABEL: func.func @nested_check
// MAPPED-NOT:     mapping
// MAPPED:         return
func.func @nested_check(%m: memref<?x?xi32>, %msg: !llvm.ptr) -> memref<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %zero = arith.constant 0 : i32
  %rows = memref.dim %m, %c0 : memref<?x?xi32>
  %cols = memref.dim %m, %c1 : memref<?x?xi32>
  %out = memref.alloc(%rows) : memref<?xi32>
  scf.parallel (%i) = (%c0) to (%rows) step (%c1) {
    %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> i32 {
      %v = memref.load %m[%i, %j] : memref<?x?xi32>
      %bad = arith.cmpi eq, %v, %zero : i32
      scf.if %bad {
        func.call @agrt_fail_values(%msg, %z, %z, %z) : (!llvm.ptr, i64, i64, i64) -> ()
      }
      %q = arith.divsi %acc, %v : i32
      scf.yield %q : i32
    }
    memref.store %s, %out[%i] : memref<?xi32>
    scf.reduce
  }
  return %out : memref<?xi32>
}

// A buffer the loop writes and reads (the rerun would read what the kernel wrote), and
// one the caller passed: both loops stay on the host.
// CHECK-LABEL: func.func @in_place
// CHECK-NOT:     memref.alloc() : memref<i32>
// CHECK:         return
// MAPPED-LABEL: func.func @in_place
// MAPPED-NOT:     mapping
// MAPPED:         return
func.func @in_place(%x: memref<?xi32>, %msg: !llvm.ptr) -> memref<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %n = memref.dim %x, %c0 : memref<?xi32>
  %buf = memref.alloc(%n) : memref<?xi32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %buf[%i] : memref<?xi32>
    %k = arith.index_cast %v : i32 to index
    %bad = arith.cmpi uge, %k, %n : index
    scf.if %bad {
      func.call @agrt_fail_values(%msg, %z, %z, %z) : (!llvm.ptr, i64, i64, i64) -> ()
    }
    %w = memref.load %buf[%k] : memref<?xi32>
    memref.store %w, %buf[%i] : memref<?xi32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %buf[%i] : memref<?xi32>
    %k = arith.index_cast %v : i32 to index
    %bad = arith.cmpi uge, %k, %n : index
    scf.if %bad {
      func.call @agrt_fail_values(%msg, %z, %z, %z) : (!llvm.ptr, i64, i64, i64) -> ()
    }
    memref.store %v, %x[%i] : memref<?xi32>
    scf.reduce
  }
  return %buf : memref<?xi32>
}

// Float32 sin and cos: a kernel computes them for magnitudes up to 105615; beyond (or
// NaN) each stores into the flag, marked for -ag-gpu-expand-math, and the loop reruns on
// the host (libm). A loop with no check but a sine gets the flag too.
// CHECK-LABEL: func.func @sines
// CHECK:         %[[FLAG:.*]] = memref.alloc() : memref<i32>
// CHECK:         scf.parallel
// CHECK:           %[[MAG:.*]] = math.absf %[[X:.*]] : f32
// CHECK:           %[[BEYOND:.*]] = arith.cmpf ugt, %[[MAG]], %{{.*}} : f32
// CHECK:           scf.if %[[BEYOND]] {
// CHECK-NEXT:        memref.store %{{.*}}, %[[FLAG]][]
// CHECK-NEXT:      }
// CHECK-NEXT:      math.sin %[[X]] {ag.kernel_trig} : f32
// CHECK:         scf.if
// CHECK-NEXT:      scf.parallel
// CHECK:             math.sin %{{.*}} : f32
// MAPPED-LABEL: func.func @sines
// MAPPED:         mapping = [#gpu.loop_dim_map<processor = thread_x
func.func @sines(%x: memref<?xf32>) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %out = memref.alloc(%n) : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %s = math.sin %v : f32
    memref.store %s, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return %out : memref<?xf32>
}

// A sine that decides an index (what the kernel computes beyond the bound would
// address memory before the rerun): the loop stays on the host.
// CHECK-LABEL: func.func @sine_as_index
// CHECK-NOT:     memref.alloc() : memref<i32>
// CHECK:         math.sin %{{.*}} : f32
// MAPPED-LABEL: func.func @sine_as_index
// MAPPED-NOT:     mapping
// MAPPED:         return
func.func @sine_as_index(%x: memref<?xf32>, %t: memref<4xf32>) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %out = memref.alloc(%n) : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %s = math.sin %v : f32
    %k = arith.fptosi %s : f32 to i32
    %j = arith.index_cast %k : i32 to index
    %w = memref.load %t[%j] : memref<4xf32>
    memref.store %w, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return %out : memref<?xf32>
}

// The loop around it carries the buffer it writes: what it reads (the iteration
// argument) may be that buffer, and it stays on the host. With the buffer allocated
// in each iteration instead, the carried one is another: a kernel.
// CHECK-LABEL: func.func @carried
// CHECK-NOT:     memref.alloc() : memref<i32>
// CHECK:         return
// CHECK-LABEL: func.func @fresh_each_step
// CHECK:         scf.for
// CHECK:           memref.alloc() : memref<i32>
// CHECK:         return
func.func @carried(%x: memref<?xi32>, %msg: !llvm.ptr, %steps: index) -> memref<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %n = memref.dim %x, %c0 : memref<?xi32>
  %buf = memref.alloc(%n) : memref<?xi32>
  %r = scf.for %s = %c0 to %steps step %c1 iter_args(%cur = %buf) -> memref<?xi32> {
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      %v = memref.load %cur[%i] : memref<?xi32>
      %k = arith.index_cast %v : i32 to index
      %bad = arith.cmpi uge, %k, %n : index
      scf.if %bad {
        func.call @agrt_fail_values(%msg, %z, %z, %z) : (!llvm.ptr, i64, i64, i64) -> ()
      }
      %w = memref.load %x[%k] : memref<?xi32>
      memref.store %w, %buf[%i] : memref<?xi32>
      scf.reduce
    }
    scf.yield %buf : memref<?xi32>
  }
  return %r : memref<?xi32>
}

func.func @fresh_each_step(%x: memref<?xi32>, %msg: !llvm.ptr, %steps: index) -> memref<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %n = memref.dim %x, %c0 : memref<?xi32>
  %r = scf.for %s = %c0 to %steps step %c1 iter_args(%cur = %x) -> memref<?xi32> {
    %buf = memref.alloc(%n) : memref<?xi32>
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      %v = memref.load %cur[%i] : memref<?xi32>
      %k = arith.index_cast %v : i32 to index
      %bad = arith.cmpi uge, %k, %n : index
      scf.if %bad {
        func.call @agrt_fail_values(%msg, %z, %z, %z) : (!llvm.ptr, i64, i64, i64) -> ()
      }
      %w = memref.load %x[%k] : memref<?xi32>
      memref.store %w, %buf[%i] : memref<?xi32>
      scf.reduce
    }
    scf.yield %buf : memref<?xi32>
  }
  return %r : memref<?xi32>
}
