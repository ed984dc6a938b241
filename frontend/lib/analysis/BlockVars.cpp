//===- BlockVars.cpp - The names a staged if or loop carries ----------------===//
//
// AutoGraph's rule, stated in BlockVars.h, on bit vectors of names.
//
//===----------------------------------------------------------------------------------===//
#include "ag/frontend/analysis/BlockVars.h"

#include <algorithm>

using namespace ag;
using namespace ag::analysis;

BlockVars ag::analysis::computeBlockVars(const ast::Stmt &stmt, const CFG &cfg,
                                         const NameTable &names, const Activity &activity,
                                         const ReachingDefinitions &reaching,
                                         const Liveness &liveness) {
  const StmtScopes &scopes = activity.scopes(stmt);
  BlockVars vars;
  vars.modified = scopes.body.modified();
  if (llvm::isa<ast::IfStmt>(stmt))
    unionInto(vars.modified, scopes.orelse.modified());
  vars.liveIn = liveness.liveIn(cfg, stmt);
  vars.liveOut = liveness.liveOut(cfg, stmt);
  vars.definedIn = reaching.definedIn(cfg, stmt);
  // A for loop's target is assigned in its body (AutoGraph's `i = itr`): a loop variable
  // when it is live after the loop (one unbound before it is started as TensorFlow does).
  if (llvm::isa<ast::ForStmt>(stmt))
    unionInto(vars.modified, scopes.iterate.modified());

  NameSet relevant = vars.liveIn;
  relevant |= vars.liveOut;
  relevant |= activity.nonlocals();
  // A nested def's free names, where defined before the block (one first bound in it
  // is not carried for the closure's sake).
  NameSet closed = activity.closedOver();
  closed.resize(std::max(closed.size(), vars.definedIn.size()));
  NameSet definedIn = vars.definedIn;
  definedIn.resize(closed.size());
  closed &= definedIn;
  relevant |= closed;
  NameSet carried = vars.modified;
  carried &= relevant;

  // A loop returns every loop variable; only an if has inputs it does not return.
  NameSet inputOnly(carried.size());
  if (llvm::isa<ast::IfStmt>(stmt)) {
    inputOnly = carried;
    inputOnly &= vars.liveIn;
    inputOnly.reset(vars.liveOut);
  }
  NameSet outputs = carried;
  outputs.reset(inputOnly);

  vars.carried = names.sorted(outputs);
  vars.numOutputs = vars.carried.size();
  for (std::string &name : names.sorted(inputOnly))
    vars.carried.push_back(std::move(name));

  NameSet undefined = llvm::isa<ast::IfStmt>(stmt) ? vars.modified : carried;
  undefined.reset(vars.definedIn);
  undefined.reset(activity.globals());
  undefined.reset(activity.nonlocals());
  vars.undefined = names.sorted(undefined);
  return vars;
}
