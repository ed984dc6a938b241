// Unit tests for the CST-to-AST builder: every construct of agc's Python subset, with
// locations, and the refusals.
#include "TestUtil.h"

#include <doctest/doctest.h>

using namespace ag;
using namespace ag::ast;
using agtest::parse;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

namespace {
/// The value of `x = <expr>` in a one-statement module.
const Expr &valueOf(const agtest::Parsed &p) {
  REQUIRE(p.module);
  REQUIRE(p.module->getBody().size() == 1);
  const auto *assign = dyn_cast<AssignStmt>(p.module->getBody()[0].get());
  REQUIRE(assign);
  return assign->getValue();
}
} // namespace

TEST_CASE("imports keep names, aliases and relative levels") {
  auto p = parse("import tensorflow as tf, numpy\nfrom ..a.b import c as d, e\n");
  REQUIRE(p.module);
  const auto &body = p.module->getBody();
  REQUIRE(body.size() == 2);
  const auto &imp = cast<ImportStmt>(*body[0]);
  REQUIRE(imp.getNames().size() == 2);
  CHECK(imp.getNames()[0].name == "tensorflow");
  CHECK(imp.getNames()[0].asname == "tf");
  CHECK(imp.getNames()[1].name == "numpy");
  CHECK(imp.getNames()[1].asname.empty());
  const auto &from = cast<ImportFromStmt>(*body[1]);
  CHECK(from.getModule() == "a.b");
  CHECK(from.getLevel() == 2);
  REQUIRE(from.getNames().size() == 2);
  CHECK(from.getNames()[0].asname == "d");
}

TEST_CASE("module-level constants and tf.Variable") {
  auto p = parse("N = 10\nv = tf.Variable(1.0, name='v')\n");
  REQUIRE(p.module);
  const auto &v = cast<AssignStmt>(*p.module->getBody()[1]);
  const auto &call = cast<CallExpr>(v.getValue());
  CHECK(cast<AttributeExpr>(call.getCallee()).getAttr() == "Variable");
  REQUIRE(call.getArgs().size() == 1);
  CHECK(cast<FloatLitExpr>(*call.getArgs()[0]).getValue() == 1.0);
  REQUIRE(call.findKeyword("name"));
  CHECK(cast<StrLitExpr>(*call.findKeyword("name")->value).getValue() == "v");
}

TEST_CASE("function definitions: decorators, defaults, keyword-only, annotations") {
  auto p = parse("import tensorflow as tf\n"
                 "@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)],\n"
                 "             jit_compile=True, reduce_retracing=False)\n"
                 "def f(x, y=2, *, z: int = 3, w) -> int:\n"
                 "    return x\n");
  REQUIRE(p.module);
  const auto &def = cast<FunctionDefStmt>(*p.module->getBody()[1]);
  CHECK(def.getName() == "f");
  CHECK(def.loc().begin.line == 4);
  CHECK(def.getNameLoc().begin.column == 5);
  REQUIRE(def.getDecorators().size() == 1);
  const auto &dec = cast<CallExpr>(*def.getDecorators()[0]);
  CHECK(dec.findKeyword("input_signature"));
  CHECK(dec.findKeyword("jit_compile"));
  CHECK(dec.findKeyword("reduce_retracing"));
  const auto &params = def.getParams();
  REQUIRE(params.size() == 4);
  CHECK(params[0].name == "x");
  CHECK_FALSE(params[0].keywordOnly);
  CHECK(params[1].defaultValue);
  CHECK(params[2].keywordOnly);
  CHECK(params[2].annotation);
  CHECK(params[2].defaultValue);
  CHECK(params[3].keywordOnly);
  CHECK_FALSE(params[3].defaultValue);
  CHECK(def.getReturns());
  REQUIRE(def.getBody().size() == 1);
  CHECK(isa<ReturnStmt>(*def.getBody()[0]));
}

