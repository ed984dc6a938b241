//===- AnalysisPrinter.cpp - The text of `agc --emit=analysis` -------------===//
//
// For every function of the module, in source order (nested ones after their parent):
//
//   function 'f' @file:line:col
//     params: {x}
//     traced with: (x: float32[5])        or: not traced: <why>
//     returns: float32[5]
//     while @file:line:col: staged: the test is a bool tensor
//       live-in / live-out / defined-in / modified: {names}
//       outputs / input-only: (names)      (AutoGraph's carried names, in its order)
//       undefined-before: (names)          (when there are any)
//       types: x: float32[5]               (staged blocks: what the carried names hold)
//     Assign @file:line:col: reads {x} binds {y} live-out {y}   (each simple statement)
//     and @file:line:col: staged: ...      (staged and/or/not/conditional expressions)
//     printed while tracing: ...           (Python print output, one line each)
//
// Decorated functions (@tf.function) are traced with their input_signature, --signature
// or -D values; others are traced only through the calls that reach them.
//
//===----------------------------------------------------------------------------------===//
#include "ag/frontend/analysis/Tracer.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace ag;
using namespace ag::analysis;
using llvm::dyn_cast;

namespace {

const char *blockKeyword(const ast::Stmt &stmt) {
  if (const auto *s = dyn_cast<ast::IfStmt>(&stmt))
    return s->isElif() ? "elif" : "if";
  return llvm::isa<ast::WhileStmt>(stmt) ? "while" : "for";
}

void printBlock(const ast::Stmt &stmt, const FunctionAnalysis &fa, const TraceResult *trace,
                llvm::raw_ostream &os) {
  const BlockVars &vars = fa.blocks.find(&stmt)->second;
  const Decision *d = nullptr;
  if (trace) {
    auto it = trace->decisions.find(&stmt);
    if (it != trace->decisions.end())
      d = &it->second;
  }
  os << "  " << blockKeyword(stmt) << " @" << stmt.loc();
  if (trace)
    os << ": " << describeDecision(stmt, d);
  os << '\n';
  auto set = [&](const char *label, const NameSet &names) {
    os << "    " << label << ": ";
    fa.names.print(names, os);
    os << '\n';
  };
  set("live-in", vars.liveIn);
  set("live-out", vars.liveOut);
  set("defined-in", vars.definedIn);
  set("modified", vars.modified);
  auto list = [&](const char *label, llvm::ArrayRef<std::string> items) {
    os << "    " << label << ": (" << llvm::join(items, ", ") << ")\n";
  };
  llvm::ArrayRef<std::string> carried = vars.carried;
  list("outputs", carried.take_front(vars.numOutputs));
  list("input-only", carried.drop_front(vars.numOutputs));
  if (!vars.undefined.empty())
    list("undefined-before", vars.undefined);
  if (d && d->staged && !d->carried.empty()) {
    os << "    types:";
    for (size_t i = 0; i < d->carried.size(); ++i)
      os << (i ? "," : "") << ' ' << d->carried[i].first << ": "
         << d->carried[i].second.typeString();
    os << '\n';
  }
}

/// Every statement of `stmts` in source order, nested ones included (not those of nested
/// functions): a simple statement (or a with's header) as one line of what it reads, binds
/// and leaves live; an if/while/for as its block (printBlock).
void printStatements(const ast::StmtList &stmts, const FunctionAnalysis &fa,
                     const TraceResult *trace, llvm::raw_ostream &os) {
  for (const ast::StmtPtr &stmt : stmts) {
    if (llvm::isa<ast::IfStmt, ast::WhileStmt, ast::ForStmt>(*stmt)) {
      printBlock(*stmt, fa, trace, os);
      for (const ast::StmtList *part : ast::nestedBlocks(*stmt))
        printStatements(*part, fa, trace, os);
      continue;
    }
    unsigned node = fa.cfg.firstNode(*stmt);
    os << "  " << ast::kindName(stmt->getKind()) << " @" << stmt->loc() << ": reads ";
    fa.names.print(fa.activity.uses(node), os);
    os << " binds ";
    fa.names.print(fa.activity.defs(node), os);
    os << " live-out ";
    fa.names.print(fa.liveness.out(node), os);
    os << '\n';
    for (const ast::StmtList *part : ast::nestedBlocks(*stmt)) // a with's body
      printStatements(*part, fa, trace, os);
  }
}

} // namespace

std::string ag::analysis::describeDecision(const ast::Stmt &stmt, const Decision *d) {
  if (!d || d->reached == 0)
    return "not reached while tracing";
  if (d->staged)
    return "staged: " + d->reason;
  if (llvm::isa<ast::IfStmt>(stmt)) {
    const char *which = d->tookTrue && d->tookFalse ? "either branch, on different passes"
                        : d->tookTrue               ? "the main branch"
                                                    : "the else branch";
    return "static: " + d->reason + "; runs " + which;
  }
  return "unrolled: " + d->reason + "; " + std::to_string(d->iterations) +
         (d->iterations == 1 ? " iteration" : " iterations");
}

