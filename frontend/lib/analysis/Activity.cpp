//===- Activity.cpp - Names read, bound and deleted -----------------------===//
//
// Steps:
//   1. Parameters, then global/nonlocal declarations anywhere in the body.
//   2. Each CFG node: the names it reads and the names it binds or deletes, from its
//      statement (for Test/Iterate nodes: the test, or the iterable and target).
//   3. Each compound statement, recursively: a Scope per part, each the union of what the
//      statements in that part do (nested compound statements included).
//   4. Every set is brought to the final size of the name table.
//
//===----------------------------------------------------------------------------------===//
#include "ag/frontend/analysis/Activity.h"

using namespace ag;
using namespace ag::analysis;
using llvm::cast;
using llvm::dyn_cast;

namespace {
void add(NameSet &set, unsigned index) {
  if (index >= set.size())
    set.resize(index + 1);
  set.set(index);
}
} // namespace

namespace ag::analysis {

class ActivityBuilder {
public:
  ActivityBuilder(const CFG &cfg, NameTable &names, Activity &result)
      : cfg(cfg), names(names), result(result) {}

  void run() {
    const ast::FunctionDefStmt &function = cfg.getFunction();
    for (const ast::Param &param : function.getParams())
      add(result.paramSet, names.intern(param.name));
    declarations(function.getBody());

    size_t count = cfg.nodes().size();
    result.nodeUses.resize(count);
    result.nodeDefs.resize(count);
    result.nodeDeletes.resize(count);
    for (unsigned id = 0; id < count; ++id)
      nodeActivity(id);
    Scope whole;
    scopeOf(function.getBody(), whole);
    result.resize(names.size());
  }

private:
  /// `global` and `nonlocal` names of this function (not of nested ones).
  void declarations(const ast::StmtList &stmts) {
    for (const ast::StmtPtr &stmt : stmts) {
      if (const auto *decl = dyn_cast<ast::ScopeDeclStmt>(stmt.get())) {
        NameSet &set = llvm::isa<ast::GlobalStmt>(decl) ? result.globalSet : result.nonlocalSet;
        for (const ast::Identifier &id : decl->getNames())
          add(set, names.intern(id.name));
      }
      for (const ast::StmtList *block : ast::nestedBlocks(*stmt))
        declarations(*block);
    }
  }