TEST_CASE("assignment targets: tuple, subscript, attribute, chained") {
  auto p = parse("a, (b, c) = t\nx[1:2, ::3] = 0\no.attr = 1\na = b = 3\n[p, q] = r\n");
  REQUIRE(p.module);
  const auto &body = p.module->getBody();
  REQUIRE(body.size() == 5);
  const auto &tuple = cast<TupleExpr>(*cast<AssignStmt>(*body[0]).getTargets()[0]);
  REQUIRE(tuple.getElements().size() == 2);
  CHECK(isa<TupleExpr>(*tuple.getElements()[1]));
  const auto &sub = cast<SubscriptExpr>(*cast<AssignStmt>(*body[1]).getTargets()[0]);
  const auto &index = cast<TupleExpr>(sub.getIndex());
  REQUIRE(index.getElements().size() == 2);
  const auto &s0 = cast<SliceExpr>(*index.getElements()[0]);
  CHECK(s0.getLower());
  CHECK(s0.getUpper());
  CHECK_FALSE(s0.getStep());
  const auto &s1 = cast<SliceExpr>(*index.getElements()[1]);
  CHECK_FALSE(s1.getLower());
  CHECK_FALSE(s1.getUpper());
  CHECK(s1.getStep());
  CHECK(isa<AttributeExpr>(*cast<AssignStmt>(*body[2]).getTargets()[0]));
  CHECK(cast<AssignStmt>(*body[3]).getTargets().size() == 2);
  CHECK(isa<ListExpr>(*cast<AssignStmt>(*body[4]).getTargets()[0]));
}

TEST_CASE("augmented and annotated assignment") {
  auto p = parse("x += 1\ny //= 2\nz **= 3\nc: int = 4\nd: float\n");
  REQUIRE(p.module);
  const auto &body = p.module->getBody();
  CHECK(cast<AugAssignStmt>(*body[0]).getOp() == BinaryOp::Add);
  CHECK(cast<AugAssignStmt>(*body[1]).getOp() == BinaryOp::FloorDiv);
  CHECK(cast<AugAssignStmt>(*body[2]).getOp() == BinaryOp::Pow);
  CHECK(cast<AnnAssignStmt>(*body[3]).getValue());
  CHECK_FALSE(cast<AnnAssignStmt>(*body[4]).getValue());
}

TEST_CASE("if/elif/else nests the elif in orelse") {
  auto p = parse("if a:\n    pass\nelif b:\n    pass\nelif c:\n    x = 1\nelse:\n    y = 2\n");
  const auto &top = cast<IfStmt>(agtest::onlyStmt(p));
  CHECK_FALSE(top.isElif());
  REQUIRE(top.getOrElse().size() == 1);
  const auto &elif1 = cast<IfStmt>(*top.getOrElse()[0]);
  CHECK(elif1.isElif());
  CHECK(elif1.loc().begin.line == 3);
  const auto &elif2 = cast<IfStmt>(*elif1.getOrElse()[0]);
  CHECK(elif2.isElif());
  REQUIRE(elif2.getOrElse().size() == 1);
  CHECK(isa<AssignStmt>(*elif2.getOrElse()[0]));
}

TEST_CASE("loops, break, continue, else clauses") {
  auto p = parse("while x < 3:\n    x += 1\n    if x: break\nelse:\n    pass\n"
                 "for i, j in z:\n    continue\n");
  REQUIRE(p.module);
  const auto &w = cast<WhileStmt>(*p.module->getBody()[0]);
  CHECK(w.getBody().size() == 2);
  CHECK(w.getOrElse().size() == 1);
  const auto &f = cast<ForStmt>(*p.module->getBody()[1]);
  CHECK(isa<TupleExpr>(f.getTarget()));
  CHECK(isa<ContinueStmt>(*f.getBody()[0]));
}