bool ag::analysis::forEachTracedFunction(const ast::Module &module, const ArgumentSpec &spec,
                                         DiagnosticEngine &diag,
                                         llvm::function_ref<void(const FunctionView &)> visit) {
  Tracer tracer(module, diag);
  tracer.setImportPath(spec.importDirs);
  if (!tracer.evaluateModule())
    return false;
  bool ok = true;
  forEachFunction(module.getBody(), [&](const ast::FunctionDefStmt &function) {
    FunctionView view{function, tracer.analysisOf(function)};
    std::optional<TraceResult> trace;
    bool topLevel = llvm::any_of(module.getBody(), [&](const ast::StmtPtr &s) {
      return s.get() == &function;
    });
    if (!topLevel || function.getDecorators().empty()) {
      view.notTraced = std::string(topLevel ? "not a @tf.function" : "a nested function") +
                       "; traced where it is called";
    } else {
      std::string missing;
      std::optional<std::vector<Value>> args = tracer.argumentsFor(function, spec, &missing);
      if (!args && missing.empty()) {
        ok = false;
      } else if (!args) {
        view.notTraced = "no value for parameter '" + missing + "' (give --signature '" +
                         function.getName().str() + "(" + missing + ": float32[None])' or -D " +
                         missing + "=VALUE)";
      } else {
        view.traced = true;
        view.args = std::move(*args);
        trace = tracer.trace(function, view.args);
        ok &= trace.has_value();
      }
    }
    view.trace = trace ? &*trace : nullptr;
    visit(view);
  });
  // The @tf.function methods of the instances module-level code makes, each traced on
  // its instance, as `agc compile --function model.method` compiles it.
  for (const std::string &name : module.tfFunctionMethodEntries()) {
    std::string why;
    std::optional<ast::Module::Entry> entry = module.findEntry(name, why);
    if (!entry)
      continue;
    FunctionView view{*entry->def, tracer.analysisOf(*entry->def)};
    view.entry = name;
    std::optional<TraceResult> trace =
        tracer.traceEntry(EntryPoint{entry->def, name, entry->receiver}, spec, &view.args);
    view.traced = trace.has_value() || !view.args.empty();
    ok &= trace.has_value();
    view.trace = trace ? &*trace : nullptr;
    visit(view);
  }
  return ok;
}

bool ag::analysis::printAnalysisAndDecisions(const ast::Module &module, const ArgumentSpec &spec,
                                             DiagnosticEngine &diag, llvm::raw_ostream &os) {
  return forEachTracedFunction(module, spec, diag, [&](const FunctionView &view) {
    const ast::FunctionDefStmt &function = view.function;
    const FunctionAnalysis &fa = view.analysis;
    os << "function '" << function.getName() << "'";
    if (!view.entry.empty())
      os << " (a method, traced as '" << view.entry << "')";
    os << " @" << function.loc() << '\n';
    os << "  params: ";
    fa.names.print(fa.activity.params(), os);
    os << '\n';
    if (fa.activity.globals().any()) {
      os << "  globals: ";
      fa.names.print(fa.activity.globals(), os);
      os << '\n';
    }
    if (fa.activity.nonlocals().any()) {
      os << "  nonlocals: ";
      fa.names.print(fa.activity.nonlocals(), os);
      os << '\n';
    }
    if (!view.notTraced.empty())
      os << "  not traced: " << view.notTraced << '\n';
    if (view.traced) {
      os << "  traced with: (";
      for (size_t i = 0; i < view.args.size() && i < function.getParams().size(); ++i)
        os << (i ? ", " : "") << function.getParams()[i].name << ": " << view.args[i].typeString();
      os << ")\n";
    }
    const TraceResult *trace = view.trace;
    if (trace)
      os << "  returns: " << trace->result.typeString() << '\n';
    printStatements(function.getBody(), fa, trace, os);
    if (!trace)
      return;
    std::vector<const Decision *> exprs;
    for (const auto &entry : trace->decisions)
      if (entry.second.construct && entry.second.staged &&
          entry.second.loc.begin.offset >= function.loc().begin.offset &&
          entry.second.loc.end.offset <= function.loc().end.offset)
        exprs.push_back(&entry.second);
    std::sort(exprs.begin(), exprs.end(), [](const Decision *a, const Decision *b) {
      return a->loc.begin.offset < b->loc.begin.offset;
    });
    for (const Decision *d : exprs)
      os << "  " << d->construct << " @" << d->loc << ": staged: " << d->reason << '\n';
    for (const std::string &line : trace->printed)
      os << "  printed while tracing: " << line << '\n';
  });
}
