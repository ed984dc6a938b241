// RUN: ag-opt %s -ag-fuse-elementwise | FileCheck %s --check-prefix=ALL
// RUN: ag-opt %s -ag-fuse-elementwise=max-body-ops=4 | FileCheck %s --check-prefix=BOUND
// -ag-fuse-elementwise: a chain of elementwise ops fuses into one linalg.generic, as
// upstream's fusion does, unless the fused body would exceed max-body-ops operations
// (yield included): then the chain is cut into several, which keeps fusion linear in the
// length of a function.

#id = affine_map<(d0) -> (d0)>

// ALL-LABEL: func.func @chain
// ALL:       linalg.generic
// ALL-COUNT-4: arith.addf
// ALL-NOT:   linalg.generic
// ALL:       return
// BOUND-LABEL: func.func @chain
// BOUND:       linalg.generic
// BOUND-COUNT-2: arith.addf
// BOUND:       linalg.generic
// BOUND-COUNT-2: arith.addf
// BOUND-NOT:   linalg.generic
// BOUND:       return
func.func @chain(%x: tensor<8xf32>, %c: f32) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.addf %a, %c : f32
      linalg.yield %r : f32
  } -> tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.addf %a, %c : f32
      linalg.yield %r : f32
  } -> tensor<8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%1 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.addf %a, %c : f32
      linalg.yield %r : f32
  } -> tensor<8xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%2 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.addf %a, %c : f32
      linalg.yield %r : f32
  } -> tensor<8xf32>
  return %3 : tensor<8xf32>
}

// A reduction with keepdims, as MLIRGen writes it (a [4, 1, 8] view of the input, a
// [4, 1] result, broadcast back through a constant 0 in a map): the unit dimensions go
// first, so the row maximum reads the [4, 8] input directly and the subtraction reads
// a [4] row vector; the reduction is a linalg.generic, for producers to fuse into.
// ALL-LABEL: func.func @keepdims_row_max
// ALL-NOT:   tensor.expand_shape
// ALL:       linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x8xf32>) outs(%{{.*}} : tensor<4xf32>)
// ALL:         arith.maximumf
// ALL:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%arg0, %{{.*}} : tensor<4x8xf32>, tensor<4xf32>)
// ALL:         arith.subf
// ALL-NOT:   tensor.expand_shape
// ALL:       return
#in3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
func.func @keepdims_row_max(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %ek = tensor.expand_shape %e [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%ek : tensor<4x1xf32>) -> tensor<4x1xf32>
  %x3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [4, 1, 8] : tensor<4x8xf32> into tensor<4x1x8xf32>
  %max = linalg.generic {indexing_maps = [#in3, #out3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x3 : tensor<4x1x8xf32>) outs(%init : tensor<4x1xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.maximumf %a, %o : f32
      linalg.yield %m : f32
  } -> tensor<4x1xf32>
  %full = tensor.empty() : tensor<4x8xf32>
  %shifted = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x8xf32>, tensor<4x1xf32>) outs(%full : tensor<4x8xf32>) {
    ^bb0(%a: f32, %m: f32, %o: f32):
      %s = arith.subf %a, %m : f32
      linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %shifted : tensor<4x8xf32>
}
