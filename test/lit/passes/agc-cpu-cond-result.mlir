// RUN: ag-opt %s --agc-to-scf --agc-cpu | FileCheck %s
// A staged if whose branches each compute a tensor of a size known only at run time,
// returned: the function returns the buffer the branch taken wrote, with no copy. (The
// if's buffer had a layout of unknown strides, as one-shot bufferization gives a value
// it cannot infer, and the identity-layout result was a copy of it: a second pass over
// memory, on every staged if a function returned.)
// CHECK-LABEL: llvm.func @pick
// CHECK-NOT: memrefCopy
// CHECK-NOT: llvm.intr.memcpy
// CHECK: llvm.return
#map = affine_map<(d0) -> (d0)>
func.func @pick(%x: tensor<?xf32>, %p: i1) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %r = ag.cond %p : i1 -> (tensor<?xf32>) {
    %e = tensor.empty(%n) : tensor<?xf32>
    %two = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
        ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %c2 = arith.constant 2.0 : f32
      %m = arith.mulf %in, %c2 : f32
      linalg.yield %m : f32
    } -> tensor<?xf32>
    ag.yield %two : tensor<?xf32>
  } else {
    %e = tensor.empty(%n) : tensor<?xf32>
    %three = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
        ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %c3 = arith.constant 3.0 : f32
      %m = arith.mulf %in, %c3 : f32
      linalg.yield %m : f32
    } -> tensor<?xf32>
    ag.yield %three : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
