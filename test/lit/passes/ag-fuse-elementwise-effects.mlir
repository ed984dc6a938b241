// RUN: ag-opt %s -ag-fuse-elementwise | FileCheck %s
// -ag-fuse-elementwise: a producer whose payload has an effect (a run-time check's call)
// stays after it is fused into its consumer, and loses its unused result; where its
// inputs were constants, it loses every operand. Such a generic of no operand and no
// loop is its payload run once, in its place (no lowering takes it).

func.func private @fail()

// CHECK-LABEL: func.func @checked_division
// CHECK-NOT:   linalg.generic {indexing_maps = [], iterator_types = []}
// CHECK:       scf.if
// CHECK-NEXT:    func.call @fail()
// CHECK:       linalg.generic
// CHECK:         func.call @fail()
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
    %r = arith.addi %a, %b : i32
    linalg.yield %r : i32
  } -> tensor<1xi32>
  return %s : tensor<1xi32>
}
