// Unit tests for PythonPrinter: printed code parses back to the same AST, with the fewest
// parentheses Python needs.
#include "TestUtil.h"

#include "ag/frontend/PythonPrinter.h"

#include <doctest/doctest.h>

#include "llvm/Support/MemoryBuffer.h"

#include <regex>

using namespace ag;

namespace {
/// The AST dump of `source` with locations removed.
std::string shape(const std::string &source) {
  agtest::Parsed p = agtest::parse(source);
  REQUIRE_MESSAGE(p.module, p.diagnostics);
  return std::regex_replace(agtest::dumpOf(p), std::regex(" @[^\n]*"), "");
}
std::string printed(const std::string &source) {
  agtest::Parsed p = agtest::parse(source);
  REQUIRE_MESSAGE(p.module, p.diagnostics);
  std::string out;
  llvm::raw_string_ostream os(out);
  PythonPrinter(os).printModule(*p.module);
  return out;
}
} // namespace

TEST_CASE("expressions print with the parentheses precedence needs, and round-trip") {
  const char *cases[] = {
      "x = (a + b) * c\n",          "x = a + b * c\n",        "x = (-a) ** 2\n",
      "x = -a ** 2\n",              "x = a ** b ** c\n",      "x = (a ** b) ** c\n",
      "x = a - (b - c)\n",          "x = a - b - c\n",        "x = not (a and b)\n",
      "x = (a or b) and c\n",       "x = a if b else c if d else e\n",
      "x = (a if b else c) if d else e\n",                    "x = 1 < y <= 3\n",
      "x = (a < b) < c\n",          "x = f(a, k=[1])[0].b\n",  "x = t[1:2, ::3, ...]\n",
      "x = t[i,]\n",                "x = (1,)\n",             "x = ()\n",
      "x = {'a': [1, 2.5e3, None]}\n",                        "x = 'it\\'s\\n'\n",
      "x = (a, b)[0]\n",            "x = a @ b\n",            "x = ~a & b | c ^ d << 2\n",
      "x = a not in b is not c\n",
      // Functions as values, comprehensions and unpacking.
      "x = lambda: 1\n",            "x = lambda a, b=2, *c, k, **d: a + b\n",
      "x = f(lambda v: v * 2, k=lambda: 0)\n",                "x = (lambda v: v)(1)\n",
      "x = (lambda: a) if b else lambda: c\n",               "x = [v * 2 for v in xs if v if w]\n",
      "x = [(i, j) for i in range(3) for j, _ in ys]\n",     "x = sum(v for v in xs)\n",
      "x = f((v for v in xs), 1)\n",                          "x = {k: v for k, v in d}\n",
      "x = f(*a, b, *c, k=1, **d)\n",                         "x = [*a, 1, *b]\n",
  };
  for (const char *source : cases) {
    CAPTURE(source);
    std::string out = printed(source);
    CHECK(out == source);
    CHECK(shape(out) == shape(source));
  }
}

TEST_CASE("statements print back as written") {
  std::string source = "import tensorflow as tf\n"
                       "from a.b import c as d\n"
                       "@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])\n"
                       "def f(x, n=3, *, k: int = 2) -> int:\n"
                       "    a, b = x, n\n"
                       "    a += 1\n"
                       "    c: int = 4\n"
                       "    if a:\n"
                       "        pass\n"
                       "    elif b:\n"
                       "        del c\n"
                       "    else:\n"
                       "        return a, b\n"
                       "    while x:\n"
                       "        break\n"
                       "    for i, j in z:\n"
                       "        continue\n"
                       "    global g\n"
                       "    assert x, 'm'\n"
                       "    tf.print(x)\n"
                       "    with tf.name_scope('s') as scope, tf.device(None):\n"
                       "        with m as (p, q):\n"
                       "            pass\n"
                       "    try:\n"
                       "        raise ValueError('m') from None\n"
                       "    except (KeyError, ValueError) as e:\n"
                       "        raise\n"
                       "    except:\n"
                       "        pass\n"
                       "    else:\n"
                       "        pass\n"
                       "    finally:\n"
                       "        pass\n"
                       "    def g(*args, **kwargs):\n"
                       "        return args\n"
                       "    return\n";
  std::string out = printed(source);
  CHECK(out == source);
  CHECK(shape(out) == shape(source));
}

TEST_CASE("every seed example round-trips through the printer") {
  for (const char *file : {"tanh_loop", "fizzbuzz", "collatz", "loops", "rnn", "control_deps",
                           "buggy"}) {
    CAPTURE(file);
    std::string path = std::string(AGC_SOURCE_DIR) + "/examples/" + file + ".py";
    auto buffer = llvm::MemoryBuffer::getFile(path);
    REQUIRE(buffer);
    std::string source = (*buffer)->getBuffer().str();
    CHECK(shape(printed(source)) == shape(source));
  }
}
