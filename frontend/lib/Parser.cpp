//===- Parser.cpp - Python source to agc AST ------------------------------===//
//
// Steps:
//   1. tree-sitter parses the text (with a time limit).
//   2. reportSyntaxErrors walks the tree iteratively and turns each MISSING node into
//      "expected X" and each ERROR node into the most precise message its tokens allow
//      (reportErrorNode); if there were any, stop.
//      (SyntaxErrors.cpp)
//   3. ASTBuilder converts the concrete tree, one method per construct, into ast nodes with
//      locations. Constructs outside agc's subset are reported by name and skipped, and
//      the conversion goes on so that every such construct in the file is reported.
//      CPython's own compile-time checks that need no types ('break' outside a loop,
//      a repeated keyword argument, ...) are made here too. ParserImpl.h declares it;
//      ParserStmts.cpp and ParserExprs.cpp hold its statements and expressions.
//
//===----------------------------------------------------------------------------------===//
#include "ParserImpl.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/ConvertUTF.h"

#include <cerrno>
#include <cstdlib>

using namespace ag;
using namespace ag::ast;
using namespace ag::ast::parser;
using ts::Sym;

//===----------------------------------------------------------------------------------===//
// Literals
//===----------------------------------------------------------------------------------===//

/// Appends the UTF-8 encoding of `code` to `out`.
static void appendUTF8(uint32_t code, std::string &out) {
  char buffer[UNI_MAX_UTF8_BYTES_PER_CODE_POINT];
  char *p = buffer;
  if (llvm::ConvertCodePointToUTF8(code, p))
    out.append(buffer, p);
}

/// Decodes the escapes of a non-raw Python string body. Returns false, with `bad` set to
/// the offset of the bad escape, when an escape is malformed or is a named escape
/// (`\N{...}`, `named` set), which agc does not support.
bool parser::decodeEscapes(llvm::StringRef body, std::string &out, size_t &bad, bool &named) {
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

std::nullptr_t ASTBuilder::unsupported(TSNode node, const llvm::Twine &what,
                                       const llvm::Twine &hint) {
  deferred.push_back({Severity::Error, loc(node), (what + " not supported by agc" + hint).str()});
  return nullptr;
}

std::nullptr_t ASTBuilder::unsupportedNode(TSNode node) {
  llvm::StringRef type = ts_node_type(node);
  // Python 2's statements are syntax errors in Python 3, whatever is traced.
  if (type == "print_statement" || type == "exec_statement") {
    llvm::StringRef word = type == "print_statement" ? "print" : "exec";
    return error(node, "Missing parentheses in call to '" + word + "'. Did you mean " + word +
                           "(...)?");
  }
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
