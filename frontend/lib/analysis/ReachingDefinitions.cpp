//===- ReachingDefinitions.cpp - Which assignments reach each point -------===//
//
// Steps:
//   1. Number the definitions: one per (node, name) the node binds, deletions excluded.
//   2. gen(n) = n's definitions; kill(n) = every definition of a name n binds or deletes.
//   3. Iterate in(n) = ∪ out(preds), out(n) = gen(n) ∪ (in(n) − kill(n)) in node order
//      until nothing changes (the graph is small; node order follows the source, so few
//      rounds are needed).
//
//===----------------------------------------------------------------------------------===//
#include "ag/frontend/analysis/ReachingDefinitions.h"

using namespace ag;
using namespace ag::analysis;

ReachingDefinitions ReachingDefinitions::compute(const CFG &cfg, const Activity &activity,
                                                 const NameTable &names) {
  ReachingDefinitions result;
  result.numNames = names.size();
  size_t count = cfg.nodes().size();

  // 1. Definitions, and the definitions of each name.
  std::vector<llvm::BitVector> ofName(names.size());
  std::vector<llvm::SmallVector<unsigned, 2>> genList(count);
  for (unsigned id = 0; id < count; ++id) {
    NameSet binds = activity.defs(id);
    binds.reset(activity.deletes(id));
    for (unsigned name : binds.set_bits()) {
      genList[id].push_back(result.defs.size());
      result.defs.push_back({id, name});
    }
  }
  size_t numDefs = result.defs.size();
  for (llvm::BitVector &set : ofName)
    set.resize(numDefs);
  for (unsigned d = 0; d < numDefs; ++d)
    ofName[result.defs[d].name].set(d);

  // 2. gen and kill.
  std::vector<llvm::BitVector> gen(count, llvm::BitVector(numDefs)),
      kill(count, llvm::BitVector(numDefs));
  for (unsigned id = 0; id < count; ++id) {
    for (unsigned d : genList[id])
      gen[id].set(d);
    for (unsigned name : activity.defs(id).set_bits())
      kill[id] |= ofName[name];
  }

  // 3. Fixed point.
  result.ins.assign(count, llvm::BitVector(numDefs));
  result.outs.assign(count, llvm::BitVector(numDefs));
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned id = 0; id < count; ++id) {
      llvm::BitVector in(numDefs);
      for (unsigned p : cfg.node(id).preds)
        in |= result.outs[p];
      llvm::BitVector out = in;
      out.reset(kill[id]);
      out |= gen[id];
      if (out != result.outs[id]) {
        result.outs[id] = std::move(out);
        changed = true;
      }
      result.ins[id] = std::move(in);
    }
  }
  return result;
}

NameSet ReachingDefinitions::definedIn(const CFG &cfg, const ast::Stmt &stmt) const {
  NameSet names(numNames);
  for (unsigned p : cfg.stmtPrev(stmt))
    for (unsigned d : outs[p].set_bits())
      names.set(defs[d].name);
  return names;
}

llvm::SmallVector<unsigned, 4> ReachingDefinitions::reachingNodes(unsigned id,
                                                                  unsigned name) const {
  llvm::SmallVector<unsigned, 4> nodes;
  for (unsigned d : ins[id].set_bits())
    if (defs[d].name == name)
      nodes.push_back(defs[d].node);
  return nodes;
}
