//===- AgOps.td - Operations of the ag dialect -----------------------------===//
#ifndef AG_COMPILER_AGOPS_TD
#define AG_COMPILER_AGOPS_TD

include "ag/dialect/AgDialect.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// A staged test: an i1, or a 0-d tensor of i1 (what tf comparisons give).
def Ag_Predicate : AnyTypeOf<[I1, TensorRankOf<[I1], [0]>]>;

def Ag_YieldOp : Ag_Op<"yield", [Pure, ReturnLike, Terminator,
                                 ParentOneOf<["CondOp", "WhileLoopOp"]>]> {
  let summary = "Ends a branch of ag.cond or the body of ag.while_loop, giving its values";
  let description = [{
    The operands are the carried values, in the order of the parent's results (ag.cond)
    or loop-carried values (ag.while_loop).

    ```mlir
    ag.yield %y, %z : tensor<f32>, tensor<i32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

def Ag_ConditionOp : Ag_Op<"condition", [Pure, Terminator, HasParent<"WhileLoopOp">]> {
  let summary = "Ends the test region of ag.while_loop: whether to run the body again";
  let description = [{
    The loop runs its body with `args` while `condition` holds, and otherwise ends with
    `args` as its results.

    ```mlir
    ag.condition(%keep_going : tensor<i1>) %x : tensor<f32>
    ```
  }];
  let arguments = (ins Ag_Predicate:$condition, Variadic<AnyType>:$args);
  let assemblyFormat =
      "`(` $condition `:` type($condition) `)` attr-dict ($args^ `:` type($args))?";
}

def Ag_CondOp : Ag_Op<"cond", [RecursiveMemoryEffects, NoRegionArguments]> {
  let summary = "A staged if (tf.cond): runs one of two regions, gives its carried values";
  let description = [{
    Both regions end in `ag.yield` with values of the result types: the names the
    AutoGraph analysis carries out of the `if`.

    ```mlir
    %y = ag.cond %c -> (tensor<i32>) {
      ag.yield %one : tensor<i32>
    } else {
      ag.yield %two : tensor<i32>
    }
    ```
  }];
  let arguments = (ins Ag_Predicate:$condition);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$thenRegion, SizedRegion<1>:$elseRegion);
  let assemblyFormat = [{
    $condition `:` type($condition) (`->` `(` type($results)^ `)`)? $thenRegion `else`
    $elseRegion attr-dict
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Ag_WhileLoopOp : Ag_Op<"while_loop", [RecursiveMemoryEffects]> {
  let summary = "A staged loop (tf.while_loop) over AutoGraph's loop variables";
  let description = [{
    The `before` region takes the loop variables and ends in `ag.condition`, which says
    whether to go on and passes values to the `after` region (the body); the body ends in
    `ag.yield` with the next loop variables. The results are the values `ag.condition`
    passes when the loop ends.

    ```mlir
    %r = ag.while_loop (%x) : (tensor<f32>) -> tensor<f32> {
    ^bb0(%a: tensor<f32>):
      %c = ...
      ag.condition(%c : tensor<i1>) %a : tensor<f32>
    } do {
    ^bb0(%a: tensor<f32>):
      %t = ...
      ag.yield %t : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inits);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$before, SizedRegion<1>:$after);
  let assemblyFormat = [{
    `(` $inits `)` `:` functional-type($inits, $results) $before `do` $after attr-dict
  }];
  let hasVerifier = 1;
}


//===----------------------------------------------------------------------------------===//
// Effects that no upstream op has: tf.print and tf.Variable state
//===----------------------------------------------------------------------------------===//

def Ag_PrintOp : Ag_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "tf.print: writes text and tensors, in program order";
  let description = [{
    `items` lists what tf.print was given, in order: a string attribute is text written
    as it is; an integer attribute `i` is the i-th tensor operand, formatted the way
    TensorFlow formats it as its dtype: `dtypes` names, per tensor operand, those the
    element type does not say ("string" for handles, "uint8", ...; "" for the others) (`[1 2 3]`, `[[1 2] [3 4]]`, elided past 1000 elements). `sep`
    goes between items, `end` after the last; `stream` is `stderr` (TensorFlow's default)
    or `stdout`; `summarize` is how many elements each dimension shows at its start and
    its end before `...` (-1: all).
    ```mlir
    ag.print %x : tensor<3xi32> {items = ["x =", 0 : i64], sep = " ", end = "\n",
                                 stream = "stderr"}
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$tensors, ArrayAttr:$items, StrAttr:$sep,
                   StrAttr:$end, StrAttr:$stream, I64Attr:$summarize,
                   OptionalAttr<StrArrayAttr>:$dtypes);
  let assemblyFormat = "($tensors^ `:` type($tensors))? attr-dict";
  let hasVerifier = 1;
}

def Ag_FormatOp : Ag_Op<"format", [MemoryEffects<[MemWrite]>]> {
  let summary = "tf.strings.format: text and tensors into one string, as tf.print writes them";
  let description = [{
    `items` and `dtypes` are ag.print's; the result is a string handle (a 0-d tensor of
    i64: the runtime's string, see mlirgen/lib/OpsStrings.cpp). It writes the runtime's
    text buffer, which ag.print uses too: the two keep their order.
    ```mlir
    %s = ag.format %x : tensor<3xi32> {items = ["x = ", 0 : i64], summarize = 3}
           -> tensor<i64>
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$tensors, ArrayAttr:$items,
                   I64Attr:$summarize, OptionalAttr<StrArrayAttr>:$dtypes);
  let results = (outs 0DTensorOf<[I64]>:$result);
  let assemblyFormat = "($tensors^ `:` type($tensors))? attr-dict `->` type($result)";
  let hasVerifier = 1;
}

def Ag_VariableReadOp : Ag_Op<"variable_read", [MemoryEffects<[MemRead]>]> {
  let summary = "Reads a module-level tf.Variable (a memref.global) as a tensor";
  let description = [{
    The value is a copy: later writes to the variable do not change it. Reads and
    writes keep their program order (TensorFlow's automatic control dependencies).
    ```mlir
    %v = ag.variable_read @v : tensor<f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$variable);
  let results = (outs AnyRankedTensor:$value);
  let assemblyFormat = "$variable attr-dict `:` type($value)";
}

def Ag_VariableWriteOp : Ag_Op<"variable_write", [MemoryEffects<[MemWrite]>]> {
  let summary = "Writes a module-level tf.Variable (tf.Variable.assign)";
  let description = [{
    ```mlir
    ag.variable_write @v, %x : tensor<f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$variable, AnyRankedTensor:$value);
  let assemblyFormat = "$variable `,` $value attr-dict `:` type($value)";
}


def Ag_AssertOp : Ag_Op<"assert", [AttrSizedOperandSegments,
                                   DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
                                   DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "A run-time check: the call fails with `message` unless `condition` holds";
  let description = [{
    What tf.debugging.assert_*, an index out of bounds, an integer division by zero, a
    negative size and a shape that turns out not to broadcast become. The call of the
    compiled function returns AGC_RUNTIME_ERROR with the message; nothing after the check
    runs, and what the call allocated is freed. `{0}`, `{1}`, ... in the message stand for
    the run-time values of the optional `values`, written in decimal.

    A check of the validity of an op's operands *guards* them: its results are the
    `guarded` values, and the op uses those. Such a check has no effect of its own: when
    nothing uses what it guards, it is dead and erased with the op, as TensorFlow prunes an
    op whose result nothing uses, and with it the error that op would have raised. A check
    that guards nothing (tf.debugging.assert_*) always runs.
    ```mlir
    ag.assert %ok, "model.py:7:5: tf.debugging.assert_positive failed"
    %j = ag.assert %in, "model.py:9:12: index {0} is out of bounds for a dimension of size {1}"(%i, %n) : i64, i64 guards %i0 : index
    ```
  }];
  let arguments = (ins I1:$condition, StrAttr:$message, Variadic<I64>:$values,
                       Variadic<AnyType>:$guarded);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $condition `,` $message (`(` $values^ `)` `:` type($values))?
    (`guards` $guarded^ `:` type($guarded))? attr-dict
  }];
  let builders = [
    // A check that guards nothing.
    OpBuilder<(ins "::mlir::Value":$condition, "::llvm::StringRef":$message,
                   "::mlir::ValueRange":$values), [{
      build($_builder, $_state, condition, message, values, ::mlir::ValueRange{});
    }]>
  ];
  let hasVerifier = 1;
}

#endif // AG_COMPILER_AGOPS_TD
