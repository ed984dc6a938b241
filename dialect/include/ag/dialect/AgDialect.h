//===- AgDialect.h - The ag dialect and its operations ---------------------===//
//
// See AgDialect.td and AgOps.td: ag.cond, ag.while_loop, ag.condition, ag.yield.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_DIALECT_AGDIALECT_H
#define AG_DIALECT_AGDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ag/dialect/AgDialect.h.inc"

#define GET_OP_CLASSES
#include "ag/dialect/AgOps.h.inc"

#endif // AG_DIALECT_AGDIALECT_H
