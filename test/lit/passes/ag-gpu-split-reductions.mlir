// RUN: ag-opt %s -ag-gpu-split-reductions | FileCheck %s
// -ag-gpu-split-reductions: a reduction of whole tensors to one value becomes a parallel
// generic over blocks of 256 partials, a block for each 4096 points up to 1024 blocks
// (T threads in all; thread t combines points t, t + T, ... of the iteration space
// numbered row-major, each input read at its map's dimensions of the point, from the
// identity, the out-of-range tail skipped; a block combines its lanes' partials in an
// scf.for marked ag.block_lanes, which -ag-gpu-block-reductions makes a block of
// threads), and a reduce of the blocks' results into the original init with the combiner alone (not the
// payload's elementwise part). A reduction along the last axes (one or two leading axes
// kept) likewise, with a block of 32 to 1024 lanes for each row (a multiple of 32),
// whose result is the row's; along a leading axis, partials of each column, a column's
// own down the partials' first dimension. Left alone: 16384 or more columns, rows of
// static size below 64, three kept axes, an init that is not the combiner's identity, a
// payload reading its position, a small static input.

// CHECK-LABEL: func.func @sum_of_squares
// CHECK-SAME:  (%[[X:.*]]: tensor<?x?xf32>)
// CHECK:       %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:       %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<f32>)
// CHECK:       %[[C0:.*]] = arith.constant 0 : index
// CHECK:       %[[C1:.*]] = arith.constant 1 : index
// CHECK:       %[[D0:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x?xf32>
// CHECK:       %[[D1:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x?xf32>
// CHECK:       %[[N:.*]] = arith.muli %[[D0]], %[[D1]]
// CHECK:       %[[C256:.*]] = arith.constant 256 : index
// CHECK:       %[[PER:.*]] = arith.constant 4096 : index
// CHECK:       %[[MOST:.*]] = arith.constant 1024 : index
// CHECK:       %[[WANT:.*]] = arith.ceildivui %[[N]], %[[PER]]
// CHECK:       %[[G:.*]] = arith.minui %[[WANT]], %[[MOST]]
// CHECK:       %[[T:.*]] = arith.muli %[[G]], %[[C256]]
// CHECK:       %[[TM:.*]] = arith.maxui %[[T]], %[[C1]]
// CHECK:       %[[K:.*]] = arith.ceildivui %[[N]], %[[TM]]
// CHECK:       %[[LANES:.*]] = arith.constant 256 : index
// CHECK:       %[[BLOCKS:.*]] = arith.divui %[[T]], %[[LANES]]
// CHECK:       %[[EMPTY:.*]] = tensor.empty(%[[BLOCKS]]) : tensor<?xf32>
// CHECK-NOT:   linalg.fill
// CHECK:       %[[P:.*]] = linalg.generic {{{.*}}iterator_types = ["parallel"]} outs(%[[EMPTY]] : tensor<?xf32>)
// CHECK-NEXT:  ^bb0(%{{.*}}: f32):
// CHECK-NEXT:    %[[GI:.*]] = linalg.index 0 : index
// CHECK-NEXT:    %[[FIRST:.*]] = arith.muli %[[GI]], %[[LANES]]
// CHECK-NEXT:    %[[B:.*]] = scf.for %[[LANE:.*]] = %[[C0]] to %[[LANES]] step %[[C1]] iter_args(%[[BACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:      %[[TI:.*]] = arith.addi %[[FIRST]], %[[LANE]]
// CHECK-NEXT:      %[[R:.*]] = scf.for %[[KI:.*]] = %[[C0]] to %[[K]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:        %[[M:.*]] = arith.muli %[[KI]], %[[T]]
// CHECK-NEXT:        %[[I:.*]] = arith.addi %[[M]], %[[TI]]
// CHECK-NEXT:        %[[IN:.*]] = arith.cmpi ult, %[[I]], %[[N]]
// CHECK-NEXT:        %[[AT:.*]] = arith.select %[[IN]], %[[I]], %[[C0]]
// CHECK-NEXT:        %[[COL:.*]] = arith.remui %[[AT]], %[[D1]]
// CHECK-NEXT:        %[[ROW:.*]] = arith.divui %[[AT]], %[[D1]]
// CHECK-NEXT:        %[[V:.*]] = tensor.extract %[[X]][%[[ROW]], %[[COL]]] : tensor<?x?xf32>
// CHECK-NEXT:        %[[SQ:.*]] = arith.mulf %[[V]], %[[V]] : f32
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[SQ]], %[[ACC]] fastmath<reassoc> : f32
// CHECK-NEXT:        %[[KEEP:.*]] = arith.select %[[IN]], %[[S]], %[[ACC]] : f32
// CHECK-NEXT:        scf.yield %[[KEEP]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[BS:.*]] = arith.addf %[[R]], %[[BACC]] fastmath<reassoc> : f32
// CHECK-NEXT:      scf.yield %[[BS]] : f32
// CHECK-NEXT:    } {ag.block_lanes = 256 : i64}
// CHECK-NEXT:    linalg.yield %[[B]] : f32
// CHECK:       %[[TOTAL:.*]] = linalg.reduce ins(%[[P]] : tensor<?xf32>) outs(%[[INIT]] : tensor<f32>) dimensions = [0]
// CHECK-NEXT:    (%[[PIN:.*]]: f32, %[[PACC:.*]]: f32) {
// CHECK-NEXT:      %[[C:.*]] = arith.addf %[[PIN]], %[[PACC]] fastmath<reassoc> : f32
// CHECK-NEXT:      linalg.yield %[[C]] : f32
// CHECK:       return %[[TOTAL]]
func.func @sum_of_squares(%x: tensor<?x?xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<?x?xf32>) outs(%init : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %acc fastmath<reassoc> : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// An integer maximum from INT_MIN, a linalg.reduce of one dimension.
// CHECK-LABEL: func.func @int_max
// CHECK:       linalg.generic
// CHECK:         arith.maxsi
// CHECK:       linalg.reduce ins(%{{.*}} : tensor<?xi32>) outs(%{{.*}} : tensor<i32>) dimensions = [0]
// CHECK-NEXT:    (%[[A:.*]]: i32, %[[B:.*]]: i32) {
// CHECK-NEXT:      arith.maxsi %[[A]], %[[B]] : i32
func.func @int_max(%x: tensor<?xi32>) -> tensor<i32> {
  %min = arith.constant -2147483648 : i32
  %e = tensor.empty() : tensor<i32>
  %init = linalg.fill ins(%min : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %r = linalg.reduce ins(%x : tensor<?xi32>) outs(%init : tensor<i32>) dimensions = [0]
    (%in: i32, %acc: i32) {
      %m = arith.maxsi %in, %acc : i32
      linalg.yield %m : i32
    }
  return %r : tensor<i32>
}

// A sum of tanh(m + b), b broadcast along the rows: read at the column alone.
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME:  (%[[M:.*]]: tensor<?x?xf32>, %[[B:.*]]: tensor<?xf32>)
// CHECK:       scf.for
// CHECK:         %[[C:.*]] = arith.remui
// CHECK-NEXT:    %[[R:.*]] = arith.divui
// CHECK-NEXT:    tensor.extract %[[M]][%[[R]], %[[C]]] : tensor<?x?xf32>
// CHECK-NEXT:    tensor.extract %[[B]][%[[C]]] : tensor<?xf32>
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    math.tanh
func.func @broadcast(%m: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> ()>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%m, %b : tensor<?x?xf32>, tensor<?xf32>) outs(%init : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = arith.addf %x, %y : f32
    %t = math.tanh %s : f32
    %a = arith.addf %t, %acc : f32
    linalg.yield %a : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// Per row: a block of T lanes, the row's index from linalg.index, the reduced point from
// the lane; the result the row's (its init, the identity, neither read nor filled).
// CHECK-LABEL: func.func @row_max
// CHECK-SAME:  (%[[X:.*]]: tensor<?x?xf32>)
// CHECK:       %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:       linalg.fill
// CHECK:       %[[C0:.*]] = arith.constant 0 : index
// CHECK:       %[[C1:.*]] = arith.constant 1 : index
// CHECK:       %[[ROWS:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x?xf32>
// CHECK:       %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x?xf32>
// CHECK:       %[[C16K:.*]] = arith.constant 16384 : index
// CHECK:       %[[R1:.*]] = arith.maxui %[[ROWS]], %[[C1]]
// CHECK:       %[[PER:.*]] = arith.ceildivui %[[C16K]], %[[R1]]
// CHECK:       %[[C32:.*]] = arith.constant 32 : index
// CHECK:       %[[W:.*]] = arith.ceildivui %[[PER]], %[[C32]]
// CHECK:       %[[WT:.*]] = arith.muli %[[W]], %[[C32]]
// CHECK:       %[[LO:.*]] = arith.maxui %[[WT]], %[[C32]]
// CHECK:       %[[C1024:.*]] = arith.constant 1024 : index
// CHECK:       %[[CAP:.*]] = arith.minui %[[LO]], %[[C1024]]
// CHECK:       %[[T:.*]] = arith.minui %[[N]], %[[CAP]]
// CHECK:       %[[TM:.*]] = arith.maxui %[[T]], %[[C1]]
// CHECK:       %[[K:.*]] = arith.ceildivui %[[N]], %[[TM]]
// CHECK:       %[[EMPTY:.*]] = tensor.empty(%[[ROWS]]) : tensor<?xf32>
// CHECK:       %[[OUT:.*]] = linalg.generic {{{.*}}iterator_types = ["parallel"]} outs(%[[EMPTY]] : tensor<?xf32>)
// CHECK-NEXT:  ^bb0(%{{.*}}: f32):
// CHECK-NEXT:    %[[ROW:.*]] = linalg.index 0 : index
// CHECK-NEXT:    %[[B:.*]] = scf.for %[[LANE:.*]] = %[[C0]] to %[[TM]] step %[[C1]] iter_args(%[[BACC:.*]] = %[[NINF]]) -> (f32) {
// CHECK-NEXT:      %[[R:.*]] = scf.for %[[KI:.*]] = %[[C0]] to %[[K]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[NINF]]) -> (f32) {
// CHECK-NEXT:        %[[M:.*]] = arith.muli %[[KI]], %[[T]]
// CHECK-NEXT:        %[[I:.*]] = arith.addi %[[M]], %[[LANE]]
// CHECK-NEXT:        %[[IN:.*]] = arith.cmpi ult, %[[I]], %[[N]]
// CHECK-NEXT:        %[[AT:.*]] = arith.select %[[IN]], %[[I]], %[[C0]]
// CHECK-NEXT:        %[[V:.*]] = tensor.extract %[[X]][%[[ROW]], %[[AT]]] : tensor<?x?xf32>
// CHECK-NEXT:        %[[MX:.*]] = arith.maximumf %[[V]], %[[ACC]] : f32
// CHECK-NEXT:        %[[KEEP:.*]] = arith.select %[[IN]], %[[MX]], %[[ACC]] : f32
// CHECK-NEXT:        scf.yield %[[KEEP]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[BM:.*]] = arith.maximumf %[[R]], %[[BACC]] : f32
// CHECK-NEXT:      scf.yield %[[BM]] : f32
// CHECK-NEXT:    } {ag.block_lanes = 1024 : i64}
// CHECK-NEXT:    linalg.yield %[[B]] : f32
// CHECK:       return %[[OUT]]
func.func @row_max(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %x, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%rows) : tensor<?xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%init : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<?xf32>
}

// Two kept axes and two reduced, a static shape: the sizes fold, the reduced point is
// delinearized, a row broadcast operand read at the kept axes.
// CHECK-LABEL: func.func @blocks
// CHECK-SAME:  (%[[X:.*]]: tensor<4x3x10x70xf32>, %[[S:.*]]: tensor<4x3xf32>)
// CHECK:       linalg.fill
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<4x3xf32>
// CHECK:       linalg.generic {{{.*}}iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<4x3xf32>)
// CHECK:         %[[I0:.*]] = linalg.index 0 : index
// CHECK-NEXT:    %[[I1:.*]] = linalg.index 1 : index
// CHECK-NEXT:    scf.for
// CHECK:           scf.for
// CHECK:             %[[AT:.*]] = arith.select
// CHECK-NEXT:        %[[COL:.*]] = arith.remui %[[AT]], %{{.*}}
// CHECK-NEXT:        %[[ROW:.*]] = arith.divui %[[AT]], %{{.*}}
// CHECK-NEXT:        tensor.extract %[[X]][%[[I0]], %[[I1]], %[[ROW]], %[[COL]]] : tensor<4x3x10x70xf32>
// CHECK-NEXT:        tensor.extract %[[S]][%[[I0]], %[[I1]]] : tensor<4x3xf32>
// CHECK:         } {ag.block_lanes = 1024 : i64}
func.func @blocks(%x: tensor<4x3x10x70xf32>, %s: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %s : tensor<4x3x10x70xf32>, tensor<4x3xf32>) outs(%init : tensor<4x3xf32>) {
  ^bb0(%v: f32, %w: f32, %acc: f32):
    %d = arith.subf %v, %w : f32
    %a = arith.addf %d, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// Along the leading axis (a column sum): [T, columns] partials, T = ceil(16384 / columns)
// for each column, thread (t, c) combining rows t, t + T, ... of column c (32 consecutive
// threads on 32 consecutive columns), then one thread per column combining its column
// of partials.
// CHECK-LABEL: func.func @column_sums
// CHECK-SAME:  (%[[X:.*]]: tensor<?x?xf32>)
// CHECK:       linalg.fill
// CHECK:       %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x?xf32>
// CHECK:       %[[COLS:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x?xf32>
// CHECK:       %[[C16K:.*]] = arith.constant 16384 : index
// CHECK:       %[[S:.*]] = arith.maxui %[[COLS]], %{{.*}}
// CHECK:       %[[PER:.*]] = arith.ceildivui %[[C16K]], %[[S]]
// CHECK:       %[[T:.*]] = arith.minui %[[N]], %[[PER]]
// CHECK:       %[[EMPTY:.*]] = tensor.empty(%[[T]], %[[COLS]]) : tensor<?x?xf32>
// CHECK:       %[[P:.*]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel"]} outs(%[[EMPTY]] : tensor<?x?xf32>)
// CHECK-NEXT:  ^bb0(%{{.*}}: f32):
// CHECK-NEXT:    %[[TI:.*]] = linalg.index 0 : index
// CHECK-NEXT:    %[[COL:.*]] = linalg.index 1 : index
// CHECK-NEXT:    scf.for
// CHECK:           %[[AT:.*]] = arith.select
// CHECK-NEXT:      tensor.extract %[[X]][%[[AT]], %[[COL]]] : tensor<?x?xf32>
// CHECK:       linalg.generic {{{.*}}iterator_types = ["parallel"]} outs(%{{.*}} : tensor<?xf32>)
// CHECK-NEXT:  ^bb0(%{{.*}}: f32):
// CHECK-NEXT:    %[[C:.*]] = linalg.index 0 : index
// A sum's partials are combined with Kahan's compensation (no reassociation), the
// compensation dropped where the sum is not finite:
// CHECK-NEXT:    %[[NOLOSS:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %{{.*}}:2 = scf.for %[[Q:.*]] = %{{.*}} to %[[T]] step %{{.*}} iter_args(%[[SUM:.*]] = %{{.*}}, %[[LOST:.*]] = %[[NOLOSS]]) -> (f32, f32) {
// CHECK-NEXT:      %[[PV:.*]] = tensor.extract %[[P]][%[[Q]], %[[C]]] : tensor<?x?xf32>
// CHECK-NEXT:      %[[Y:.*]] = arith.subf %[[PV]], %[[LOST]] : f32
// CHECK-NEXT:      %[[NEW:.*]] = arith.addf %[[SUM]], %[[Y]] : f32
// CHECK-NEXT:      %[[UP:.*]] = arith.subf %[[NEW]], %[[SUM]] : f32
// CHECK-NEXT:      %[[DROP:.*]] = arith.subf %[[UP]], %[[Y]] : f32
// CHECK:           %[[FINITE:.*]] = arith.andi
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[KEPT:.*]] = arith.select %[[FINITE]], %[[DROP]], %[[ZERO]] : f32
// CHECK-NEXT:      scf.yield %[[NEW]], %[[KEPT]] : f32, f32
func.func @column_sums(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %cols = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%cols) : tensor<?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%init : tensor<?xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?xf32>
}

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:   linalg.index
// CHECK-NOT:   scf.for
// CHECK:       return
func.func @left_alone(%x: tensor<?x?xf32>, %small: tensor<100xf32>, %rows63: tensor<?x63xf32>, %wide: tensor<2x2x2x1000xf32>,
                      %many: tensor<?x16384xf32>)
    -> (tensor<16384xf32>, tensor<?xf32>, tensor<2x2x2xf32>, tensor<?xf32>, tensor<f32>, tensor<f32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %x, %c0 : tensor<?x?xf32>
  %e1 = tensor.empty(%rows) : tensor<?xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  // 16384 columns or more: one thread per column is enough threads.
  %ew = tensor.empty() : tensor<16384xf32>
  %iw = linalg.fill ins(%zero : f32) outs(%ew : tensor<16384xf32>) -> tensor<16384xf32>
  %per_column = linalg.reduce ins(%many : tensor<?x16384xf32>) outs(%iw : tensor<16384xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  // Rows of 63 elements: one thread per row.
  %short = linalg.reduce ins(%rows63 : tensor<?x63xf32>) outs(%i1 : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  // Three kept axes (the partials would need four).
  %e3 = tensor.empty() : tensor<2x2x2xf32>
  %i3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %three = linalg.reduce ins(%wide : tensor<2x2x2x1000xf32>) outs(%i3 : tensor<2x2x2xf32>) dimensions = [3]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  // A permuted read: the reduced loop along the input's leading axis.
  %across = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                            iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x?xf32>) outs(%i1 : tensor<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %e0 = tensor.empty() : tensor<f32>
  // A sum from 1: not the identity.
  %from_one = linalg.fill ins(%one : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %plus_one = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%from_one : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  // 100 elements: the host's loop.
  %from_zero = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %small_sum = linalg.reduce ins(%small : tensor<100xf32>) outs(%from_zero : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %per_column, %short, %three, %across, %plus_one, %small_sum
      : tensor<16384xf32>, tensor<?xf32>, tensor<2x2x2xf32>, tensor<?xf32>, tensor<f32>, tensor<f32>
}
