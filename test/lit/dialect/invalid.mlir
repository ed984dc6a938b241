// RUN: ag-opt %s -split-input-file -verify-diagnostics
// The verifiers of the ag operations.

func.func @yield_type(%c: i1, %a: tensor<i32>, %b: tensor<f32>) -> tensor<i32> {
  // expected-error @+1 {{'ag.cond' op the values the else region yields have types ('tensor<f32>'), expected ('tensor<i32>')}}
  %r = ag.cond %c : i1 -> (tensor<i32>) {
    ag.yield %a : tensor<i32>
  } else {
    ag.yield %b : tensor<f32>
  }
  return %r : tensor<i32>
}

// -----

func.func @bad_predicate(%c: tensor<2xi1>) {
  // expected-error @+1 {{operand #0 must be 1-bit signless integer or 0D tensor of 1-bit signless integer values}}
  ag.cond %c : tensor<2xi1> {
    ag.yield
  } else {
    ag.yield
  }
  return
}

// -----

func.func @loop_body_type(%x: tensor<f32>, %c: i1, %i: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{'ag.while_loop' op the values the after region yields have types ('tensor<i32>'), expected ('tensor<f32>')}}
  %r = ag.while_loop (%x) : (tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    ag.condition(%c : i1) %a : tensor<f32>
  } do {
  ^bb0(%a: tensor<f32>):
    ag.yield %i : tensor<i32>
  }
  return %r : tensor<f32>
}

// -----

func.func @loop_condition_args(%x: tensor<f32>, %c: i1, %i: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{'ag.while_loop' op the values ag.condition passes have types ('tensor<i32>'), expected ('tensor<f32>')}}
  %r = ag.while_loop (%x) : (tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    ag.condition(%c : i1) %i : tensor<i32>
  } do {
  ^bb0(%a: tensor<f32>):
    ag.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @yield_outside(%a: i32) {
  // expected-error @+1 {{'ag.yield' op expects parent op to be one of 'ag.cond, ag.while_loop'}}
  ag.yield %a : i32
}

// -----

func.func @print_missing_tensor(%x: tensor<f32>) {
  // expected-error @+1 {{'ag.print' op item 1 names no tensor operand (there are 1)}}
  ag.print %x : tensor<f32> {items = [0, 1], sep = " ", end = "\n", stream = "stderr", summarize = 3}
  return
}

// -----

func.func @print_bad_item(%x: tensor<f32>) {
  // expected-error @+1 {{'ag.print' op items must be strings or operand indices, not 1.000000e+00 : f32}}
  ag.print %x : tensor<f32> {items = [1.0 : f32], sep = " ", end = "\n", stream = "stderr", summarize = 3}
  return
}

// -----

func.func @print_bad_stream() {
  // expected-error @+1 {{'ag.print' op stream must be "stderr" or "stdout", not "file"}}
  ag.print {items = ["x"], sep = " ", end = "\n", stream = "file", summarize = 3}
  return
}

// -----

func.func @variable_read_type() {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'i32'}}
  %v = ag.variable_read @v : i32
  return
}
