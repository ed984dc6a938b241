//===- AgDialect.cpp - The ag dialect --------------------------------------===//
#include "ag/compiler/AgDialect.h"

using namespace ag;

#include "ag/compiler/AgDialect.cpp.inc"

void AgDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ag/compiler/AgOps.cpp.inc"
      >();
}