TEST_CASE("simple statements: pass, assert, del, global, nonlocal, expression") {
  auto p = parse("def f():\n    global g\n    def h():\n        nonlocal q\n"
                 "    assert x, 'msg'\n    del a, b[0]\n    tf.print(x)\n    pass\n    return\n");
  REQUIRE(p.module);
  const auto &def = cast<FunctionDefStmt>(*p.module->getBody()[0]);
  const auto &b = def.getBody();
  REQUIRE(b.size() == 7);
  CHECK(cast<GlobalStmt>(*b[0]).getNames()[0].name == "g");
  CHECK(isa<NonlocalStmt>(*cast<FunctionDefStmt>(*b[1]).getBody()[0]));
  CHECK(cast<AssertStmt>(*b[2]).getMsg());
  CHECK(cast<DeleteStmt>(*b[3]).getTargets().size() == 2);
  CHECK(isa<CallExpr>(cast<ExprStmt>(*b[4]).getValue()));
  CHECK(isa<PassStmt>(*b[5]));
  CHECK_FALSE(cast<ReturnStmt>(*b[6]).getValue());
}

TEST_CASE("constants") {
  CHECK(*cast<IntLitExpr>(valueOf(parse("x = 1_000\n"))).getValue() == 1000);
  CHECK(*cast<IntLitExpr>(valueOf(parse("x = 0x1F\n"))).getValue() == 31);
  CHECK(*cast<IntLitExpr>(valueOf(parse("x = 0o17\n"))).getValue() == 15);
  CHECK(*cast<IntLitExpr>(valueOf(parse("x = 0b101\n"))).getValue() == 5);
  CHECK_FALSE(cast<IntLitExpr>(valueOf(parse("x = 99999999999999999999\n"))).getValue());
  CHECK(cast<FloatLitExpr>(valueOf(parse("x = 1.5e3\n"))).getValue() == 1500.0);
  CHECK(cast<FloatLitExpr>(valueOf(parse("x = .5\n"))).getValue() == 0.5);
  CHECK(cast<StrLitExpr>(valueOf(parse("x = 'a\\n' \"b\"\n"))).getValue() == "a\nb");
  CHECK(cast<StrLitExpr>(valueOf(parse("x = r'a\\n'\n"))).getValue() == "a\\n");
  CHECK(cast<StrLitExpr>(valueOf(parse("x = '\\x41\\u00e9'\n"))).getValue() == "A\xc3\xa9");
  CHECK(cast<StrLitExpr>(valueOf(parse("x = '''a\nb'''\n"))).getValue() == "a\nb");
  CHECK(cast<BoolLitExpr>(valueOf(parse("x = True\n"))).getValue());
  CHECK_FALSE(cast<BoolLitExpr>(valueOf(parse("x = False\n"))).getValue());
  CHECK(isa<NoneLitExpr>(valueOf(parse("x = None\n"))));
  CHECK(isa<EllipsisLitExpr>(cast<SubscriptExpr>(valueOf(parse("x = y[...]\n"))).getIndex()));
}

