//===- BlockVars.h - The names a staged if or loop carries ------------------===//
//
// Requires: Activity, ReachingDefinitions, Liveness. Attaches: for each if, while and for,
// the variables AutoGraph would carry through it if it were staged, by AutoGraph's rule:
//
//   modified   = names bound (or deleted) in the body and else branch
//                (an if: both branches; a loop: its body);
//   carried    = modified ∩ (live-in ∪ live-out ∪ nonlocal declarations);
//   inputOnly  = carried ∩ live-in − live-out   (an if: read by a branch, not needed
//                after; a loop returns all its loop variables, so none are input-only);
//   undefined  = carried − defined-in − globals − nonlocals
//                (an if: every modified name, as AutoGraph checks them per branch);
//   order      = outputs first, then input-only; alphabetical within each group.
//
// Whether the block is staged at all (a tensor test) is decided by type inference; this
// says what would be carried, and why, for every block.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_ANALYSIS_BLOCKVARS_H
#define AG_FRONTEND_ANALYSIS_BLOCKVARS_H

#include "ag/frontend/analysis/Liveness.h"
#include "ag/frontend/analysis/ReachingDefinitions.h"

#include <string>
#include <vector>

namespace ag::analysis {

struct BlockVars {
  NameSet modified, liveIn, liveOut, definedIn;
  /// Carried names in AutoGraph's order: outputs, then input-only.
  std::vector<std::string> carried;
  unsigned numOutputs = 0;
  /// Modified names with no definition before the block (sorted).
  std::vector<std::string> undefined;
};

/// The block variables of compound statement `stmt` (an if, while or for).
BlockVars computeBlockVars(const ast::Stmt &stmt, const CFG &cfg, const NameTable &names,
                           const Activity &activity, const ReachingDefinitions &reaching,
                           const Liveness &liveness);

} // namespace ag::analysis

#endif // AG_FRONTEND_ANALYSIS_BLOCKVARS_H
