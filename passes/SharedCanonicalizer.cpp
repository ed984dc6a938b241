//===- SharedCanonicalizer.cpp - canonicalize passes with one pattern set --===//
//
// See Pipelines.h. MLIR's canonicalize collects every loaded dialect's and every
// registered op's canonicalization patterns, and freezes them (an index from op name to
// patterns), in each instance's initialize: nine instances in agc's two pipelines did it
// nine times for the same context and dialects. These passes do what canonicalize does
// with its default options, on a set built by the first of them to need it, without its
// region simplification (see runOnOperation).
//
// A set holds the patterns of the dialects the IR holds when the pass starts, not of
// every loaded one: the greedy driver sorts all of a set's patterns by benefit each time
// it runs, so the patterns of dialects already lowered away (tensor, linalg, vector when
// only the LLVM dialect is left) cost some 7% of the instructions of agc's MLIR stages
// (callgrind, the tanh loop) for nothing. What a pattern creates of another dialect is
// still folded, and canonicalized by the pipeline's next instance. The objects of the conformance suite's 2,382 compiles and
// of the benchmark's programs (three --mcpu levels) are the same bytes either way.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Pipelines.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

namespace ag {

/// The sets of patterns, by the (sorted) dialects they are for, and the context and
/// number of loaded dialects they were collected in: a pass manager loads every pass's
/// dialects before it runs any pass, so the instances of one run find the sets the
/// first ones built; another context, or more dialects loaded since, builds them again.
/// Instances nested on functions run on several threads: one at a time here.
struct SharedCanonicalizer::Patterns {
  mlir::MLIRContext *context = nullptr;
  size_t dialects = 0;
  size_t builds = 0;
  std::mutex mutex;
  std::map<std::vector<mlir::Dialect *>, std::shared_ptr<const mlir::FrozenRewritePatternSet>> sets;

  std::shared_ptr<const mlir::FrozenRewritePatternSet> get(mlir::MLIRContext *ctx,
                                                           std::vector<mlir::Dialect *> present) {
    std::lock_guard<std::mutex> lock(mutex);
    size_t loaded = ctx->getLoadedDialects().size();
    if (context != ctx || dialects != loaded) {
      sets.clear();
      context = ctx;
      dialects = loaded;
    }
    std::shared_ptr<const mlir::FrozenRewritePatternSet> &set = sets[present];
    if (set)
      return set;
    mlir::RewritePatternSet patterns(ctx);
    for (mlir::Dialect *dialect : present)
      dialect->getCanonicalizationPatterns(patterns);
    for (mlir::RegisteredOperationName op : ctx->getRegisteredOperations())
      if (std::binary_search(present.begin(), present.end(), &op.getDialect()))
        op.getCanonicalizationPatterns(patterns, ctx);
    set = std::make_shared<const mlir::FrozenRewritePatternSet>(std::move(patterns));
    ++builds;
    return set;
  }
};

namespace {
class CanonicalizePass final
    : public mlir::PassWrapper<CanonicalizePass, mlir::OperationPass<>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CanonicalizePass)

  explicit CanonicalizePass(std::shared_ptr<SharedCanonicalizer::Patterns> shared)
      : shared(std::move(shared)) {}
  // A pass manager that runs on several threads initializes a pass, then copies it.
  CanonicalizePass(const CanonicalizePass &other)
      : PassWrapper(other), shared(other.shared) {}

  llvm::StringRef getArgument() const override { return "ag-shared-canonicalize"; }
  llvm::StringRef getName() const override { return "Canonicalizer"; }
  llvm::StringRef getDescription() const override {
    return "canonicalize, on a pattern set shared with the pipeline's other instances";
  }

  void runOnOperation() override {
    // The dialects of the ops here, the key of their set.
    std::vector<mlir::Dialect *> present;
    getOperation()->walk([&](mlir::Operation *op) {
      if (mlir::Dialect *d = op->getDialect())
        if (std::find(present.begin(), present.end(), d) == present.end())
          present.push_back(d);
    });
    llvm::sort(present);
    std::shared_ptr<const mlir::FrozenRewritePatternSet> patterns = shared->get(&getContext(), present);
    // canonicalize's defaults (top-down, 10 iterations) but region simplification, which
    // erases unreachable blocks, merges identical ones and runs a liveness analysis over
    // the whole region to drop dead block arguments and cycles of dead ops: agc's IR is
    // structured (a block a region) until its lowering to the LLVM dialect, whose blocks
    // LLVM's -O2 simplifies anyway. Disabled, 4% of the MLIR stages' instructions on the
    // tanh loop go (1.4 of 34.7 million; the whole compile 0.2–0.4 ms shorter), and the
    // objects of the conformance suite's 1,835 compiles for the CPU and for nvptx (their
    // PTX), and of the benchmark's programs at three --mcpu levels, are the same bytes.
    mlir::GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true)
        .setRegionSimplificationLevel(mlir::GreedySimplifyRegionLevel::Disabled)
        .setMaxIterations(10);
    (void)mlir::applyPatternsGreedily(getOperation(), *patterns, config);
  }

private:
  std::shared_ptr<SharedCanonicalizer::Patterns> shared;
};
} // namespace

SharedCanonicalizer::SharedCanonicalizer() : shared(std::make_shared<Patterns>()) {}

SharedCanonicalizer::~SharedCanonicalizer() = default;

size_t SharedCanonicalizer::builds() const { return shared->builds; }

std::unique_ptr<mlir::Pass> SharedCanonicalizer::create() const {
  return std::make_unique<CanonicalizePass>(shared);
}

} // namespace ag