TEST_CASE("operators: unary, binary with precedence, boolean flattening, chains") {
  auto negParsed = parse("x = -a ** 2\n");
  const auto &neg = cast<UnaryExpr>(valueOf(negParsed));
  CHECK(neg.getOp() == UnaryOp::Minus);
  CHECK(cast<BinaryExpr>(neg.getOperand()).getOp() == BinaryOp::Pow);

  auto sumParsed = parse("x = a + b * c\n");
  const auto &sum = cast<BinaryExpr>(valueOf(sumParsed));
  CHECK(sum.getOp() == BinaryOp::Add);
  CHECK(cast<BinaryExpr>(sum.getRHS()).getOp() == BinaryOp::Mul);

  auto andOpParsed = parse("x = a and b and c\n");
  const auto &andOp = cast<BoolOpExpr>(valueOf(andOpParsed));
  CHECK(andOp.getOp() == BoolOpKind::And);
  CHECK(andOp.getValues().size() == 3);

  auto mixedParsed = parse("x = a or b and not c\n");
  const auto &mixed = cast<BoolOpExpr>(valueOf(mixedParsed));
  CHECK(mixed.getOp() == BoolOpKind::Or);
  REQUIRE(mixed.getValues().size() == 2);
  const auto &inner = cast<BoolOpExpr>(*mixed.getValues()[1]);
  CHECK(cast<UnaryExpr>(*inner.getValues()[1]).getOp() == UnaryOp::Not);

  auto parenParsed = parse("x = (a and b) and c\n");
  const auto &paren = cast<BoolOpExpr>(valueOf(parenParsed));
  CHECK(paren.getValues().size() == 2);

  auto cmpParsed = parse("x = 1 < y <= 3 != z\n");
  const auto &cmp = cast<CompareExpr>(valueOf(cmpParsed));
  REQUIRE(cmp.getOps().size() == 3);
  CHECK(cmp.getOps()[0] == CmpOp::Lt);
  CHECK(cmp.getOps()[1] == CmpOp::LtE);
  CHECK(cmp.getOps()[2] == CmpOp::NotEq);
  CHECK(cmp.getComparators().size() == 3);

  auto notInParsed = parse("x = a not in b\n");
  const auto &notIn = cast<CompareExpr>(valueOf(notInParsed));
  CHECK(notIn.getOps()[0] == CmpOp::NotIn);
  auto isNotParsed = parse("x = a is not None\n");
  const auto &isNot = cast<CompareExpr>(valueOf(isNotParsed));
  CHECK(isNot.getOps()[0] == CmpOp::IsNot);
}

TEST_CASE("calls, attributes, subscripts, displays, conditional expressions") {
  auto callParsed = parse("x = tf.math.reduce_sum(t, axis=0, keepdims=True)\n");
  const auto &call = cast<CallExpr>(valueOf(callParsed));
  const auto &callee = cast<AttributeExpr>(call.getCallee());
  CHECK(callee.getAttr() == "reduce_sum");
  CHECK(cast<AttributeExpr>(callee.getValue()).getAttr() == "math");
  CHECK(call.getArgs().size() == 1);
  CHECK(call.getKeywords().size() == 2);

  auto subParsed = parse("x = t[:, 1]\n");
  const auto &sub = cast<SubscriptExpr>(valueOf(subParsed));
  CHECK(cast<TupleExpr>(sub.getIndex()).getElements().size() == 2);
  auto oneParsed = parse("x = t[i]\n");
  const auto &one = cast<SubscriptExpr>(valueOf(oneParsed));
  CHECK(isa<NameExpr>(one.getIndex()));
  auto trailingParsed = parse("x = t[i,]\n");
  const auto &trailing = cast<SubscriptExpr>(valueOf(trailingParsed));
  CHECK(isa<TupleExpr>(trailing.getIndex()));

  CHECK(cast<TupleExpr>(valueOf(parse("x = (1,)\n"))).getElements().size() == 1);
  CHECK(cast<TupleExpr>(valueOf(parse("x = ()\n"))).getElements().empty());
  CHECK(cast<TupleExpr>(valueOf(parse("x = 1, 2\n"))).getElements().size() == 2);
  CHECK(cast<ListExpr>(valueOf(parse("x = [1, [2]]\n"))).getElements().size() == 2);
  auto dictParsed = parse("x = {'a': 1, 'b': 2}\n");
  const auto &dict = cast<DictExpr>(valueOf(dictParsed));
  CHECK(dict.getKeys().size() == 2);
  auto ifexpParsed = parse("x = a if c else b\n");
  const auto &ifexp = cast<IfExpExpr>(valueOf(ifexpParsed));
  CHECK(cast<NameExpr>(ifexp.getTest()).getId() == "c");
  CHECK(cast<NameExpr>(ifexp.getBody()).getId() == "a");
  CHECK(cast<NameExpr>(ifexp.getOrElse()).getId() == "b");
}

