// RUN: ag-opt %s -ag-tile-for-threads -canonicalize | FileCheck %s
// RUN: ag-opt %s -ag-tile-for-threads=min-work=8 -canonicalize | FileCheck %s --check-prefix=LOW
// RUN: ag-opt %s '-ag-tile-for-threads=matmul-rows=8' -canonicalize | FileCheck %s --check-prefix=ROWS
// -ag-tile-for-threads: large work becomes an scf.forall over a fixed number of chunks
// (16); small work stays; sizes known only at run time keep both under an scf.if.

// 1000 x 100 points: chunks of 63 rows (16 chunks, the last one shorter).
// CHECK-LABEL: func.func @static_elementwise
// CHECK: scf.forall (%{{.*}}) in (16) shared_outs
// CHECK: tensor.extract_slice %{{.*}}[%{{.*}}, 0] [%{{.*}}, 100] [1, 1] : tensor<1000x100xf32> to tensor<?x100xf32>
// CHECK: math.exp
// CHECK: tensor.parallel_insert_slice
// CHECK-NOT: scf.if
func.func @static_elementwise(%x: tensor<1000x100xf32>) -> tensor<1000x100xf32> {
  %e = tensor.empty() : tensor<1000x100xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1000x100xf32>) outs(%e : tensor<1000x100xf32>) {
    ^bb0(%in: f32, %out: f32):
      %y = math.exp %in : f32
      linalg.yield %y : f32
  } -> tensor<1000x100xf32>
  return %r : tensor<1000x100xf32>
}

// Fewer points than the threshold: as it was.
// CHECK-LABEL: func.func @small
// CHECK-NOT: scf.forall
// CHECK: linalg.generic
// LOW-LABEL: func.func @small
// LOW: scf.forall (%{{.*}}) in (16)
func.func @small(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %y = arith.negf %in : f32
      linalg.yield %y : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// A size known at run time: chunked when the op has at least 32768 points, whole
// otherwise.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[N:.*]] = tensor.dim
// CHECK: %[[BIG:.*]] = arith.cmpi sge, %[[N]], %c32768
// CHECK: scf.if %[[BIG]] -> (tensor<?xf32>)
// CHECK: scf.forall (%{{.*}}) in (16)
// CHECK: } else {
// CHECK-NOT: scf.forall
// CHECK: linalg.generic
func.func @dynamic(%x: tensor<?xf32>, %e: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %y = math.tanh %in : f32
      linalg.yield %y : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// A sum of a whole tensor: 16 partial sums from the neutral element, one per chunk, then
// combined into the init.
// CHECK-LABEL: func.func @total
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16xf32>)
// CHECK: scf.forall (%{{.*}}) in (16) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<16xf32>)
// CHECK: arith.addf
// CHECK: linalg.reduce ins(%{{.*}} : tensor<16xf32>) outs(%{{.*}} : tensor<f32>) dimensions = [0]
func.func @total(%x: tensor<100000xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.reduce ins(%x : tensor<100000xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

// A row sum: the rows are chunked, each chunk sums its own rows whole.
// CHECK-LABEL: func.func @row_sums
// CHECK: scf.forall (%{{.*}}) in (16) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<4096xf32>)
// CHECK: tensor.extract_slice %{{.*}}[%{{.*}}, 0] [256, 64] [1, 1]
// CHECK-NOT: linalg.reduce ins(%{{.*}} : tensor<16
func.func @row_sums(%x: tensor<4096x64xf32>, %init: tensor<4096xf32>) -> tensor<4096xf32> {
  %r = linalg.reduce ins(%x : tensor<4096x64xf32>) outs(%init : tensor<4096xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4096xf32>
}

// What calls the runtime (which may raise an error) stays on the calling thread.
// CHECK-LABEL: func.func @calls_the_runtime
// CHECK-NOT: scf.forall
// CHECK: call @agrt_string_length
func.func private @agrt_string_length(i64, i32) -> i32
func.func @calls_the_runtime(%x: tensor<100000xi64>) -> tensor<100000xi32> {
  %e = tensor.empty() : tensor<100000xi32>
  %c0 = arith.constant 0 : i32
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<100000xi64>) outs(%e : tensor<100000xi32>) {
    ^bb0(%in: i64, %out: i32):
      %n = func.call @agrt_string_length(%in, %c0) : (i64, i32) -> i32
      linalg.yield %n : i32
  } -> tensor<100000xi32>
  return %r : tensor<100000xi32>
}

// A complex sum has no neutral element upstream knows: as it was.
// CHECK-LABEL: func.func @complex_total
// CHECK-NOT: scf.forall
// CHECK: linalg.reduce
func.func @complex_total(%x: tensor<100000xcomplex<f32>>, %init: tensor<complex<f32>>) -> tensor<complex<f32>> {
  %r = linalg.reduce ins(%x : tensor<100000xcomplex<f32>>) outs(%init : tensor<complex<f32>>) dimensions = [0]
    (%in: complex<f32>, %acc: complex<f32>) {
      %s = complex.add %in, %acc : complex<f32>
      linalg.yield %s : complex<f32>
    }
  return %r : tensor<complex<f32>>
}

// No work at all (a dimension of size 0): as it was.
// CHECK-LABEL: func.func @empty
// CHECK-NOT: scf.forall
func.func @empty(%x: tensor<3x0x?xf64>, %e: tensor<3x0x?xf32>) -> tensor<3x0x?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j, k)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<3x0x?xf64>) outs(%e : tensor<3x0x?xf32>) {
    ^bb0(%in: f64, %out: f32):
      %y = arith.truncf %in : f64 to f32
      linalg.yield %y : f32
  } -> tensor<3x0x?xf32>
  return %r : tensor<3x0x?xf32>
}

// matmul-rows: a float32 matmul's chunks are a whole number of the kernel's 8-row blocks
// (1000 rows: 16 chunks of 64, the last 40), not 16 of 63 rows, each of which left 7
// rows to the kernel's slow edge; a size known only at run time gets the same rule.
// ROWS-DAG: #[[LAST:.*]] = affine_map<(d0) -> (-d0 + 1000, 64)>
// ROWS-DAG: #[[PER_CHUNK:.*]] = affine_map<()[s0] -> (((s0 ceildiv 16) ceildiv 8) * 8)>
// ROWS-LABEL: func.func @matmul_rows
// ROWS: scf.forall (%[[I:.*]]) = (0) to (1000) step (64)
// ROWS:   affine.min #[[LAST]](%[[I]])
// ROWS:   linalg.matmul
// ROWS-LABEL: func.func @matmul_rows_dynamic
// ROWS: %[[M:.*]] = tensor.dim %arg0, %c0
// ROWS: scf.if
// ROWS:   %[[STEP:.*]] = affine.apply #[[PER_CHUNK]]()[%[[M]]]
// ROWS:   scf.forall (%{{.*}}) = (0) to (%{{.*}}) step (%[[STEP]])
// CHECK-LABEL: func.func @matmul_rows(
// CHECK: scf.forall (%{{.*}}) in (16)
// CHECK-LABEL: func.func @matmul_rows_dynamic
// CHECK: scf.forall (%{{.*}}) in (16)
func.func @matmul_rows(%a: tensor<1000x64xf32>, %b: tensor<64x64xf32>, %c: tensor<1000x64xf32>) -> tensor<1000x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<1000x64xf32>, tensor<64x64xf32>) outs(%c : tensor<1000x64xf32>) -> tensor<1000x64xf32>
  return %r : tensor<1000x64xf32>
}
func.func @matmul_rows_dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
