//===- MLIRGenControl.cpp - Staged ifs and loops: ag.cond, ag.while_loop --------===//
//
// Staged branches and loop regions are built in detached blocks while the Tracer runs
// them; their ag.cond / ag.while_loop is created when the Tracer has merged the carried
// names and knows their types.
//
//===----------------------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "ag/dialect/AgDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace ag;

//===----------------------------------------------------------------------------------===//
// Staged control flow
//===----------------------------------------------------------------------------------===//

/// A staged test as ag's predicate: a 0-d tensor<i1>, or an i1 read from a one-element
/// tensor (tf.cond squeezes shapes (1,) and (None,)).
static mlir::Value predicate(MLIRGen &gen, const Value &test, const Location &at) {
  RankedTensorType type = gen.tensorType(test, at);
  if (!type)
    return nullptr;
  mlir::Value t = gen.materialize(test, type, at);
  if (!t || type.getRank() == 0)
    return t;
  mlir::Location l = gen.loc(at);
  llvm::SmallVector<mlir::Value> zeros(type.getRank(), gen.indexConstant(0, l));
  return mlir::tensor::ExtractOp::create(gen.builder, l, t, zeros);
}

template <typename T>
static void dropState(std::vector<std::unique_ptr<T>> &states, T *state) {
  llvm::erase_if(states, [&](const std::unique_ptr<T> &s) { return s.get() == state; });
}

void *MLIRGen::beginCond(const Value &test, const Location &at) {
  mlir::Value p = predicate(*this, test, at);
  auto state = std::unique_ptr<CondState>(new CondState{p, builder.saveInsertionPoint(),
                                                        std::make_unique<mlir::Block>(),
                                                        std::make_unique<mlir::Block>(), loc(at)});
  builder.setInsertionPointToStart(state->thenBlock.get());
  conds.push_back(std::move(state));
  return conds.back().get();
}

void MLIRGen::beginElse(void *token) {
  builder.setInsertionPointToStart(static_cast<CondState *>(token)->elseBlock.get());
}

/// The type a carried value has in IR: a tensor array's own, else the Tracer's type.
static mlir::Type carriedType(MLIRGen &gen, const Value &typed, llvm::ArrayRef<Value> samples,
                              const Location &at) {
  if (typed.kind == Value::Kind::TensorArray || typed.kind == Value::Kind::Undefined) {
    for (const Value &s : samples)
      if (s.ir)
        return gen.use(s.ir).getType();
    gen.fail(at, "internal error: a tf.TensorArray has no IR value");
    return nullptr;
  }
  return gen.tensorType(typed, at);
}

bool MLIRGen::endCond(void *token, llvm::ArrayRef<Value> thenValues,
                      llvm::ArrayRef<Value> elseValues, llvm::MutableArrayRef<Value> results) {
  auto *state = static_cast<CondState *>(token);
  Location at; // the cond's own location is in state->loc
  llvm::SmallVector<mlir::Type> types;
  for (size_t i = 0; i < results.size(); ++i) {
    mlir::Type t = carriedType(*this, results[i], {thenValues[i], elseValues[i]}, at);
    if (!t || !state->test)
      return false;
    types.push_back(t);
  }
  for (auto [block, values] : {std::pair{state->thenBlock.get(), thenValues},
                               std::pair{state->elseBlock.get(), elseValues}}) {
    builder.setInsertionPointToEnd(block);
    llvm::SmallVector<mlir::Value> yields;
    for (size_t i = 0; i < values.size(); ++i) {
      mlir::Value v = materialize(values[i], llvm::cast<RankedTensorType>(types[i]),
                                  values[i].boundAt);
      if (!v)
        return false;
      yields.push_back(v);
    }
    YieldOp::create(builder, state->loc, yields);
  }
  builder.restoreInsertionPoint(state->outer);
  auto op = CondOp::create(builder, state->loc, types, state->test);
  op.getThenRegion().push_back(state->thenBlock.release());
  op.getElseRegion().push_back(state->elseBlock.release());
  for (size_t i = 0; i < results.size(); ++i)
    results[i].ir = handle(op.getResult(i));
  dropState(conds, state);
  return true;
}

void *MLIRGen::beginLoop(llvm::MutableArrayRef<Value> vars, const Location &at) {
  auto state = std::unique_ptr<LoopState>(new LoopState{builder.saveInsertionPoint(), {}, {},
                                                        std::make_unique<mlir::Block>(),
                                                        std::make_unique<mlir::Block>(), loc(at)});
  for (Value &var : vars) {
    mlir::Type type = carriedType(*this, var, {var}, at);
    mlir::Value init = type ? materialize(var, llvm::cast<RankedTensorType>(type), at) : nullptr;
    if (!init) {
      state->types.clear();
      break;
    }
    state->types.push_back(type);
    state->inits.push_back(init);
    var.ir = handle(state->before->addArgument(type, state->loc));
  }
  builder.setInsertionPointToStart(state->before.get());
  loops.push_back(std::move(state));
  return loops.back().get();
}

bool MLIRGen::loopBody(void *token, const Value &test, llvm::MutableArrayRef<Value> vars) {
  auto *state = static_cast<LoopState *>(token);
  if (state->types.size() != vars.size())
    return false; // beginLoop reported it
  mlir::Value p = predicate(*this, test, test.boundAt);
  if (!p)
    return false;
  llvm::SmallVector<mlir::Value> args;
  for (size_t i = 0; i < vars.size(); ++i) {
    mlir::Value v = materialize(vars[i], llvm::cast<RankedTensorType>(state->types[i]), {});
    if (!v)
      return false;
    args.push_back(v);
  }
  ConditionOp::create(builder, state->loc, p, args);
  for (size_t i = 0; i < vars.size(); ++i)
    vars[i].ir = handle(state->after->addArgument(state->types[i], state->loc));
  builder.setInsertionPointToStart(state->after.get());
  return true;
}

bool MLIRGen::endLoop(void *token, llvm::ArrayRef<Value> next, llvm::MutableArrayRef<Value> results) {
  auto *state = static_cast<LoopState *>(token);
  llvm::SmallVector<mlir::Value> yields;
  for (size_t i = 0; i < next.size(); ++i) {
    mlir::Value v = materialize(next[i], llvm::cast<RankedTensorType>(state->types[i]),
                                next[i].boundAt);
    if (!v)
      return false;
    yields.push_back(v);
  }
  YieldOp::create(builder, state->loc, yields);
  builder.restoreInsertionPoint(state->outer);
  auto op = WhileLoopOp::create(builder, state->loc, state->types, state->inits);
  op.getBefore().push_back(state->before.release());
  op.getAfter().push_back(state->after.release());
  for (size_t i = 0; i < results.size(); ++i)
    results[i].ir = handle(op.getResult(i));
  dropState(loops, state);
  return true;
}
