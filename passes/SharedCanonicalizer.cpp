//===- SharedCanonicalizer.cpp - canonicalize passes with one pattern set --===//
//
// See Pipelines.h. MLIR's canonicalize collects every loaded dialect's and every
// registered op's canonicalization patterns, and freezes them (an index from op name to
// patterns), in each instance's initialize: nine instances in agc's two pipelines did it
// nine times for the same context and dialects. These passes do what canonicalize does
// with its default options, on one set built by the first of them to be initialized.
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Pipelines.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ag {

/// The patterns, and the context and number of loaded dialects they were collected for:
/// a pass manager loads every pass's dialects before it initializes any pass, so the
/// instances of one run find the set the first one built; another context, or more
/// dialects loaded since, builds it again.
struct SharedCanonicalizer::Patterns {
  mlir::MLIRContext *context = nullptr;
  size_t dialects = 0;
  size_t builds = 0;
  std::shared_ptr<const mlir::FrozenRewritePatternSet> set;

  std::shared_ptr<const mlir::FrozenRewritePatternSet> get(mlir::MLIRContext *ctx) {
    size_t loaded = ctx->getLoadedDialects().size();
    if (set && context == ctx && dialects == loaded)
      return set;
    mlir::RewritePatternSet patterns(ctx);
    for (mlir::Dialect *dialect : ctx->getLoadedDialects())
      dialect->getCanonicalizationPatterns(patterns);
    for (mlir::RegisteredOperationName op : ctx->getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, ctx);
    set = std::make_shared<const mlir::FrozenRewritePatternSet>(std::move(patterns));
    context = ctx;
    dialects = loaded;
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
      : PassWrapper(other), shared(other.shared), patterns(other.patterns) {}

  llvm::StringRef getArgument() const override { return "ag-shared-canonicalize"; }
  llvm::StringRef getName() const override { return "Canonicalizer"; }
  llvm::StringRef getDescription() const override {
    return "canonicalize, on a pattern set shared with the pipeline's other instances";
  }

  mlir::LogicalResult initialize(mlir::MLIRContext *context) override {
    patterns = shared->get(context);
    return mlir::success();
  }

  void runOnOperation() override {
    // canonicalize's defaults: top-down, normal region simplification, 10 iterations.
    mlir::GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true)
        .setRegionSimplificationLevel(mlir::GreedySimplifyRegionLevel::Normal)
        .setMaxIterations(10);
    (void)mlir::applyPatternsGreedily(getOperation(), *patterns, config);
  }

private:
  std::shared_ptr<SharedCanonicalizer::Patterns> shared;
  std::shared_ptr<const mlir::FrozenRewritePatternSet> patterns;
};
} // namespace

SharedCanonicalizer::SharedCanonicalizer() : shared(std::make_shared<Patterns>()) {}

SharedCanonicalizer::~SharedCanonicalizer() = default;

size_t SharedCanonicalizer::builds() const { return shared->builds; }

std::unique_ptr<mlir::Pass> SharedCanonicalizer::create() const {
  return std::make_unique<CanonicalizePass>(shared);
}

} // namespace ag
