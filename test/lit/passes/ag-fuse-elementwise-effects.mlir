// RUN: ag-opt %s -ag-fuse-elementwise | FileCheck %s
// -ag-fuse-elementwise and effects (a run-time check's call): a producer whose payload
// has one, fused into a consumer that repeats it at every point in the same order (an
// elementwise consumer with no effect of its own, reading the whole result through the
// identity), goes: its effects are the fused op's (`tf.gather(t, ids) * 2.0` gathered
// and checked each index twice). Otherwise it stays after the fusion and loses its
// unused result; where its inputs were constants, it loses every operand, and such a
// generic of no operand and no loop is its payload run once, in its place (no lowering
// takes it).

func.func private @fail()
func.func private @fail_too()

// The consumer has a check of its own: the producer stays, inlined.
// CHECK-LABEL: func.func @checked_division
// CHECK-NOT:   linalg.generic {indexing_maps = [], iterator_types = []}
// CHECK:       scf.if
// CHECK-NEXT:    func.call @fail()
// CHECK:       linalg.generic
// CHECK:         func.call @fail()
// CHECK:         func.call @fail_too()
// CHECK:         arith.addi
func.func @checked_division(%x: tensor<1xi32>) -> tensor<1xi32> {
  %zero = arith.constant dense<0> : tensor<i32>
  %one = arith.constant dense<1> : tensor<i32>
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1xi32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x, %zero : tensor<1xi32>, tensor<i32>) outs(%e : tensor<1xi32>) {
  ^bb0(%a: i32, %d: i32, %o: i32):
    %bad = arith.cmpi eq, %d, %c0 : i32
    scf.if %bad {
      func.call @fail() : () -> ()
    }
    %one_if_bad = arith.select %bad, %c0, %d : i32
    %r = arith.addi %a, %one_if_bad : i32
    linalg.yield %r : i32
  } -> tensor<1xi32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%q, %one : tensor<1xi32>, tensor<i32>) outs(%e : tensor<1xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %neg = arith.cmpi slt, %a, %c0 : i32
    scf.if %neg {
      func.call @fail_too() : () -> ()
    }
    %r = arith.addi %a, %b : i32
    linalg.yield %r : i32
  } -> tensor<1xi32>
  return %s : tensor<1xi32>
}

// A gather scaled: one generic, each index checked once.
// CHECK-LABEL: func.func @gather_scaled
// CHECK:       linalg.generic
// CHECK:         func.call @fail()
// CHECK:         arith.mulf
// CHECK-NOT:   linalg.generic
// CHECK-NOT:   func.call
// CHECK:       return
func.func @gather_scaled(%t: tensor<?xf32>, %ids: tensor<?xi32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %n = tensor.dim %ids, %c0 : tensor<?xi32>
  %size = tensor.dim %t, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e : tensor<?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %id = tensor.extract %ids[%i] : tensor<?xi32>
    %k = arith.index_cast %id : i32 to index
    %bad = arith.cmpi uge, %k, %size : index
    scf.if %bad {
      func.call @fail() : () -> ()
    }
    %v = tensor.extract %t[%k] : tensor<?xf32>
    linalg.yield %v : f32
  } -> tensor<?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%g : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %two : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  return %s : tensor<?xf32>
}

// A consumer that reads the checked result broadcast (not each point once, in order):
// the producer stays.
// CHECK-LABEL: func.func @gather_broadcast
// CHECK:       linalg.generic
// CHECK:         func.call @fail()
// CHECK:       linalg.generic
// CHECK:         func.call @fail()
// CHECK:         arith.mulf
func.func @gather_broadcast(%t: tensor<?xf32>, %ids: tensor<4xi32>) -> tensor<3x4xf32> {
  %two = arith.constant 2.0 : f32
  %c0 = arith.constant 0 : index
  %size = tensor.dim %t, %c0 : tensor<?xf32>
  %e = tensor.empty() : tensor<4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e : tensor<4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %id = tensor.extract %ids[%i] : tensor<4xi32>
    %k = arith.index_cast %id : i32 to index
    %bad = arith.cmpi uge, %k, %size : index
    scf.if %bad {
      func.call @fail() : () -> ()
    }
    %v = tensor.extract %t[%k] : tensor<?xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<3x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<4xf32>) outs(%e2 : tensor<3x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %two : f32
    linalg.yield %r : f32
  } -> tensor<3x4xf32>
  return %s : tensor<3x4xf32>
}
