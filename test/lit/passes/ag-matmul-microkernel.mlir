// RUN: ag-opt %s -ag-matmul-microkernel -canonicalize | FileCheck %s
// RUN: ag-opt %s '-ag-matmul-microkernel=rows=2 cols=8' -canonicalize | FileCheck %s --check-prefix=SMALL
// RUN: ag-opt %s '-ag-matmul-microkernel=rows=4 cols=32 narrow-cols=8' -canonicalize | FileCheck %s --check-prefix=NARROW
// RUN: ag-opt %s '-ag-matmul-microkernel=pack-chunks=16 depth-unroll=4' -canonicalize | FileCheck %s --check-prefix=UNROLL
// -ag-matmul-microkernel: a float32 matmul (static or dynamic sizes) keeps a rows x cols block of
// the result in vector registers through the k loop; B's panel is copied to contiguous
// rows first; the columns the blocks leave go through the kernel in a zero-padded panel,
// with masks on the result, and the rows they leave one at a time.

// CHECK-DAG: #[[PANELS:.*]] = affine_map<(d0, d1, d2) -> (d1, d0 * 16 + d2)>
// CHECK-DAG: #[[SAME:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @exact
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4x32x16xf32>
// CHECK: %[[PACKED:.*]] = linalg.generic {indexing_maps = [#[[PANELS]], #[[SAME]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : tensor<32x64xf32>) outs(%[[EMPTY]] : tensor<4x32x16xf32>)
// CHECK: scf.for %[[P:.*]] = %c0 to %c4 step %c1 iter_args(%[[P0:.*]] = %arg2)
// CHECK:   %[[J0:.*]] = arith.muli %[[P]], %c16 : index
// CHECK:   scf.for %[[I0:.*]] = %c0 to %c8 step %c4 iter_args(%[[Q:.*]] = %[[P0]])
// CHECK:     %[[ACC0:.*]] = vector.transfer_read %[[Q]][%[[I0]], %[[J0]]], {{.*}} : tensor<8x64xf32>, vector<16xf32>
// CHECK-COUNT-3: vector.transfer_read %[[Q]]
// CHECK:     %[[K:.*]]:4 = scf.for %[[KK:.*]] = %c0 to %c32 step %c1 iter_args(%[[R0:.*]] = %[[ACC0]], {{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK:       %[[ROW:.*]] = vector.transfer_read %[[PACKED]][%[[P]], %[[KK]], %c0]
// CHECK:       %[[A0:.*]] = tensor.extract %arg0[%[[I0]], %[[KK]]] : tensor<8x32xf32>
// CHECK:       %[[S0:.*]] = vector.broadcast %[[A0]] : f32 to vector<16xf32>
// CHECK:       %[[N0:.*]] = vector.fma %[[S0]], %[[ROW]], %[[R0]] : vector<16xf32>
// CHECK-COUNT-3: vector.fma
// CHECK:       scf.yield %[[N0]]
// CHECK:     %[[W0:.*]] = vector.transfer_write %[[K]]#0, %[[Q]][%[[I0]], %[[J0]]]
// CHECK-COUNT-3: vector.transfer_write
// CHECK-NOT: linalg.matmul
func.func @exact(%a: tensor<8x32xf32>, %b: tensor<32x64xf32>, %c: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x32xf32>, tensor<32x64xf32>) outs(%c : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// 6 x 18: the blocks cover 4 x 16; the last 2 columns go through the same kernel in a
// panel 16 wide, padded with zeros, the result read and written there with masks (no
// in_bounds); the bottom 2 rows, one at a time, over both panels. No matmul is left.
// CHECK-LABEL: func.func @edges
// CHECK: %[[PANEL:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<3x16xf32>) outs(%{{.*}} : tensor<1x3x16xf32>)
// CHECK: %[[PADDED:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x3x16xf32>)
// CHECK:   %[[COL:.*]] = arith.addi %{{.*}}, %c16 : index
// CHECK:   %[[PRESENT:.*]] = arith.cmpi ult, %[[COL]], %c18 : index
// CHECK:   %[[B:.*]] = tensor.extract %arg1
// CHECK:   arith.select %[[PRESENT]], %[[B]], %cst : f32
// CHECK: vector.transfer_read %arg2[%c0, %c0], %cst {in_bounds = [true]} : tensor<6x18xf32>, vector<16xf32>
// CHECK: vector.transfer_read %[[PANEL]]
// CHECK: %[[MAIN:.*]] = vector.transfer_write %{{.*}}[%c3, %c0] {in_bounds = [true]}
// CHECK: vector.transfer_read %[[MAIN]][%c0, %c16], %cst : tensor<6x18xf32>, vector<16xf32>
// CHECK: vector.transfer_read %[[PADDED]]
// CHECK: vector.transfer_write %{{.*}}[%c3, %c16] : vector<16xf32>, tensor<6x18xf32>
// CHECK: scf.for %[[R:.*]] = %c4 to %c6 step %c1
// CHECK:   vector.transfer_read %{{.*}}[%[[R]], %c0], %cst {in_bounds = [true]}
// CHECK:   vector.transfer_read %[[PANEL]]
// CHECK-COUNT-1: vector.fma
// CHECK: scf.for %[[R2:.*]] = %c4 to %c6 step %c1
// CHECK:   vector.transfer_read %{{.*}}[%[[R2]], %c16], %cst : tensor<6x18xf32>
// CHECK:   vector.transfer_read %[[PADDED]]
// CHECK-NOT: linalg.matmul
func.func @edges(%a: tensor<6x3xf32>, %b: tensor<3x18xf32>, %c: tensor<6x18xf32>) -> tensor<6x18xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<6x3xf32>, tensor<3x18xf32>) outs(%c : tensor<6x18xf32>) -> tensor<6x18xf32>
  return %r : tensor<6x18xf32>
}

