// RUN: ag-opt %s -ag-reassociate-reductions | FileCheck %s
// -ag-reassociate-reductions: the operation that combines an element into a float
// accumulator may be reordered (reassoc), and nothing else is marked.

// CHECK-LABEL: func.func @sum
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
func.func @sum(%x: tensor<?xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.reduce ins(%x : tensor<?xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

// A product of rows; the element's own computation (the exp) is left as it is.
// CHECK-LABEL: func.func @row_product_of_exps
// CHECK: %[[E:.*]] = math.exp %{{.*}} : f32
// CHECK-NOT: math.exp {{.*}}fastmath
// CHECK: arith.mulf %[[E]], %{{.*}} fastmath<reassoc> : f32
func.func @row_product_of_exps(%x: tensor<4x?xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x?xf32>) outs(%init : tensor<4xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %e = math.exp %in : f32
      %p = arith.mulf %e, %acc : f32
      linalg.yield %p : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// Maximum needs no mark; an elementwise op (no reduction) is not touched; an addition
// that does not take the accumulator (a bias added before the sum) is not marked.
// CHECK-LABEL: func.func @untouched
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK: %[[B:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: arith.addf %[[B]], %{{.*}} fastmath<reassoc> : f32
// CHECK: linalg.generic
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: fastmath
func.func @untouched(%x: tensor<?xf32>, %init: tensor<f32>, %y: tensor<?xf32>) -> (tensor<f32>, tensor<f32>, tensor<?xf32>) {
  %m = linalg.reduce ins(%x : tensor<?xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.maximumf %in, %acc : f32
      linalg.yield %s : f32
    }
  %c = arith.constant 1.0 : f32
  %s = linalg.reduce ins(%x : tensor<?xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %b = arith.addf %in, %c : f32
      %t = arith.addf %b, %acc : f32
      linalg.yield %t : f32
    }
  %e = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%y : tensor<?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %a = arith.addf %in, %in : f32
      linalg.yield %a : f32
  } -> tensor<?xf32>
  return %m, %s, %e : tensor<f32>, tensor<f32>, tensor<?xf32>
}
