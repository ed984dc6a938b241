//===- TracerStmts.cpp - Statements, assignments, break, continue and return ----===//
//
// The statements the tracer runs, one at a time; control flow of its own in
// TracerConditionals.cpp (if) and TracerLoops.cpp (while, for).
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

#include "llvm/ADT/StringExtras.h"

using namespace ag;
using namespace ag::analysis;
using llvm::cast;
using llvm::dyn_cast;

/// The module path agc uses for a Python module name: `tensorflow...` is `tf...`.
static std::string canonicalModule(llvm::StringRef name) {
  if (name == "tensorflow" || name.starts_with("tensorflow."))
    return ("tf" + name.drop_front(strlen("tensorflow"))).str();
  return name.str();
}

namespace {

const char *loopWord(const ast::Stmt &stmt) {
  return llvm::isa<ast::ForStmt>(stmt) ? "for" : "while";
}

/// How to stage Python loop `loop`, for notes.
std::string stageHint(const ast::Stmt &loop) {
  if (llvm::isa<ast::ForStmt>(loop))
    return "this loop is unrolled at compile time; iterate over a tensor (tf.range) to "
           "stage it";
  const auto &test = llvm::cast<ast::WhileStmt>(loop).getTest();
  if (const auto *b = llvm::dyn_cast<ast::BoolLitExpr>(&test); b && b->getValue())
    return "this loop is unrolled at compile time; write `while tf.constant(True):` to stage it";
  return "this loop is unrolled at compile time; make its condition a tensor to stage it";
}

} // namespace

//===----------------------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------------------===//

Flow Tracer::Impl::execList(const ast::StmtList &stmts, size_t from) {
  for (size_t i = from; i < stmts.size(); ++i) {
    Flow flow = exec(*stmts[i]);
    if (flow != Flow::Normal)
      return flow;
    // A break, continue or return under a staged condition: what follows runs only
    // where no flag is set. At the end of the list the enclosing list guards its rest.
    if (emitter && frame().pendingGuard && i + 1 < stmts.size()) {
      frame().pendingGuard = false;
      return execGuarded(stmts, i + 1);
    }
  }
  return Flow::Normal;
}

bool Tracer::Impl::assign(const ast::Expr &target, const Value &value) {
  if (const auto *name = dyn_cast<ast::NameExpr>(&target)) {
    if (emitter && frames.size() == 1 && !frame().function)
      emitter->bound(value, name->getId());
    Value bound = value;
    bound.boundAt = target.loc();
    frame().locals[name->getId()] = std::move(bound);
    return true;
  }
  if (const auto *seq = dyn_cast<ast::SequenceExpr>(&target)) {
    const ast::ExprList &targets = seq->getElements();
    std::vector<Value> parts;
    if (value.isPySequence()) {
      parts = value.elements;
    } else if (value.isTensorLike() && value.shape.rankKnown && value.shape.rank() > 0 &&
               value.shape.dims[0] >= 0) {
      Shape inner = value.shape;
      inner.dims.erase(inner.dims.begin());
      parts.assign(value.shape.dims[0], Value::tensor(value.dtype, inner));
    } else {
      error(target.loc(), "cannot unpack " + value.describe() + " into " +
                              llvm::Twine(targets.size()) + " names");
      return false;
    }
    if (parts.size() != targets.size()) {
      error(target.loc(), (parts.size() > targets.size() ? "too many" : "not enough") +
                              llvm::Twine(" values to unpack (expected ") +
                              llvm::Twine(targets.size()) + ", got " +
                              llvm::Twine(parts.size()) + ")");
      return false;
    }
    for (size_t i = 0; i < parts.size(); ++i)
      if (!assign(*targets[i], parts[i]))
        return false;
    return true;
  }
  if (const auto *sub = dyn_cast<ast::SubscriptExpr>(&target)) {
    std::optional<Value> container = eval(sub->getValue());
    if (!container)
      return false;
    if (container->isTensorLike()) {
      error(target.loc(), "a tensor does not support item assignment (tensors are immutable)");
      note(target.loc(), "use tf.tensor_scatter_nd_update, or build the tensor with tf.concat "
                         "or a tf.TensorArray");
      return false;
    }
    error(target.loc(), "item assignment to " + container->describe() +
                            " is not supported by agc");
    return false;
  }
  error(target.loc(), "assignment to an attribute is not supported by agc");
  return false;
}

