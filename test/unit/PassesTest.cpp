// The pass-building pieces of passes/ that are not a pass of their own (the passes are
// tested through ag-opt, test/lit/passes).
#include "ag/passes/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <doctest/doctest.h>

namespace {

constexpr const char *kTwoFolds = R"mlir(
func.func @f() -> i32 {
  %a = arith.constant 2 : i32
  %b = arith.constant 3 : i32
  %c = arith.addi %a, %b : i32
  return %c : i32
}
func.func @g(%x: i32) -> i32 {
  %z = arith.constant 0 : i32
  %y = arith.addi %x, %z : i32
  return %y : i32
}
)mlir";

/// The number of arith.addi left in `module` after `passes` canonicalize passes of one
/// SharedCanonicalizer, run on a fresh parse of kTwoFolds in `context`.
int addsLeft(mlir::MLIRContext &context, const ag::SharedCanonicalizer &canonicalize,
             int passes) {
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kTwoFolds, &context);
  REQUIRE(module);
  mlir::PassManager pm(&context);
  for (int i = 0; i < passes; ++i)
    pm.addPass(canonicalize.create());
  REQUIRE(mlir::succeeded(pm.run(*module)));
  int adds = 0;
  module->walk([&](mlir::arith::AddIOp) { ++adds; });
  return adds;
}

} // namespace

TEST_CASE("shared canonicalize passes fold as canonicalize does, on one set of patterns") {
  mlir::MLIRContext context;
  context.loadDialect<mlir::func::FuncDialect, mlir::arith::ArithDialect>();
  ag::SharedCanonicalizer canonicalize;
  CHECK(canonicalize.builds() == 0);
  // 2 + 3 folded to a constant, x + 0 to x.
  CHECK(addsLeft(context, canonicalize, 3) == 0);
  CHECK(canonicalize.builds() == 1);
  // Another run with the same dialects finds the set already built.
  CHECK(addsLeft(context, canonicalize, 2) == 0);
  CHECK(canonicalize.builds() == 1);
  // A dialect loaded since: the sets are collected again (still one for these ops).
  context.loadDialect<mlir::scf::SCFDialect>();
  CHECK(addsLeft(context, canonicalize, 1) == 0);
  CHECK(canonicalize.builds() == 2);
  // Another context: a set of its own.
  mlir::MLIRContext other;
  other.loadDialect<mlir::func::FuncDialect, mlir::arith::ArithDialect>();
  CHECK(addsLeft(other, canonicalize, 1) == 0);
  CHECK(canonicalize.builds() == 3);
}

TEST_CASE("shared canonicalize passes take the patterns of the dialects the IR holds") {
  // One set per set of dialects present: scf's patterns (here, an scf.if on a constant
  // condition replaced by its branch) are in the set of IR that holds scf ops only.
  mlir::MLIRContext context;
  context.loadDialect<mlir::func::FuncDialect, mlir::arith::ArithDialect,
                      mlir::scf::SCFDialect>();
  ag::SharedCanonicalizer canonicalize;
  auto run = [&](const char *source) {
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    REQUIRE(module);
    mlir::PassManager pm(&context);
    pm.addPass(canonicalize.create());
    pm.addPass(canonicalize.create());
    REQUIRE(mlir::succeeded(pm.run(*module)));
    int ifs = 0, adds = 0;
    module->walk([&](mlir::scf::IfOp) { ++ifs; });
    module->walk([&](mlir::arith::AddIOp) { ++adds; });
    return std::pair{ifs, adds};
  };
  CHECK(run(kTwoFolds) == std::pair{0, 0});
  CHECK(canonicalize.builds() == 1); // func, arith and builtin
  CHECK(run(R"mlir(
func.func @h(%x: i32) -> i32 {
  %true = arith.constant true
  %r = scf.if %true -> i32 {
    %z = arith.constant 0 : i32
    %y = arith.addi %x, %z : i32
    scf.yield %y : i32
  } else {
    scf.yield %x : i32
  }
  return %r : i32
}
)mlir") == std::pair{0, 0});
  // With scf: its patterns, the if on `true` replaced by its branch; then, all of it
  // folded to `return %x`, the second pass's set is builtin's and func's.
  CHECK(canonicalize.builds() == 3);
  CHECK(run(kTwoFolds) == std::pair{0, 0});
  CHECK(canonicalize.builds() == 3);
}

TEST_CASE("shared canonicalize passes nested on functions, on several threads") {
  // A pass manager running a nested pipeline on several threads initializes the pass,
  // then copies it for each thread: each copy must keep the patterns.
  mlir::MLIRContext context(mlir::MLIRContext::Threading::ENABLED);
  context.loadDialect<mlir::func::FuncDialect, mlir::arith::ArithDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kTwoFolds, &context);
  REQUIRE(module);
  ag::SharedCanonicalizer canonicalize;
  mlir::PassManager pm(&context);
  pm.addNestedPass<mlir::func::FuncOp>(canonicalize.create());
  REQUIRE(mlir::succeeded(pm.run(*module)));
  int adds = 0;
  module->walk([&](mlir::arith::AddIOp) { ++adds; });
  CHECK(adds == 0);
  CHECK(canonicalize.builds() == 1);
}
