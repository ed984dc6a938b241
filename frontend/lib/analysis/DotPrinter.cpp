//===- DotPrinter.cpp - The Graphviz graph of `agc --emit=dot` --------------===//
//
// One digraph for the file; each function a cluster of its statements, one node each
// (its line and its source's first line), and the control flow between them; each if,
// while and for a cluster of its own, labelled with its line and what tracing made of it:
//
//   digraph "examples/tanh_loop.py" {
//     subgraph "cluster_0" {
//       label = "def squash(x: float32[5]) -> float32[5]\nexamples/tanh_loop.py:7";
//       n0 [label = "entry", shape = oval];
//       subgraph "cluster_1" {
//         label = "while, line 8: tf.while_loop\nthe test is a bool tensor\ncarries x: float32[5]";
//         style = "rounded,filled"; fillcolor = "#dae8fc";
//         n1 [label = "8  while tf.reduce_sum(x) > 1:"];
//         n2 [label = "9  tf.print(x)"];
//         n3 [label = "10  x = tf.tanh(x)"];
//       }
//       n4 [label = "11  return x"];
//       n5 [label = "end", shape = oval];
//     }
//     n0 -> n1; n1 -> n2 [label = "true"]; n2 -> n3;
//     n3 -> n1 [style = dashed, constraint = false];      (a back edge: not a rank)
//     n1 -> n4 [label = "false"]; n4 -> n5;
//   }
//
// Staged blocks (tf.cond, tf.while_loop) are filled and name what they carry; static
// control flow is shown resolved: a dashed border, the reason, and the statements of a
// branch tracing never took in grey; an unrolled loop gives its iteration count.
//
//===----------------------------------------------------------------------------------===//
#include "ag/frontend/analysis/Tracer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace ag;
using namespace ag::analysis;
using llvm::dyn_cast;

