// Unit tests for the Tracer's emission protocol (Emitter.h), alone, with an Emitter that
// records what it is told: the order of the hooks, the names a staged block carries, and
// AutoGraph's flags for break and return under staged conditions.
#include "TestUtil.h"

#include "ag/frontend/analysis/Emitter.h"
#include "ag/frontend/analysis/Tracer.h"

#include <doctest/doctest.h>

using namespace ag;
using namespace ag::analysis;

namespace {
/// Logs each hook as one line; hands out handles 1, 2, 3, ... as fake IR values.
class Recorder final : public Emitter {
public:
  std::vector<std::string> log;

  bool beginFunction(const ast::FunctionDefStmt &fn, llvm::StringRef name,
                     llvm::MutableArrayRef<Value> args) override {
    log.push_back("function " + fn.getName().str() + (name == fn.getName() ? "" : " as " + name.str()));
    for (Value &a : args)
      if (a.isTensor())
        a.ir = next();
    return true;
  }
  bool endFunction(const ast::FunctionDefStmt &, const Value &result) override {
    log.push_back("return " + result.typeString());
    return true;
  }
  bool constant(Value &out, const Value &python, const Location &) override {
    log.push_back("constant " + python.pyStr(true) + " " + out.typeString());
    out.ir = next();
    return true;
  }
  bool castTo(Value &out, const Value &, const Location &) override {
    out.ir = next();
    return true;
  }
  bool op(TFOp op, const CallArgs &, Value &out) override {
    log.push_back(tfOpName(op).str());
    out.ir = next();
    return true;
  }
  bool subscript(const Value &, llvm::ArrayRef<IndexItem>, Value &out, const Location &) override {
    log.push_back("subscript");
    out.ir = next();
    return true;
  }
  bool rowCount(const Value &, Value &out, const Location &) override {
    log.push_back("row count");
    out.ir = next();
    return true;
  }
  bool variable(Value &v, const Value &, llvm::StringRef, const Location &) override {
    log.push_back("variable");
    v.ir = next();
    return true;
  }
  void bound(const Value &, llvm::StringRef) override {}
  bool readVariable(const Value &, Value &out, const Location &) override {
    log.push_back("read");
    out.ir = next();
    return true;
  }
  bool assignVariable(llvm::StringRef how, const Value &, const Value &, const Location &) override {
    log.push_back(how.str());
    return true;
  }
  bool tensorArray(llvm::StringRef method, const Value &, const CallArgs &, Value &out) override {
    log.push_back("tensor_array." + method.str());
    out.ir = next();
    return true;
  }
  void *beginCond(const Value &, const Location &) override {
    log.push_back("cond");
    return this;
  }
  void beginElse(void *) override { log.push_back("else"); }
  bool endCond(void *, llvm::ArrayRef<Value> a, llvm::ArrayRef<Value>,
               llvm::MutableArrayRef<Value> results) override {
    log.push_back("end cond -> " + types(results) + " then " + types(a));
    for (Value &r : results)
      r.ir = next();
    return true;
  }
  void *beginLoop(llvm::MutableArrayRef<Value> vars, const Location &) override {
    log.push_back("loop " + types(vars));
    for (Value &v : vars)
      v.ir = next();
    return this;
  }
  bool loopBody(void *, const Value &, llvm::MutableArrayRef<Value> vars) override {
    log.push_back("body");
    for (Value &v : vars)
      v.ir = next();
    return true;
  }
  bool endLoop(void *, llvm::ArrayRef<Value>, llvm::MutableArrayRef<Value> results) override {
    log.push_back("end loop -> " + types(results));
    for (Value &r : results)
      r.ir = next();
    return true;
  }

private:
  const void *next() { return reinterpret_cast<const void *>(++counter); }
  static std::string types(llvm::ArrayRef<Value> values) {
    std::string out;
    for (const Value &v : values)
      out += (out.empty() ? "" : ", ") + v.typeString();
    return "(" + out + ")";
  }
  uintptr_t counter = 0;
};

/// Traces every @tf.function of `source` with the recorder attached; returns its log.
std::string record(const std::string &source, ArgumentSpec spec = {}) {
  llvm::SourceMgr sourceMgr;
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  DiagnosticEngine diag(sourceMgr, os);
  std::optional<SourceFile> file = addSourceBuffer("t.py", source, diag);
  REQUIRE(file);
  std::unique_ptr<ast::Module> module = parseModule(*file, diag);
  REQUIRE(module);
  Tracer tracer(*module, diag);
  Recorder recorder;
  tracer.setEmitter(&recorder);
  bool traced = traceModule(tracer, *module, spec).has_value();
  INFO(diagnostics);
  REQUIRE(traced);
  std::string out;
  for (const std::string &line : recorder.log)
    out += line + "\n";
  return out;
}

ArgumentSpec sig(const std::string &text) {
  ArgumentSpec spec;
  spec.signatures[llvm::StringRef(text).split('(').first] = text;
  return spec;
}
} // namespace

