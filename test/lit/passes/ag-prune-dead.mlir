// RUN: ag-opt %s -ag-prune-dead | FileCheck %s
// -ag-prune-dead: what TensorFlow prunes goes, with the checks that guard it (an ag.assert
// that guards values has no effect of its own); loop variables that feed only themselves
// leave the loop (not in a loop with effects), and unused ag.cond results their cond; the
// checks left are pinned (they guard nothing afterwards).

// CHECK-LABEL: func.func @checks
// CHECK-SAME: (%[[OK:.*]]: i1, %[[I:.*]]: index, %[[T:.*]]: tensor<?xf32>)
func.func @checks(%ok: i1, %i: index, %t: tensor<?xf32>) -> f32 {
  // An op nothing uses, and the check that guards its index: both gone.
  // CHECK-NOT: "m.py:1:1
  %dead = ag.assert %ok, "m.py:1:1: dead" guards %i : index
  %unused = tensor.extract %t[%dead] : tensor<?xf32>
  // A check that guards nothing stays (tf.debugging.assert_*).
  // CHECK: ag.assert %[[OK]], "m.py:2:1: kept"
  ag.assert %ok, "m.py:2:1: kept"
  // A check whose results are used is pinned: its users take what it guarded.
  // CHECK: ag.assert %[[OK]], "m.py:3:1: used"
  // CHECK-NOT: guards
  // CHECK: %[[E:.*]] = tensor.extract %[[T]][%[[I]]]
  // CHECK: return %[[E]]
  %g = ag.assert %ok, "m.py:3:1: used" guards %i : index
  %e = tensor.extract %t[%g] : tensor<?xf32>
  return %e : f32
}

// A check in the body of an elementwise op goes with the op.
// CHECK-LABEL: func.func @in_a_body
// CHECK-NOT: linalg.generic
// CHECK-NOT: ag.assert
// CHECK: return %arg0
#id = affine_map<(d0) -> (d0)>
func.func @in_a_body(%x: tensor<?xi32>, %e: tensor<?xi32>) -> tensor<?xi32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<?xi32>) outs(%e : tensor<?xi32>) {
  ^bb0(%a: i32, %o: i32):
    %c0 = arith.constant 0 : i32
    %nz = arith.cmpi ne, %a, %c0 : i32
    %d = ag.assert %nz, "m.py:4:1: integer division by zero" guards %a : i32
    %q = arith.floordivsi %a, %d : i32
    linalg.yield %q : i32
  } -> tensor<?xi32>
  return %x : tensor<?xi32>
}

// A loop variable that feeds only itself (`v = v // i` with v unused after the loop) leaves
// the loop, with its check; the counter, which the test reads, stays; so does w, which the
// function returns.
// CHECK-LABEL: func.func @dead_loop_variable
// CHECK: %[[R:.*]]:2 = ag.while_loop(%arg0, %arg2) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
// CHECK-NOT: "m.py:5:1
// CHECK: ag.yield %{{.*}}, %{{.*}} : tensor<i32>, tensor<i32>
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @dead_loop_variable(%n: tensor<i32>, %v0: tensor<i32>, %w0: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  %r:3 = ag.while_loop(%n, %v0, %w0) : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>) {
  ^bb0(%i: tensor<i32>, %v: tensor<i32>, %w: tensor<i32>):
    %c0 = arith.constant dense<0> : tensor<i32>
    %more = arith.cmpi sgt, %i, %c0 : tensor<i32>
    ag.condition(%more : tensor<i1>) %i, %v, %w : tensor<i32>, tensor<i32>, tensor<i32>
  } do {
  ^bb0(%i: tensor<i32>, %v: tensor<i32>, %w: tensor<i32>):
    %c1 = arith.constant dense<1> : tensor<i32>
    %next = arith.subi %i, %c1 : tensor<i32>
    %is = tensor.extract %i[] : tensor<i32>
    %zero = arith.constant 0 : i32
    %nz = arith.cmpi ne, %is, %zero : i32
    %d = ag.assert %nz, "m.py:5:1: integer division by zero" guards %is : i32
    %vs = tensor.extract %v[] : tensor<i32>
    %q = arith.floordivsi %vs, %d : i32
    %v2 = tensor.from_elements %q : tensor<i32>
    %w2 = arith.addi %w, %c1 : tensor<i32>
    ag.yield %next, %v2, %w2 : tensor<i32>, tensor<i32>, tensor<i32>
  }
  return %r#0, %r#2 : tensor<i32>, tensor<i32>
}

