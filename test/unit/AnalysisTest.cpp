// Unit tests for the static analyses: CFG, activity, reaching definitions, liveness and
// AutoGraph's block variables, each on small functions.
#include "TestUtil.h"

#include "ag/frontend/analysis/FunctionAnalysis.h"

#include <doctest/doctest.h>

using namespace ag;
using namespace ag::analysis;
using llvm::cast;

namespace {
/// Parses `source`, whose first statement is a function, and analyses it.
struct Analysed {
  explicit Analysed(const std::string &source) : parsed(agtest::parse(source)) {
    REQUIRE(parsed.module);
    function = llvm::dyn_cast<ast::FunctionDefStmt>(parsed.module->getBody().front().get());
    REQUIRE(function);
    fa = std::make_unique<FunctionAnalysis>(*function);
  }
  /// The `index`-th statement of the function body.
  const ast::Stmt &stmt(size_t index) const { return *function->getBody()[index]; }
  std::vector<std::string> set(const NameSet &s) const { return fa->names.sorted(s); }
  const BlockVars &block(const ast::Stmt &s) const { return fa->blocks.find(&s)->second; }

  agtest::Parsed parsed;
  const ast::FunctionDefStmt *function = nullptr;
  std::unique_ptr<FunctionAnalysis> fa;
};
using Names = std::vector<std::string>;
} // namespace

TEST_CASE("CFG: straight line, if, loops, break, continue, return") {
  Analysed a("def f(x):\n"
             "    y = 1\n"                 // 2: stmt
             "    while x > 0:\n"          // 3: test
             "        if x == 3:\n"        // 4: test
             "            break\n"         // 5: stmt -> after loop
             "        if x == 2:\n"        // 6: test
             "            continue\n"      // 7: stmt -> while
             "        x -= 1\n"            // 8: stmt -> while
             "    return y\n");            // 9: stmt -> exit
  const CFG &cfg = a.fa->cfg;
  REQUIRE(cfg.nodes().size() == 10); // with entry and exit
  CHECK(cfg.node(cfg.entry()).kind == CFGNode::Kind::Entry);
  unsigned whileNode = cfg.firstNode(a.stmt(1));
  CHECK(cfg.node(whileNode).kind == CFGNode::Kind::Test);
  const auto &loop = cast<ast::WhileStmt>(a.stmt(1));
  const auto &ifBreak = cast<ast::IfStmt>(*loop.getBody()[0]);
  unsigned breakNode = cfg.firstNode(*ifBreak.getBody()[0]);
  unsigned returnNode = cfg.firstNode(a.stmt(2));
  CHECK(cfg.node(breakNode).succs == llvm::SmallVector<unsigned, 2>{returnNode});
  const auto &ifContinue = cast<ast::IfStmt>(*loop.getBody()[1]);
  unsigned continueNode = cfg.firstNode(*ifContinue.getBody()[0]);
  CHECK(cfg.node(continueNode).succs == llvm::SmallVector<unsigned, 2>{whileNode});
  CHECK(cfg.node(returnNode).succs == llvm::SmallVector<unsigned, 2>{cfg.exit()});
  // The loop flows out through its test and through the break.
  auto next = cfg.stmtNext(loop);
  CHECK(next.size() == 1);
  CHECK(next[0] == returnNode);
  auto prev = cfg.stmtPrev(loop);
  REQUIRE(prev.size() == 1);
  CHECK(prev[0] == cfg.firstNode(a.stmt(0)));
}

TEST_CASE("activity: reads, binds, deletes, for targets, nested functions") {
  Analysed a("def f(x, n):\n"
             "    x += n\n"
             "    for i, j in pairs:\n"
             "        del x\n"
             "    def g(v):\n"
             "        w = v + k\n"
             "        return w\n"
             "    o.attr = q[m]\n");
  const CFG &cfg = a.fa->cfg;
  const Activity &act = a.fa->activity;
  unsigned aug = cfg.firstNode(a.stmt(0));
  CHECK(a.set(act.uses(aug)) == Names{"n", "x"});
  CHECK(a.set(act.defs(aug)) == Names{"x"});
  unsigned iter = cfg.firstNode(a.stmt(1));
  CHECK(a.set(act.uses(iter)) == Names{"pairs"});
  CHECK(a.set(act.defs(iter)) == Names{"i", "j"});
  const StmtScopes &scopes = act.scopes(a.stmt(1));
  CHECK(a.set(scopes.iterate.bound) == Names{"i", "j"});
  CHECK(a.set(scopes.body.deleted) == Names{"x"});
  CHECK(a.set(scopes.body.modified()) == Names{"x"});
  unsigned def = cfg.firstNode(a.stmt(2));
  CHECK(a.set(act.uses(def)) == Names{"k"}); // g's free name, read at its definition
  CHECK(a.set(act.defs(def)) == Names{"g"});
  unsigned store = cfg.firstNode(a.stmt(3));
  CHECK(a.set(act.uses(store)) == Names{"m", "o", "q"});
  CHECK(act.defs(store).none());
  CHECK(a.set(act.params()) == Names{"n", "x"});
}

