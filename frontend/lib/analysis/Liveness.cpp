//===- Liveness.cpp - Names whose current value may still be read ---------===//
//
// Steps: iterate, in reverse node order (so most information flows in one round),
//   out(n) = ∪ in(succs),  in(n) = uses(n) ∪ (out(n) − defs(n)),
// until nothing changes.
//
//===----------------------------------------------------------------------------------===//
#include "ag/frontend/analysis/Liveness.h"

using namespace ag;
using namespace ag::analysis;

Liveness Liveness::compute(const CFG &cfg, const Activity &activity, unsigned numNames) {
  Liveness result;
  size_t count = cfg.nodes().size();
  result.ins.assign(count, NameSet(numNames));
  result.outs.assign(count, NameSet(numNames));
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned id = count; id-- > 0;) {
      NameSet out(numNames);
      for (unsigned s : cfg.node(id).succs)
        out |= result.ins[s];
      NameSet in = out;
      in.reset(activity.defs(id));
      in |= activity.uses(id);
      if (in != result.ins[id]) {
        result.ins[id] = std::move(in);
        changed = true;
      }
      result.outs[id] = std::move(out);
    }
  }
  return result;
}

NameSet Liveness::liveOut(const CFG &cfg, const ast::Stmt &stmt) const {
  NameSet out(ins.empty() ? 0 : ins.front().size());
  for (unsigned s : cfg.stmtNext(stmt))
    out |= ins[s];
  return out;
}