TEST_CASE("locations are 1-based lines and byte columns with ends") {
  auto p = parse("x = 1\nif x:\n    y = foo(x,\n            2)\n");
  REQUIRE(p.module);
  const auto &ifs = cast<IfStmt>(*p.module->getBody()[1]);
  CHECK(ifs.loc().begin.line == 2);
  CHECK(ifs.loc().begin.column == 1);
  CHECK(ifs.loc().end.line == 4);
  const auto &assign = cast<AssignStmt>(*ifs.getBody()[0]);
  CHECK(assign.loc().begin.line == 3);
  CHECK(assign.loc().begin.column == 5);
  const auto &call = cast<CallExpr>(assign.getValue());
  CHECK(call.loc().begin.column == 9);
  CHECK(call.loc().end.line == 4);
  CHECK(call.loc().end.column == 15);
  CHECK(call.loc().file == "t.py");
  CHECK(call.loc().begin.offset == 20);
}

TEST_CASE("comments and line continuations are ignored") {
  auto p = parse("x = (1 +  # one\n     2)\ny = 1 + \\\n    2\n");
  REQUIRE(p.module);
  CHECK(p.module->getBody().size() == 2);
}

TEST_CASE("unsupported constructs become located refusals, reported only when traced") {
  auto p = parse("async def a():\n    pass\nmatch v:\n    case 1:\n        pass\n"
                 "x = 2j\ny = (w := 3)\n@tf.function\nasync def f(): pass\n");
  REQUIRE(p.module);
  CHECK(p.errors == 0);
  CHECK(p.diagnostics.empty());
  const StmtList &body = p.module->getBody();
  REQUIRE(body.size() == 5);
  auto refusal = [&](size_t i) -> const UnsupportedStmt & {
    REQUIRE(isa<UnsupportedStmt>(*body[i]));
    return cast<UnsupportedStmt>(*body[i]);
  };
  // Each keeps its message and the construct's own location, and the names it binds.
  CHECK(refusal(0).getWhy()[0].message == "async functions are not supported by agc");
  CHECK(refusal(0).getBinds().size() == 1);
  CHECK(refusal(0).getBinds()[0].name == "a");
  CHECK(refusal(1).getWhy()[0].message == "'match' statements are not supported by agc");
  CHECK(refusal(1).getBinds().empty());
  CHECK(refusal(2).getWhy()[0].loc.begin.line == 6);
  CHECK(refusal(2).getWhy()[0].loc.begin.column == 5);
  CHECK(refusal(2).getBinds()[0].name == "x");
  CHECK(refusal(3).getWhy()[0].message == "assignment expressions (':=') are not supported by agc");
  // A refused @tf.function is still one of the file's compiled functions.
  CHECK(refusal(4).getBinds()[0].name == "f");
  CHECK(refusal(4).isTfFunction());
  // The statement as written, for printers.
  CHECK(refusal(2).getSource() == "x = 2j");
}

TEST_CASE("classes and decorators are parsed; @tf.function is found among decorators") {
  auto p = parse("@dataclass(frozen=True)\nclass C(Base, metaclass=M):\n    x: int = 1\n"
                 "    def m(self):\n        return self.x\n"
                 "@functools.wraps(g)\n@tf.function(input_signature=[])\n@deco\ndef f(): pass\n"
                 "@deco\ndef h(): pass\n");
  REQUIRE(p.module);
  CHECK(p.errors == 0);
  const StmtList &body = p.module->getBody();
  REQUIRE(body.size() == 3);
  REQUIRE(isa<ClassDefStmt>(*body[0]));
  const auto &cls = cast<ClassDefStmt>(*body[0]);
  CHECK(cls.getName() == "C");
  CHECK(cls.getNameLoc().begin.line == 2);
  CHECK(cls.getNameLoc().begin.column == 7);
  CHECK(cls.getBases().size() == 1);
  REQUIRE(cls.getKeywords().size() == 1);
  CHECK(cls.getKeywords()[0].name == "metaclass");
  CHECK(cls.getDecorators().size() == 1);
  REQUIRE(cls.getBody().size() == 2);
  CHECK(isa<AnnAssignStmt>(*cls.getBody()[0]));
  CHECK(isa<FunctionDefStmt>(*cls.getBody()[1]));
  const auto &f = cast<FunctionDefStmt>(*body[1]);
  CHECK(f.getDecorators().size() == 3);
  CHECK(f.isTfFunction());
  CHECK(f.getTfFunction() == f.getDecorators()[1].get());
  const auto &h = cast<FunctionDefStmt>(*body[2]);
  CHECK_FALSE(h.isTfFunction());
  CHECK(h.getTfFunction() == nullptr);
}