// Sizes known only at run time: the blocks cover [0, m - m % 4) x [0, n / 16 * 16) (B's
// n / 16 panels), then (n - n / 16 * 16 + 15) / 16 padded panels (none or one) the
// columns left, then the rows left one at a time (any of these may be empty at run time).
// CHECK-LABEL: func.func @dynamic
// CHECK-DAG: %[[M:.*]] = tensor.dim %arg2, %c0 : tensor<?x?xf32>
// CHECK-DAG: %[[MMAIN:.*]] = arith.subi %[[M]], %{{.*}} : index
// CHECK-DAG: %[[PANELS:.*]] = arith.divui %{{.*}}, %c16 : index
// CHECK: %[[PACKED:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<?x?x16xf32>)
// CHECK: %[[COVERED:.*]] = arith.muli %[[PANELS]], %c16 : index
// CHECK: %[[REST:.*]] = arith.subi %{{.*}}, %[[COVERED]] : index
// CHECK: %[[UP:.*]] = arith.addi %[[REST]], %c15 : index
// CHECK: %[[LAST:.*]] = arith.divui %[[UP]], %c16 : index
// CHECK: %[[PADDED:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<?x?x16xf32>)
// CHECK: %[[K:.*]] = tensor.dim %arg0, %c1 : tensor<?x?xf32>
// CHECK: scf.for %{{.*}} = %c0 to %[[PANELS]] step %c1
// CHECK:   scf.for %{{.*}} = %c0 to %[[MMAIN]] step %c4
// CHECK:     scf.for %{{.*}} = %c0 to %[[K]] step %c1
// CHECK-COUNT-4: vector.fma
// CHECK: scf.for %{{.*}} = %c0 to %[[LAST]] step %c1
// CHECK:   scf.for %{{.*}} = %c0 to %[[MMAIN]] step %c4
// CHECK:     vector.transfer_read %{{.*}}, %cst : tensor<?x?xf32>, vector<16xf32>
// CHECK:     vector.transfer_read %[[PADDED]]
// CHECK: scf.for %{{.*}} = %c0 to %[[PANELS]] step %c1
// CHECK:   scf.for %{{.*}} = %[[MMAIN]] to %[[M]] step %c1
// CHECK: scf.for %{{.*}} = %c0 to %[[LAST]] step %c1
// CHECK:   scf.for %{{.*}} = %[[MMAIN]] to %[[M]] step %c1
// CHECK-NOT: linalg.matmul
// depth-unroll=4: four ks an iteration, the k % 4 left one at a time.
// UNROLL-LABEL: func.func @dynamic
// UNROLL: %[[K:.*]] = tensor.dim %arg0, %c1
// UNROLL: %[[KR:.*]] = arith.remui %[[K]], %c4
// UNROLL: %[[KMAIN:.*]] = arith.subi %[[K]], %[[KR]]
// UNROLL: scf.for %{{.*}} = %c0 to %[[KMAIN]] step %c4
// UNROLL-COUNT-16: vector.fma
// UNROLL: scf.for %{{.*}} = %[[KMAIN]] to %[[K]] step %c1
// UNROLL-COUNT-4: vector.fma
// UNROLL-NOT: vector.fma
// UNROLL: scf.yield
func.func @dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Left alone: smaller than a block (statically), float64.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: vector.fma
// CHECK-COUNT-2: linalg.matmul
// CHECK-NOT: vector.fma
// SMALL-LABEL: func.func @untouched
// SMALL: vector.fma {{.*}} : vector<8xf32>
// SMALL: linalg.matmul {{.*}}f64
func.func @untouched(%a: tensor<2x3xf32>, %b: tensor<3x8xf32>, %c: tensor<2x8xf32>,
                     %g: tensor<4x4xf64>, %h: tensor<4x16xf64>, %i: tensor<4x16xf64>)
    -> (tensor<2x8xf32>, tensor<4x16xf64>) {
  %0 = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x8xf32>) outs(%c : tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = linalg.matmul ins(%g, %h : tensor<4x4xf64>, tensor<4x16xf64>) outs(%i : tensor<4x16xf64>) -> tensor<4x16xf64>
  return %0, %2 : tensor<2x8xf32>, tensor<4x16xf64>
}

