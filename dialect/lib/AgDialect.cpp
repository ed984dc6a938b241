//===- AgDialect.cpp - The ag dialect --------------------------------------===//
#include "ag/dialect/AgDialect.h"

using namespace ag;

#include "ag/dialect/AgDialect.cpp.inc"

void AgDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ag/dialect/AgOps.cpp.inc"
      >();
}