namespace {

/// `text` as the inside of a DOT string: quotes and backslashes escaped.
std::string escaped(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

/// One function's cluster: its nodes as they are declared (inside their blocks' clusters)
/// and its edges, written after every cluster.
class FunctionGraph {
public:
  FunctionGraph(llvm::SourceMgr &sources, const FunctionView &view, unsigned &nextId,
                std::string &edges, llvm::raw_ostream &os)
      : sources(sources), view(view), nextId(nextId), edges(edges), os(os) {}

  void write() {
    const ast::FunctionDefStmt &function = view.function;
    os << "  subgraph \"cluster_" << nextId++ << "\" {\n";
    std::string signature = "def " + function.getName().str() + "(";
    for (size_t i = 0; i < function.getParams().size(); ++i) {
      signature += (i ? ", " : "") + function.getParams()[i].name;
      if (i < view.args.size())
        signature += ": " + view.args[i].typeString();
    }
    signature += ")";
    if (view.trace)
      signature += " -> " + view.trace->result.typeString();
    std::string where = function.loc().file.str() + ":" + std::to_string(function.loc().begin.line);
    if (!view.entry.empty())
      where += ", traced as " + view.entry;
    os << "    label = \"" << escaped(signature) << "\\n" << escaped(where);
    if (!view.notTraced.empty())
      os << "\\nnot traced: " << escaped(view.notTraced);
    os << "\";\n    style = rounded;\n";
    unsigned entry = declare("entry", "    ", "shape = oval");
    Pending exits = list(function.getBody(), {{entry, ""}}, "    ", false);
    end = declare("end", "    ", "shape = oval");
    connect(exits, end);
    for (unsigned from : returns)
      edge(from, end, "");
    os << "  }\n";
  }

private:
  /// Edges waiting for the next node: from, and their label.
  struct Arrow {
    unsigned from;
    std::string label;
  };
  using Pending = std::vector<Arrow>;
  struct Loop {
    unsigned header;
    Pending breaks;
  };

  unsigned declare(const std::string &label, llvm::StringRef indent, llvm::StringRef attributes,
                   bool grey = false) {
    unsigned id = nextId++;
    os << indent << 'n' << id << " [label = \"" << escaped(label) << '"';
    if (!attributes.empty())
      os << ", " << attributes;
    if (grey)
      os << ", color = grey, fontcolor = grey";
    os << "];\n";
    return id;
  }
  void edge(unsigned from, unsigned to, llvm::StringRef label, llvm::StringRef style = "") {
    edges += "  n" + std::to_string(from) + " -> n" + std::to_string(to);
    std::vector<std::string> attributes;
    if (!label.empty())
      attributes.push_back("label = \"" + escaped(label) + "\"");
    if (!style.empty())
      attributes.push_back("style = " + style.str());
    if (!attributes.empty())
      edges += " [" + llvm::join(attributes, ", ") + "]";
    edges += ";\n";
  }
  void connect(const Pending &from, unsigned to) {
    for (const Arrow &arrow : from)
      edge(arrow.from, to, arrow.label);
  }

  /// "LINE  the statement's first line", from the file's buffer.
  std::string text(const ast::Stmt &stmt) const {
    std::string label = std::to_string(stmt.loc().begin.line) + "  ";
    for (unsigned id = 1; id <= sources.getNumBuffers(); ++id) {
      const llvm::MemoryBuffer *buffer = sources.getMemoryBuffer(id);
      if (buffer->getBufferIdentifier() != stmt.loc().file)
        continue;
      llvm::StringRef line = buffer->getBuffer().substr(stmt.loc().begin.offset);
      line = line.take_until([](char c) { return c == '\n' || c == '\r'; }).rtrim();
      if (line.size() > 60)
        return label + line.take_front(57).str() + "...";
      return label + line.str();
    }
    return label + ast::kindName(stmt.getKind()).str();
  }

  const Decision *decision(const ast::Stmt &stmt) const {
    if (!view.trace)
      return nullptr;
    auto it = view.trace->decisions.find(&stmt);
    return it == view.trace->decisions.end() ? nullptr : &it->second;
  }

  /// The cluster of an if, while or for: its label and style.
  void openBlock(const ast::Stmt &stmt, const Decision *d, llvm::StringRef indent) {
    bool isIf = llvm::isa<ast::IfStmt>(stmt);
    const auto *ifStmt = dyn_cast<ast::IfStmt>(&stmt);
    std::string keyword = isIf ? (ifStmt->isElif() ? "elif" : "if")
                               : llvm::isa<ast::WhileStmt>(stmt) ? "while" : "for";
    std::string label = keyword + ", line " + std::to_string(stmt.loc().begin.line);
    std::string style = "rounded,dashed", fill;
    if (view.trace && d && d->staged) {
      label += std::string(": ") + (isIf ? "tf.cond" : "tf.while_loop") + "\\n" + escaped(d->reason);
      if (!d->carried.empty()) {
        label += "\\ncarries";
        for (size_t i = 0; i < d->carried.size(); ++i)
          label += (i ? ", " : " ") + escaped(d->carried[i].first) + ": " +
                   escaped(d->carried[i].second.typeString());
      }
      style = "rounded,filled";
      fill = isIf ? "#fff2cc" : "#dae8fc";
    } else if (view.trace) {
      label += ": " + escaped(describeDecision(stmt, d));
    }
    os << indent << "subgraph \"cluster_" << nextId++ << "\" {\n";
    os << indent << "  label = \"" << label << "\";\n";
    os << indent << "  style = \"" << style << "\";\n";
    if (!fill.empty())
      os << indent << "  fillcolor = \"" << fill << "\";\n";
  }

  Pending list(const ast::StmtList &stmts, Pending in, llvm::StringRef indent, bool grey) {
    for (const ast::StmtPtr &stmt : stmts)
      in = statement(*stmt, std::move(in), indent, grey);
    return in;
  }

  Pending statement(const ast::Stmt &stmt, Pending in, llvm::StringRef indent, bool grey) {
    std::string inner = (indent + "  ").str();
    if (const auto *s = dyn_cast<ast::IfStmt>(&stmt)) {
      const Decision *d = decision(stmt);
      openBlock(stmt, d, indent);
      unsigned header = declare(text(stmt), inner, "", grey);
      connect(in, header);
      // A static if shows the branch tracing never took in grey.
      bool staticIf = d && !d->staged && d->reached > 0;
      Pending out = list(s->getBody(), {{header, "true"}}, inner, grey || (staticIf && !d->tookTrue));
      if (s->getOrElse().empty()) {
        out.push_back({header, "false"});
      } else {
        Pending orelse =
            list(s->getOrElse(), {{header, "false"}}, inner, grey || (staticIf && !d->tookFalse));
        out.insert(out.end(), orelse.begin(), orelse.end());
      }
      os << indent << "}\n";
      return out;
    }
    if (llvm::isa<ast::WhileStmt, ast::ForStmt>(stmt)) {
      const auto *w = dyn_cast<ast::WhileStmt>(&stmt);
      const auto *f = dyn_cast<ast::ForStmt>(&stmt);
      const Decision *d = decision(stmt);
      openBlock(stmt, d, indent);
      unsigned header = declare(text(stmt), inner, "", grey);
      connect(in, header);
      loops.push_back({header, {}});
      bool neverRan = d && !d->staged && d->reached > 0 && d->iterations == 0;
      Pending body = list(w ? w->getBody() : f->getBody(), {{header, w ? "true" : "next"}}, inner,
                          grey || neverRan);
      for (const Arrow &arrow : body)
        edge(arrow.from, header, arrow.label, "dashed, constraint = false");
      Pending breaks = std::move(loops.back().breaks);
      loops.pop_back();
      Pending out = list(w ? w->getOrElse() : f->getOrElse(), {{header, w ? "false" : "done"}},
                         inner, grey);
      out.insert(out.end(), breaks.begin(), breaks.end());
      os << indent << "}\n";
      return out;
    }
    unsigned id = declare(text(stmt), indent, "", grey);
    connect(in, id);
    if (llvm::isa<ast::ReturnStmt>(stmt)) {
      returns.push_back(id);
      return {};
    }
    if (llvm::isa<ast::BreakStmt>(stmt) && !loops.empty()) {
      loops.back().breaks.push_back({id, "break"});
      return {};
    }
    if (llvm::isa<ast::ContinueStmt>(stmt) && !loops.empty()) {
      edge(id, loops.back().header, "continue", "dashed, constraint = false");
      return {};
    }
    // A with's body (and a try's parts, drawn in order) after its header.
    Pending out{{id, ""}};
    for (const ast::StmtList *part : ast::nestedBlocks(stmt))
      out = list(*part, std::move(out), indent, grey);
    return out;
  }

  llvm::SourceMgr &sources;
  const FunctionView &view;
  unsigned &nextId;
  std::string &edges;
  llvm::raw_ostream &os;
  std::vector<Loop> loops;
  std::vector<unsigned> returns;
  unsigned end = 0;
};

} // namespace

bool ag::analysis::printControlFlowDot(const ast::Module &module, const ArgumentSpec &spec,
                                       DiagnosticEngine &diag, llvm::raw_ostream &os) {
  std::string text, edges;
  llvm::raw_string_ostream body(text);
  unsigned nextId = 0;
  bool ok = forEachTracedFunction(module, spec, diag, [&](const FunctionView &view) {
    FunctionGraph(diag.getSourceMgr(), view, nextId, edges, body).write();
  });
  if (!ok)
    return false;
  os << "digraph \"" << escaped(module.loc().file) << "\" {\n";
  os << "  graph [fontname = \"Helvetica\", fontsize = 11, compound = true];\n";
  os << "  node [shape = box, fontname = \"Courier\", fontsize = 10];\n";
  os << "  edge [fontname = \"Helvetica\", fontsize = 9];\n";
  os << text << edges << "}\n";
  return true;
}
