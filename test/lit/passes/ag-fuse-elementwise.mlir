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