// narrow-cols: 4 x 32 blocks over columns [0, 64) (2 panels of B), 4 x 8 blocks over
// [64, 80) of what they leave (2 panels of their own), the last 2 columns a padded panel
// 8 wide; 6 x 82 also has 2 rows left, one at a time.
// CHECK-LABEL: func.func @wide_then_narrow
// NARROW-LABEL: func.func @wide_then_narrow
// NARROW-DAG: %[[WIDE:.*]] = linalg.generic {{.*}} ins(%[[WB:.*]] : tensor<3x64xf32>) outs(%{{.*}} : tensor<2x3x32xf32>)
// NARROW-DAG: %[[WB]] = tensor.extract_slice %arg1[0, 0] [3, 64] [1, 1]
// NARROW-DAG: %[[NB:.*]] = tensor.extract_slice %arg1[0, 64] [3, 16] [1, 1]
// NARROW-DAG: %[[NARROW:.*]] = linalg.generic {{.*}} ins(%[[NB]] : tensor<3x16xf32>) outs(%{{.*}} : tensor<2x3x8xf32>)
// NARROW: scf.for %{{.*}} = %c0 to %c2 step %c1
// NARROW: vector.transfer_read %[[WIDE]]
// NARROW: vector.fma {{.*}} : vector<32xf32>
// NARROW: scf.for %{{.*}} = %c0 to %c2 step %c1
// NARROW: vector.transfer_read %[[NARROW]]
// NARROW: vector.fma {{.*}} : vector<8xf32>
// NARROW: vector.transfer_read %{{.*}}[%{{.*}}, %c80], %cst : tensor<6x82xf32>, vector<8xf32>
// NARROW: vector.fma {{.*}} : vector<8xf32>
// NARROW: scf.for %{{.*}} = %c4 to %c6 step %c1
// NARROW: vector.fma {{.*}} : vector<32xf32>
// NARROW-NOT: linalg.matmul
// NARROW-LABEL: func.func @narrow_only
// NARROW-NOT: vector<32xf32>
// NARROW: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x3x8xf32>)
// NARROW: scf.for %{{.*}} = %c0 to %c2 step %c1
// NARROW: vector.fma {{.*}} : vector<8xf32>
// NARROW-NOT: linalg.matmul
func.func @wide_then_narrow(%a: tensor<6x3xf32>, %b: tensor<3x82xf32>, %c: tensor<6x82xf32>) -> tensor<6x82xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<6x3xf32>, tensor<3x82xf32>) outs(%c : tensor<6x82xf32>) -> tensor<6x82xf32>
  return %r : tensor<6x82xf32>
}
func.func @narrow_only(%a: tensor<4x3xf32>, %b: tensor<3x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// In ag-tile-for-threads' chunks, B (a slice that does not depend on the chunk) is
// packed once, before the scf.forall: the chunks share its panels.
// CHECK-LABEL: func.func @chunks
// CHECK: %[[B:.*]] = tensor.extract_slice %arg1[0, 8] [32, 64] [1, 1]
// CHECK: %[[PACKED:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<32x64xf32>) outs(%{{.*}} : tensor<4x32x16xf32>)
// CHECK: scf.forall
// CHECK-NOT: linalg.generic
// CHECK: vector.transfer_read %[[PACKED]]
// CHECK: scf.forall.in_parallel
// pack-chunks: B's packing, moved before the chunks, is in chunks of panels itself.
// UNROLL-LABEL: func.func @chunks
// UNROLL: %[[EMPTY:.*]] = tensor.empty() : tensor<4x32x16xf32>
// UNROLL: %[[PACKED:.*]] = scf.forall (%{{.*}}) in (4) shared_outs(%{{.*}} = %[[EMPTY]])
// UNROLL:   linalg.generic {{.*}} outs(%{{.*}} : tensor<1x32x16xf32>)
// UNROLL:   tensor.parallel_insert_slice
// UNROLL: scf.forall
// UNROLL: scf.for %{{.*}} = %c0 to %c32 step %c4
// UNROLL: vector.transfer_read %[[PACKED]]
func.func @chunks(%a: tensor<64x32xf32>, %b: tensor<32x80xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %c) -> (tensor<64x64xf32>) {
    %row = affine.apply affine_map<(d0) -> (d0 * 16)>(%i)
    %as = tensor.extract_slice %a[%row, 0] [16, 32] [1, 1] : tensor<64x32xf32> to tensor<16x32xf32>
    %bs = tensor.extract_slice %b[0, 8] [32, 64] [1, 1] : tensor<32x80xf32> to tensor<32x64xf32>
    %cs = tensor.extract_slice %o[%row, 0] [16, 64] [1, 1] : tensor<64x64xf32> to tensor<16x64xf32>
    %p = linalg.matmul ins(%as, %bs : tensor<16x32xf32>, tensor<32x64xf32>) outs(%cs : tensor<16x64xf32>) -> tensor<16x64xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %p into %o[%row, 0] [16, 64] [1, 1] : tensor<16x64xf32> into tensor<64x64xf32>
    }
  }
  return %r : tensor<64x64xf32>
}
