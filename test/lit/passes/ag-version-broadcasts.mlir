// RUN: ag-opt %s -ag-version-broadcasts | FileCheck %s
// RUN: ag-opt %s -ag-version-broadcasts -canonicalize -ag-fuse-elementwise | FileCheck %s --check-prefix=FUSED
// RUN: ag-opt %s -ag-version-broadcasts=max-span-ops=10 | FileCheck %s --check-prefix=BOUND
// -ag-version-broadcasts: a block's run-time broadcasts (MLIRGen's scf.if that copies an
// operand of size 1 where the result's size is not) are tested once (at the block's start
// where the sizes come from outside it, else before the first broadcast), and the code
// from there on has two versions: as it was, and with every such
// condition false, where canonicalization leaves the operands themselves and fusion
// makes the chain one loop. Checks and effects stay in both versions, in their order.

#id = affine_map<(d0) -> (d0)>

// x * y - y over two [None] operands, as MLIRGen writes it (abridged): the result's size
// is y's where x's is 1, else x's; each operand is copied where its size differs from it.
// CHECK-LABEL: func.func @chain
// CHECK-SAME:    (%[[X:.*]]: tensor<?xf32>, %[[Y:.*]]: tensor<?xf32>)
// The conditions' ops, moved up before the first broadcast, and tested together:
// CHECK:         %[[XD:.*]] = arith.cmpi ne, %{{.*}}, %[[N:.*]] : index
// CHECK:         %[[YD:.*]] = arith.cmpi ne, %{{.*}}, %[[N]] : index
// CHECK:         %[[PD:.*]] = arith.cmpi ne, %[[N]], %[[N2:.*]] : index
// CHECK:         %[[YD2:.*]] = arith.cmpi ne, %{{.*}}, %[[N2]] : index
// CHECK:         %[[ANY0:.*]] = arith.ori %[[XD]], %[[YD]]
// CHECK:         %[[ANY1:.*]] = arith.ori %[[ANY0]], %[[PD]]
// CHECK:         %[[ANY:.*]] = arith.ori %[[ANY1]], %[[YD2]]
// CHECK:         %[[FALSE:.*]] = arith.constant false
// CHECK:         %[[R:.*]] = scf.if %[[ANY]] -> (tensor<?xf32>) {
// The code as it was: the broadcasts on their conditions, the check between them.
// CHECK:           scf.if %[[XD]] -> (tensor<?xf32>)
// CHECK:           ag.assert %{{.*}}, "m.py:3:12: incompatible shapes
// CHECK:           scf.if %[[YD]] -> (tensor<?xf32>)
// CHECK:           linalg.generic
// CHECK:           scf.if %[[PD]] -> (tensor<?xf32>)
// CHECK:           scf.if %[[YD2]] -> (tensor<?xf32>)
// CHECK:           linalg.generic
// CHECK:           scf.yield
// CHECK:         } else {
// The copy: every broadcast on false, the check still there.
// CHECK:           scf.if %[[FALSE]] -> (tensor<?xf32>)
// CHECK:           ag.assert %{{.*}}, "m.py:3:12: incompatible shapes
// CHECK:           scf.if %[[FALSE]] -> (tensor<?xf32>)
// CHECK:           scf.if %[[FALSE]] -> (tensor<?xf32>)
// CHECK:           scf.if %[[FALSE]] -> (tensor<?xf32>)
// CHECK:           scf.yield
// CHECK:         }
// CHECK:         return %[[R]]
// FUSED-LABEL: func.func @chain
// FUSED:         scf.if
// FUSED:         } else {
// FUSED-NOT:       scf.if %false
// FUSED:           ag.assert
// FUSED:           linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<?xf32>, tensor<?xf32>)
// FUSED:             arith.mulf
// FUSED-NEXT:        arith.subf
// FUSED-NOT:       linalg.generic
// FUSED:           scf.yield
// BOUND-LABEL: func.func @chain
// BOUND-NOT:     arith.constant false
// BOUND:         return
func.func @chain(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nx = tensor.dim %x, %c0 : tensor<?xf32>
  %ny = tensor.dim %y, %c0 : tensor<?xf32>
  %xone = arith.cmpi eq, %nx, %c1 : index
  %n = arith.select %xone, %ny, %nx : index
  %xd = arith.cmpi ne, %nx, %n : index
  %xb = scf.if %xd -> (tensor<?xf32>) {
    %e = tensor.empty(%n) : tensor<?xf32>
    %g = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<?xf32>) {
    ^bb0(%o: f32):
      %c0_ = arith.constant 0 : index
      %v = tensor.extract %x[%c0_] : tensor<?xf32>
      linalg.yield %v : f32
    } -> tensor<?xf32>
    scf.yield %g : tensor<?xf32>
  } else {
    scf.yield %x : tensor<?xf32>
  }
  %ysame = arith.cmpi eq, %ny, %n : index
  %yone = arith.cmpi eq, %ny, %c1 : index
  %yok = arith.ori %ysame, %yone : i1
  ag.assert %yok, "m.py:3:12: incompatible shapes: dimension 0 is {0} in one operand and {1} in another"
  %yd = arith.cmpi ne, %ny, %n : index
  %yb = scf.if %yd -> (tensor<?xf32>) {
    %e = tensor.empty(%n) : tensor<?xf32>
    %g = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<?xf32>) {
    ^bb0(%o: f32):
      %c0_ = arith.constant 0 : index
      %v = tensor.extract %y[%c0_] : tensor<?xf32>
      linalg.yield %v : f32
    } -> tensor<?xf32>
    scf.yield %g : tensor<?xf32>
  } else {
    scf.yield %y : tensor<?xf32>
  }
  %e = tensor.empty(%n) : tensor<?xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%xb, %yb : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  // p - y: p's size is n; the result's is y's where n is 1.
  %pone = arith.cmpi eq, %n, %c1 : index
  %n2 = arith.select %pone, %ny, %n : index
  %pd = arith.cmpi ne, %n, %n2 : index
  %pb = scf.if %pd -> (tensor<?xf32>) {
    %e2 = tensor.empty(%n2) : tensor<?xf32>
    %g = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e2 : tensor<?xf32>) {
    ^bb0(%o: f32):
      %c0_ = arith.constant 0 : index
      %v = tensor.extract %p[%c0_] : tensor<?xf32>
      linalg.yield %v : f32
    } -> tensor<?xf32>
    scf.yield %g : tensor<?xf32>
  } else {
    scf.yield %p : tensor<?xf32>
  }
  %yd2 = arith.cmpi ne, %ny, %n2 : index
  %yb2 = scf.if %yd2 -> (tensor<?xf32>) {
    %e2 = tensor.empty(%n2) : tensor<?xf32>
    %g = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e2 : tensor<?xf32>) {
    ^bb0(%o: f32):
      %c0_ = arith.constant 0 : index
      %v = tensor.extract %y[%c0_] : tensor<?xf32>
      linalg.yield %v : f32
    } -> tensor<?xf32>
    scf.yield %g : tensor<?xf32>
  } else {
    scf.yield %y : tensor<?xf32>
  }
  %e3 = tensor.empty(%n2) : tensor<?xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%pb, %yb2 : tensor<?xf32>, tensor<?xf32>) outs(%e3 : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<?xf32>
  return %s : tensor<?xf32>
}

