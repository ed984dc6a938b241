//===- AgDialect.td - The ag dialect ---------------------------------------===//
//
// The `ag` dialect holds what upstream MLIR lacks for AutoGraph: staged control flow with
// AutoGraph's carried values (ag.cond, ag.while_loop), and later tf.print,
// tf.TensorArray and tf.Variable state. Tensor math uses upstream dialects.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_COMPILER_AGDIALECT_TD
#define AG_COMPILER_AGDIALECT_TD

include "mlir/IR/OpBase.td"

def Ag_Dialect : Dialect {
  let name = "ag";
  let summary = "AutoGraph's staged control flow and TensorFlow semantics upstream lacks";
  let description = [{
    A staged `if` of the Python source becomes `ag.cond`, a staged `while` or `for` becomes
    `ag.while_loop`; the values they carry are exactly the names the analyses chose
    (outputs first, then inputs), in that order. Modelled on `scf.if` and `scf.while`, to
    which the `ag-to-scf` pass lowers them.
  }];
  let cppNamespace = "::ag";
}

class Ag_Op<string mnemonic, list<Trait> traits = []> : Op<Ag_Dialect, mnemonic, traits>;

#endif // AG_COMPILER_AGDIALECT_TD
