//===- TreeSitter.h - RAII wrappers around the tree-sitter C API ---------===//
//
// Move-only owners for TSParser, TSTree and TSTreeCursor, and PythonGrammar: the
// tree-sitter-python language with its symbol and field ids looked up once, at start-up,
// after checking that the grammar's ABI version is one the linked runtime accepts.
//
// Ownership: a Tree owns its TSTree and must outlive every TSNode taken from it. A
// TreeCursor owns the cursor's heap stack; it walks the tree it was made from. A TSNode is a
// plain value and owns nothing.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_TREESITTER_H
#define AG_FRONTEND_TREESITTER_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <tree_sitter/api.h>

#include <cstdint>
#include <vector>

extern "C" const TSLanguage *tree_sitter_python(void);

namespace ag::ts {

/// The node kinds of tree-sitter-python that agc reads. `Other` is any kind it does not
/// know; the AST builder reports those as unsupported constructs by their grammar name.
enum class Sym : uint8_t {
  Other,
  // Statements and their parts.
  Module, Block, ImportStatement, ImportFromStatement, FutureImportStatement, AliasedImport,
  DottedName, RelativeImport, ImportPrefix, WildcardImport, ExpressionStatement, Assignment,
  AugmentedAssignment, IfStatement, ElifClause, ElseClause, WhileStatement, ForStatement,
  BreakStatement, ContinueStatement, ReturnStatement, PassStatement, AssertStatement,
  DeleteStatement, GlobalStatement, NonlocalStatement, FunctionDefinition,
  DecoratedDefinition, Decorator, Parameters, DefaultParameter, TypedParameter,
  TypedDefaultParameter, KeywordSeparator, PositionalSeparator, ListSplatPattern,
  DictionarySplatPattern, Type, PatternList, TuplePattern, ListPattern, ClassDefinition,
  // Expressions.
  Identifier, Integer, Float, String, ConcatenatedString, StringStart, StringContent,
  StringEnd, EscapeSequence, Interpolation, True, False, None, Ellipsis, UnaryOperator,
  BinaryOperator, BooleanOperator, NotOperator, ComparisonOperator, Call, ArgumentList,
  KeywordArgument, Attribute, Subscript, Slice, Tuple, List, Dictionary, Pair,
  ExpressionList, ParenthesizedExpression, ConditionalExpression, ListSplat,
  DictionarySplat, Lambda, LambdaParameters, ListComprehension, DictionaryComprehension,
  GeneratorExpression, Set, SetComprehension, ForInClause, IfClause, WithStatement, WithClause, WithItem, AsPattern,
  AsPatternTarget, RaiseStatement, TryStatement, ExceptClause, FinallyClause,
  // Extras.
  Comment, LineContinuation,
};

/// tree-sitter-python, with ids looked up once. Thread-safe after construction.
class PythonGrammar {
public:
  /// The grammar, checked against the runtime's ABI range on first use. Fails with a
  /// message naming both versions when the runtime cannot load it.
  static llvm::Expected<const PythonGrammar &> get();

  const TSLanguage *getLanguage() const { return language; }
  uint32_t getAbiVersion() const { return ts_language_version(language); }

  /// The kind of `node`, by its (possibly aliased) symbol.
  Sym kind(TSNode node) const {
    TSSymbol s = ts_node_symbol(node);
    return s < symbols.size() ? symbols[s] : Sym::Other;
  }

  struct Fields {
    TSFieldId alias, alternative, argument, arguments, attribute, body, condition,
        consequence, definition, expression, formatSpecifier, function, key, left, moduleName,
        name, object, operator_, typeConversion,
        operators, parameters, returnType, right, subscript, superclasses, type, value;
  };
  const Fields &fields() const { return fieldIds; }

private:
  PythonGrammar();
  const TSLanguage *language;
  std::vector<Sym> symbols; ///< Indexed by TSSymbol.
  Fields fieldIds;
};

/// Owns a TSTree.
class Tree {
public:
  explicit Tree(TSTree *tree) : tree(tree) {}
  Tree(Tree &&other) noexcept : tree(other.tree) { other.tree = nullptr; }
  Tree &operator=(Tree &&other) noexcept;
  Tree(const Tree &) = delete;
  Tree &operator=(const Tree &) = delete;
  ~Tree();

  TSNode root() const { return ts_tree_root_node(tree); }

private:
  TSTree *tree;
};

/// Owns a TSParser set to Python.
class Parser {
public:
  explicit Parser(const PythonGrammar &grammar);
  Parser(Parser &&other) noexcept : parser(other.parser) { other.parser = nullptr; }
  Parser &operator=(Parser &&other) noexcept;
  Parser(const Parser &) = delete;
  Parser &operator=(const Parser &) = delete;
  ~Parser();

  /// Parses `text`. Gives up after `timeoutMicros` (0: never) and returns an error then.
  llvm::Expected<Tree> parse(llvm::StringRef text, uint64_t timeoutMicros = 0);

private:
  TSParser *parser;
};

/// Owns a TSTreeCursor: walks a tree in order, with field ids, in time linear in the
/// number of nodes visited. reset() moves it to another node and keeps its allocation.
class TreeCursor {
public:
  explicit TreeCursor(TSNode node) : cursor(ts_tree_cursor_new(node)) {}
  TreeCursor(TreeCursor &&other) noexcept;
  TreeCursor &operator=(TreeCursor &&) = delete;
  TreeCursor(const TreeCursor &) = delete;
  TreeCursor &operator=(const TreeCursor &) = delete;
  ~TreeCursor();

  void reset(TSNode node) { ts_tree_cursor_reset(&cursor, node); }
  bool gotoFirstChild() { return ts_tree_cursor_goto_first_child(&cursor); }
  /// False at the node the cursor was made or reset with.
  bool gotoParent() { return ts_tree_cursor_goto_parent(&cursor); }
  bool gotoNextSibling() { return ts_tree_cursor_goto_next_sibling(&cursor); }
  TSNode node() const { return ts_tree_cursor_current_node(&cursor); }
  TSFieldId fieldId() const { return ts_tree_cursor_current_field_id(&cursor); }

private:
  TSTreeCursor cursor;
  bool owned = true;
};

/// One child of a node, as a TreeCursor reports it.
struct Child {
  TSNode node;
  TSFieldId field;
};

using ChildList = llvm::SmallVector<Child, 8>;

/// All children of `node` (named and anonymous, extras included), in order. Walks with
/// `cursor`, which it resets to `node`: one cursor serves a whole traversal.
ChildList children(TreeCursor &cursor, TSNode node);

} // namespace ag::ts

#endif // AG_FRONTEND_TREESITTER_H
