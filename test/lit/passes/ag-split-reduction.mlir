// RUN: ag-opt %s -ag-split-reduction | FileCheck %s
// -ag-split-reduction: a float reduction along the innermost dimension accumulates in 16
// lanes (a parallel dimension of the partial results), then the lanes are combined.

// CHECK-LABEL: func.func @sum
// CHECK: %[[E:.*]] = tensor.expand_shape %arg0 {{\[}}[0, 1]] output_shape [64, 16] : tensor<1024xf32> into tensor<64x16xf32>
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16xf32>)
// CHECK: %[[L:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[E]] : tensor<64x16xf32>) outs(%[[Z]] : tensor<16xf32>)
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[L]] : tensor<16xf32>) outs(%arg1 : tensor<f32>)
func.func @sum(%x: tensor<1024xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.reduce ins(%x : tensor<1024xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

// Rows of a matrix: the lanes are a new last dimension of the partial results; the
// neutral element of maximumf is -inf.
// CHECK-LABEL: func.func @row_max
// CHECK: tensor.expand_shape %arg0 {{\[}}[0], [1, 2]] output_shape [8, 16, 16] : tensor<8x256xf32> into tensor<8x16x16xf32>
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: iterator_types = ["parallel", "reduction", "parallel"]{{.*}}outs(%{{.*}} : tensor<8x16xf32>)
// CHECK: arith.maximumf
func.func @row_max(%x: tensor<8x256xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.reduce ins(%x : tensor<8x256xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<8xf32>
}

// Left as they are: integers (they vectorize already), a reduction that is not of the
// innermost dimension, and sizes that are short or not a multiple of 16.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: tensor.expand_shape
// CHECK-COUNT-4: linalg.reduce
// CHECK-NOT: tensor.expand_shape
func.func @unchanged(%i: tensor<1024xi32>, %ii: tensor<i32>, %c: tensor<256x8xf32>, %ci: tensor<8xf32>,
                     %s: tensor<128xf32>, %o: tensor<1000xf32>, %f: tensor<f32>) -> (tensor<i32>, tensor<8xf32>, tensor<f32>, tensor<f32>) {
  %a = linalg.reduce ins(%i : tensor<1024xi32>) outs(%ii : tensor<i32>) dimensions = [0]
    (%in: i32, %acc: i32) {
      %v = arith.addi %in, %acc : i32
      linalg.yield %v : i32
    }
  %b = linalg.reduce ins(%c : tensor<256x8xf32>) outs(%ci : tensor<8xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %v = arith.addf %in, %acc : f32
      linalg.yield %v : f32
    }
  %d = linalg.reduce ins(%s : tensor<128xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %v = arith.addf %in, %acc : f32
      linalg.yield %v : f32
    }
  %e = linalg.reduce ins(%o : tensor<1000xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %v = arith.addf %in, %acc : f32
      linalg.yield %v : f32
    }
  return %a, %b, %d, %e : tensor<i32>, tensor<8xf32>, tensor<f32>, tensor<f32>
}