TEST_CASE("a refusal inside a block replaces that statement only") {
  auto p = parse("def f(x):\n    y = 1\n    match y:\n        case 1:\n            pass\n    return y\n");
  REQUIRE(p.module);
  const auto &def = cast<FunctionDefStmt>(*p.module->getBody()[0]);
  REQUIRE(def.getBody().size() == 3);
  CHECK(isa<AssignStmt>(*def.getBody()[0]));
  CHECK(isa<UnsupportedStmt>(*def.getBody()[1]));
  CHECK(isa<ReturnStmt>(*def.getBody()[2]));
}

TEST_CASE("a syntax error fails the file; agc's refusals beside it are not reported") {
  auto p = parse("x = {1, 2}\nbreak\n");
  CHECK_FALSE(p.module);
  CHECK(p.errors == 1);
  CHECK(p.diagnostics.find("'break' outside loop") != std::string::npos);
  CHECK(p.diagnostics.find("set displays") == std::string::npos);
}

TEST_CASE("syntax errors are located") {
  auto p = parse("def f(:\n    pass\n");
  CHECK_FALSE(p.module);
  CHECK(p.errors >= 1);
  CHECK(p.diagnostics.find("t.py:1:") != std::string::npos);
  CHECK(p.diagnostics.find("invalid syntax") != std::string::npos);
}

TEST_CASE("CPython's static checks: break outside loop, return outside function") {
  auto p = parse("break\nreturn 1\ndef f():\n    for i in x:\n        def g():\n            continue\n");
  CHECK(p.errors == 3);
  CHECK(p.diagnostics.find("t.py:1:1: error: 'break' outside loop") != std::string::npos);
  CHECK(p.diagnostics.find("t.py:2:1: error: 'return' outside function") != std::string::npos);
  CHECK(p.diagnostics.find("t.py:6:13: error: 'continue' not properly in loop") !=
        std::string::npos);
}

TEST_CASE("nesting deeper than the limit is refused, not a crash") {
  ParseOptions options;
  options.maxNestingDepth = 50;
  std::string deep = "x = " + std::string(100, '(') + "1" + std::string(100, ')') + "\n";
  auto p = parse(deep, options);
  CHECK_FALSE(p.module);
  CHECK(p.diagnostics.find("nested too deeply") != std::string::npos);
  auto ok = parse("x = " + std::string(20, '(') + "1" + std::string(20, ')') + "\n", options);
  CHECK(ok.module);
}

TEST_CASE("empty and comment-only files give an empty module") {
  CHECK(parse("").module->getBody().empty());
  CHECK(parse("# nothing\n\n").module->getBody().empty());
}

TEST_CASE("the dump is stable and located") {
  auto p = parse("x = a + 1\n");
  CHECK(agtest::dumpOf(p) == "Module @t.py:1:1-2:1\n"
                             "  Assign @t.py:1:1-1:10\n"
                             "    targets:\n"
                             "      Name 'x' @t.py:1:1-1:2\n"
                             "    value: BinOp '+' @t.py:1:5-1:10\n"
                             "      lhs: Name 'a' @t.py:1:5-1:6\n"
                             "      rhs: Int 1 @t.py:1:9-1:10\n");
}
