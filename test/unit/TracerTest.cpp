// Unit tests for the Tracer: AutoGraph's staged-or-static decisions, the types it infers
// for tensors and Python values, and its refusals.
#include "TestUtil.h"

#include "ag/frontend/analysis/Tracer.h"

#include <doctest/doctest.h>

using namespace ag;
using namespace ag::analysis;
using llvm::cast;

namespace {
/// Parses `source`, traces its function `name` with the given --signature / -D values.
struct Traced {
  Traced(const std::string &source, const std::string &name, ArgumentSpec spec = {}) {
    llvm::raw_string_ostream os(diagnostics);
    DiagnosticEngine diag(sourceMgr, os);
    std::optional<SourceFile> file = addSourceBuffer("t.py", source, diag);
    REQUIRE(file);
    module = parseModule(*file, diag);
    REQUIRE(module);
    function = module->findFunction(name);
    REQUIRE(function);
    Tracer tracer(*module, diag);
    REQUIRE(tracer.evaluateModule());
    std::optional<std::vector<Value>> args = tracer.argumentsFor(*function, spec);
    if (args)
      result = tracer.trace(*function, *args);
  }
  /// The decision about the `index`-th statement of the function body.
  const Decision *at(size_t index) const {
    auto it = result->decisions.find(function->getBody()[index].get());
    return it == result->decisions.end() ? nullptr : &it->second;
  }
  std::string returned() const { return result ? result->result.typeString() : "<failed>"; }

  llvm::SourceMgr sourceMgr;
  std::string diagnostics;
  std::unique_ptr<ast::Module> module;
  const ast::FunctionDefStmt *function = nullptr;
  std::optional<TraceResult> result;
};

ArgumentSpec sig(const std::string &text) {
  ArgumentSpec spec;
  spec.signatures[llvm::StringRef(text).split('(').first] = text;
  return spec;
}
} // namespace

TEST_CASE("a tensor test stages an if; a Python test runs one branch") {
  Traced t("import tensorflow as tf\n"
           "@tf.function\n"
           "def f(x, n=3):\n"
           "    if x > 0:\n"
           "        y = 1\n"
           "    else:\n"
           "        y = 2\n"
           "    if n > 2:\n"
           "        z = y\n"
           "    else:\n"
           "        z = undefined_name\n"
           "    return z\n",
           "f", sig("f(x: float32[])"));
  REQUIRE(t.result);
  const Decision *staged = t.at(0);
  REQUIRE(staged);
  CHECK(staged->staged);
  REQUIRE(staged->carried.size() == 1);
  CHECK(staged->carried[0].first == "y");
  CHECK(staged->carried[0].second.typeString() == "int32[]"); // Python ints become int32
  const Decision *fixed = t.at(1);
  REQUIRE(fixed);
  CHECK_FALSE(fixed->staged);
  CHECK(fixed->tookTrue);
  CHECK_FALSE(fixed->tookFalse); // the else branch, with its undefined name, never ran
  CHECK(t.returned() == "int32[]");
}

TEST_CASE("a Python loop unrolls and its ifs are decided per pass") {
  Traced t("import tensorflow as tf\n"
           "@tf.function\n"
           "def f():\n"
           "    s = 0\n"
           "    for i in range(4):\n"
           "        if i % 2 == 0:\n"
           "            s += i\n"
           "    return s\n",
           "f");
  REQUIRE(t.result);
  const Decision *loop = t.at(1);
  REQUIRE(loop);
  CHECK_FALSE(loop->staged);
  CHECK(loop->iterations == 4);
  CHECK(t.result->result.kind == Value::Kind::Int);
  CHECK(t.result->result.i == 2); // 0 + 2, computed at compile time
  const auto &body = cast<ast::ForStmt>(*t.function->getBody()[1]).getBody();
  const Decision &inner = t.result->decisions.find(body[0].get())->second;
  CHECK(inner.tookTrue);
  CHECK(inner.tookFalse);
  CHECK(inner.reached == 4);
}

