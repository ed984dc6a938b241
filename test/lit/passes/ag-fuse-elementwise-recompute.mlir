// RUN: ag-opt %s -ag-fuse-elementwise | FileCheck %s --check-prefix=STORE
// RUN: ag-opt %s -ag-fuse-elementwise=recompute=true | FileCheck %s --check-prefix=AGAIN
// -ag-fuse-elementwise=recompute=true (the GPU pipeline's): an elementwise producer of
// two uses (a softmax's exponentials: summed, then divided) fuses into both, computed
// again in each; by default (the CPU's) it is computed once and stored.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// STORE-LABEL: func.func @exponentials
// STORE:       math.exp
// STORE-NOT:   math.exp
// STORE:       return
// AGAIN-LABEL: func.func @exponentials
// AGAIN:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// AGAIN:         math.exp
// AGAIN:         arith.addf
// AGAIN:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// AGAIN:         math.exp
// AGAIN:         arith.divf
// AGAIN-NOT:   linalg.generic
// AGAIN:       return
func.func @exponentials(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = tensor.dim %x, %c0 : tensor<?x?xf32>
  %c = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e0 = tensor.empty(%r, %c) : tensor<?x?xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%e0 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  %s0 = tensor.empty(%r) : tensor<?xf32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<?x?xf32>) outs(%s1 : tensor<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %v = arith.addf %a, %acc : f32
    linalg.yield %v : f32
  } -> tensor<?xf32>
  %d = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%e, %s : tensor<?x?xf32>, tensor<?xf32>) outs(%e0 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.divf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %d : tensor<?x?xf32>
}

// Not a float64 exp (no kernel computes it: its consumers would stay on the host too),
// computed once.
// AGAIN-LABEL: func.func @costly
// AGAIN:       math.exp %{{.*}} : f64
// AGAIN-NOT:   math.exp
// AGAIN:       return
func.func @costly(%x: tensor<?xf64>) -> (tensor<?xf64>, tensor<?xf64>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf64>
  %e0 = tensor.empty(%n) : tensor<?xf64>
  %e = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<?xf64>) outs(%e0 : tensor<?xf64>) {
  ^bb0(%a: f64, %o: f64):
    %v = math.exp %a : f64
    linalg.yield %v : f64
  } -> tensor<?xf64>
  %p = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%e : tensor<?xf64>) outs(%e0 : tensor<?xf64>) {
  ^bb0(%a: f64, %o: f64):
    %v = arith.addf %a, %a : f64
    linalg.yield %v : f64
  } -> tensor<?xf64>
  %q = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%e : tensor<?xf64>) outs(%e0 : tensor<?xf64>) {
  ^bb0(%a: f64, %o: f64):
    %v = arith.mulf %a, %a : f64
    linalg.yield %v : f64
  } -> tensor<?xf64>
  return %p, %q : tensor<?xf64>, tensor<?xf64>
}
