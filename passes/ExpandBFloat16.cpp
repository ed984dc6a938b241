//===- ExpandBFloat16.cpp - bfloat16 conversions as integer operations -------------===//
//
// LLVM lowers `fptrunc float to bfloat` to vcvtneps2bf16 on a CPU with AVX512-BF16 and
// to a call of __truncsfbf2 elsewhere (x86-64-v3, agc's default CPU): Debian 12's libgcc
// has no such function, so that an object with a tf.cast to bfloat16 could not be
// linked, and `agc run` could not resolve it. Upstream's ExpandBFloat16 patterns write
// the conversion with integer operations (round to nearest even, a NaN stays a NaN, as
// Eigen's bfloat16 rounds a float), the same code for every CPU; `arith.extf` from
// bfloat16 becomes a shift. Run before the conversion to the LLVM dialect, after the
// passes that make math in float32 and round back (MathExtendToSupportedTypes).
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ag {
#define GEN_PASS_DEF_EXPANDBFLOAT16
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {
struct ExpandBFloat16 : ag::impl::ExpandBFloat16Base<ExpandBFloat16> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
