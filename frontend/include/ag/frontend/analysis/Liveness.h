//===- Liveness.h - Names whose current value may still be read ------------===//
//
// Requires: CFG, Activity. Attaches: live-in and live-out of every CFG node, and of every
// compound statement the way AutoGraph defines them: live-in is the live-in of its first
// node (the test or the iterate node), live-out the union of the live-ins of the nodes it
// flows to outside itself.
//
// Algorithm: the textbook backward fixed point over bit vectors of names,
//   out(n) = ∪ in(s) over successors s,   in(n) = uses(n) ∪ (out(n) − defs(n)).
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_ANALYSIS_LIVENESS_H
#define AG_FRONTEND_ANALYSIS_LIVENESS_H

#include "ag/frontend/analysis/Activity.h"

namespace ag::analysis {

class Liveness {
public:
  static Liveness compute(const CFG &cfg, const Activity &activity, unsigned numNames);

  const NameSet &in(unsigned id) const { return ins[id]; }
  const NameSet &out(unsigned id) const { return outs[id]; }

  /// LIVE_VARS_IN of a statement.
  NameSet liveIn(const CFG &cfg, const ast::Stmt &stmt) const {
    return ins[cfg.firstNode(stmt)];
  }
  /// LIVE_VARS_OUT of a statement.
  NameSet liveOut(const CFG &cfg, const ast::Stmt &stmt) const;

private:
  std::vector<NameSet> ins, outs;
};

} // namespace ag::analysis

#endif // AG_FRONTEND_ANALYSIS_LIVENESS_H
