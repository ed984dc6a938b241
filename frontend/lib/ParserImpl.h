//===- ParserImpl.h - The AST builder, shared by the parser's files -------------===//
//
// Private to the frontend library: Parser.cpp (the entry point and the builder's
// helpers), SyntaxErrors.cpp, ParserStmts.cpp and ParserExprs.cpp.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_LIB_PARSERIMPL_H
#define AG_FRONTEND_LIB_PARSERIMPL_H

#include "ag/frontend/Parser.h"
#include "ag/frontend/TreeSitter.h"

#include "llvm/ADT/StringSet.h"

#include <memory>
#include <string>
#include <vector>

namespace ag::ast::parser {

/// The location of `node` in `source`.
Location locationOf(const SourceFile &source, TSNode node);
/// The text of `node`.
llvm::StringRef textOf(const SourceFile &source, TSNode node);
/// Reports the syntax errors of the tree at `root`; returns how many.
unsigned reportSyntaxErrors(const SourceFile &source, TSNode root, DiagnosticEngine &diag);
/// Reports indentation deeper than the grammar can parse; true if it did.
bool reportDeepIndentation(const SourceFile &source, DiagnosticEngine &diag);
/// Decodes the escapes of a string literal's `body` into `out`, as CPython does; false
/// with `bad` the offset of an invalid escape (`named`: a \N{...} escape).
bool decodeEscapes(llvm::StringRef body, std::string &out, size_t &bad, bool &named);

using ts::Sym;

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
  /// Builds `node` into `out`; a statement holding a construct agc cannot compile becomes
  /// an UnsupportedStmt carrying the refusals (reported only if tracing reaches it).
  void buildStmt(TSNode node, StmtList &out);
  void buildStmtInner(TSNode node, StmtList &out);
  /// The names statement `node` binds when it runs at module level, as far as a refused
  /// statement can tell: a def's or a class's name, an assignment's plain targets.
  std::vector<Identifier> boundNames(TSNode node);
  void buildExpressionStatement(TSNode node, StmtList &out);
  StmtPtr buildAssignment(TSNode node);
  StmtPtr buildAugmentedAssignment(TSNode node);
  StmtPtr buildIf(TSNode node);
  /// The body of loop `node` (inside the loop: break and continue allowed) and its else.
  void buildLoopBlocks(TSNode node, StmtList &body, StmtList &orelse);
  StmtPtr buildWhile(TSNode node);
  StmtPtr buildWith(TSNode node);
  StmtPtr buildRaise(TSNode node);
  StmtPtr buildTry(TSNode node);
  /// The statements of a `block` node.
  void buildBlockNode(TSNode block, StmtList &out);
  StmtPtr buildFor(TSNode node);
  StmtPtr buildReturn(TSNode node);
  StmtPtr buildAssert(TSNode node);
  StmtPtr buildDelete(TSNode node);
  StmtPtr buildScopeDecl(TSNode node, bool global);
  StmtPtr buildImport(TSNode node);
  StmtPtr buildImportFrom(TSNode node, bool future);
  StmtPtr buildFunction(TSNode node, ExprList decorators);
  StmtPtr buildClass(TSNode node, ExprList decorators);
  /// The arguments of a call or the bases of a class (an argument_list): false after
  /// reporting.
  bool buildArguments(TSNode argsNode, ExprList &args, std::vector<Keyword> &keywords);
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
  bool appendString(TSNode node, std::vector<FStringPart> &out);
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
  ExprPtr buildLambda(TSNode node);
  ExprPtr buildComprehension(TSNode node);
  /// `*x` in a call or a display.
  ExprPtr buildStarred(TSNode node);

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
  std::nullptr_t unsupported(TSNode node, const llvm::Twine &what, const llvm::Twine &hint = "");
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
  /// Refusals of the statement being built, not reported (see buildStmt).
  std::vector<StoredDiagnostic> deferred;
  /// Set by buildDecorated: the definition carries @tf.function.
  bool decoratedTfFunction = false;
  mutable ts::TreeCursor cursor; ///< Reset for every children() call.
};

} // namespace ag::ast::parser

#endif // AG_FRONTEND_LIB_PARSERIMPL_H
