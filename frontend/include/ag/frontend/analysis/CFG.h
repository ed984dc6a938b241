//===- CFG.h - Control-flow graph of one function --------------------------===//
//
// Requires: the function's AST. Attaches: a CFG whose nodes are the function's simple
// statements plus one node per compound-statement header, with the edges that `break`,
// `continue` and `return` add, and, per statement, its first node and the nodes right
// before and after it (AutoGraph's stmt_prev / stmt_next).
//
// Node kinds:
//   Entry, Exit      one each; parameters are defined at Entry, `return` jumps to Exit;
//   Stmt             a simple statement (assignment, call, return, nested def, ...);
//   Test             the test of an `if` or `while`, evaluated on every pass;
//   Iterate          a `for` header: takes the next element and binds the target.
//
// Nodes of a statement are numbered consecutively, so "inside statement S" is an id range.
// Nested function definitions are single Stmt nodes; their bodies get CFGs of their own.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_ANALYSIS_CFG_H
#define AG_FRONTEND_ANALYSIS_CFG_H

#include "ag/frontend/AST.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace ag::analysis {

struct CFGNode {
  enum class Kind : uint8_t { Entry, Exit, Stmt, Test, Iterate };
  Kind kind;
  const ast::Stmt *stmt = nullptr; ///< The statement (for Test/Iterate: the compound one).
  llvm::SmallVector<unsigned, 2> succs;
  llvm::SmallVector<unsigned, 2> preds;
};

class CFG {
public:
  /// Builds the graph of `function`'s body.
  static CFG build(const ast::FunctionDefStmt &function);

  const ast::FunctionDefStmt &getFunction() const { return *function; }
  const std::vector<CFGNode> &nodes() const { return nodeList; }
  const CFGNode &node(unsigned id) const { return nodeList[id]; }
  unsigned entry() const { return 0; }
  unsigned exit() const { return 1; }

  /// The first node of `stmt` (its header for a compound statement).
  unsigned firstNode(const ast::Stmt &stmt) const { return spans.lookup(&stmt).first; }
  /// Whether node `id` belongs to `stmt` (to its header or anything nested in it).
  bool contains(const ast::Stmt &stmt, unsigned id) const {
    auto span = spans.lookup(&stmt);
    return id >= span.first && id < span.second;
  }
  /// Nodes outside `stmt` that flow into its first node (AutoGraph's stmt_prev).
  llvm::SmallVector<unsigned, 4> stmtPrev(const ast::Stmt &stmt) const;
  /// Nodes outside `stmt` that its nodes flow to (AutoGraph's stmt_next).
  llvm::SmallVector<unsigned, 4> stmtNext(const ast::Stmt &stmt) const;

  /// One line per node: `id kind @line:col -> succs`.
  void print(llvm::raw_ostream &os) const;

private:
  friend class CFGBuilder;
  const ast::FunctionDefStmt *function = nullptr;
  std::vector<CFGNode> nodeList;
  /// Per statement: [first node, one past its last node).
  llvm::DenseMap<const ast::Stmt *, std::pair<unsigned, unsigned>> spans;
};

} // namespace ag::analysis

#endif // AG_FRONTEND_ANALYSIS_CFG_H