TEST_CASE("a staged if: both branches, then the carried names with their merged types") {
  CHECK(record("import tensorflow as tf\n"
               "@tf.function\n"
               "def f(x):\n"
               "    if x > 0:\n"
               "        y = x * 2\n"
               "    else:\n"
               "        y = 3.0\n"
               "    return y\n",
               sig("f(x: float32[])")) ==
        "function f\n"
        "constant 0 float32[]\n" // x > 0: the 0 converts to x's dtype
        "greater\n"
        "cond\n"
        "constant 2 float32[]\n"
        "multiply\n"
        "else\n"
        // y = 3.0 stays a Python float: endCond converts it inside its branch
        "end cond -> (float32[]) then (float32[])\n"
        "return float32[]\n");
}

TEST_CASE("a static if emits only the taken branch; a Python loop is unrolled") {
  CHECK(record("import tensorflow as tf\n"
               "@tf.function\n"
               "def f(x, n=2):\n"
               "    if n > 5:\n"
               "        x = x - 1\n"
               "    for i in range(n):\n"
               "        x = x + i\n"
               "    return x\n",
               sig("f(x: int32[])")) ==
        "function f\n"
        "constant 0 int32[]\n"
        "add\n"
        "constant 1 int32[]\n"
        "add\n"
        "return int32[]\n");
}

TEST_CASE("a staged while with a break carries a break flag that its test reads") {
  std::string log = record("import tensorflow as tf\n"
                           "@tf.function\n"
                           "def f(x):\n"
                           "    while x > 0:\n"
                           "        if x == 3:\n"
                           "            break\n"
                           "        x -= 1\n"
                           "    return x\n",
                           sig("f(x: int32[])"));
  CHECK(log == "function f\n"
               // the test, once to decide that the loop is staged (left dead)
               "constant 0 int32[]\n"
               "greater\n"
               "constant False bool[]\n"
               "loop (int32[], bool[])\n"
               "constant 0 int32[]\n"
               "greater\n"
               "logical_not\n"
               "logical_and\n"
               "body\n"
               "constant 3 int32[]\n"
               "equal\n"
               "cond\n"
               "constant True bool[]\n"
               "else\n"
               "end cond -> (bool[]) then (bool[])\n"
               // the rest of the body, under `not break`
               "logical_not\n"
               "cond\n"
               "constant 1 int32[]\n"
               "subtract\n"
               "else\n"
               "end cond -> (int32[]) then (int32[])\n"
               "end loop -> (int32[], bool[])\n"
               "return int32[]\n");
}

TEST_CASE("returns under a staged if: do_return and the return value, then a guard") {
  std::string log = record("import tensorflow as tf\n"
                           "@tf.function\n"
                           "def f(x):\n"
                           "    if x > 0:\n"
                           "        return x\n"
                           "    return -x\n",
                           sig("f(x: float32[])"));
  CHECK(log == "function f\n"
               "constant 0 float32[]\n"
               "greater\n"
               "cond\n"
               "constant True bool[]\n" // do_return = True
               "else\n"
               "end cond -> (bool[], float32[]) then (bool[], float32[])\n"
               "logical_not\n" // the guard: not do_return
               "cond\n"
               "negative\n"
               "constant True bool[]\n"
               "else\n"
               "end cond -> (bool[], float32[]) then (bool[], float32[])\n"
               "return float32[]\n");
}

TEST_CASE("a staged for over a tensor carries an index and reads one element a pass") {
  std::string log = record("import tensorflow as tf\n"
                           "@tf.function\n"
                           "def f(x):\n"
                           "    s = 0.0\n"
                           "    for v in x:\n"
                           "        s += v\n"
                           "    return s\n",
                           sig("f(x: float32[None])"));
  CHECK(log == "function f\n"
               "constant 0.0 float32[]\n"
               "row count\n" // read from x, static or not: the loop takes x as an input
               "constant 0 int32[]\n"
               "loop (float32[], int32[])\n"
               "less\n"
               "body\n"
               "subscript\n"
               "add\n"
               "constant 1 int32[]\n" // the index steps
               "add\n"
               "end loop -> (float32[], int32[])\n"
               "return float32[]\n");
}

TEST_CASE("tf.Variable state: created at module level, read and written in program order") {
  std::string log = record("import tensorflow as tf\n"
                           "v = tf.Variable(1.0)\n"
                           "@tf.function\n"
                           "def f():\n"
                           "    v.assign_add(2.0)\n"
                           "    return v.read_value()\n");
  // The module is evaluated twice (traceModule, then the trace); the variable is made
  // each time the module-level statement runs.
  CHECK(log.find("assign_add\nread\nreturn float32[]\n") != std::string::npos);
  CHECK(log.find("variable") < log.find("assign_add"));
}
