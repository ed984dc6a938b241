// Unit tests for the op table (TFOps.def): every op is found by the names TensorFlow gives
// it, and by no other; operators' own ops are not tf functions.
#include "ag/frontend/analysis/TFOps.h"

#include "llvm/ADT/StringSet.h"

#include <doctest/doctest.h>

#include <string>

using namespace ag::analysis;

namespace {
struct Entry {
  TFOp op;
  const char *typing;
};
const Entry kEntries[] = {
#define TF_OP(ID, NAME, TYPING, LOWERING) {TFOp::ID, #TYPING},
#include "ag/frontend/analysis/TFOps.def"
};
} // namespace

TEST_CASE("every op of TFOps.def is found by its names, and only by them") {
  REQUIRE(std::size(kEntries) == kNumTFOps);
  llvm::StringSet<> names;
  for (const Entry &entry : kEntries) {
    std::string name = tfOpName(entry.op).str();
    CAPTURE(name);
    CHECK(names.insert(name).second); // one op per name
    std::optional<TFOp> found = lookupTFOp("tf." + name);
    if (llvm::StringRef(entry.typing) == "Operator") {
      CHECK(!found); // `a & b` is bitwise_and, but tf.bitwise_and is not agc's to take
      continue;
    }
    REQUIRE(found);
    CHECK(*found == entry.op);
    if (name.find('.') == std::string::npos) {
      CHECK(lookupTFOp("tf.math." + name) == entry.op);
      CHECK(lookupTFOp("tf.debugging." + name) == entry.op);
    }
  }
}

TEST_CASE("aliases and names that are not ops") {
  CHECK(lookupTFOp("tf.nn.relu") == TFOp::Relu);
  CHECK(lookupTFOp("tf.nn.log_softmax") == TFOp::LogSoftmax);
  CHECK(lookupTFOp("tf.linalg.matmul") == TFOp::Matmul);
  CHECK(lookupTFOp("tf.random.uniform") == TFOp::RandomUniform);
  CHECK(lookupTFOp("tf.autograph.experimental.set_loop_options") == TFOp::SetLoopOptions);
  CHECK(!lookupTFOp("tf.nn.exp"));       // tf.nn holds only its own ops
  CHECK(!lookupTFOp("tf.math.random.uniform"));
  CHECK(!lookupTFOp("tf.no_such_op"));
  CHECK(!lookupTFOp("np.exp"));
  CHECK(!lookupTFOp("reduce_sum"));
}