Flow Tracer::Impl::exec(const ast::Stmt &stmt) {
  using K = ast::Stmt::Kind;
  switch (stmt.getKind()) {
  case K::Import:
    for (const ast::ImportAlias &alias : cast<ast::ImportStmt>(stmt).getNames()) {
      llvm::StringRef bound = alias.asname.empty()
                                  ? llvm::StringRef(alias.name).split('.').first
                                  : llvm::StringRef(alias.asname);
      std::string path = alias.asname.empty() ? canonicalModule(bound) : canonicalModule(alias.name);
      frame().locals[bound] = Value::module(path);
    }
    return Flow::Normal;
  case K::ImportFrom: {
    const auto &from = cast<ast::ImportFromStmt>(stmt);
    for (const ast::ImportAlias &alias : from.getNames())
      frame().locals[alias.asname.empty() ? alias.name : alias.asname] =
          Value::module(canonicalModule(from.getModule()) + "." + alias.name);
    return Flow::Normal;
  }
  case K::Assign: {
    const auto &s = cast<ast::AssignStmt>(stmt);
    std::optional<Value> value = eval(s.getValue());
    if (!value)
      return Flow::Error;
    for (const ast::ExprPtr &target : s.getTargets())
      if (!assign(*target, *value))
        return Flow::Error;
    return Flow::Normal;
  }
  case K::AugAssign: {
    const auto &s = cast<ast::AugAssignStmt>(stmt);
    std::optional<Value> current = eval(s.getTarget());
    std::optional<Value> rhs = current ? eval(s.getValue()) : std::nullopt;
    if (!rhs)
      return Flow::Error;
    std::optional<Value> value = binary(s.getOp(), *current, *rhs, stmt.loc());
    if (!value || !assign(s.getTarget(), *value))
      return Flow::Error;
    return Flow::Normal;
  }
  case K::AnnAssign: {
    const auto &s = cast<ast::AnnAssignStmt>(stmt);
    if (!s.getValue())
      return Flow::Normal;
    std::optional<Value> value = eval(*s.getValue());
    if (!value || !assign(s.getTarget(), *value))
      return Flow::Error;
    return Flow::Normal;
  }
  case K::ExprStmt:
    return eval(cast<ast::ExprStmt>(stmt).getValue()) ? Flow::Normal : Flow::Error;
  case K::If:
    return execIf(cast<ast::IfStmt>(stmt));
  case K::While:
    return execWhile(cast<ast::WhileStmt>(stmt));
  case K::For:
    return execFor(cast<ast::ForStmt>(stmt));
  case K::Break:
    return execBreakContinue(stmt, Flow::Break);
  case K::Continue:
    return execBreakContinue(stmt, Flow::Continue);
  case K::Return:
    return execReturn(cast<ast::ReturnStmt>(stmt));
  case K::Pass:
  case K::Global:
  case K::Nonlocal:
    return Flow::Normal;
  case K::Assert: {
    const auto &s = cast<ast::AssertStmt>(stmt);
    std::optional<Value> test = eval(s.getTest());
    if (!test)
      return Flow::Error;
    if (std::optional<bool> holds = truth(*test)) {
      if (!*holds) {
        error(s.getTest().loc(), "assertion failed while tracing (the test is " +
                                     test->describe() + ")");
        return Flow::Error;
      }
      return Flow::Normal;
    }
    // TensorFlow 2.21 does not stage an assert statement: a tensor test is used as a
    // Python bool while tracing, which it refuses (OperatorNotAllowedInGraphError).
    error(s.getTest().loc(), "an assert statement needs a Python bool, but its test is " +
                                 test->describe() + ", known only at run time; "
                                 "tf.function does not stage assert statements");
    note(s.loc(), "for a run-time check, write tf.debugging.Assert(test, [message]) or a "
                  "tf.debugging.assert_* function");
    return Flow::Error;
  }
  case K::Delete:
    for (const ast::ExprPtr &target : cast<ast::DeleteStmt>(stmt).getTargets()) {
      const auto *name = dyn_cast<ast::NameExpr>(target.get());
      if (!name) {
        error(target->loc(), "only names can be deleted in traced code");
        return Flow::Error;
      }
      if (!frame().locals.erase(name->getId())) {
        error(target->loc(), "name '" + name->getId() + "' is not defined");
        return Flow::Error;
      }
    }
    return Flow::Normal;
  case K::Unsupported:
    // What the parser could not take is an error once tracing reaches it.
    diag.report(cast<ast::UnsupportedStmt>(stmt).getWhy());
    failed = true;
    return Flow::Error;
  case K::FunctionDef: {
    const auto &def = cast<ast::FunctionDefStmt>(stmt);
    std::optional<Value> fn = functionValue(def);
    if (!fn)
      return Flow::Error;
    frame().locals[def.getName()] = std::move(*fn);
    return Flow::Normal;
  }
  }
  return Flow::Normal;
}

std::optional<Value> Tracer::Impl::functionValue(const ast::FunctionDefStmt &def) {
  Value fn;
  fn.kind = Value::Kind::Function;
  fn.function = &def;
  fn.boundAt = def.getNameLoc();
  // Defaults are evaluated once, where the function is defined (Python's __defaults__).
  for (const ast::Param &param : def.getParams()) {
    Value none;
    std::optional<Value> v = param.defaultValue ? eval(*param.defaultValue) : none;
    if (!v)
      return std::nullopt;
    fn.elements.push_back(std::move(*v));
  }
  if (frame().function) { // defined in a call: it closes over the call's names
    fn.closure = frame().scope.get();
    frame().closedOver = true;
  }
  return fn;
}

//===----------------------------------------------------------------------------------===//
// break, continue, return
//===----------------------------------------------------------------------------------===//

