// RUN: ag-opt %s -ag-matmul-microkernel -canonicalize | FileCheck %s
// RUN: ag-opt %s '-ag-matmul-microkernel=rows=2 cols=8' -canonicalize | FileCheck %s --check-prefix=SMALL
// RUN: ag-opt %s '-ag-matmul-microkernel=rows=4 cols=32 narrow-cols=8' -canonicalize | FileCheck %s --check-prefix=NARROW
// -ag-matmul-microkernel: a float32 matmul (static or dynamic sizes) keeps a rows x cols block of
// the result in vector registers through the k loop; B's panel is copied to contiguous
// rows first; what the blocks leave over becomes matmuls of slices.

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

// 6 x 18: the blocks cover 4 x 16; the right edge (all 6 rows, 2 columns) and the bottom
// edge (2 rows, 16 columns) are matmuls of slices.
// CHECK-LABEL: func.func @edges
// CHECK: vector.fma
// CHECK: %[[RB:.*]] = tensor.extract_slice %arg1[0, 16] [3, 2] [1, 1] : tensor<3x18xf32> to tensor<3x2xf32>
// CHECK: %[[RC:.*]] = tensor.extract_slice %{{.*}}[0, 16] [6, 2] [1, 1] : tensor<6x18xf32> to tensor<6x2xf32>
// CHECK: %[[RIGHT:.*]] = linalg.matmul ins(%arg0, %[[RB]] : tensor<6x3xf32>, tensor<3x2xf32>) outs(%[[RC]] : tensor<6x2xf32>)
// CHECK: %[[WITH_RIGHT:.*]] = tensor.insert_slice %[[RIGHT]] into %{{.*}}[0, 16] [6, 2] [1, 1]
// CHECK: %[[BA:.*]] = tensor.extract_slice %arg0[4, 0] [2, 3] [1, 1] : tensor<6x3xf32> to tensor<2x3xf32>
// CHECK: %[[BOTTOM:.*]] = linalg.matmul ins(%[[BA]], %{{.*}} : tensor<2x3xf32>, tensor<3x16xf32>) outs(%{{.*}} : tensor<2x16xf32>)
// CHECK: %[[ALL:.*]] = tensor.insert_slice %[[BOTTOM]] into %[[WITH_RIGHT]][4, 0] [2, 16] [1, 1]
// CHECK: return %[[ALL]]
func.func @edges(%a: tensor<6x3xf32>, %b: tensor<3x18xf32>, %c: tensor<6x18xf32>) -> tensor<6x18xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<6x3xf32>, tensor<3x18xf32>) outs(%c : tensor<6x18xf32>) -> tensor<6x18xf32>
  return %r : tensor<6x18xf32>
}

// Sizes known only at run time: the blocks cover [0, m - m % 4) x [0, n / 16 * 16) (B's
// n / 16 panels), the edges the rest (either may be empty when the call runs).
// CHECK-LABEL: func.func @dynamic
// CHECK-DAG: %[[M:.*]] = tensor.dim %arg2, %c0 : tensor<?x?xf32>
// CHECK-DAG: %[[N:.*]] = tensor.dim %arg2, %c1 : tensor<?x?xf32>
// CHECK-DAG: %[[MMAIN:.*]] = arith.subi %[[M]], %{{.*}} : index
// CHECK-DAG: %[[PANELS:.*]] = arith.divui %{{.*}}, %c16 : index
// CHECK: %[[PACKED:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<?x?x16xf32>)
// CHECK: %[[K:.*]] = tensor.dim %arg0, %c1 : tensor<?x?xf32>
// CHECK: scf.for %{{.*}} = %c0 to %[[PANELS]] step %c1
// CHECK:   scf.for %{{.*}} = %c0 to %[[MMAIN]] step %c4
// CHECK:     scf.for %{{.*}} = %c0 to %[[K]] step %c1
// CHECK-COUNT-4: vector.fma
// CHECK: %[[RIGHT:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK: linalg.matmul {{.*}} -> tensor<?x?xf32>
// CHECK: linalg.matmul {{.*}} -> tensor<?x?xf32>
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
// [64, 80) of what they leave (2 panels of their own), the last 2 columns an edge; 6 x 82
// also has a bottom edge of 2 rows.
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
// NARROW: linalg.matmul ins(%arg0, %{{.*}} : tensor<6x3xf32>, tensor<3x2xf32>)
// NARROW: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<3x80xf32>)
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
