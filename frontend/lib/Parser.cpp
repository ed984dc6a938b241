//===- Parser.cpp - Python source to agc AST ------------------------------===//
//
// Steps:
//   1. tree-sitter parses the text (with a time limit).
//   2. reportSyntaxErrors walks the tree iteratively and turns each MISSING node into
//      "expected X" and each ERROR node into the most precise message its tokens allow
//      (reportErrorNode); if there were any, stop.
//   3. ASTBuilder converts the concrete tree, one method per construct, into ast nodes with
//      locations. Constructs outside agc's subset are reported by name and skipped, and
//      the conversion goes on so that every such construct in the file is reported.
//      CPython's own compile-time checks that need no types ('break' outside a loop,
//      a repeated keyword argument, ...) are made here too.
//
//===----------------------------------------------------------------------------------===//
#include "ag/frontend/Parser.h"
#include "ag/frontend/TreeSitter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/ConvertUTF.h"

#include <cerrno>
#include <cstdlib>

using namespace ag;
using namespace ag::ast;
using ts::Sym;

namespace {

//===----------------------------------------------------------------------------------===//
// Syntax errors
//===----------------------------------------------------------------------------------===//

Location locationOf(const SourceFile &source, TSNode node) {
  TSPoint b = ts_node_start_point(node), e = ts_node_end_point(node);
  return Location{source.name,
                  Position{b.row + 1, b.column + 1, ts_node_start_byte(node)},
                  Position{e.row + 1, e.column + 1, ts_node_end_byte(node)}};
}

llvm::StringRef textOf(const SourceFile &source, TSNode node) {
  uint32_t b = ts_node_start_byte(node), e = ts_node_end_byte(node);
  return source.text.slice(b, e);
}

/// What to call a MISSING node of grammar symbol `type` in a message.
std::string describeMissing(llvm::StringRef type) {
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
std::vector<TSNode> leavesOf(TSNode node) {
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
void reportErrorNode(const SourceFile &source, TSNode node, DiagnosticEngine &diag) {
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
unsigned reportSyntaxErrors(const SourceFile &source, TSNode root, DiagnosticEngine &diag) {
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
bool reportDeepIndentation(const SourceFile &source, DiagnosticEngine &diag) {
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

//===----------------------------------------------------------------------------------===//
// Literals
//===----------------------------------------------------------------------------------===//

/// Appends the UTF-8 encoding of `code` to `out`.
void appendUTF8(uint32_t code, std::string &out) {
  char buffer[UNI_MAX_UTF8_BYTES_PER_CODE_POINT];
  char *p = buffer;
  if (llvm::ConvertCodePointToUTF8(code, p))
    out.append(buffer, p);
}

/// Decodes the escapes of a non-raw Python string body. Returns false, with `bad` set to
/// the offset of the bad escape, when an escape is malformed or is a named escape
/// (`\N{...}`, `named` set), which agc does not support.
bool decodeEscapes(llvm::StringRef body, std::string &out, size_t &bad, bool &named) {
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 == body.size()) {
      out += c;
      continue;
    }
    size_t start = i;
    char e = body[++i];
    auto hexDigits = [&](unsigned n) -> bool {
      uint32_t code = 0;
      for (unsigned k = 1; k <= n; ++k) {
        if (i + k >= body.size() || !llvm::isHexDigit(body[i + k]))
          return false;
        code = code * 16 + llvm::hexDigitValue(body[i + k]);
      }
      if (code > 0x10FFFF)
        return false;
      i += n;
      appendUTF8(code, out);
      return true;
    };
    switch (e) {
    case '\n': break; // line continuation inside the string
    case '\\': out += '\\'; break;
    case '\'': out += '\''; break;
    case '"': out += '"'; break;
    case 'a': out += '\a'; break;
    case 'b': out += '\b'; break;
    case 'f': out += '\f'; break;
    case 'n': out += '\n'; break;
    case 'r': out += '\r'; break;
    case 't': out += '\t'; break;
    case 'v': out += '\v'; break;
    case 'x':
    case 'u':
    case 'U':
      if (!hexDigits(e == 'x' ? 2 : e == 'u' ? 4 : 8)) {
        bad = start;
        return false;
      }
      break;
    case 'N':
      bad = start; // named Unicode escapes need the Unicode name table: refused
      named = true;
      return false;
    default:
      if (e >= '0' && e <= '7') {
        uint32_t code = e - '0';
        for (int k = 0; k < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7'; ++k)
          code = code * 8 + (body[++i] - '0');
        appendUTF8(code, out);
      } else {
        out += '\\'; // unknown escapes stay as written, as in Python
        out += e;
      }
    }
  }
  return true;
}

//===----------------------------------------------------------------------------------===//
// The builder
//===----------------------------------------------------------------------------------===//

class ASTBuilder {
public:
  ASTBuilder(const SourceFile &source, const ts::PythonGrammar &grammar, TSNode root,
             DiagnosticEngine &diag, const ParseOptions &options)
      : source(source), grammar(grammar), f(grammar.fields()), diag(diag), options(options),
        cursor(root) {}

  std::unique_ptr<Module> buildModule(TSNode root);

private:
  // Statements.
  /// Converts the block in field `blockField` of compound statement `owner`, checking
  /// the indentation that tree-sitter-python does not: every statement of the block on a
  /// line of its own starts in the same column, to the right of `owner`.
  void buildBlock(TSNode owner, TSFieldId blockField, StmtList &out);
  void buildStmt(TSNode node, StmtList &out);
  void buildExpressionStatement(TSNode node, StmtList &out);
  StmtPtr buildAssignment(TSNode node);
  StmtPtr buildAugmentedAssignment(TSNode node);
  StmtPtr buildIf(TSNode node);
  StmtPtr buildWhile(TSNode node);
  StmtPtr buildFor(TSNode node);
  StmtPtr buildReturn(TSNode node);
  StmtPtr buildAssert(TSNode node);
  StmtPtr buildDelete(TSNode node);
  StmtPtr buildScopeDecl(TSNode node, bool global);
  StmtPtr buildImport(TSNode node);
  StmtPtr buildImportFrom(TSNode node, bool future);
  StmtPtr buildFunction(TSNode node, ExprList decorators);
  StmtPtr buildDecorated(TSNode node);
  bool buildParams(TSNode node, std::vector<Param> &params);


  // Expressions.
  ExprPtr buildExpr(TSNode node);
  ExprPtr buildExprInner(TSNode node);
  ExprPtr buildTarget(TSNode node);
  ExprPtr buildSequence(TSNode node, Sym sym, bool asTarget);
  ExprPtr buildInteger(TSNode node);
  ExprPtr buildFloat(TSNode node);
  ExprPtr buildStrings(TSNode node);
  bool appendString(TSNode node, std::string &out);
  ExprPtr buildUnary(TSNode node);
  ExprPtr buildBinary(TSNode node);
  ExprPtr buildBoolean(TSNode node);
  ExprPtr buildComparison(TSNode node);
  ExprPtr buildCall(TSNode node);
  ExprPtr buildSubscript(TSNode node);
  ExprPtr buildSlice(TSNode node);
  ExprPtr buildDict(TSNode node);
  ExprPtr buildConditional(TSNode node);
  ExprPtr buildAnnotation(TSNode typeNode);

  // Helpers.
  Location loc(TSNode node) const { return locationOf(source, node); }
  llvm::StringRef text(TSNode node) const { return textOf(source, node); }
  Sym kind(TSNode node) const { return grammar.kind(node); }
  /// The children of `node`, through the builder's one cursor.
  ts::ChildList children(TSNode node) const { return ts::children(cursor, node); }
  /// The named children of `node` that are not comments.
  std::vector<TSNode> namedChildren(TSNode node) const;
  /// The children of `node` in field `field`, in order.
  std::vector<TSNode> fieldChildren(TSNode node, TSFieldId field) const;
  TSNode field(TSNode node, TSFieldId id) const { return ts_node_child_by_field_id(node, id); }
  bool hasKeyword(TSNode node, llvm::StringRef keyword) const;
  std::string dottedName(TSNode node) const;

  /// Reports `what` at `node` as outside agc's Python subset; returns null.
  std::nullptr_t unsupported(TSNode node, const llvm::Twine &what);
  std::nullptr_t error(TSNode node, const llvm::Twine &message) {
    diag.error(loc(node), message);
    return nullptr;
  }
  /// An error that tells what agc could not make of `node`, by its grammar name.
  std::nullptr_t unsupportedNode(TSNode node);
  /// True once the conversion should end: nesting too deep, or too many errors to show.
  bool stopped() const { return stop || diag.reachedErrorLimit(); }

  /// Depth guard for the recursive conversion.
  struct Nest {
    Nest(ASTBuilder &b) : b(b) { ++b.depth; }
    ~Nest() { --b.depth; }
    ASTBuilder &b;
  };
  bool tooDeep(TSNode node);
  /// The indentation (leading blanks, in bytes) of the line holding byte `offset`.
  uint32_t indentOfLine(uint32_t offset) const {
    size_t newline = offset == 0 ? llvm::StringRef::npos : source.text.rfind('\n', offset - 1);
    llvm::StringRef line = source.text.drop_front(newline == llvm::StringRef::npos ? 0 : newline + 1);
    return static_cast<uint32_t>(std::min(line.find_first_not_of(" \t"), line.size()));
  }

  /// Whether `decorator` is tf.function, called or not, under any import alias seen.
  bool isTfFunction(const Expr &decorator) const;

  const SourceFile &source;
  const ts::PythonGrammar &grammar;
  const ts::PythonGrammar::Fields &f;
  DiagnosticEngine &diag;
  const ParseOptions &options;
  unsigned depth = 0;
  bool stop = false;
  unsigned loopDepth = 0;     ///< Loops around the current statement, in this function.
  unsigned functionDepth = 0; ///< Functions around the current statement.
  llvm::StringSet<> tensorflowAliases{"tf", "tensorflow"};
  llvm::StringSet<> functionAliases; ///< `from tensorflow import function [as f]`.
  mutable ts::TreeCursor cursor; ///< Reset for every children() call.
};

} // namespace

std::vector<TSNode> ASTBuilder::namedChildren(TSNode node) const {
  std::vector<TSNode> out;
  for (const ts::Child &c : children(node))
    if (ts_node_is_named(c.node) && !ts_node_is_extra(c.node))
      out.push_back(c.node);
  return out;
}

std::vector<TSNode> ASTBuilder::fieldChildren(TSNode node, TSFieldId id) const {
  std::vector<TSNode> out;
  for (const ts::Child &c : children(node))
    if (c.field == id)
      out.push_back(c.node);
  return out;
}

bool ASTBuilder::hasKeyword(TSNode node, llvm::StringRef keyword) const {
  for (const ts::Child &c : children(node))
    if (!ts_node_is_named(c.node) && llvm::StringRef(ts_node_type(c.node)) == keyword)
      return true;
  return false;
}

std::string ASTBuilder::dottedName(TSNode node) const {
  std::string out;
  for (TSNode part : namedChildren(node)) {
    if (!out.empty())
      out += '.';
    out += text(part).str();
  }
  return out;
}

std::nullptr_t ASTBuilder::unsupported(TSNode node, const llvm::Twine &what) {
  diag.error(loc(node), what + " " + "not supported by agc");
  return nullptr;
}

std::nullptr_t ASTBuilder::unsupportedNode(TSNode node) {
  llvm::StringRef type = ts_node_type(node);
  static const std::pair<const char *, const char *> kNames[] = {
      {"class_definition", "class definitions are"},
      {"try_statement", "'try' statements are"},
      {"with_statement", "'with' statements are"},
      {"raise_statement", "'raise' statements are"},
      {"match_statement", "'match' statements are"},
      {"lambda", "lambda expressions are"},
      {"list_comprehension", "list comprehensions are"},
      {"dictionary_comprehension", "dict comprehensions are"},
      {"set_comprehension", "set comprehensions are"},
      {"generator_expression", "generator expressions are"},
      {"yield", "generators ('yield') are"},
      {"await", "'await' expressions are"},
      {"named_expression", "assignment expressions (':=') are"},
      {"set", "set displays are"},
      {"list_splat", "unpacking with '*' is"},
      {"parenthesized_list_splat", "unpacking with '*' is"},
      {"dictionary_splat", "unpacking with '**' is"},
      {"list_splat_pattern", "starred targets ('*x') are"},
      {"print_statement", "Python 2 'print' statements are"},
      {"exec_statement", "Python 2 'exec' statements are"},
      {"type_alias_statement", "'type' alias statements are"},
      {"wildcard_import", "wildcard imports ('import *') are"},
      {"keyword_separator", "a bare '*' here is"},
  };
  for (const auto &[grammarName, phrase] : kNames)
    if (type == grammarName)
      return unsupported(node, phrase);
  return unsupported(node, ("'" + type + "' is").str());
}

bool ASTBuilder::tooDeep(TSNode node) {
  if (depth <= options.maxNestingDepth)
    return false;
  if (!stop)
    diag.error(loc(node), "code is nested too deeply (more than " +
                              llvm::Twine(options.maxNestingDepth) + " levels)");
  stop = true; // one report; the rest of the file is not converted
  return true;
}

//===----------------------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------------------===//

std::unique_ptr<Module> ASTBuilder::buildModule(TSNode root) {
  StmtList body;
  TSNode previous{};
  for (TSNode child : namedChildren(root)) {
    if (stopped())
      break;
    uint32_t column = ts_node_start_point(child).column;
    if (column != 0) {
      // Shallower than the line before: a dedent that matches no enclosing level.
      bool dedent = !ts_node_is_null(previous) && column < indentOfLine(ts_node_end_byte(previous));
      error(child, dedent ? "unindent does not match any outer indentation level"
                          : "unexpected indent");
    } else {
      buildStmt(child, body);
    }
    previous = child;
  }
  return std::make_unique<Module>(loc(root), std::move(body));
}

void ASTBuilder::buildBlock(TSNode owner, TSFieldId blockField, StmtList &out) {
  TSNode block = field(owner, blockField);
  std::vector<TSNode> stmts =
      ts_node_is_null(block) ? std::vector<TSNode>() : namedChildren(block);
  TSPoint header = ts_node_start_point(owner);
  llvm::StringRef keyword = ts_node_is_null(ts_node_child(owner, 0))
                                ? llvm::StringRef("compound")
                                : llvm::StringRef(ts_node_type(ts_node_child(owner, 0)));
  auto expectedBlock = [&](TSNode at) {
    diag.error(ts_node_is_null(at) ? loc(owner) : loc(at),
               "expected an indented block after '" + keyword + "' statement on line " +
                   llvm::Twine(header.row + 1));
  };
  if (stmts.empty()) {
    expectedBlock(ts_node_next_named_sibling(owner));
    return;
  }
  std::optional<uint32_t> column;
  for (TSNode child : stmts) {
    if (stopped())
      return;
    TSPoint at = ts_node_start_point(child);
    if (at.row != header.row) {
      if (!column) {
        column = at.column;
        if (at.column <= header.column) {
          expectedBlock(child);
          return;
        }
      } else if (at.column != *column) {
        error(child, at.column > *column
                         ? "unexpected indent"
                         : "unindent does not match any outer indentation level");
        return;
      }
    }
    buildStmt(child, out);
  }
}

void ASTBuilder::buildStmt(TSNode node, StmtList &out) {
  Nest nest(*this);
  if (tooDeep(node))
    return;
  StmtPtr stmt;
  switch (kind(node)) {
  case Sym::ExpressionStatement:
    return buildExpressionStatement(node, out);
  case Sym::IfStatement: stmt = buildIf(node); break;
  case Sym::WhileStatement: stmt = buildWhile(node); break;
  case Sym::ForStatement: stmt = buildFor(node); break;
  case Sym::BreakStatement:
  case Sym::ContinueStatement: {
    bool isBreak = kind(node) == Sym::BreakStatement;
    if (loopDepth == 0) {
      error(node, isBreak ? "'break' outside loop" : "'continue' not properly in loop");
      return;
    }
    if (isBreak)
      stmt = std::make_unique<BreakStmt>(loc(node));
    else
      stmt = std::make_unique<ContinueStmt>(loc(node));
    break;
  }
  case Sym::PassStatement: stmt = std::make_unique<PassStmt>(loc(node)); break;
  case Sym::ReturnStatement: stmt = buildReturn(node); break;
  case Sym::AssertStatement: stmt = buildAssert(node); break;
  case Sym::DeleteStatement: stmt = buildDelete(node); break;
  case Sym::GlobalStatement: stmt = buildScopeDecl(node, true); break;
  case Sym::NonlocalStatement: stmt = buildScopeDecl(node, false); break;
  case Sym::ImportStatement: stmt = buildImport(node); break;
  case Sym::ImportFromStatement: stmt = buildImportFrom(node, false); break;
  case Sym::FutureImportStatement: stmt = buildImportFrom(node, true); break;
  case Sym::FunctionDefinition: stmt = buildFunction(node, {}); break;
  case Sym::DecoratedDefinition: stmt = buildDecorated(node); break;
  default:
    unsupportedNode(node);
    return;
  }
  if (stmt)
    out.push_back(std::move(stmt));
}

void ASTBuilder::buildExpressionStatement(TSNode node, StmtList &out) {
  std::vector<TSNode> kids = namedChildren(node);
  if (kids.size() == 1) {
    switch (kind(kids[0])) {
    case Sym::Assignment:
      if (StmtPtr s = buildAssignment(kids[0]))
        out.push_back(std::move(s));
      return;
    case Sym::AugmentedAssignment:
      if (StmtPtr s = buildAugmentedAssignment(kids[0]))
        out.push_back(std::move(s));
      return;
    default:
      if (ExprPtr e = buildExpr(kids[0]))
        out.push_back(std::make_unique<ExprStmt>(loc(node), std::move(e)));
      return;
    }
  }
  // `a, b` as a statement: a tuple.
  if (ExprPtr e = buildSequence(node, Sym::ExpressionList, /*asTarget=*/false))
    out.push_back(std::make_unique<ExprStmt>(loc(node), std::move(e)));
}

StmtPtr ASTBuilder::buildAssignment(TSNode node) {
  // `a = b = v` nests: assignment(left a, right assignment(left b, right v)).
  ExprList targets;
  TSNode current = node;
  TSNode annotation = field(node, f.type);
  for (;;) {
    ExprPtr target = buildTarget(field(current, f.left));
    if (!target)
      return nullptr;
    targets.push_back(std::move(target));
    TSNode right = field(current, f.right);
    if (ts_node_is_null(right) || kind(right) != Sym::Assignment)
      break;
    if (!ts_node_is_null(field(right, f.type)))
      return error(right, "invalid syntax: an annotated assignment cannot be chained");
    current = right;
  }
  TSNode right = field(current, f.right);
  if (!ts_node_is_null(annotation)) {
    if (targets.size() != 1)
      return error(node, "invalid syntax: an annotated assignment cannot be chained");
    ExprPtr ann = buildAnnotation(annotation);
    ExprPtr value;
    if (!ts_node_is_null(right) && !(value = buildExpr(right)))
      return nullptr;
    if (!ann)
      return nullptr;
    if (!llvm::isa<NameExpr, AttributeExpr, SubscriptExpr>(targets[0].get()))
      return error(node, "only a single target can be annotated");
    return std::make_unique<AnnAssignStmt>(loc(node), std::move(targets[0]), std::move(ann),
                                           std::move(value));
  }
  if (ts_node_is_null(right))
    return error(node, "invalid syntax: expected a value after '='");
  ExprPtr value = buildExpr(right);
  if (!value)
    return nullptr;
  return std::make_unique<AssignStmt>(loc(node), std::move(targets), std::move(value));
}

StmtPtr ASTBuilder::buildAugmentedAssignment(TSNode node) {
  static const std::pair<const char *, BinaryOp> kOps[] = {
      {"+=", BinaryOp::Add},       {"-=", BinaryOp::Sub},     {"*=", BinaryOp::Mul},
      {"/=", BinaryOp::Div},       {"//=", BinaryOp::FloorDiv}, {"%=", BinaryOp::Mod},
      {"**=", BinaryOp::Pow},      {"@=", BinaryOp::MatMul},  {"&=", BinaryOp::BitAnd},
      {"|=", BinaryOp::BitOr},     {"^=", BinaryOp::BitXor},  {"<<=", BinaryOp::LShift},
      {">>=", BinaryOp::RShift}};
  llvm::StringRef opText = ts_node_type(field(node, f.operator_));
  std::optional<BinaryOp> op;
  for (const auto &[spelled, value] : kOps)
    if (opText == spelled)
      op = value;
  if (!op)
    return error(field(node, f.operator_), "unknown operator '" + opText + "'");
  TSNode left = field(node, f.left);
  ExprPtr target = buildTarget(left);
  ExprPtr value = buildExpr(field(node, f.right));
  if (!target || !value)
    return nullptr;
  if (!llvm::isa<NameExpr, AttributeExpr, SubscriptExpr>(target.get()))
    return error(left, "'" + text(left) + "' is an illegal expression for augmented assignment");
  return std::make_unique<AugAssignStmt>(loc(node), std::move(target), *op, std::move(value));
}

StmtPtr ASTBuilder::buildIf(TSNode node) {
  // if c0: b0 elif c1: b1 else: b2  =>  If(c0, b0, [If(c1, b1, b2, elif)])
  ExprPtr test = buildExpr(field(node, f.condition));
  StmtList body;
  buildBlock(node, f.consequence, body);
  std::vector<TSNode> alternatives = fieldChildren(node, f.alternative);
  StmtList orelse;
  for (TSNode alt : llvm::reverse(alternatives)) {
    if (kind(alt) == Sym::ElseClause) {
      buildBlock(alt, f.body, orelse);
      continue;
    }
    ExprPtr elifTest = buildExpr(field(alt, f.condition));
    StmtList elifBody;
    buildBlock(alt, f.consequence, elifBody);
    if (!elifTest)
      return nullptr;
    // The elif's own location runs to the end of the whole chain, like CPython's.
    Location elifLoc = loc(alt);
    elifLoc.end = loc(node).end;
    StmtList wrapped;
    wrapped.push_back(std::make_unique<IfStmt>(elifLoc, std::move(elifTest), std::move(elifBody),
                                               std::move(orelse), /*elif=*/true));
    orelse = std::move(wrapped);
  }
  if (!test)
    return nullptr;
  return std::make_unique<IfStmt>(loc(node), std::move(test), std::move(body), std::move(orelse),
                                  /*elif=*/false);
}

StmtPtr ASTBuilder::buildWhile(TSNode node) {
  ExprPtr test = buildExpr(field(node, f.condition));
  StmtList body, orelse;
  ++loopDepth;
  buildBlock(node, f.body, body);
  --loopDepth;
  TSNode alt = field(node, f.alternative);
  if (!ts_node_is_null(alt))
    buildBlock(alt, f.body, orelse);
  if (!test)
    return nullptr;
  return std::make_unique<WhileStmt>(loc(node), std::move(test), std::move(body),
                                     std::move(orelse));
}

StmtPtr ASTBuilder::buildFor(TSNode node) {
  if (hasKeyword(node, "async"))
    return unsupported(node, "'async for' loops are");
  ExprPtr target = buildTarget(field(node, f.left));
  ExprPtr iter = buildExpr(field(node, f.right));
  StmtList body, orelse;
  ++loopDepth;
  buildBlock(node, f.body, body);
  --loopDepth;
  TSNode alt = field(node, f.alternative);
  if (!ts_node_is_null(alt))
    buildBlock(alt, f.body, orelse);
  if (!target || !iter)
    return nullptr;
  return std::make_unique<ForStmt>(loc(node), std::move(target), std::move(iter),
                                   std::move(body), std::move(orelse));
}

StmtPtr ASTBuilder::buildReturn(TSNode node) {
  if (functionDepth == 0)
    return error(node, "'return' outside function");
  std::vector<TSNode> kids = namedChildren(node);
  ExprPtr value;
  if (!kids.empty() && !(value = buildExpr(kids[0])))
    return nullptr;
  return std::make_unique<ReturnStmt>(loc(node), std::move(value));
}

StmtPtr ASTBuilder::buildAssert(TSNode node) {
  std::vector<TSNode> kids = namedChildren(node);
  ExprPtr test = kids.size() > 0 ? buildExpr(kids[0]) : nullptr;
  ExprPtr msg;
  if (kids.size() > 1 && !(msg = buildExpr(kids[1])))
    return nullptr;
  if (!test)
    return nullptr;
  return std::make_unique<AssertStmt>(loc(node), std::move(test), std::move(msg));
}

StmtPtr ASTBuilder::buildDelete(TSNode node) {
  std::vector<TSNode> kids = namedChildren(node);
  ExprList targets;
  std::vector<TSNode> items;
  if (kids.size() == 1 && kind(kids[0]) == Sym::ExpressionList)
    items = namedChildren(kids[0]);
  else
    items = kids;
  for (TSNode item : items) {
    ExprPtr target = buildTarget(item);
    if (!target)
      return nullptr;
    targets.push_back(std::move(target));
  }
  return std::make_unique<DeleteStmt>(loc(node), std::move(targets));
}

StmtPtr ASTBuilder::buildScopeDecl(TSNode node, bool global) {
  if (!global && functionDepth == 0)
    return error(node, "nonlocal declaration not allowed at module level");
  std::vector<Identifier> names;
  for (TSNode id : namedChildren(node))
    names.push_back({loc(id), text(id).str()});
  if (global)
    return std::make_unique<GlobalStmt>(loc(node), std::move(names));
  return std::make_unique<NonlocalStmt>(loc(node), std::move(names));
}

StmtPtr ASTBuilder::buildImport(TSNode node) {
  std::vector<ImportAlias> names;
  for (TSNode item : fieldChildren(node, f.name)) {
    if (kind(item) == Sym::AliasedImport) {
      names.push_back({loc(item), dottedName(field(item, f.name)), text(field(item, f.alias)).str()});
    } else {
      names.push_back({loc(item), dottedName(item), ""});
    }
    const ImportAlias &alias = names.back();
    if (alias.name == "tensorflow")
      tensorflowAliases.insert(alias.asname.empty() ? "tensorflow" : alias.asname);
  }
  return std::make_unique<ImportStmt>(loc(node), std::move(names));
}

StmtPtr ASTBuilder::buildImportFrom(TSNode node, bool future) {
  std::string module = "__future__";
  unsigned level = 0;
  if (!future) {
    TSNode moduleNode = field(node, f.moduleName);
    if (kind(moduleNode) == Sym::RelativeImport) {
      module.clear();
      for (TSNode part : namedChildren(moduleNode)) {
        if (kind(part) == Sym::ImportPrefix)
          level = text(part).size();
        else
          module = dottedName(part);
      }
    } else {
      module = dottedName(moduleNode);
    }
  }
  std::vector<ImportAlias> names;
  for (const ts::Child &c : children(node)) {
    if (kind(c.node) == Sym::WildcardImport)
      return unsupportedNode(c.node);
    if (c.field != f.name)
      continue;
    if (kind(c.node) == Sym::AliasedImport)
      names.push_back({loc(c.node), dottedName(field(c.node, f.name)),
                       text(field(c.node, f.alias)).str()});
    else
      names.push_back({loc(c.node), dottedName(c.node), ""});
    if (module == "tensorflow" && names.back().name == "function")
      functionAliases.insert(names.back().asname.empty() ? "function" : names.back().asname);
  }
  return std::make_unique<ImportFromStmt>(loc(node), std::move(module), level, std::move(names));
}

StmtPtr ASTBuilder::buildDecorated(TSNode node) {
  ExprList decorators;
  bool ok = true;
  TSNode definition = field(node, f.definition);
  for (TSNode child : namedChildren(node)) {
    if (kind(child) != Sym::Decorator)
      continue;
    std::vector<TSNode> inner = namedChildren(child);
    ExprPtr e = inner.empty() ? nullptr : buildExpr(inner[0]);
    if (e)
      decorators.push_back(std::move(e));
    else
      ok = false;
  }
  if (kind(definition) != Sym::FunctionDefinition)
    return unsupportedNode(definition);
  for (const ExprPtr &decorator : decorators)
    if (!isTfFunction(*decorator)) {
      diag.error(decorator->loc(), "decorators other than '@tf.function' are not supported by agc");
      diag.note(loc(field(definition, f.name)),
                "on the definition of '" + text(field(definition, f.name)) + "'");
      ok = false;
    }
  // As in CPython, the definition is located at 'def'; decorators carry their own.
  StmtPtr def = buildFunction(definition, std::move(decorators));
  return ok ? std::move(def) : nullptr;
}

bool ASTBuilder::buildParams(TSNode node, std::vector<Param> &params) {
  bool ok = true;
  bool keywordOnly = false;
  bool sawDefault = false;
  llvm::StringSet<> seen;
  for (TSNode p : namedChildren(node)) {
    Param param;
    param.loc = loc(p);
    param.keywordOnly = keywordOnly;
    TSNode nameNode = p;
    switch (kind(p)) {
    case Sym::Identifier:
      break;
    case Sym::DefaultParameter:
      nameNode = field(p, f.name);
      param.defaultValue = buildExpr(field(p, f.value));
      ok &= param.defaultValue != nullptr;
      break;
    case Sym::TypedParameter: {
      std::vector<TSNode> kids = namedChildren(p);
      nameNode = kids.front();
      if (kind(nameNode) != Sym::Identifier) {
        unsupportedNode(nameNode);
        ok = false;
        continue;
      }
      param.annotation = buildAnnotation(field(p, f.type));
      ok &= param.annotation != nullptr;
      break;
    }
    case Sym::TypedDefaultParameter:
      nameNode = field(p, f.name);
      param.annotation = buildAnnotation(field(p, f.type));
      param.defaultValue = buildExpr(field(p, f.value));
      ok &= param.annotation && param.defaultValue;
      break;
    case Sym::KeywordSeparator:
      keywordOnly = true;
      continue;
    case Sym::PositionalSeparator:
      unsupported(p, "positional-only parameters ('/') are");
      ok = false;
      continue;
    case Sym::ListSplatPattern:
      unsupported(p, "variadic parameters ('*" + text(p).drop_front(1) + "') are");
      ok = false;
      continue;
    case Sym::DictionarySplatPattern:
      unsupported(p, "keyword variadic parameters ('**" + text(p).drop_front(2) + "') are");
      ok = false;
      continue;
    default:
      unsupportedNode(p);
      ok = false;
      continue;
    }
    param.name = text(nameNode).str();
    if (!seen.insert(param.name).second) {
      error(nameNode, "duplicate argument '" + param.name + "' in function definition");
      ok = false;
    }
    if (param.defaultValue)
      sawDefault = true;
    else if (sawDefault && !keywordOnly) {
      error(p, "non-default argument '" + param.name + "' follows default argument");
      ok = false;
    }
    params.push_back(std::move(param));
  }
  return ok;
}

StmtPtr ASTBuilder::buildFunction(TSNode node, ExprList decorators) {
  if (hasKeyword(node, "async"))
    return unsupported(node, "async functions are");
  for (const ts::Child &c : children(node))
    if (llvm::StringRef(ts_node_type(c.node)) == "type_parameter")
      return unsupported(c.node, "generic type parameters are");
  TSNode nameNode = field(node, f.name);
  std::vector<Param> params;
  bool ok = buildParams(field(node, f.parameters), params);
  ExprPtr returns;
  TSNode returnType = field(node, f.returnType);
  if (!ts_node_is_null(returnType))
    ok &= (returns = buildAnnotation(returnType)) != nullptr;
  StmtList body;
  unsigned savedLoops = loopDepth;
  loopDepth = 0;
  ++functionDepth;
  buildBlock(node, f.body, body);
  --functionDepth;
  loopDepth = savedLoops;
  if (!ok)
    return nullptr;
  return std::make_unique<FunctionDefStmt>(loc(node), text(nameNode).str(), loc(nameNode),
                                           std::move(params), std::move(decorators),
                                           std::move(returns), std::move(body));
}

/// Decorators are kept for the analyses, which read @tf.function(input_signature=...).
/// Any other decorator would change the function in ways agc cannot see.
bool ASTBuilder::isTfFunction(const Expr &decorator) const {
  const Expr *callee = &decorator;
  if (const auto *call = llvm::dyn_cast<CallExpr>(callee))
    callee = &call->getCallee();
  if (const auto *attr = llvm::dyn_cast<AttributeExpr>(callee))
    if (const auto *base = llvm::dyn_cast<NameExpr>(&attr->getValue()))
      return attr->getAttr() == "function" && tensorflowAliases.count(base->getId());
  if (const auto *name = llvm::dyn_cast<NameExpr>(callee))
    return functionAliases.count(name->getId());
  return false;
}

//===----------------------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------------------===//

ExprPtr ASTBuilder::buildExpr(TSNode node) {
  Nest nest(*this);
  if (tooDeep(node) || ts_node_is_null(node))
    return nullptr;
  return buildExprInner(node);
}

ExprPtr ASTBuilder::buildExprInner(TSNode node) {
  switch (kind(node)) {
  case Sym::Identifier:
    return std::make_unique<NameExpr>(loc(node), text(node).str());
  case Sym::Integer: return buildInteger(node);
  case Sym::Float: return buildFloat(node);
  case Sym::String:
  case Sym::ConcatenatedString: return buildStrings(node);
  case Sym::True: return std::make_unique<BoolLitExpr>(loc(node), true);
  case Sym::False: return std::make_unique<BoolLitExpr>(loc(node), false);
  case Sym::None: return std::make_unique<NoneLitExpr>(loc(node));
  case Sym::Ellipsis: return std::make_unique<EllipsisLitExpr>(loc(node));
  case Sym::UnaryOperator:
  case Sym::NotOperator: return buildUnary(node);
  case Sym::BinaryOperator: return buildBinary(node);
  case Sym::BooleanOperator: return buildBoolean(node);
  case Sym::ComparisonOperator: return buildComparison(node);
  case Sym::Call: return buildCall(node);
  case Sym::Attribute: {
    ExprPtr value = buildExpr(field(node, f.object));
    if (!value)
      return nullptr;
    TSNode attr = field(node, f.attribute);
    return std::make_unique<AttributeExpr>(loc(node), std::move(value), text(attr).str(),
                                           loc(attr));
  }
  case Sym::Subscript: return buildSubscript(node);
  case Sym::Tuple:
  case Sym::List:
  case Sym::ExpressionList: return buildSequence(node, kind(node), /*asTarget=*/false);
  case Sym::Dictionary: return buildDict(node);
  case Sym::ConditionalExpression: return buildConditional(node);
  case Sym::ParenthesizedExpression: {
    std::vector<TSNode> kids = namedChildren(node);
    if (kids.size() != 1)
      return error(node, "invalid syntax");
    return buildExpr(kids[0]);
  }
  case Sym::Slice:
    return error(node, "a slice is only allowed inside '[]'");
  default:
    return unsupportedNode(node);
  }
}

ExprPtr ASTBuilder::buildTarget(TSNode node) {
  Nest nest(*this);
  if (tooDeep(node) || ts_node_is_null(node))
    return nullptr;
  switch (kind(node)) {
  case Sym::Identifier:
  case Sym::Attribute:
  case Sym::Subscript:
    return buildExprInner(node);
  case Sym::PatternList:
  case Sym::TuplePattern:
  case Sym::ListPattern:
  case Sym::ExpressionList:
  case Sym::Tuple:
  case Sym::List:
    return buildSequence(node, kind(node), /*asTarget=*/true);
  case Sym::ParenthesizedExpression: {
    std::vector<TSNode> kids = namedChildren(node);
    if (kids.size() != 1)
      return error(node, "invalid syntax");
    return buildTarget(kids[0]);
  }
  case Sym::ListSplatPattern:
    return unsupportedNode(node);
  default:
    return error(node, "cannot assign to or delete this expression");
  }
}

ExprPtr ASTBuilder::buildSequence(TSNode node, Sym sym, bool asTarget) {
  ExprList elements;
  bool ok = true;
  for (TSNode child : namedChildren(node)) {
    ExprPtr e = asTarget ? buildTarget(child) : buildExpr(child);
    if (e)
      elements.push_back(std::move(e));
    else
      ok = false;
  }
  if (!ok)
    return nullptr;
  if (sym == Sym::List || sym == Sym::ListPattern)
    return std::make_unique<ListExpr>(loc(node), std::move(elements));
  return std::make_unique<TupleExpr>(loc(node), std::move(elements));
}

ExprPtr ASTBuilder::buildInteger(TSNode node) {
  llvm::StringRef spelling = text(node);
  if (spelling.ends_with("j") || spelling.ends_with("J"))
    return unsupported(node, "complex numbers are");
  if (spelling.ends_with("l") || spelling.ends_with("L"))
    return error(node, "invalid syntax: Python 2 long literals ('" + spelling + "') are not Python 3");
  std::string digits;
  for (char c : spelling)
    if (c != '_')
      digits += c;
  unsigned radix = 10;
  llvm::StringRef body = digits;
  if (body.size() > 1 && body[0] == '0' && llvm::isAlpha(body[1])) {
    char p = llvm::toLower(body[1]);
    radix = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
    body = body.drop_front(2);
    if (radix == 0 || body.empty())
      return error(node, "invalid integer literal '" + spelling + "'");
  } else if (body.size() > 1 && body[0] == '0' && body.find_first_not_of('0') != llvm::StringRef::npos) {
    return error(node, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
  }
  uint64_t value = 0;
  std::optional<int64_t> result;
  if (!body.getAsInteger(radix, value) && value <= uint64_t(INT64_MAX))
    result = static_cast<int64_t>(value);
  return std::make_unique<IntLitExpr>(loc(node), spelling.str(), result);
}

ExprPtr ASTBuilder::buildFloat(TSNode node) {
  llvm::StringRef spelling = text(node);
  if (spelling.ends_with("j") || spelling.ends_with("J"))
    return unsupported(node, "complex numbers are");
  std::string digits;
  for (char c : spelling)
    if (c != '_')
      digits += c;
  errno = 0;
  char *end = nullptr;
  double value = std::strtod(digits.c_str(), &end);
  if (end != digits.c_str() + digits.size())
    return error(node, "invalid float literal '" + spelling + "'");
  return std::make_unique<FloatLitExpr>(loc(node), spelling.str(), value);
}

bool ASTBuilder::appendString(TSNode node, std::string &out) {
  TSNode start{}, end{};
  for (const ts::Child &c : children(node)) {
    Sym k = kind(c.node);
    if (k == Sym::StringStart)
      start = c.node;
    else if (k == Sym::StringEnd)
      end = c.node;
    else if (k == Sym::Interpolation) {
      unsupported(node, "f-strings are");
      return false;
    }
  }
  if (ts_node_is_null(start) || ts_node_is_null(end)) {
    error(node, "invalid string literal");
    return false;
  }
  llvm::StringRef opening = text(start);
  llvm::StringRef prefix = opening.take_until([](char c) { return c == '\'' || c == '"'; });
  std::string lower = prefix.lower();
  if (llvm::StringRef(lower).contains('f')) {
    unsupported(node, "f-strings are");
    return false;
  }
  if (llvm::StringRef(lower).contains('b')) {
    unsupported(node, "bytes literals are");
    return false;
  }
  llvm::StringRef body = source.text.slice(ts_node_end_byte(start), ts_node_start_byte(end));
  if (llvm::StringRef(lower).contains('r')) {
    out += body.str();
    return true;
  }
  size_t bad = 0;
  bool named = false;
  if (!decodeEscapes(body, out, bad, named)) {
    uint32_t at = ts_node_end_byte(start) + bad;
    if (named)
      diag.error(source.locationOf(at, at + 2),
                 "named Unicode escapes ('\\N{...}') are not supported by agc");
    else
      diag.error(source.locationOf(at, at + 2), "invalid escape sequence in string literal");
    return false;
  }
  return true;
}

ExprPtr ASTBuilder::buildStrings(TSNode node) {
  std::string value;
  if (kind(node) == Sym::String) {
    if (!appendString(node, value))
      return nullptr;
  } else {
    for (TSNode part : namedChildren(node))
      if (!appendString(part, value))
        return nullptr;
  }
  return std::make_unique<StrLitExpr>(loc(node), std::move(value));
}

ExprPtr ASTBuilder::buildUnary(TSNode node) {
  UnaryOp op = UnaryOp::Not;
  if (kind(node) == Sym::UnaryOperator) {
    llvm::StringRef spelled = ts_node_type(field(node, f.operator_));
    op = spelled == "-" ? UnaryOp::Minus : spelled == "+" ? UnaryOp::Plus : UnaryOp::Invert;
  }
  ExprPtr operand = buildExpr(field(node, f.argument));
  if (!operand)
    return nullptr;
  return std::make_unique<UnaryExpr>(loc(node), op, std::move(operand));
}

ExprPtr ASTBuilder::buildBinary(TSNode node) {
  static const std::pair<const char *, BinaryOp> kOps[] = {
      {"+", BinaryOp::Add},   {"-", BinaryOp::Sub},       {"*", BinaryOp::Mul},
      {"/", BinaryOp::Div},   {"//", BinaryOp::FloorDiv}, {"%", BinaryOp::Mod},
      {"**", BinaryOp::Pow},  {"@", BinaryOp::MatMul},    {"&", BinaryOp::BitAnd},
      {"|", BinaryOp::BitOr}, {"^", BinaryOp::BitXor},    {"<<", BinaryOp::LShift},
      {">>", BinaryOp::RShift}};
  TSNode opNode = field(node, f.operator_);
  llvm::StringRef spelled = ts_node_type(opNode);
  std::optional<BinaryOp> op;
  for (const auto &[s, value] : kOps)
    if (spelled == s)
      op = value;
  if (!op)
    return error(opNode, "invalid syntax: '" + spelled + "' is not a Python 3 operator");
  ExprPtr lhs = buildExpr(field(node, f.left));
  ExprPtr rhs = lhs ? buildExpr(field(node, f.right)) : nullptr;
  if (!lhs || !rhs)
    return nullptr;
  return std::make_unique<BinaryExpr>(loc(node), *op, std::move(lhs), std::move(rhs));
}

ExprPtr ASTBuilder::buildBoolean(TSNode node) {
  // tree-sitter nests `a and b and c` to the left; CPython keeps one BoolOp with all
  // operands. Walk down the left spine while the operator stays the same.
  llvm::StringRef spelled = ts_node_type(field(node, f.operator_));
  BoolOpKind op = spelled == "and" ? BoolOpKind::And : BoolOpKind::Or;
  std::vector<TSNode> rights;
  TSNode current = node;
  while (kind(current) == Sym::BooleanOperator &&
         llvm::StringRef(ts_node_type(field(current, f.operator_))) == spelled) {
    rights.push_back(field(current, f.right));
    current = field(current, f.left);
    if (rights.size() > options.maxNestingDepth) {
      tooDeep(node);
      return nullptr;
    }
  }
  ExprList values;
  ExprPtr first = buildExpr(current);
  if (!first)
    return nullptr;
  values.push_back(std::move(first));
  for (TSNode right : llvm::reverse(rights)) {
    ExprPtr e = buildExpr(right);
    if (!e)
      return nullptr;
    values.push_back(std::move(e));
  }
  return std::make_unique<BoolOpExpr>(loc(node), op, std::move(values));
}

ExprPtr ASTBuilder::buildComparison(TSNode node) {
  static const std::pair<const char *, CmpOp> kOps[] = {
      {"<", CmpOp::Lt},   {"<=", CmpOp::LtE}, {">", CmpOp::Gt},         {">=", CmpOp::GtE},
      {"==", CmpOp::Eq},  {"!=", CmpOp::NotEq}, {"in", CmpOp::In},      {"not in", CmpOp::NotIn},
      {"is", CmpOp::Is},  {"is not", CmpOp::IsNot}};
  ExprList operands;
  std::vector<CmpOp> ops;
  for (const ts::Child &c : children(node)) {
    if (ts_node_is_extra(c.node))
      continue;
    if (c.field == f.operators) {
      llvm::StringRef spelled = ts_node_type(c.node);
      std::optional<CmpOp> op;
      for (const auto &[s, value] : kOps)
        if (spelled == s)
          op = value;
      if (!op)
        return error(c.node, "invalid syntax: '" + spelled + "' is not a Python 3 comparison");
      ops.push_back(*op);
      continue;
    }
    if (!ts_node_is_named(c.node))
      continue;
    ExprPtr e = buildExpr(c.node);
    if (!e)
      return nullptr;
    operands.push_back(std::move(e));
  }
  if (operands.size() != ops.size() + 1)
    return error(node, "invalid syntax in comparison");
  ExprPtr left = std::move(operands.front());
  operands.erase(operands.begin());
  return std::make_unique<CompareExpr>(loc(node), std::move(left), std::move(ops),
                                       std::move(operands));
}

ExprPtr ASTBuilder::buildCall(TSNode node) {
  ExprPtr callee = buildExpr(field(node, f.function));
  TSNode argsNode = field(node, f.arguments);
  if (kind(argsNode) != Sym::ArgumentList)
    return unsupportedNode(argsNode); // f(x for x in xs)
  ExprList args;
  std::vector<Keyword> keywords;
  bool ok = callee != nullptr;
  llvm::StringSet<> seen;
  for (TSNode arg : namedChildren(argsNode)) {
    if (kind(arg) == Sym::KeywordArgument) {
      TSNode name = field(arg, f.name);
      ExprPtr value = buildExpr(field(arg, f.value));
      if (kind(name) != Sym::Identifier) {
        error(name, "expression cannot contain assignment, perhaps you meant \"==\"?");
        ok = false;
        continue;
      }
      if (!seen.insert(text(name)).second) {
        error(arg, "keyword argument repeated: " + text(name));
        ok = false;
      }
      if (!value) {
        ok = false;
        continue;
      }
      keywords.push_back({loc(arg), text(name).str(), std::move(value)});
      continue;
    }
    if (!keywords.empty()) {
      error(arg, "positional argument follows keyword argument");
      ok = false;
      continue;
    }
    ExprPtr value = buildExpr(arg);
    if (!value) {
      ok = false;
      continue;
    }
    args.push_back(std::move(value));
  }
  if (!ok)
    return nullptr;
  return std::make_unique<CallExpr>(loc(node), std::move(callee), std::move(args),
                                    std::move(keywords));
}

ExprPtr ASTBuilder::buildSlice(TSNode node) {
  // The parts sit between ':' tokens: lower ':' upper [':' step], each optional.
  ExprPtr parts[3];
  unsigned index = 0;
  for (const ts::Child &c : children(node)) {
    if (ts_node_is_extra(c.node))
      continue;
    if (!ts_node_is_named(c.node)) {
      if (llvm::StringRef(ts_node_type(c.node)) == ":")
        ++index;
      continue;
    }
    if (index > 2)
      return error(c.node, "invalid syntax in slice");
    if (!(parts[index] = buildExpr(c.node)))
      return nullptr;
  }
  return std::make_unique<SliceExpr>(loc(node), std::move(parts[0]), std::move(parts[1]),
                                     std::move(parts[2]));
}

ExprPtr ASTBuilder::buildSubscript(TSNode node) {
  ExprPtr value = buildExpr(field(node, f.value));
  std::vector<TSNode> subscripts = fieldChildren(node, f.subscript);
  ExprList indices;
  bool ok = value != nullptr;
  for (TSNode s : subscripts) {
    Nest nest(*this);
    ExprPtr e = kind(s) == Sym::Slice ? (tooDeep(s) ? nullptr : buildSlice(s)) : buildExpr(s);
    if (e)
      indices.push_back(std::move(e));
    else
      ok = false;
  }
  if (!ok || indices.empty())
    return ok ? error(node, "invalid syntax: empty subscript") : nullptr;
  ExprPtr index;
  if (indices.size() == 1 && !hasKeyword(node, ",")) {
    index = std::move(indices.front());
  } else {
    // x[a, b:c] indexes with a tuple that spans the brackets' contents.
    Location tupleLoc = indices.front()->loc();
    tupleLoc.end = indices.back()->loc().end;
    index = std::make_unique<TupleExpr>(tupleLoc, std::move(indices));
  }
  return std::make_unique<SubscriptExpr>(loc(node), std::move(value), std::move(index));
}

ExprPtr ASTBuilder::buildDict(TSNode node) {
  ExprList keys, values;
  bool ok = true;
  for (TSNode item : namedChildren(node)) {
    if (kind(item) != Sym::Pair) {
      unsupportedNode(item);
      ok = false;
      continue;
    }
    ExprPtr k = buildExpr(field(item, f.key));
    ExprPtr v = buildExpr(field(item, f.value));
    if (!k || !v) {
      ok = false;
      continue;
    }
    keys.push_back(std::move(k));
    values.push_back(std::move(v));
  }
  if (!ok)
    return nullptr;
  return std::make_unique<DictExpr>(loc(node), std::move(keys), std::move(values));
}

ExprPtr ASTBuilder::buildConditional(TSNode node) {
  std::vector<TSNode> kids = namedChildren(node);
  if (kids.size() != 3)
    return error(node, "invalid syntax in conditional expression");
  ExprPtr body = buildExpr(kids[0]);
  ExprPtr test = buildExpr(kids[1]);
  ExprPtr orelse = buildExpr(kids[2]);
  if (!body || !test || !orelse)
    return nullptr;
  return std::make_unique<IfExpExpr>(loc(node), std::move(test), std::move(body),
                                     std::move(orelse));
}

ExprPtr ASTBuilder::buildAnnotation(TSNode typeNode) {
  std::vector<TSNode> kids = namedChildren(typeNode);
  if (kids.size() == 1) {
    switch (kind(kids[0])) {
    case Sym::Identifier:
    case Sym::Attribute:
    case Sym::Subscript:
    case Sym::String:
    case Sym::None:
    case Sym::BinaryOperator:
    case Sym::Call:
      return buildExpr(kids[0]);
    default:
      break;
    }
  }
  return unsupported(typeNode, "this form of type annotation is");
}

//===----------------------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------------------===//

std::unique_ptr<Module> ag::parseModule(const SourceFile &source, DiagnosticEngine &diag,
                                        const ParseOptions &options) {
  auto grammar = ts::PythonGrammar::get();
  if (!grammar) {
    diag.error(llvm::toString(grammar.takeError()));
    return nullptr;
  }
  ts::Parser parser(*grammar);
  auto tree = parser.parse(source.text, options.timeoutMicros);
  if (!tree) {
    diag.error(source.name + ": " + llvm::toString(tree.takeError()));
    return nullptr;
  }
  TSNode root = tree->root();
  if (ts_node_has_error(root) && reportDeepIndentation(source, diag))
    return nullptr;
  if (reportSyntaxErrors(source, root, diag))
    return nullptr;
  unsigned errorsBefore = diag.getNumErrors();
  ASTBuilder builder(source, *grammar, root, diag, options);
  std::unique_ptr<Module> module = builder.buildModule(root);
  if (diag.getNumErrors() != errorsBefore)
    return nullptr;
  return module;
}