// A loop whose results nothing uses and whose body has no effect goes whole.
// CHECK-LABEL: func.func @dead_loop
// CHECK-NOT: ag.while_loop
// CHECK: return %arg1
func.func @dead_loop(%n: tensor<i32>, %x: tensor<i32>) -> tensor<i32> {
  %r = ag.while_loop(%n) : (tensor<i32>) -> (tensor<i32>) {
  ^bb0(%i: tensor<i32>):
    %c0 = arith.constant dense<0> : tensor<i32>
    %more = arith.cmpi sgt, %i, %c0 : tensor<i32>
    ag.condition(%more : tensor<i1>) %i : tensor<i32>
  } do {
  ^bb0(%i: tensor<i32>):
    %c1 = arith.constant dense<1> : tensor<i32>
    %next = arith.subi %i, %c1 : tensor<i32>
    ag.yield %next : tensor<i32>
  }
  return %x : tensor<i32>
}

// A dead variable that an inner loop carries too (v, beside the live x) leaves both loops.
// CHECK-LABEL: func.func @nested
// CHECK: %[[OUTER:.*]]:2 = ag.while_loop(%arg0, %arg2) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
// CHECK: ag.while_loop(%{{.*}}) : (tensor<f32>) -> tensor<f32>
// CHECK-NOT: "m.py:6:1
// CHECK: return %[[OUTER]]#1
func.func @nested(%n: tensor<i32>, %v0: tensor<i32>, %x0: tensor<f32>) -> tensor<f32> {
  %r:3 = ag.while_loop(%n, %v0, %x0) : (tensor<i32>, tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<i32>, tensor<f32>) {
  ^bb0(%i: tensor<i32>, %v: tensor<i32>, %x: tensor<f32>):
    %c0 = arith.constant dense<0> : tensor<i32>
    %more = arith.cmpi sgt, %i, %c0 : tensor<i32>
    ag.condition(%more : tensor<i1>) %i, %v, %x : tensor<i32>, tensor<i32>, tensor<f32>
  } do {
  ^bb0(%i: tensor<i32>, %v: tensor<i32>, %x: tensor<f32>):
    %c1 = arith.constant dense<1> : tensor<i32>
    %next = arith.subi %i, %c1 : tensor<i32>
    %inner:2 = ag.while_loop(%v, %x) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>) {
    ^bb0(%a: tensor<i32>, %b: tensor<f32>):
      %f0 = arith.constant dense<1.0> : tensor<f32>
      %go = arith.cmpf olt, %b, %f0 : tensor<f32>
      ag.condition(%go : tensor<i1>) %a, %b : tensor<i32>, tensor<f32>
    } do {
    ^bb0(%a: tensor<i32>, %b: tensor<f32>):
      %as = tensor.extract %a[] : tensor<i32>
      %zero = arith.constant 0 : i32
      %nz = arith.cmpi ne, %as, %zero : i32
      %d = ag.assert %nz, "m.py:6:1: integer division by zero" guards %as : i32
      %q = arith.floordivsi %as, %d : i32
      %a2 = tensor.from_elements %q : tensor<i32>
      %two = arith.constant dense<2.0> : tensor<f32>
      %b2 = arith.addf %b, %two : tensor<f32>
      ag.yield %a2, %b2 : tensor<i32>, tensor<f32>
    }
    ag.yield %next, %inner#0, %inner#1 : tensor<i32>, tensor<i32>, tensor<f32>
  }
  return %r#2 : tensor<f32>
}

