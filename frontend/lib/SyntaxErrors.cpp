//===- SyntaxErrors.cpp - tree-sitter's ERROR and MISSING nodes, in words -------===//
//
// reportSyntaxErrors walks the tree iteratively and turns each MISSING node into "expected
// X" and each ERROR node into the most precise message its tokens allow; indentation
// nested too deeply for the grammar is reported before it.
//
//===----------------------------------------------------------------------------------===//
#include "ParserImpl.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace ag;
using namespace ag::ast;
using namespace ag::ast::parser;
using ts::Sym;

//===----------------------------------------------------------------------------------===//
// Syntax errors
//===----------------------------------------------------------------------------------===//

Location parser::locationOf(const SourceFile &source, TSNode node) {
  TSPoint b = ts_node_start_point(node), e = ts_node_end_point(node);
  return Location{source.name,
                  Position{b.row + 1, b.column + 1, ts_node_start_byte(node)},
                  Position{e.row + 1, e.column + 1, ts_node_end_byte(node)}};
}

llvm::StringRef parser::textOf(const SourceFile &source, TSNode node) {
  uint32_t b = ts_node_start_byte(node), e = ts_node_end_byte(node);
  return source.text.slice(b, e);
}

/// What to call a MISSING node of grammar symbol `type` in a message.
static std::string describeMissing(llvm::StringRef type) {
  if (type == "identifier")
    return "a name";
  if (type == "block" || type == "_indent")
    return "an indented block";
  return ("'" + type + "'").str();
}

/// tree-sitter's symbol for ERROR nodes (ts_builtin_sym_error; the 0.20 API has no
/// ts_node_is_error).
constexpr TSSymbol kErrorSymbol = static_cast<TSSymbol>(-1);

/// The leaves (tokens) under `node`, in order, iteratively.
static std::vector<TSNode> leavesOf(TSNode node) {
  std::vector<TSNode> leaves;
  ts::TreeCursor cursor(node);
  for (;;) {
    if (cursor.gotoFirstChild())
      continue;
    leaves.push_back(cursor.node());
    while (!cursor.gotoNextSibling())
      if (!cursor.gotoParent())
        return leaves;
  }
}

