// RUN: ag-opt %s -ag-thread-count | FileCheck %s
// -ag-thread-count: each OpenMP region as wide as the runtime says when it starts
// (agrt_num_threads: agc_set_num_threads, AGC_NUM_THREADS, or 0 for libomp's default);
// a region given a width already keeps it.

// CHECK: func.func private @agrt_num_threads() -> i32
// CHECK-LABEL: func.func @two_regions
// CHECK: %[[N:.*]] = call @agrt_num_threads() : () -> i32
// CHECK-NEXT: omp.parallel num_threads(%[[N]] : i32)
// CHECK: %[[M:.*]] = call @agrt_num_threads() : () -> i32
// CHECK-NEXT: omp.parallel num_threads(%[[M]] : i32)
// CHECK: omp.parallel num_threads(%{{.*}} : i32)
// CHECK-NOT: agrt_num_threads
func.func @two_regions(%fixed: i32) {
  omp.parallel {
    omp.terminator
  }
  omp.parallel {
    omp.terminator
  }
  omp.parallel num_threads(%fixed : i32) {
    omp.terminator
  }
  return
}
