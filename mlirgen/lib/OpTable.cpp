//===- OpTable.cpp - Each TensorFlow op to its emitter ---------------------===//
//
// The dispatch is generated from TFOps.def: every op goes to MLIRGen::emit<LOWERING>, so an
// op the tracer types but MLIRGen cannot lower fails to build.
//
//===----------------------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

using namespace ag;

bool MLIRGen::op(TFOp op, const CallArgs &args, Value &out) {
  switch (op) {
#define TF_OP(ID, NAME, TYPING, LOWERING)                                                  \
  case TFOp::ID:                                                                           \
    return emit##LOWERING(op, args, out);
#include "ag/frontend/analysis/TFOps.def"
  }
  llvm_unreachable("every op has a lowering");
}

bool MLIRGen::emitUnsupported(TFOp op, const CallArgs &args, Value &) {
  return fail(args.loc, "tf." + tfOpName(op) + " is not supported by agc's code generator yet");
}

static bool notAnOp(MLIRGen &gen, TFOp op, const CallArgs &args) {
  return gen.fail(args.loc, "internal error: tf." + tfOpName(op) +
                                " is not an op the code generator builds");
}

bool MLIRGen::emitPython(TFOp op, const CallArgs &args, Value &) {
  return notAnOp(*this, op, args);
}
bool MLIRGen::emitVariable(TFOp op, const CallArgs &args, Value &) {
  return notAnOp(*this, op, args);
}
bool MLIRGen::emitTensorArray(TFOp op, const CallArgs &args, Value &) {
  return notAnOp(*this, op, args);
}