TEST_CASE("a staged loop keeps dtypes and shapes; its variables become tensors") {
  Traced t("import tensorflow as tf\n"
           "@tf.function\n"
           "def f(n):\n"
           "    a, b = 0, 1\n"
           "    for _ in tf.range(n):\n"
           "        a, b = b, a + b\n"
           "    return a\n",
           "f", sig("f(n: int32[])"));
  REQUIRE(t.result);
  const Decision *loop = t.at(1);
  REQUIRE(loop);
  CHECK(loop->staged);
  REQUIRE(loop->carried.size() == 2);
  CHECK(loop->carried[0].second.typeString() == "int32[]");
  CHECK(t.returned() == "int32[]");
}

TEST_CASE("tuples, lists and dicts go through staged ifs and loops leaf by leaf") {
  Traced t("import tensorflow as tf\n"
           "def f(n, x):\n"
           "    acc = {'sum': 0.0, 'parts': [x, 1]}\n"
           "    first = acc\n"
           "    for i in tf.range(n):\n"
           "        acc = {'sum': acc['sum'] + x, 'parts': [acc['parts'][0] * 2.0, i]}\n"
           "    if x > 0:\n"
           "        p = (x, 1.0)\n"
           "    else:\n"
           "        p = (-x, 2.0)\n"
           "    return acc, first, p\n",
           "f", sig("f(n: int32[], x: float32[])"));
  REQUIRE(t.result);
  const Decision *loop = t.at(2);
  REQUIRE(loop);
  CHECK(loop->staged);
  REQUIRE(loop->carried.size() == 1);
  CHECK(loop->carried[0].first == "acc");
  const auto &r = t.result->result.items();
  REQUIRE(r.size() == 3);
  // The loop gives a new dict of tensors (its Python numbers became tensors); the one
  // bound before it is unchanged, as tf.while_loop packs new structures.
  REQUIRE(r[0].kind == Value::Kind::Dict);
  CHECK(r[0].items()[0].typeString() == "float32[]");
  CHECK(r[0].items()[1].items()[1].typeString() == "int32[]");
  CHECK(r[1].object.get() != r[0].object.get());
  CHECK(r[1].items()[0].kind == Value::Kind::Float);
  REQUIRE(r[2].kind == Value::Kind::Tuple);
  CHECK(r[2].items()[1].typeString() == "float32[]");

  Traced changes("import tensorflow as tf\n"
                 "def f(n):\n"
                 "    v = [tf.constant(0)]\n"
                 "    for i in tf.range(n):\n"
                 "        v = [v[0], i]\n"
                 "    return v\n",
                 "f", sig("f(n: int32[])"));
  CHECK_FALSE(changes.result);
  CHECK(changes.diagnostics.find("'v' does not have the same nested structure after one "
                                 "iteration: 'v' is a list of 1 item, then a list of 2 items") !=
        std::string::npos);
}

TEST_CASE("Python arithmetic follows Python; tensor arithmetic follows TensorFlow") {
  Traced py("import tensorflow as tf\n@tf.function\ndef f():\n    return (-7 // 2, -7 % 2, 2 ** 10, 7 / 2)\n", "f");
  REQUIRE(py.result);
  const auto &r = py.result->result.elements;
  REQUIRE(r.size() == 4);
  CHECK(r[0].i == -4);
  CHECK(r[1].i == 1);
  CHECK(r[2].i == 1024);
  CHECK(r[3].f == 3.5);

  Traced tf("import tensorflow as tf\n@tf.function\ndef f(a, b):\n"
            "    return (a / b, a + 1, tf.matmul(tf.ones([2, 3]), tf.ones([3, 4])),\n"
            "            tf.reduce_sum(tf.ones([2, 3, 4]), axis=1, keepdims=True),\n"
            "            tf.zeros([5, 1]) * tf.ones([3]))\n",
            "f", sig("f(a: int32[4], b: int32[4])"));
  REQUIRE(tf.result);
  const auto &t = tf.result->result.elements;
  REQUIRE(t.size() == 5);
  CHECK(t[0].typeString() == "float64[4]"); // int / int is float64 in TensorFlow
  CHECK(t[1].typeString() == "int32[4]");
  CHECK(t[2].typeString() == "float32[2,4]");
  CHECK(t[3].typeString() == "float32[2,1,4]");
  CHECK(t[4].typeString() == "float32[5,3]");
}

