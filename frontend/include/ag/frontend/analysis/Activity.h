//===- Activity.h - Names read, bound and deleted ---------------------------===//
//
// Requires: a CFG. Attaches:
//   - per CFG node, the names it reads (uses) and the names it binds or deletes (defs),
//     for the dataflow analyses;
//   - per compound statement, a Scope for each of its parts: the `body`, the `orelse`
//     (else clause), the `test` (if/while condition) and the `iterate` part (a for's target
//     and iterable): which names each reads, binds (`x = ...`, `x += ...`, a for target, a
//     nested def, an import) and deletes (`del x`);
//   - for the function, the parameters and its `global` / `nonlocal` declarations.
//
// Only simple names are tracked. `a.b = v` and `a[i] = v` read `a` (and `i`, `v`) and bind
// nothing: they mutate an object, which the state rules of AutoGraph handle elsewhere.
// A nested function reads the names it uses freely (its closure) at its definition.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_ANALYSIS_ACTIVITY_H
#define AG_FRONTEND_ANALYSIS_ACTIVITY_H

#include "ag/frontend/analysis/CFG.h"
#include "ag/frontend/analysis/Names.h"

#include "llvm/ADT/DenseMap.h"

namespace ag::analysis {

/// What one part of a statement does with names.
struct Scope {
  NameSet read;
  NameSet bound;
  NameSet deleted;
  /// AutoGraph's "modified": bound or deleted.
  NameSet modified() const {
    NameSet m = bound;
    unionInto(m, deleted);
    return m;
  }
};

/// The parts of a compound statement.
struct StmtScopes {
  Scope body;
  Scope orelse;
  Scope test;    ///< if/while: the condition.
  Scope iterate; ///< for: the target (bound) and the iterable (read).
};

class Activity {
public:
  /// Analyses `cfg`'s function; interns every name into `names`.
  static Activity compute(const CFG &cfg, NameTable &names);

  /// Names read at node `id` before it binds anything.
  const NameSet &uses(unsigned id) const { return nodeUses[id]; }
  /// Names node `id` binds or deletes.
  const NameSet &defs(unsigned id) const { return nodeDefs[id]; }
  /// Names node `id` deletes (a subset of defs()).
  const NameSet &deletes(unsigned id) const { return nodeDeletes[id]; }

  /// The scopes of compound statement `stmt` (if, while or for).
  const StmtScopes &scopes(const ast::Stmt &stmt) const { return stmtScopes.find(&stmt)->second; }

  const NameSet &params() const { return paramSet; }
  const NameSet &globals() const { return globalSet; }
  const NameSet &nonlocals() const { return nonlocalSet; }
  /// Names the functions this function defines (`def`, not lambdas) read freely, their
  /// closure cells: such a function may run anywhere after its definition, so AutoGraph
  /// takes them as live wherever they are defined (TensorFlow 2.21 does so for a nested
  /// def, and not for a lambda).
  const NameSet &closedOver() const { return closedSet; }

  /// Brings every set to the final size of the name table.
  void resize(unsigned size);

private:
  std::vector<NameSet> nodeUses, nodeDefs, nodeDeletes;
  llvm::DenseMap<const ast::Stmt *, StmtScopes> stmtScopes;
  NameSet paramSet, globalSet, nonlocalSet, closedSet;
  friend class ActivityBuilder;
};

} // namespace ag::analysis

#endif // AG_FRONTEND_ANALYSIS_ACTIVITY_H