  /// Every name `expr` reads.
  void reads(const ast::Expr &expr, NameSet &out) {
    using K = ast::Expr::Kind;
    switch (expr.getKind()) {
    case K::Name:
      add(out, names.intern(cast<ast::NameExpr>(expr).getId()));
      return;
    case K::IntLit: case K::FloatLit: case K::StrLit: case K::BoolLit: case K::NoneLit:
    case K::EllipsisLit:
      return;
    case K::Unary:
      return reads(cast<ast::UnaryExpr>(expr).getOperand(), out);
    case K::Binary:
      reads(cast<ast::BinaryExpr>(expr).getLHS(), out);
      return reads(cast<ast::BinaryExpr>(expr).getRHS(), out);
    case K::BoolOp:
      return readsAll(cast<ast::BoolOpExpr>(expr).getValues(), out);
    case K::Compare:
      reads(cast<ast::CompareExpr>(expr).getLeft(), out);
      return readsAll(cast<ast::CompareExpr>(expr).getComparators(), out);
    case K::Call: {
      const auto &call = cast<ast::CallExpr>(expr);
      reads(call.getCallee(), out);
      readsAll(call.getArgs(), out);
      for (const ast::Keyword &keyword : call.getKeywords())
        reads(*keyword.value, out);
      return;
    }
    case K::Attribute:
      return reads(cast<ast::AttributeExpr>(expr).getValue(), out);
    case K::Subscript:
      reads(cast<ast::SubscriptExpr>(expr).getValue(), out);
      return reads(cast<ast::SubscriptExpr>(expr).getIndex(), out);
    case K::Slice: {
      const auto &slice = cast<ast::SliceExpr>(expr);
      for (const ast::Expr *part : {slice.getLower(), slice.getUpper(), slice.getStep()})
        if (part)
          reads(*part, out);
      return;
    }
    case K::Tuple:
    case K::List:
    case K::Set:
      return readsAll(cast<ast::SequenceExpr>(expr).getElements(), out);
    case K::Dict:
      for (const ast::ExprPtr &key : cast<ast::DictExpr>(expr).getKeys())
        if (key) // null for **value
          reads(*key, out);
      return readsAll(cast<ast::DictExpr>(expr).getValues(), out);
    case K::IfExp:
      reads(cast<ast::IfExpExpr>(expr).getTest(), out);
      reads(cast<ast::IfExpExpr>(expr).getBody(), out);
      return reads(cast<ast::IfExpExpr>(expr).getOrElse(), out);
    case K::JoinedStr:
      for (const ast::FStringPart &part : cast<ast::JoinedStrExpr>(expr).getParts())
        if (part.value)
          reads(*part.value, out);
      return;
    case K::Starred:
      return reads(cast<ast::StarredExpr>(expr).getValue(), out);
    case K::Lambda: {
      const ast::FunctionDefStmt &def = cast<ast::LambdaExpr>(expr).getDef();
      for (const ast::Param &param : def.getParams())
        if (param.defaultValue)
          reads(*param.defaultValue, out);
      return freeNames(def, out);
    }
    case K::ListComp:
    case K::DictComp:
    case K::GeneratorExp:
    case K::SetComp: {
      // The first iterable is read where the comprehension is; the rest runs in its own
      // scope, where the targets are bound.
      const auto &c = cast<ast::ComprehensionExpr>(expr);
      Scope inner;
      for (size_t i = 0; i < c.getGenerators().size(); ++i) {
        const ast::Comprehension &g = c.getGenerators()[i];
        reads(*g.iter, i == 0 ? out : inner.read);
        bindTarget(*g.target, inner.bound, inner.read);
        readsAll(g.ifs, inner.read);
      }
      reads(c.getElement(), inner.read);
      if (c.getValue())
        reads(*c.getValue(), inner.read);
      NameSet free = inner.read;
      NameSet bound = inner.bound;
      bound.resize(std::max(bound.size(), free.size()));
      free.resize(bound.size());
      free.reset(bound);
      return unionInto(out, free);
    }
    }
  }
  void readsAll(const ast::ExprList &exprs, NameSet &out) {
    for (const ast::ExprPtr &e : exprs)
      reads(*e, out);
  }

  /// A store to `target`: names bind; `a.b` and `a[i]` read their parts.
  void bindTarget(const ast::Expr &target, NameSet &bound, NameSet &read) {
    if (const auto *name = dyn_cast<ast::NameExpr>(&target))
      return add(bound, names.intern(name->getId()));
    if (const auto *seq = dyn_cast<ast::SequenceExpr>(&target)) {
      for (const ast::ExprPtr &e : seq->getElements())
        bindTarget(*e, bound, read);
      return;
    }
    reads(target, read);
  }

  /// Names a nested function uses freely: read in it (or in functions nested in it) and
  /// bound neither as its parameters nor in its body.
  void freeNames(const ast::FunctionDefStmt &def, NameSet &out) {
    Scope inner;
    for (const ast::Param &param : def.getParams())
      add(inner.bound, names.intern(param.name));
    ++nestedDepth;
    scopeOf(def.getBody(), inner, /*record=*/false);
    --nestedDepth;
    NameSet free = inner.read;
    NameSet bound = inner.bound;
    bound.resize(std::max(bound.size(), free.size()));
    free.resize(bound.size());
    free.reset(bound);
    unionInto(out, free);
  }