// A broadcast inside a loop's body is versioned there, on the body's sizes; the loop's
// own block has none of its own and stays as it is.
// CHECK-LABEL: func.func @in_loop
// CHECK:         scf.for
// CHECK:           %[[D:.*]] = arith.cmpi ne
// CHECK:           scf.if %[[D]] -> (tensor<?xf32>) {
// CHECK:             scf.if %[[D]] -> (tensor<?xf32>)
// CHECK:           } else {
// CHECK:             scf.if %false -> (tensor<?xf32>)
// CHECK:           }
// CHECK:           scf.yield
// CHECK-NOT:     scf.if
// CHECK:         return
func.func @in_loop(%x: tensor<?xf32>, %s0: tensor<?xf32>, %k: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%s = %s0) -> (tensor<?xf32>) {
    %ns = tensor.dim %s, %c0 : tensor<?xf32>
    %nx = tensor.dim %x, %c0 : tensor<?xf32>
    %d = arith.cmpi ne, %nx, %ns : index
    %xb = scf.if %d -> (tensor<?xf32>) {
      %e = tensor.empty(%ns) : tensor<?xf32>
      %g = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<?xf32>) {
      ^bb0(%o: f32):
        %v = tensor.extract %x[%c0] : tensor<?xf32>
        linalg.yield %v : f32
      } -> tensor<?xf32>
      scf.yield %g : tensor<?xf32>
    } else {
      scf.yield %x : tensor<?xf32>
    }
    %e = tensor.empty(%ns) : tensor<?xf32>
    %t = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%s, %xb : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.addf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<?xf32>
    scf.yield %t : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// Left as they are: an if whose condition is a tensor's element (data, not sizes), one