TEST_CASE("calls to module functions are traced inline; TensorArray accumulates") {
  Traced t("import tensorflow as tf\n"
           "def step(inp, state):\n"
           "    return inp + state\n"
           "@tf.function\n"
           "def f(xs, s):\n"
           "    out = tf.TensorArray(tf.float32, size=3)\n"
           "    for i in tf.range(3):\n"
           "        s = step(xs[i], s)\n"
           "        out = out.write(i, s)\n"
           "    return out.stack()\n",
           "f", sig("f(xs: float32[3,2], s: float32[2])"));
  REQUIRE(t.result);
  CHECK(t.returned() == "float32[3,2]");
}

TEST_CASE("refusals: one-branch names, undefined loop variables, dtype changes") {
  Traced branch("import tensorflow as tf\n@tf.function\ndef f(x):\n    if x > 0:\n        y = 1\n"
                "    return y\n",
                "f", sig("f(x: int32[])"));
  CHECK_FALSE(branch.result);
  CHECK(branch.diagnostics.find("t.py:4:5: error: 'y' must also be initialized in the else "
                                "branch") != std::string::npos);
  CHECK(branch.diagnostics.find("t.py:5:9: note: 'y' is assigned here, in the main branch") !=
        std::string::npos);

  // A name first bound in a staged loop starts as zeros of the type one iteration gives
  // it (TensorFlow 2.21), unless that iteration cannot bind it.
  Traced loop("import tensorflow as tf\n@tf.function\ndef f():\n    for i in tf.range(3):\n"
              "        x = tf.cast(i, tf.float32)\n    return x\n",
              "f");
  CHECK(loop.returned() == "float32[]");
  Traced oneBranch("import tensorflow as tf\n@tf.function\ndef f():\n"
                   "    for i in tf.range(3):\n        if i > 0:\n            x = i\n"
                   "    return x\n",
                   "f");
  CHECK_FALSE(oneBranch.result);
  CHECK(oneBranch.diagnostics.find("t.py:4:5: error: 'x' must be defined before the loop") !=
        std::string::npos);
  CHECK(oneBranch.diagnostics.find("note: agc tried to define it from one iteration of the "
                                   "loop, as TensorFlow does, but: 'x' must also be "
                                   "initialized in the else branch") != std::string::npos);

  Traced dtype("import tensorflow as tf\n@tf.function\ndef f():\n    x = tf.constant(0.0)\n"
               "    for i in tf.range(3):\n        x = i\n    return x\n",
               "f");
  CHECK_FALSE(dtype.result);
  CHECK(dtype.diagnostics.find("'x' has dtype float32 before the loop, but dtype int32 after "
                               "one iteration") != std::string::npos);
}

TEST_CASE("a staged break may end a staged loop but not a Python one") {
  Traced ok("import tensorflow as tf\n@tf.function\ndef f(x):\n    while tf.constant(True):\n"
            "        if tf.equal(x, 0):\n            break\n        x -= 1\n    return x\n",
            "f", sig("f(x: int32[])"));
  CHECK(ok.result);
  CHECK(ok.diagnostics.empty());

  ArgumentSpec five;
  five.defines["x"] = "5";
  Traced bad("import tensorflow as tf\n@tf.function\ndef f(x):\n    while True:\n"
             "        if tf.equal(x, 0):\n            break\n        x -= 1\n    return x\n",
             "f", five);
  CHECK_FALSE(bad.result);
  CHECK(bad.diagnostics.find("t.py:6:13: error: 'break' depends on a tensor") !=
        std::string::npos);
}