  /// What simple statement `stmt` does.
  void simple(const ast::Stmt &stmt, Scope &s) {
    using K = ast::Stmt::Kind;
    switch (stmt.getKind()) {
    case K::Assign: {
      const auto &assign = cast<ast::AssignStmt>(stmt);
      reads(assign.getValue(), s.read);
      for (const ast::ExprPtr &target : assign.getTargets())
        bindTarget(*target, s.bound, s.read);
      return;
    }
    case K::AugAssign: {
      const auto &aug = cast<ast::AugAssignStmt>(stmt);
      reads(aug.getValue(), s.read);
      reads(aug.getTarget(), s.read); // x += 1 reads x first
      bindTarget(aug.getTarget(), s.bound, s.read);
      return;
    }
    case K::AnnAssign: {
      const auto &ann = cast<ast::AnnAssignStmt>(stmt);
      if (ann.getValue()) {
        reads(*ann.getValue(), s.read);
        bindTarget(ann.getTarget(), s.bound, s.read);
      }
      return;
    }
    case K::ExprStmt:
      return reads(cast<ast::ExprStmt>(stmt).getValue(), s.read);
    case K::Return:
      if (const ast::Expr *value = cast<ast::ReturnStmt>(stmt).getValue())
        reads(*value, s.read);
      return;
    case K::Assert:
      reads(cast<ast::AssertStmt>(stmt).getTest(), s.read);
      if (const ast::Expr *msg = cast<ast::AssertStmt>(stmt).getMsg())
        reads(*msg, s.read);
      return;
    case K::Delete:
      for (const ast::ExprPtr &target : cast<ast::DeleteStmt>(stmt).getTargets()) {
        if (const auto *name = dyn_cast<ast::NameExpr>(target.get()))
          add(s.deleted, names.intern(name->getId()));
        else
          reads(*target, s.read);
      }
      return;
    case K::Import:
      for (const ast::ImportAlias &alias : cast<ast::ImportStmt>(stmt).getNames())
        add(s.bound, names.intern(alias.asname.empty()
                                      ? llvm::StringRef(alias.name).split('.').first
                                      : llvm::StringRef(alias.asname)));
      return;
    case K::ImportFrom:
      for (const ast::ImportAlias &alias : cast<ast::ImportFromStmt>(stmt).getNames())
        add(s.bound, names.intern(alias.asname.empty() ? alias.name : alias.asname));
      return;
    case K::FunctionDef: {
      const auto &def = cast<ast::FunctionDefStmt>(stmt);
      readsAll(def.getDecorators(), s.read);
      for (const ast::Param &param : def.getParams())
        if (param.defaultValue)
          reads(*param.defaultValue, s.read);
      NameSet free;
      freeNames(def, free);
      unionInto(s.read, free);
      if (nestedDepth == 0) // a def of this function's own (not a lambda: AutoGraph does not
        unionInto(result.closedSet, free); // keep a lambda's free names live)
      add(s.bound, names.intern(def.getName()));
      return;
    }
    case K::ClassDef: {
      // The header; the body runs in a namespace of its own (tracing refuses a class
      // defined in a function, so nothing here reads or binds through it).
      const auto &def = cast<ast::ClassDefStmt>(stmt);
      readsAll(def.getDecorators(), s.read);
      readsAll(def.getBases(), s.read);
      for (const ast::Keyword &k : def.getKeywords())
        reads(*k.value, s.read);
      add(s.bound, names.intern(def.getName()));
      return;
    }
    case K::Unsupported:
      // Tracing stops with an error where it reaches one; what it would read is unknown.
      for (const ast::Identifier &id : cast<ast::UnsupportedStmt>(stmt).getBinds())
        add(s.bound, names.intern(id.name));
      return;
    case K::Raise:
      for (const ast::Expr *e : {cast<ast::RaiseStmt>(stmt).getExc(), cast<ast::RaiseStmt>(stmt).getCause()})
        if (e)
          reads(*e, s.read);
      return;
    case K::Try:
      return; // no header: its blocks are statements of their own
    case K::With:
      // The header: each context is read, then its target bound (the body is its own).
      for (const ast::WithItem &item : cast<ast::WithStmt>(stmt).getItems()) {
        reads(*item.context, s.read);
        if (item.target)
          bindTarget(*item.target, s.bound, s.read);
      }
      return;
    case K::If: case K::While: case K::For:
    case K::Break: case K::Continue: case K::Pass: case K::Global: case K::Nonlocal:
      return;
    }
  }