// whose else branch computes, and one with an effect (a check in a branch).
// CHECK-LABEL: func.func @not_broadcasts
// CHECK-NOT:     arith.constant false
// CHECK:         return
func.func @not_broadcasts(%x: tensor<?xf32>, %flags: tensor<2xi1>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %data = tensor.extract %flags[%c0] : tensor<2xi1>
  %a = scf.if %data -> (tensor<?xf32>) {
    %e = tensor.empty(%c1) : tensor<?xf32>
    scf.yield %e : tensor<?xf32>
  } else {
    scf.yield %x : tensor<?xf32>
  }
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %big = arith.cmpi ugt, %n, %c1 : index
  %b = scf.if %big -> (tensor<?xf32>) {
    scf.yield %x : tensor<?xf32>
  } else {
    %e = tensor.empty(%c1) : tensor<?xf32>
    scf.yield %e : tensor<?xf32>
  }
  %small = arith.cmpi ult, %n, %c1 : index
  %c = scf.if %small -> (tensor<?xf32>) {
    %true = arith.constant true
    ag.assert %true, "m.py:9:1: never"
    scf.yield %x : tensor<?xf32>
  } else {
    scf.yield %x : tensor<?xf32>
  }
  return %a, %b, %c : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

// Work before the first broadcast (2 * x), where the sizes come from the arguments: the
// versions start at the block's start, so that in the second the work fuses with what
// follows (one loop over x and y), not computed once before both.
// CHECK-LABEL: func.func @work_before
// CHECK:         tensor.dim
// CHECK:         tensor.dim
// CHECK:         arith.ori
// CHECK:         scf.if
// CHECK:           linalg.generic
// CHECK:           arith.mulf
// FUSED-LABEL: func.func @work_before
// FUSED:         } else {
// FUSED:           linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<?xf32>, tensor<?xf32>)
// FUSED:             arith.mulf
// FUSED-NEXT:        arith.addf
// FUSED-NOT:       linalg.generic
// FUSED:           scf.yield
func.func @work_before(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %nx = tensor.dim %x, %c0 : tensor<?xf32>
  %e0 = tensor.empty(%nx) : tensor<?xf32>
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e0 : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %two : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  %ny = tensor.dim %y, %c0 : tensor<?xf32>
  %uone = arith.cmpi eq, %nx, %c1 : index
  %n = arith.select %uone, %ny, %nx : index
  %ud = arith.cmpi ne, %nx, %n : index
  %ub = scf.if %ud -> (tensor<?xf32>) {
    %e = tensor.empty(%n) : tensor<?xf32>
    %g = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<?xf32>) {
    ^bb0(%o: f32):
      %v = tensor.extract %u[%c0] : tensor<?xf32>
      linalg.yield %v : f32
    } -> tensor<?xf32>
    scf.yield %g : tensor<?xf32>
  } else {
    scf.yield %u : tensor<?xf32>
  }
  %yd = arith.cmpi ne, %ny, %n : index
  %yb = scf.if %yd -> (tensor<?xf32>) {
    %e = tensor.empty(%n) : tensor<?xf32>
    %g = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<?xf32>) {
    ^bb0(%o: f32):
      %v = tensor.extract %y[%c0] : tensor<?xf32>
      linalg.yield %v : f32
    } -> tensor<?xf32>
    scf.yield %g : tensor<?xf32>
  } else {
    scf.yield %y : tensor<?xf32>
  }
  %e1 = tensor.empty(%n) : tensor<?xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%ub, %yb : tensor<?xf32>, tensor<?xf32>) outs(%e1 : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.addf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<?xf32>
  return %s : tensor<?xf32>
}