TEST_CASE("lists and dicts are shared objects: a change through one name is seen by all") {
  Traced t("def helper(acc, v):\n    acc.append(v)\n"
           "def f():\n    a = []\n    b = a\n    b.append(1)\n    helper(a, 2)\n"
           "    rows = [[1], [2]]\n    rows[0].append(3)\n    d = {'k': a}\n"
           "    d['k'].append(4)\n    return (len(a), len(rows[0]), a[2])\n",
           "f");
  REQUIRE(t.result);
  const auto &r = t.result->result.items();
  REQUIRE(r.size() == 3);
  CHECK(r[0].i == 3); // [1, 2, 4]: through b, the helper's parameter, and the dict
  CHECK(r[1].i == 2);
  CHECK(r[2].i == 4);
}

TEST_CASE("dict keys compare as Python's: 1, 1.0 and True are one key; tensors are not keys") {
  CHECK(keyEquals(Value::integer(1), Value::floating(1.0)));
  CHECK(keyEquals(Value::boolean(true), Value::integer(1)));
  CHECK_FALSE(keyEquals(Value::str("1"), Value::integer(1)));
  CHECK(isHashable(Value::sequence(Value::Kind::Tuple, {Value::integer(1), Value::str("a")})));
  CHECK_FALSE(isHashable(Value::list({})));
  CHECK_FALSE(isHashable(Value::tensor(DType::Float32, Shape::scalar())));
  Value d = Value::dict({Value::integer(1), Value::str("a")}, {Value::none(), Value::none()});
  CHECK(d.object->find(Value::floating(1.0)) == std::optional<size_t>(0));
  CHECK(d.object->find(Value::str("a")) == std::optional<size_t>(1));
  CHECK_FALSE(d.object->find(Value::str("b")));
}

TEST_CASE("sets: elements distinct by Python's ==, iterated only in an order Python is sure of") {
  Value s = Value::set({Value::integer(5), Value::integer(1), Value::boolean(true),
                        Value::floating(5.0), Value::integer(3)});
  REQUIRE(s.items().size() == 3); // 1 == True and 5 == 5.0: the first kept
  std::optional<std::vector<Value>> order = setIterationOrder(s);
  REQUIRE(order);
  CHECK((*order)[0].i == 1);
  CHECK((*order)[1].i == 3);
  CHECK((*order)[2].i == 5);
  CHECK_FALSE(setIterationOrder(Value::set({Value::integer(8), Value::integer(1)})));
  CHECK_FALSE(setIterationOrder(Value::set({Value::str("a")})));
  CHECK(pyEquals(s, Value::set({Value::integer(3), Value::integer(5), Value::integer(1)})) ==
        std::optional<bool>(true));
  CHECK(s.pyStr(false) == "{1, 3, 5}");
}

TEST_CASE("a method of a module-level instance is found from the source") {
  llvm::SourceMgr sourceMgr;
  std::string out;
  llvm::raw_string_ostream os(out);
  DiagnosticEngine diag(sourceMgr, os);
  std::optional<SourceFile> file = addSourceBuffer(
      "t.py",
      "class Base:\n    def __call__(self, x):\n        return x\n"
      "class M(Base):\n    def step(self, x):\n        return x\n"
      "m = M()\ndef f():\n    pass\n",
      diag);
  REQUIRE(file);
  std::unique_ptr<ast::Module> module = parseModule(*file, diag);
  REQUIRE(module);
  std::string why;
  auto step = module->findEntry("m.step", why);
  REQUIRE(step);
  CHECK(step->def->getName() == "step");
  CHECK(step->receiver == "m");
  auto call = module->findEntry("m", why); // __call__, inherited
  REQUIRE(call);
  CHECK(call->def->getName() == "__call__");
  auto fn = module->findEntry("f", why);
  REQUIRE(fn);
  CHECK(fn->receiver.empty());
  CHECK_FALSE(module->findEntry("m.nothing", why));
  CHECK(why == "'M' (the class of 'm') has no method 'nothing'");
  CHECK_FALSE(module->findEntry("x.step", why));
}
