// RUN: ag-opt %s -ag-reuse-input-buffers | FileCheck %s
// -ag-reuse-input-buffers: an elementwise result is written over an input of its type,
// read at the same index, that nothing else uses; the caller's tensors are read-only.

// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[A:.*]]: tensor<1000xf32> {bufferization.writable = false})
// CHECK: scf.for {{.*}} iter_args(%[[X:.*]] = %[[A]])
// CHECK: linalg.generic {{.*}} ins(%[[A]] : tensor<1000xf32>) outs(%[[X]] : tensor<1000xf32>)
// CHECK-NEXT: ^bb0(%[[AI:.*]]: f32, %[[XO:.*]]: f32):
// CHECK-NEXT: arith.divf %[[AI]], %[[XO]]
// CHECK-NEXT: arith.addf %[[XO]]
func.func @step(%a: tensor<1000xf32>) -> tensor<1000xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c50 = arith.constant 50 : index
  %half = arith.constant 0.5 : f32
  %r = scf.for %i = %c0 to %c50 step %c1 iter_args(%x = %a) -> tensor<1000xf32> {
    %e = tensor.empty() : tensor<1000xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d) -> (d)>, affine_map<(d) -> (d)>, affine_map<(d) -> (d)>],
                         iterator_types = ["parallel"]}
        ins(%x, %a : tensor<1000xf32>, tensor<1000xf32>) outs(%e : tensor<1000xf32>) {
      ^bb0(%xi: f32, %ai: f32, %o: f32):
        %q = arith.divf %ai, %xi : f32
        %s = arith.addf %xi, %q : f32
        %h = arith.mulf %s, %half : f32
        linalg.yield %h : f32
    } -> tensor<1000xf32>
    scf.yield %y : tensor<1000xf32>
  }
  return %r : tensor<1000xf32>
}

// An input read again later, one read at another index, one of another type: a new tensor.
// CHECK-LABEL: func.func @kept
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>)
func.func @kept(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %x = arith.addf %a, %b : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d) -> (d)>, affine_map<(d) -> (3 - d)>, affine_map<(d) -> (d)>],
                       iterator_types = ["parallel"]}
      ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%p: f32, %q: f32, %o: f32):
      %s = arith.subf %p, %q : f32
      linalg.yield %s : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(d) -> (d)>, affine_map<(d) -> (d)>],
                       iterator_types = ["parallel"]}
      ins(%y : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
    ^bb0(%p: f32, %o: f32):
      %n = arith.negf %p : f32
      linalg.yield %n : f32
  } -> tensor<4xf32>
  return %z, %y : tensor<4xf32>, tensor<4xf32>
}