  /// Merges what `stmts` do into `into`; with `record`, stores each compound statement's
  /// scopes in the result.
  void scopeOf(const ast::StmtList &stmts, Scope &into, bool record = true) {
    for (const ast::StmtPtr &stmt : stmts) {
      StmtScopes parts;
      switch (stmt->getKind()) {
      case ast::Stmt::Kind::If: {
        const auto &s = cast<ast::IfStmt>(*stmt);
        reads(s.getTest(), parts.test.read);
        scopeOf(s.getBody(), parts.body, record);
        scopeOf(s.getOrElse(), parts.orelse, record);
        break;
      }
      case ast::Stmt::Kind::While: {
        const auto &s = cast<ast::WhileStmt>(*stmt);
        reads(s.getTest(), parts.test.read);
        scopeOf(s.getBody(), parts.body, record);
        scopeOf(s.getOrElse(), parts.orelse, record);
        break;
      }
      case ast::Stmt::Kind::For: {
        const auto &s = cast<ast::ForStmt>(*stmt);
        reads(s.getIter(), parts.iterate.read);
        bindTarget(s.getTarget(), parts.iterate.bound, parts.iterate.read);
        scopeOf(s.getBody(), parts.body, record);
        scopeOf(s.getOrElse(), parts.orelse, record);
        break;
      }
      case ast::Stmt::Kind::With:
      case ast::Stmt::Kind::Try:
        simple(*stmt, into);
        for (const ast::StmtList *block : ast::nestedBlocks(*stmt))
          scopeOf(*block, into, record);
        if (const auto *t = dyn_cast<ast::TryStmt>(stmt.get()))
          for (const ast::ExceptHandler &handler : t->getHandlers())
            if (!handler.name.empty())
              add(into.bound, names.intern(handler.name));
        continue;
      default:
        simple(*stmt, into);
        continue;
      }
      for (const Scope *part : {&parts.test, &parts.iterate, &parts.body, &parts.orelse}) {
        unionInto(into.read, part->read);
        unionInto(into.bound, part->bound);
        unionInto(into.deleted, part->deleted);
      }
      if (record)
        result.stmtScopes[stmt.get()] = std::move(parts);
    }
  }

  /// Uses and defs of one CFG node.
  void nodeActivity(unsigned id) {
    const CFGNode &node = cfg.node(id);
    Scope s;
    switch (node.kind) {
    case CFGNode::Kind::Entry:
      s.bound = result.paramSet;
      break;
    case CFGNode::Kind::Exit:
      break;
    case CFGNode::Kind::Stmt:
      simple(*node.stmt, s);
      break;
    case CFGNode::Kind::Test:
      if (const auto *ifs = dyn_cast<ast::IfStmt>(node.stmt))
        reads(ifs->getTest(), s.read);
      else
        reads(cast<ast::WhileStmt>(node.stmt)->getTest(), s.read);
      break;
    case CFGNode::Kind::Iterate: {
      const auto *loop = cast<ast::ForStmt>(node.stmt);
      reads(loop->getIter(), s.read);
      bindTarget(loop->getTarget(), s.bound, s.read);
      break;
    }
    }
    result.nodeUses[id] = std::move(s.read);
    result.nodeDeletes[id] = s.deleted;
    NameSet defs = std::move(s.bound);
    unionInto(defs, s.deleted);
    result.nodeDefs[id] = std::move(defs);
  }

  const CFG &cfg;
  NameTable &names;
  Activity &result;
  /// How deep in nested functions freeNames is (only this function's defs record closures).
  unsigned nestedDepth = 0;
};

} // namespace ag::analysis

Activity Activity::compute(const CFG &cfg, NameTable &names) {
  Activity result;
  ActivityBuilder(cfg, names, result).run();
  return result;
}

void Activity::resize(unsigned size) {
  for (auto *sets : {&nodeUses, &nodeDefs, &nodeDeletes})
    for (NameSet &set : *sets)
      set.resize(size);
  for (auto &entry : stmtScopes)
    for (Scope *part : {&entry.second.body, &entry.second.orelse, &entry.second.test,
                        &entry.second.iterate})
      for (NameSet *set : {&part->read, &part->bound, &part->deleted})
        set->resize(size);
  for (NameSet *set : {&paramSet, &globalSet, &nonlocalSet, &closedSet})
    set->resize(size);
}