Flow Tracer::Impl::execBreakContinue(const ast::Stmt &stmt, Flow flow) {
  Frame &f = frame();
  // The parser guarantees an enclosing loop.
  size_t target = f.loops.size() - 1;
  const Loop &loop = f.loops[target];
  // A staged continue only skips the rest of this pass (AutoGraph guards it with a flag
  // that the loop's test never reads); a staged break would have to end a Python loop.
  if (!loop.staged && flow == Flow::Break) {
    for (auto &[ifStmt, depth] : f.stagedIfs) {
      if (depth != f.loops.size())
        continue;
      error(stmt.loc(), llvm::Twine("'break' depends on a tensor, but the ") + loopWord(*loop.stmt) +
                            " loop it leaves is a Python loop: the loop would need a tensor "
                            "as a Python bool");
      note(ifStmt->getTest().loc(), "the break is under this staged condition (a tensor)");
      note(loop.stmt->loc(), stageHint(*loop.stmt));
      return Flow::Error;
    }
  }
  // Emitting: a flag records it, for the guards after staged conditions and for the
  // test of a staged loop. (A Python loop's break is never under a staged condition.)
  if (emitter && (loop.staged || flow == Flow::Continue)) {
    std::optional<Value> set = boolTensor(true, stmt.loc());
    if (!set)
      return Flow::Error;
    f.locals[exitFlag(flow == Flow::Break ? ExitKind::Break : ExitKind::Continue, target)] = *set;
  }
  return flow;
}

Flow Tracer::Impl::execReturn(const ast::ReturnStmt &stmt) {
  Frame &f = frame();
  std::optional<Value> value = stmt.getValue() ? eval(*stmt.getValue()) : Value::none();
  if (!value)
    return Flow::Error;
  const Value returned = *value;
  bool staged = !f.stagedIfs.empty() || f.guards > 0 ||
                llvm::any_of(f.loops, [](const Loop &l) { return l.staged; });
  // AutoGraph's return value starts undefined, and a staged loop cannot carry an
  // undefined value: TensorFlow refuses every return inside one.
  for (const Loop &loop : f.loops) {
    if (!loop.staged)
      continue;
    error(stmt.loc(), "a return statement cannot be placed inside a staged " +
                          llvm::Twine(loopWord(*loop.stmt)) + " loop (tf.while_loop)");
    note(loop.stmt->loc(), "this loop is staged; keep the result in a variable, break out of "
                           "the loop, and return after it");
    return Flow::Error;
  }
  if (staged) {
    // A staged return is a flag; a Python loop around it would need its value.
    for (const Loop &loop : f.loops) {
      if (loop.staged)
        break;
      error(stmt.loc(), "'return' depends on a tensor, but it leaves a Python " +
                            llvm::Twine(loopWord(*loop.stmt)) +
                            " loop, which would need a tensor as a Python bool");
      if (!f.stagedIfs.empty())
        note(f.stagedIfs.back().first->getTest().loc(),
             "the return is under this staged condition (a tensor)");
      note(loop.stmt->loc(), stageHint(*loop.stmt));
      return Flow::Error;
    }
    if (!f.conditionalReturnAt)
      f.conditionalReturnAt = &stmt;
  }
  if (f.returnValue && (staged || f.conditionalReturnAt)) {
    // Returns that tf.cond joins must agree: tensors of one dtype.
    const Value &prior = *f.returnValue;
    bool priorTensor = prior.isTensorLike() || prior.isPyScalar();
    bool thisTensor = value->isTensorLike() || value->isPyScalar();
    auto mismatch = [&](const llvm::Twine &what) {
      error(stmt.loc(), "this return gives " + what + ", but the return at line " +
                            llvm::Twine(f.returnAt->loc().begin.line) + " gives " +
                            prior.describe() + "; returns joined by a staged condition " +
                            "must have the same type");
      note(f.returnAt->loc(), "the other return");
      return Flow::Error;
    };
    if (priorTensor != thisTensor)
      return mismatch(value->describe());
    if (thisTensor) {
      std::optional<Value> a = asTensor(prior, stmt.loc()), b = asTensor(*value, stmt.loc());
      if (!a || !b)
        return Flow::Error;
      if (a->dtype != b->dtype)
        return mismatch(b->describe());
      value = Value::tensor(a->dtype, a->shape.join(b->shape));
    }
  }
  if (!f.returnAt)
    f.returnAt = &stmt;
  f.returnValue = *value;
  f.openReturn = nullptr; // a return here covers the paths an earlier staged if left open
  if (emitter && staged) {
    // AutoGraph's retval_ and do_return: a value and a flag that staged ifs carry.
    if (!returned.isTensorLike() && !returned.isPyScalar()) {
      error(stmt.loc(), "returning " + returned.describe() + " under a staged condition is "
                        "not supported by agc's code generator yet; return a tensor");
      return Flow::Error;
    }
    std::optional<Value> set = boolTensor(true, stmt.loc());
    if (!set)
      return Flow::Error;
    f.locals[returnSlot()] = returned;
    f.locals[exitFlag(ExitKind::Return)] = *set;
  }
  return Flow::Return;
}