TEST_CASE("reaching definitions: defined-in and the reaching assignments") {
  Analysed a("def f(c):\n"
             "    if c:\n"
             "        y = 1\n"
             "    while c:\n"
             "        y = 2\n"
             "        z = y\n"
             "    del c\n"
             "    return y\n");
  const CFG &cfg = a.fa->cfg;
  const ReachingDefinitions &rd = a.fa->reaching;
  CHECK(a.set(rd.definedIn(cfg, a.stmt(0))) == Names{"c"});
  // y may be defined before the loop (by the if), so it counts as defined there.
  CHECK(a.set(rd.definedIn(cfg, a.stmt(1))) == Names{"c", "y"});
  unsigned ret = cfg.firstNode(a.stmt(3));
  int y = a.fa->names.lookup("y");
  REQUIRE(y >= 0);
  CHECK(rd.reachingNodes(ret, y).size() == 2); // y = 1 and y = 2
  int c = a.fa->names.lookup("c");
  CHECK(rd.reachingNodes(ret, c).empty()); // killed by del
}

TEST_CASE("liveness: live-in and live-out of blocks") {
  Analysed a("def f(x, k):\n"
             "    t = 0\n"
             "    while x > 0:\n"
             "        t = x * k\n"
             "        x = t - 1\n"
             "    return x\n");
  const CFG &cfg = a.fa->cfg;
  const Liveness &lv = a.fa->liveness;
  CHECK(a.set(lv.liveIn(cfg, a.stmt(1))) == Names{"k", "x"});
  CHECK(a.set(lv.liveOut(cfg, a.stmt(1))) == Names{"x"});
  CHECK(a.set(lv.out(cfg.entry())) == Names{"k", "x"}); // the parameters are read
  CHECK(lv.in(cfg.entry()).none());                      // and defined at entry
}

TEST_CASE("block variables follow AutoGraph's rule") {
  SUBCASE("a dead temporary is not carried") {
    Analysed a("def f(x):\n    while x > 0:\n        t = x * 2\n        x = t - 3\n    return x\n");
    const BlockVars &v = a.block(a.stmt(0));
    CHECK(v.carried == Names{"x"});
    CHECK(v.numOutputs == 1);
    CHECK(v.undefined.empty());
  }
  SUBCASE("an if's outputs come before its input-only names") {
    Analysed a("def f(a, b):\n    if a > 0:\n        t = b\n        b = t * 2\n        a = a + b\n"
               "    return a\n");
    const BlockVars &v = a.block(a.stmt(0));
    CHECK(v.carried == Names{"a", "b"});
    CHECK(v.numOutputs == 1);
    CHECK(v.undefined == Names{"t"});
  }
  SUBCASE("a loop variable not defined before the loop is reported undefined") {
    Analysed a("def f():\n    for i in tf.range(3):\n        x = i\n    return x\n");
    const BlockVars &v = a.block(a.stmt(0));
    CHECK(v.carried == Names{"x"});
    CHECK(v.undefined == Names{"x"});
  }
  SUBCASE("a name set in one branch only") {
    Analysed a("def f(x):\n    if x > 0:\n        y = 1\n    return y\n");
    const BlockVars &v = a.block(a.stmt(0));
    CHECK(v.carried == Names{"y"});
    CHECK(v.undefined == Names{"y"});
    CHECK(a.set(v.liveIn) == Names{"x", "y"}); // the else path reads the old y
  }
  SUBCASE("globals are never undefined; nonlocals are always carried") {
    Analysed a("def f(x):\n    global g\n    if x:\n        g = 1\n        h = 2\n    return x\n");
    const BlockVars &v = a.block(a.stmt(1));
    CHECK(v.carried.empty());
    CHECK(v.undefined == Names{"h"});
  }
}

TEST_CASE("analysis is linear enough for long functions") {
  // 200 sequential loops, each with a nested if: every block gets its variables.
  std::string src = "def f(x):\n    s = 0\n";
  for (int i = 0; i < 200; ++i)
    src += "    while x > " + std::to_string(i) + ":\n        if x > 1:\n            s += x\n"
           "        x -= 1\n";
  src += "    return s\n";
  Analysed a(src);
  CHECK(a.fa->blocks.size() == 400);
  CHECK(a.block(a.stmt(200)).carried == Names{"s", "x"});
}