/// Reports one ERROR node, the region tree-sitter could not fit into the grammar, as
/// precisely as its tokens allow:
///   - an opening bracket in it that is never closed: "'(' was never closed", at it;
///   - a region that runs to the end of the file: "unexpected end of file", at the end,
///     with a note at the start of the incomplete construct;
///   - a single stray token: "unexpected 'tok'";
///   - otherwise "invalid syntax" over the region's first line.
static void reportErrorNode(const SourceFile &source, TSNode node, DiagnosticEngine &diag) {
  std::vector<TSNode> leaves = leavesOf(node);
  std::vector<TSNode> open;
  for (TSNode leaf : leaves) {
    llvm::StringRef tok = ts_node_type(leaf);
    if (tok == "(" || tok == "[" || tok == "{") {
      open.push_back(leaf);
    } else if (tok == ")" || tok == "]" || tok == "}") {
      if (open.empty()) {
        diag.error(locationOf(source, leaf), "invalid syntax: unmatched '" + tok + "'");
        return;
      }
      open.pop_back();
    }
  }
  // A string whose start has no end (a complete string inside the region has both).
  std::vector<TSNode> openStrings;
  for (TSNode leaf : leaves) {
    llvm::StringRef tok = ts_node_type(leaf);
    if (tok == "\"" || tok == "'") {
      openStrings.assign(1, leaf);
      break;
    }
    if (tok == "string_start")
      openStrings.push_back(leaf);
    else if (tok == "string_end" && !openStrings.empty())
      openStrings.pop_back();
  }
  if (!openStrings.empty()) {
    diag.error(locationOf(source, openStrings.front()),
               "invalid syntax: unterminated string literal");
    return;
  }
  if (!open.empty()) {
    diag.error(locationOf(source, open.front()),
               "invalid syntax: '" + llvm::Twine(ts_node_type(open.front())) + "' was never closed");
    return;
  }
  // A compound statement header without its ':' (`if x` then a newline).
  static const llvm::StringRef kHeaders[] = {"if", "elif", "else", "while", "for", "def", "try",
                                             "except", "finally", "with", "class"};
  for (size_t i = 0; i < leaves.size(); ++i) {
    if (!llvm::is_contained(kHeaders, llvm::StringRef(ts_node_type(leaves[i]))))
      continue;
    uint32_t row = ts_node_start_point(leaves[i]).row;
    bool colon = false;
    for (size_t j = i + 1; j < leaves.size() && ts_node_start_point(leaves[j]).row == row; ++j)
      colon |= llvm::StringRef(ts_node_type(leaves[j])) == ":";
    if (colon)
      continue;
    uint32_t lineStart = ts_node_start_byte(leaves[i]) - ts_node_start_point(leaves[i]).column;
    size_t lineEnd = source.text.find('\n', lineStart);
    llvm::StringRef line = source.text.slice(lineStart, lineEnd);
    uint32_t at = lineStart + static_cast<uint32_t>(line.rtrim().size());
    diag.error(source.locationOf(at, at), "invalid syntax: expected ':'");
    return;
  }
  uint32_t end = ts_node_end_byte(node);
  if (source.text.drop_front(std::min<size_t>(end, source.text.size())).trim().empty() &&
      !leaves.empty() && leaves.size() > 1) {
    uint32_t last = static_cast<uint32_t>(source.text.rtrim().size());
    diag.error(source.locationOf(last, last), "invalid syntax: unexpected end of file");
    diag.note(locationOf(source, leaves.front()), "in the construct that starts here");
    return;
  }
  Location loc = locationOf(source, node);
  if (leaves.size() == 1) {
    diag.error(loc, "invalid syntax: unexpected '" + textOf(source, leaves.front()).take_front(40) + "'");
    return;
  }
  diag.error(loc, "invalid syntax");
}

/// Reports every ERROR and MISSING node under `root`; returns how many. Iterative, so that
/// deeply nested input cannot exhaust the stack.
unsigned parser::reportSyntaxErrors(const SourceFile &source, TSNode root, DiagnosticEngine &diag) {
  if (!ts_node_has_error(root))
    return 0;
  unsigned count = 0;
  ts::TreeCursor cursor(root);
  for (;;) {
    TSNode node = cursor.node();
    bool descend = false;
    if (ts_node_is_missing(node)) {
      ++count;
      Location loc = locationOf(source, node);
      diag.error(loc, "invalid syntax: expected " + describeMissing(ts_node_type(node)));
    } else if (ts_node_symbol(node) == kErrorSymbol) {
      ++count;
      reportErrorNode(source, node, diag);
    } else {
      descend = ts_node_has_error(node);
    }
    if (descend && cursor.gotoFirstChild())
      continue;
    while (!cursor.gotoNextSibling())
      if (!cursor.gotoParent())
        return count;
  }
}

/// tree-sitter-python's scanner keeps each indentation width in one byte, so deeper
/// indentation breaks its parse in ways that look like unrelated syntax errors. When the
/// parse failed, a line indented past that is the error to report (CPython stops at 100
/// levels of indentation anyway).
bool parser::reportDeepIndentation(const SourceFile &source, DiagnosticEngine &diag) {
  constexpr size_t kMaxIndent = 255;
  size_t lineStart = 0;
  while (lineStart < source.text.size()) {
    size_t lineEnd = source.text.find('\n', lineStart);
    if (lineEnd == llvm::StringRef::npos)
      lineEnd = source.text.size();
    llvm::StringRef line = source.text.slice(lineStart, lineEnd);
    size_t indent = line.find_first_not_of(" \t");
    if (indent != llvm::StringRef::npos && indent > kMaxIndent) {
      uint32_t at = static_cast<uint32_t>(lineStart + indent);
      diag.error(source.locationOf(at, at),
                 "indentation deeper than " + llvm::Twine(kMaxIndent) + " columns is not supported");
      return true;
    }
    lineStart = lineEnd + 1;
  }
  return false;
}
