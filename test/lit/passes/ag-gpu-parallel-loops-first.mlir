// RUN: ag-opt %s -ag-gpu-parallel-loops-first | FileCheck %s
// -ag-gpu-parallel-loops-first: a reduction along a leading axis (a column sum) is
// generalized and interchanged, parallel loops first, so that it lowers to one
// scf.parallel (one kernel) around each thread's loop over the reduced axis; the payload
// is unchanged. Ops whose parallel loops come first already are left alone.

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[MID:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// CHECK-LABEL: func.func @column_sums
// CHECK:       linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:    ins(%{{.*}} : tensor<?x512xf32>) outs(%{{.*}} : tensor<512xf32>)
// CHECK:         arith.addf
func.func @column_sums(%m: tensor<?x512xf32>, %init: tensor<512xf32>) -> tensor<512xf32> {
  %r = linalg.reduce ins(%m : tensor<?x512xf32>) outs(%init : tensor<512xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<512xf32>
}

// The middle axis of three: [parallel, reduction, parallel] becomes
// [parallel, parallel, reduction], the input read at (d0, d2, d1).
// CHECK-LABEL: func.func @middle_axis
// CHECK:       linalg.generic {indexing_maps = [#[[MID]], #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:         arith.maxsi
func.func @middle_axis(%t: tensor<4x?x6xi32>, %init: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %r = linalg.reduce ins(%t : tensor<4x?x6xi32>) outs(%init : tensor<4x6xi32>) dimensions = [1]
    (%in: i32, %acc: i32) {
      %m = arith.maxsi %in, %acc : i32
      linalg.yield %m : i32
    }
  return %r : tensor<4x6xi32>
}

// CHECK-LABEL: func.func @rows_left_alone
// CHECK:       linalg.reduce
func.func @rows_left_alone(%m: tensor<?x?xf32>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.reduce ins(%m : tensor<?x?xf32>) outs(%init : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?xf32>
}