// An ag.cond result that nothing reads goes with what computes it and its check (the
// optimizer of tf.function prunes an If's unused outputs), also beside a tf.print.
// CHECK-LABEL: func.func @cond_per_result
// CHECK: ag.cond %{{.*}} : tensor<i1> -> (tensor<f32>)
// CHECK-NOT: ag.assert
// CHECK: ag.print
// CHECK-NOT: ag.assert
// CHECK: return
func.func @cond_per_result(%p: tensor<i1>, %v: i32, %x: tensor<f32>) -> tensor<f32> {
  %y:2 = ag.cond %p : tensor<i1> -> (tensor<i32>, tensor<f32>) {
    %zero = arith.constant 0 : i32
    %nz = arith.cmpi ne, %v, %zero : i32
    %d = ag.assert %nz, "m.py:8:1: integer division by zero" guards %v : i32
    %q = arith.floordivsi %v, %d : i32
    %t = tensor.from_elements %q : tensor<i32>
    ag.print %x : tensor<f32> {items = [0], sep = " ", end = "\n", stream = "stderr", summarize = 3}
    ag.yield %t, %x : tensor<i32>, tensor<f32>
  } else {
    %t = tensor.from_elements %v : tensor<i32>
    ag.yield %t, %x : tensor<i32>, tensor<f32>
  }
  return %y#1 : tensor<f32>
}

// A loop that holds an effect (here tf.print) is one stateful op to TensorFlow, kept
// whole: its dead variable v stays, with its check.
// CHECK-LABEL: func.func @stateful_loop_kept_whole
// CHECK: ag.while_loop(%arg0, %arg1) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
// CHECK: ag.assert %{{.*}}, "m.py:7:1: integer division by zero"
// CHECK: ag.print
func.func @stateful_loop_kept_whole(%n: tensor<i32>, %v0: tensor<i32>) -> tensor<i32> {
  %r:2 = ag.while_loop(%n, %v0) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  ^bb0(%i: tensor<i32>, %v: tensor<i32>):
    %c0 = arith.constant dense<0> : tensor<i32>
    %more = arith.cmpi sgt, %i, %c0 : tensor<i32>
    ag.condition(%more : tensor<i1>) %i, %v : tensor<i32>, tensor<i32>
  } do {
  ^bb0(%i: tensor<i32>, %v: tensor<i32>):
    %c1 = arith.constant dense<1> : tensor<i32>
    %next = arith.subi %i, %c1 : tensor<i32>
    %is = tensor.extract %i[] : tensor<i32>
    %zero = arith.constant 0 : i32
    %nz = arith.cmpi ne, %is, %zero : i32
    %d = ag.assert %nz, "m.py:7:1: integer division by zero" guards %is : i32
    %vs = tensor.extract %v[] : tensor<i32>
    %q = arith.floordivsi %vs, %d : i32
    %v2 = tensor.from_elements %q : tensor<i32>
    ag.print %i : tensor<i32> {items = [0], sep = " ", end = "\n", stream = "stderr", summarize = 3}
    ag.yield %next, %v2 : tensor<i32>, tensor<i32>
  }
  return %r#0 : tensor<i32>
}

// A check that always holds (MLIRGen's dependOn: an empty join depends on its parts) makes
// the parts, and the checks that guard them, live with the result; then it goes.
// CHECK-LABEL: func.func @depend_on
// CHECK: ag.assert %{{.*}}, "m.py:9:1: tf.stack: dimension 0 differs"
// CHECK-NOT: guards
// CHECK-NOT: ag.assert
// CHECK: return %{{.*}} : tensor<0x2xf32>
func.func @depend_on(%ok: i1, %x: tensor<0xf32>) -> tensor<0x2xf32> {
  %g = ag.assert %ok, "m.py:9:1: tf.stack: dimension 0 differs" guards %x : tensor<0xf32>
  %e = tensor.empty() : tensor<0x2xf32>
  %true = arith.constant true
  %r:2 = ag.assert %true, "" guards %e, %g : tensor<0x2xf32>, tensor<0xf32>
  return %r#0 : tensor<0x2xf32>
}
