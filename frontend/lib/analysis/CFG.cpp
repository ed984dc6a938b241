//===- CFG.cpp - Control-flow graph of one function -----------------------===//
//
// The builder threads a list of dangling "tails" (nodes whose successor is the next thing
// built) through the statements:
//
//   simple s:        tails -> s;                       tails = {s}
//   return:          tails -> r -> Exit;               tails = {}
//   break/continue:  tails -> b -> (after loop | loop header); tails = {}
//   if:              tails -> T; body from {T}; orelse from {T} (or T itself when absent);
//                    tails = tails(body) ∪ tails(orelse)
//   while / for:     tails -> H; body from {H}; tails(body) -> H;
//                    orelse from {H} (or H); tails = that ∪ the loop's breaks
//   end of body:     tails -> Exit
//
//===----------------------------------------------------------------------------------===//
#include "ag/frontend/analysis/CFG.h"

using namespace ag;
using namespace ag::analysis;
using llvm::cast;

namespace ag::analysis {

class CFGBuilder {
public:
  explicit CFGBuilder(CFG &cfg) : cfg(cfg) {}

  void build(const ast::FunctionDefStmt &function) {
    cfg.function = &function;
    newNode(CFGNode::Kind::Entry, nullptr);
    newNode(CFGNode::Kind::Exit, nullptr);
    Tails tails = buildList(function.getBody(), {cfg.entry()});
    connect(tails, cfg.exit());
  }

private:
  using Tails = llvm::SmallVector<unsigned, 4>;
  struct Loop {
    unsigned header;
    Tails breaks;
  };

  unsigned newNode(CFGNode::Kind kind, const ast::Stmt *stmt) {
    cfg.nodeList.push_back(CFGNode{kind, stmt, {}, {}});
    return cfg.nodeList.size() - 1;
  }
  void edge(unsigned from, unsigned to) {
    cfg.nodeList[from].succs.push_back(to);
    cfg.nodeList[to].preds.push_back(from);
  }
  void connect(const Tails &tails, unsigned to) {
    for (unsigned t : tails)
      edge(t, to);
  }

  Tails buildList(const ast::StmtList &stmts, Tails tails) {
    for (const ast::StmtPtr &stmt : stmts)
      tails = buildStmt(*stmt, tails);
    return tails;
  }

  Tails buildStmt(const ast::Stmt &stmt, const Tails &tails) {
    unsigned first = cfg.nodeList.size();
    Tails out = buildStmtNodes(stmt, tails);
    cfg.spans[&stmt] = {first, static_cast<unsigned>(cfg.nodeList.size())};
    return out;
  }

  Tails buildStmtNodes(const ast::Stmt &stmt, const Tails &tails) {
    switch (stmt.getKind()) {
    case ast::Stmt::Kind::If: {
      const auto &s = cast<ast::IfStmt>(stmt);
      unsigned test = newNode(CFGNode::Kind::Test, &stmt);
      connect(tails, test);
      Tails out = buildList(s.getBody(), {test});
      Tails orelse = s.getOrElse().empty() ? Tails{test} : buildList(s.getOrElse(), {test});
      out.append(orelse.begin(), orelse.end());
      return out;
    }
    case ast::Stmt::Kind::While:
      return buildLoop(stmt, CFGNode::Kind::Test, cast<ast::WhileStmt>(stmt).getBody(),
                       cast<ast::WhileStmt>(stmt).getOrElse(), tails);
    case ast::Stmt::Kind::For:
      return buildLoop(stmt, CFGNode::Kind::Iterate, cast<ast::ForStmt>(stmt).getBody(),
                       cast<ast::ForStmt>(stmt).getOrElse(), tails);
    case ast::Stmt::Kind::Try: {
      // Handlers may start anywhere in the body; else follows the body; finally follows
      // everything. (Tracing runs the body, else and finally; see Tracer::execTry.)
      const auto &s = cast<ast::TryStmt>(stmt);
      Tails bodyTails = buildList(s.getBody(), tails);
      Tails entries = tails;
      entries.append(bodyTails.begin(), bodyTails.end());
      Tails out = s.getOrElse().empty() ? bodyTails : buildList(s.getOrElse(), bodyTails);
      for (const ast::ExceptHandler &handler : s.getHandlers()) {
        Tails h = buildList(handler.body, entries);
        out.append(h.begin(), h.end());
      }
      return s.getFinalBody().empty() ? out : buildList(s.getFinalBody(), out);
    }
    case ast::Stmt::Kind::With: {
      // The header (contexts entered, targets bound), then the body.
      unsigned header = newNode(CFGNode::Kind::Stmt, &stmt);
      connect(tails, header);
      return buildList(cast<ast::WithStmt>(stmt).getBody(), {header});
    }
    default:
      break;
    }
    unsigned node = newNode(CFGNode::Kind::Stmt, &stmt);
    connect(tails, node);
    switch (stmt.getKind()) {
    case ast::Stmt::Kind::Return:
    case ast::Stmt::Kind::Raise:
      edge(node, cfg.exit());
      return {};
    case ast::Stmt::Kind::Break:
      // The parser refuses `break` outside a loop, so a loop is always open here.
      loops.back().breaks.push_back(node);
      return {};
    case ast::Stmt::Kind::Continue:
      edge(node, loops.back().header);
      return {};
    default:
      return {node};
    }
  }

  Tails buildLoop(const ast::Stmt &stmt, CFGNode::Kind headerKind, const ast::StmtList &body,
                  const ast::StmtList &orelse, const Tails &tails) {
    unsigned header = newNode(headerKind, &stmt);
    connect(tails, header);
    loops.push_back({header, {}});
    Tails bodyTails = buildList(body, {header});
    connect(bodyTails, header);
    Tails breaks = std::move(loops.back().breaks);
    loops.pop_back();
    Tails out = orelse.empty() ? Tails{header} : buildList(orelse, {header});
    out.append(breaks.begin(), breaks.end());
    return out;
  }

  CFG &cfg;
  std::vector<Loop> loops;
};

} // namespace ag::analysis

CFG CFG::build(const ast::FunctionDefStmt &function) {
  CFG cfg;
  CFGBuilder(cfg).build(function);
  return cfg;
}

llvm::SmallVector<unsigned, 4> CFG::stmtPrev(const ast::Stmt &stmt) const {
  llvm::SmallVector<unsigned, 4> out;
  for (unsigned p : nodeList[firstNode(stmt)].preds)
    if (!contains(stmt, p))
      out.push_back(p);
  return out;
}

llvm::SmallVector<unsigned, 4> CFG::stmtNext(const ast::Stmt &stmt) const {
  llvm::SmallVector<unsigned, 4> out;
  auto [begin, end] = spans.lookup(&stmt);
  for (unsigned id = begin; id < end; ++id)
    for (unsigned s : nodeList[id].succs)
      if (!contains(stmt, s) && !llvm::is_contained(out, s))
        out.push_back(s);
  return out;
}

void CFG::print(llvm::raw_ostream &os) const {
  static const char *kKinds[] = {"entry", "exit", "stmt", "test", "iterate"};
  for (unsigned id = 0; id < nodeList.size(); ++id) {
    const CFGNode &n = nodeList[id];
    os << id << ' ' << kKinds[static_cast<unsigned>(n.kind)];
    if (n.stmt)
      os << ' ' << ast::kindName(n.stmt->getKind()) << " @" << n.stmt->loc().begin.line << ':'
         << n.stmt->loc().begin.column;
    os << " ->";
    for (unsigned s : n.succs)
      os << ' ' << s;
    os << '\n';
  }
}
