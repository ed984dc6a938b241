//===- ReachingDefinitions.h - Which assignments reach each point ---------===//
//
// Requires: CFG, Activity. Attaches: for every CFG node, the definitions (binding sites)
// that may reach its entry, and, per name, where those definitions are. A definition is a
// (node, name) pair: the parameters at Entry, and each name a node binds. `del x` kills
// every definition of x and creates none.
//
// AutoGraph's DEFINED_VARS_IN of a statement is the set of names with at least one
// definition reaching it from outside the statement (definedIn()).
//
// Algorithm: forward may-analysis over bit vectors of definitions to a fixed point,
//   out(n) = gen(n) ∪ (in(n) − kill(n)),   in(n) = ∪ out(p) over predecessors p.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_ANALYSIS_REACHINGDEFINITIONS_H
#define AG_FRONTEND_ANALYSIS_REACHINGDEFINITIONS_H

#include "ag/frontend/analysis/Activity.h"

namespace ag::analysis {

class ReachingDefinitions {
public:
  struct Definition {
    unsigned node; ///< The CFG node that binds (Entry for parameters).
    unsigned name;
  };

  static ReachingDefinitions compute(const CFG &cfg, const Activity &activity,
                                     const NameTable &names);

  const std::vector<Definition> &definitions() const { return defs; }
  /// Definitions (indices into definitions()) that may reach node `id`'s entry.
  const llvm::BitVector &in(unsigned id) const { return ins[id]; }

  /// Names with a definition reaching `stmt` from outside it (DEFINED_VARS_IN).
  NameSet definedIn(const CFG &cfg, const ast::Stmt &stmt) const;
  /// The nodes whose definitions of `name` reach node `id`.
  llvm::SmallVector<unsigned, 4> reachingNodes(unsigned id, unsigned name) const;

private:
  std::vector<Definition> defs;
  std::vector<llvm::BitVector> ins, outs;
  unsigned numNames = 0;
};

} // namespace ag::analysis

#endif // AG_FRONTEND_ANALYSIS_REACHINGDEFINITIONS_H
