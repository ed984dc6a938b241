//===- AST.h - The Python AST agc works on --------------------------------===//
//
// A small AST for the subset of Python that TensorFlow users write in functions, shaped
// like CPython's `ast` module (so that AutoGraph's rules carry over): a Module holds
// statements; statements hold expressions and nested statement lists. Every node carries
// its Location. Nodes own their children through unique_ptr; the tree is immutable once
// built, and analyses attach their results in side tables keyed by node address.
//
// Two class hierarchies with LLVM-style RTTI (isa<>, cast<>, dyn_cast<>): Expr and Stmt,
// each with a Kind enumerator per concrete class.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_AST_H
#define AG_FRONTEND_AST_H

#include "ag/frontend/Diagnostics.h"
#include "ag/frontend/Location.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ag::ast {

//===----------------------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------------------===//

class Expr {
public:
  enum class Kind : uint8_t {
    Name, IntLit, FloatLit, StrLit, BoolLit, NoneLit, EllipsisLit, Unary, Binary, BoolOp,
    Compare, Call, Attribute, Subscript, Slice, Tuple, List, Dict, IfExp, Lambda, ListComp,
    DictComp, GeneratorExp, Starred, JoinedStr, Set, SetComp,
  };
  virtual ~Expr() = default;
  Kind getKind() const { return kind; }
  const Location &loc() const { return location; }

protected:
  Expr(Kind kind, Location loc) : kind(kind), location(loc) {}

private:
  const Kind kind;
  Location location;
};

using ExprPtr = std::unique_ptr<Expr>;
using ExprList = std::vector<ExprPtr>;

/// A name: `x`, `tf`.
class NameExpr : public Expr {
public:
  NameExpr(Location loc, std::string id) : Expr(Kind::Name, loc), id(std::move(id)) {}
  llvm::StringRef getId() const { return id; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Name; }

private:
  std::string id;
};

/// An integer literal. Python ints are unbounded; `value` is empty when the literal does
/// not fit in 64 signed bits, and the spelling is always kept.
class IntLitExpr : public Expr {
public:
  IntLitExpr(Location loc, std::string spelling, std::optional<int64_t> value)
      : Expr(Kind::IntLit, loc), spelling(std::move(spelling)), value(value) {}
  llvm::StringRef getSpelling() const { return spelling; }
  std::optional<int64_t> getValue() const { return value; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::IntLit; }

private:
  std::string spelling;
  std::optional<int64_t> value;
};

class FloatLitExpr : public Expr {
public:
  FloatLitExpr(Location loc, std::string spelling, double value)
      : Expr(Kind::FloatLit, loc), spelling(std::move(spelling)), value(value) {}
  llvm::StringRef getSpelling() const { return spelling; }
  double getValue() const { return value; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::FloatLit; }

private:
  std::string spelling;
  double value;
};

/// A string literal, escapes decoded and adjacent literals joined (`'a' 'b'` is "ab").
class StrLitExpr : public Expr {
public:
  StrLitExpr(Location loc, std::string value) : Expr(Kind::StrLit, loc), value(std::move(value)) {}
  llvm::StringRef getValue() const { return value; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::StrLit; }

private:
  std::string value;
};

/// One part of an f-string: literal text, or a replacement field `{value!conversion:spec}`.
struct FStringPart {
  std::string literal; ///< When value is null.
  ExprPtr value;
  char conversion = 0; ///< 'r', 's', 'a' or 0.
  std::string spec;    ///< The format spec, without its ':' (literal text only).
};

/// `f"a{b!r:>8}c"`, and implicit concatenations that hold one.
class JoinedStrExpr : public Expr {
public:
  JoinedStrExpr(Location loc, std::vector<FStringPart> parts)
      : Expr(Kind::JoinedStr, loc), parts(std::move(parts)) {}
  const std::vector<FStringPart> &getParts() const { return parts; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::JoinedStr; }

private:
  std::vector<FStringPart> parts;
};

class BoolLitExpr : public Expr {
public:
  BoolLitExpr(Location loc, bool value) : Expr(Kind::BoolLit, loc), value(value) {}
  bool getValue() const { return value; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::BoolLit; }

private:
  bool value;
};

class NoneLitExpr : public Expr {
public:
  explicit NoneLitExpr(Location loc) : Expr(Kind::NoneLit, loc) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::NoneLit; }
};

/// `...`, as in `x[..., 0]`.
class EllipsisLitExpr : public Expr {
public:
  explicit EllipsisLitExpr(Location loc) : Expr(Kind::EllipsisLit, loc) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::EllipsisLit; }
};

enum class UnaryOp : uint8_t { Plus, Minus, Not, Invert };
llvm::StringRef spelling(UnaryOp op);

class UnaryExpr : public Expr {
public:
  UnaryExpr(Location loc, UnaryOp op, ExprPtr operand)
      : Expr(Kind::Unary, loc), op(op), operand(std::move(operand)) {}
  UnaryOp getOp() const { return op; }
  const Expr &getOperand() const { return *operand; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Unary; }

private:
  UnaryOp op;
  ExprPtr operand;
};

enum class BinaryOp : uint8_t {
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, BitAnd, BitOr, BitXor, LShift, RShift,
};
llvm::StringRef spelling(BinaryOp op);

class BinaryExpr : public Expr {
public:
  BinaryExpr(Location loc, BinaryOp op, ExprPtr lhs, ExprPtr rhs)
      : Expr(Kind::Binary, loc), op(op), lhs(std::move(lhs)), rhs(std::move(rhs)) {}
  BinaryOp getOp() const { return op; }
  const Expr &getLHS() const { return *lhs; }
  const Expr &getRHS() const { return *rhs; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Binary; }

private:
  BinaryOp op;
  ExprPtr lhs, rhs;
};

enum class BoolOpKind : uint8_t { And, Or };
llvm::StringRef spelling(BoolOpKind op);

/// `a and b and c`: one node with every operand, as CPython's ast.BoolOp.
class BoolOpExpr : public Expr {
public:
  BoolOpExpr(Location loc, BoolOpKind op, ExprList values)
      : Expr(Kind::BoolOp, loc), op(op), values(std::move(values)) {}
  BoolOpKind getOp() const { return op; }
  const ExprList &getValues() const { return values; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::BoolOp; }

private:
  BoolOpKind op;
  ExprList values;
};

enum class CmpOp : uint8_t { Lt, LtE, Gt, GtE, Eq, NotEq, In, NotIn, Is, IsNot };
llvm::StringRef spelling(CmpOp op);

/// `a < b <= c`: left `a`, ops [<, <=], comparators [b, c].
class CompareExpr : public Expr {
public:
  CompareExpr(Location loc, ExprPtr left, std::vector<CmpOp> ops, ExprList comparators)
      : Expr(Kind::Compare, loc), left(std::move(left)), ops(std::move(ops)),
        comparators(std::move(comparators)) {}
  const Expr &getLeft() const { return *left; }
  llvm::ArrayRef<CmpOp> getOps() const { return ops; }
  const ExprList &getComparators() const { return comparators; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Compare; }

private:
  ExprPtr left;
  std::vector<CmpOp> ops;
  ExprList comparators;
};

/// `name=value` in a call; `**value` has an empty name (CPython's keyword(arg=None)).
struct Keyword {
  Location loc;
  std::string name;
  ExprPtr value;
};

class CallExpr : public Expr {
public:
  CallExpr(Location loc, ExprPtr callee, ExprList args, std::vector<Keyword> keywords)
      : Expr(Kind::Call, loc), callee(std::move(callee)), args(std::move(args)),
        keywords(std::move(keywords)) {}
  const Expr &getCallee() const { return *callee; }
  const ExprList &getArgs() const { return args; }
  const std::vector<Keyword> &getKeywords() const { return keywords; }
  /// The keyword argument called `name`, or null.
  const Keyword *findKeyword(llvm::StringRef name) const;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }

private:
  ExprPtr callee;
  ExprList args;
  std::vector<Keyword> keywords;
};

/// `value.attr`.
class AttributeExpr : public Expr {
public:
  AttributeExpr(Location loc, ExprPtr value, std::string attr, Location attrLoc)
      : Expr(Kind::Attribute, loc), value(std::move(value)), attr(std::move(attr)),
        attrLoc(attrLoc) {}
  const Expr &getValue() const { return *value; }
  llvm::StringRef getAttr() const { return attr; }
  const Location &getAttrLoc() const { return attrLoc; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Attribute; }

private:
  ExprPtr value;
  std::string attr;
  Location attrLoc;
};

/// `value[index]`; several indices make `index` a TupleExpr, as in CPython.
class SubscriptExpr : public Expr {
public:
  SubscriptExpr(Location loc, ExprPtr value, ExprPtr index)
      : Expr(Kind::Subscript, loc), value(std::move(value)), index(std::move(index)) {}
  const Expr &getValue() const { return *value; }
  const Expr &getIndex() const { return *index; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Subscript; }

private:
  ExprPtr value, index;
};

/// `lower:upper:step` inside a subscript; each part may be absent.
class SliceExpr : public Expr {
public:
  SliceExpr(Location loc, ExprPtr lower, ExprPtr upper, ExprPtr step)
      : Expr(Kind::Slice, loc), lower(std::move(lower)), upper(std::move(upper)),
        step(std::move(step)) {}
  const Expr *getLower() const { return lower.get(); }
  const Expr *getUpper() const { return upper.get(); }
  const Expr *getStep() const { return step.get(); }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Slice; }

private:
  ExprPtr lower, upper, step;
};

/// A tuple, list or set display; `(a, b)`, `a, b`, `[a, b]`, `{a, b}`.
class SequenceExpr : public Expr {
public:
  const ExprList &getElements() const { return elements; }
  static bool classof(const Expr *e) {
    return e->getKind() == Kind::Tuple || e->getKind() == Kind::List ||
           e->getKind() == Kind::Set;
  }

protected:
  SequenceExpr(Kind kind, Location loc, ExprList elements)
      : Expr(kind, loc), elements(std::move(elements)) {}

private:
  ExprList elements;
};

class TupleExpr : public SequenceExpr {
public:
  TupleExpr(Location loc, ExprList elements)
      : SequenceExpr(Kind::Tuple, loc, std::move(elements)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Tuple; }
};

class ListExpr : public SequenceExpr {
public:
  ListExpr(Location loc, ExprList elements)
      : SequenceExpr(Kind::List, loc, std::move(elements)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::List; }
};

class SetExpr : public SequenceExpr {
public:
  SetExpr(Location loc, ExprList elements)
      : SequenceExpr(Kind::Set, loc, std::move(elements)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Set; }
};

/// `{k: v, ...}`.
class DictExpr : public Expr {
public:
  DictExpr(Location loc, ExprList keys, ExprList values)
      : Expr(Kind::Dict, loc), keys(std::move(keys)), values(std::move(values)) {}
  /// The keys; null where the item is `**value`.
  const ExprList &getKeys() const { return keys; }
  const ExprList &getValues() const { return values; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Dict; }

private:
  ExprList keys, values;
};

/// `body if test else orelse`.
class IfExpExpr : public Expr {
public:
  IfExpExpr(Location loc, ExprPtr test, ExprPtr body, ExprPtr orelse)
      : Expr(Kind::IfExp, loc), test(std::move(test)), body(std::move(body)),
        orelse(std::move(orelse)) {}
  const Expr &getTest() const { return *test; }
  const Expr &getBody() const { return *body; }
  const Expr &getOrElse() const { return *orelse; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::IfExp; }

private:
  ExprPtr test, body, orelse;
};

/// `*value`: unpacked into a call's arguments or a list or tuple display.
class StarredExpr : public Expr {
public:
  StarredExpr(Location loc, ExprPtr value) : Expr(Kind::Starred, loc), value(std::move(value)) {}
  const Expr &getValue() const { return *value; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Starred; }

private:
  ExprPtr value;
};

class FunctionDefStmt;

/// `lambda params: body`. It holds the function it defines, as a `def` named `<lambda>`
/// whose body returns `body`, so that calls treat both alike.
class LambdaExpr : public Expr {
public:
  LambdaExpr(Location loc, std::unique_ptr<FunctionDefStmt> def);
  ~LambdaExpr() override;
  const FunctionDefStmt &getDef() const { return *def; }
  /// The expression the lambda returns.
  const Expr &getBody() const;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Lambda; }

private:
  std::unique_ptr<FunctionDefStmt> def;
};

/// One `for target in iter if cond ...` of a comprehension.
struct Comprehension {
  ExprPtr target;
  ExprPtr iter;
  ExprList ifs;
};

/// `[elt for ...]`, `(elt for ...)`, `{key: value for ...}`.
class ComprehensionExpr : public Expr {
public:
  ComprehensionExpr(Kind kind, Location loc, ExprPtr element, ExprPtr value,
                    std::vector<Comprehension> generators)
      : Expr(kind, loc), element(std::move(element)), value(std::move(value)),
        generators(std::move(generators)) {}
  /// The element; a dict comprehension's key.
  const Expr &getElement() const { return *element; }
  /// A dict comprehension's value; null otherwise.
  const Expr *getValue() const { return value.get(); }
  const std::vector<Comprehension> &getGenerators() const { return generators; }
  static bool classof(const Expr *e) {
    return e->getKind() == Kind::ListComp || e->getKind() == Kind::DictComp ||
           e->getKind() == Kind::GeneratorExp || e->getKind() == Kind::SetComp;
  }

private:
  ExprPtr element, value;
  std::vector<Comprehension> generators;
};

//===----------------------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------------------===//

class Stmt {
public:
  enum class Kind : uint8_t {
    Import, ImportFrom, Assign, AugAssign, AnnAssign, ExprStmt, If, While, For, Break,
    Continue, Return, Pass, Assert, Delete, Global, Nonlocal, FunctionDef, ClassDef, With, Raise, Try,
    Unsupported,
  };
  virtual ~Stmt() = default;
  Kind getKind() const { return kind; }
  const Location &loc() const { return location; }

protected:
  Stmt(Kind kind, Location loc) : kind(kind), location(loc) {}

private:
  const Kind kind;
  Location location;
};

using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

/// A name with its own location: a `global` name, an import alias part.
struct Identifier {
  Location loc;
  std::string name;
};

/// `import a.b as c`: name "a.b", asname "c" (empty when absent).
struct ImportAlias {
  Location loc;
  std::string name;
  std::string asname;
};

/// `import tensorflow as tf, numpy`.
class ImportStmt : public Stmt {
public:
  ImportStmt(Location loc, std::vector<ImportAlias> names)
      : Stmt(Kind::Import, loc), names(std::move(names)) {}
  const std::vector<ImportAlias> &getNames() const { return names; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Import; }

private:
  std::vector<ImportAlias> names;
};

/// `from ..a.b import c as d`: module "a.b", level 2.
class ImportFromStmt : public Stmt {
public:
  ImportFromStmt(Location loc, std::string module, unsigned level,
                 std::vector<ImportAlias> names)
      : Stmt(Kind::ImportFrom, loc), module(std::move(module)), level(level),
        names(std::move(names)) {}
  llvm::StringRef getModule() const { return module; }
  unsigned getLevel() const { return level; }
  const std::vector<ImportAlias> &getNames() const { return names; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::ImportFrom; }

private:
  std::string module;
  unsigned level;
  std::vector<ImportAlias> names;
};

/// `a = b = value`: targets [a, b]. A target is a Name, Attribute, Subscript, or a
/// Tuple/List of targets.
class AssignStmt : public Stmt {
public:
  AssignStmt(Location loc, ExprList targets, ExprPtr value)
      : Stmt(Kind::Assign, loc), targets(std::move(targets)), value(std::move(value)) {}
  const ExprList &getTargets() const { return targets; }
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assign; }

private:
  ExprList targets;
  ExprPtr value;
};

/// `target op= value`.
class AugAssignStmt : public Stmt {
public:
  AugAssignStmt(Location loc, ExprPtr target, BinaryOp op, ExprPtr value)
      : Stmt(Kind::AugAssign, loc), target(std::move(target)), op(op),
        value(std::move(value)) {}
  const Expr &getTarget() const { return *target; }
  BinaryOp getOp() const { return op; }
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::AugAssign; }

private:
  ExprPtr target;
  BinaryOp op;
  ExprPtr value;
};

/// `target: annotation = value` (value optional).
class AnnAssignStmt : public Stmt {
public:
  AnnAssignStmt(Location loc, ExprPtr target, ExprPtr annotation, ExprPtr value)
      : Stmt(Kind::AnnAssign, loc), target(std::move(target)),
        annotation(std::move(annotation)), value(std::move(value)) {}
  const Expr &getTarget() const { return *target; }
  const Expr &getAnnotation() const { return *annotation; }
  const Expr *getValue() const { return value.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::AnnAssign; }

private:
  ExprPtr target, annotation, value;
};

/// An expression evaluated for its effect: `tf.print(x)`, `v.assign(1)`.
class ExprStmt : public Stmt {
public:
  ExprStmt(Location loc, ExprPtr value) : Stmt(Kind::ExprStmt, loc), value(std::move(value)) {}
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::ExprStmt; }

private:
  ExprPtr value;
};

/// `if test: body else: orelse`. An `elif` is an IfStmt alone in its parent's orelse,
/// marked isElif() so that printers can write it back as `elif`.
class IfStmt : public Stmt {
public:
  IfStmt(Location loc, ExprPtr test, StmtList body, StmtList orelse, bool elif)
      : Stmt(Kind::If, loc), test(std::move(test)), body(std::move(body)),
        orelse(std::move(orelse)), elif(elif) {}
  const Expr &getTest() const { return *test; }
  const StmtList &getBody() const { return body; }
  const StmtList &getOrElse() const { return orelse; }
  bool isElif() const { return elif; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::If; }

private:
  ExprPtr test;
  StmtList body, orelse;
  bool elif;
};

/// `while test: body else: orelse`.
class WhileStmt : public Stmt {
public:
  WhileStmt(Location loc, ExprPtr test, StmtList body, StmtList orelse)
      : Stmt(Kind::While, loc), test(std::move(test)), body(std::move(body)),
        orelse(std::move(orelse)) {}
  const Expr &getTest() const { return *test; }
  const StmtList &getBody() const { return body; }
  const StmtList &getOrElse() const { return orelse; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::While; }

private:
  ExprPtr test;
  StmtList body, orelse;
};

/// `for target in iter: body else: orelse`.
class ForStmt : public Stmt {
public:
  ForStmt(Location loc, ExprPtr target, ExprPtr iter, StmtList body, StmtList orelse)
      : Stmt(Kind::For, loc), target(std::move(target)), iter(std::move(iter)),
        body(std::move(body)), orelse(std::move(orelse)) {}
  const Expr &getTarget() const { return *target; }
  const Expr &getIter() const { return *iter; }
  const StmtList &getBody() const { return body; }
  const StmtList &getOrElse() const { return orelse; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::For; }

private:
  ExprPtr target, iter;
  StmtList body, orelse;
};

/// One `context as target` of a with statement (target may be null).
struct WithItem {
  ExprPtr context;
  ExprPtr target;
};

/// `with a as x, b: body`.
class WithStmt : public Stmt {
public:
  WithStmt(Location loc, std::vector<WithItem> items, StmtList body)
      : Stmt(Kind::With, loc), items(std::move(items)), body(std::move(body)) {}
  const std::vector<WithItem> &getItems() const { return items; }
  const StmtList &getBody() const { return body; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::With; }

private:
  std::vector<WithItem> items;
  StmtList body;
};

/// `raise exc from cause` (both optional).
class RaiseStmt : public Stmt {
public:
  RaiseStmt(Location loc, ExprPtr exc, ExprPtr cause)
      : Stmt(Kind::Raise, loc), exc(std::move(exc)), cause(std::move(cause)) {}
  const Expr *getExc() const { return exc.get(); }
  const Expr *getCause() const { return cause.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Raise; }

private:
  ExprPtr exc, cause;
};

/// `except type as name: body` (type and name optional).
struct ExceptHandler {
  Location loc;
  ExprPtr type;
  std::string name;
  StmtList body;
};

/// `try: body except ...: ... else: orelse finally: finalbody`.
class TryStmt : public Stmt {
public:
  TryStmt(Location loc, StmtList body, std::vector<ExceptHandler> handlers, StmtList orelse,
          StmtList finalbody)
      : Stmt(Kind::Try, loc), body(std::move(body)), handlers(std::move(handlers)),
        orelse(std::move(orelse)), finalbody(std::move(finalbody)) {}
  const StmtList &getBody() const { return body; }
  const std::vector<ExceptHandler> &getHandlers() const { return handlers; }
  const StmtList &getOrElse() const { return orelse; }
  const StmtList &getFinalBody() const { return finalbody; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Try; }

private:
  StmtList body;
  std::vector<ExceptHandler> handlers;
  StmtList orelse, finalbody;
};

class BreakStmt : public Stmt {
public:
  explicit BreakStmt(Location loc) : Stmt(Kind::Break, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Break; }
};

class ContinueStmt : public Stmt {
public:
  explicit ContinueStmt(Location loc) : Stmt(Kind::Continue, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Continue; }
};

class PassStmt : public Stmt {
public:
  explicit PassStmt(Location loc) : Stmt(Kind::Pass, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Pass; }
};

/// `return` or `return value` (`return a, b` returns a TupleExpr).
class ReturnStmt : public Stmt {
public:
  ReturnStmt(Location loc, ExprPtr value) : Stmt(Kind::Return, loc), value(std::move(value)) {}
  const Expr *getValue() const { return value.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Return; }

private:
  ExprPtr value;
};

/// `assert test, msg` (msg optional).
class AssertStmt : public Stmt {
public:
  AssertStmt(Location loc, ExprPtr test, ExprPtr msg)
      : Stmt(Kind::Assert, loc), test(std::move(test)), msg(std::move(msg)) {}
  const Expr &getTest() const { return *test; }
  const Expr *getMsg() const { return msg.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assert; }

private:
  ExprPtr test, msg;
};

/// `del a, b[0]`.
class DeleteStmt : public Stmt {
public:
  DeleteStmt(Location loc, ExprList targets) : Stmt(Kind::Delete, loc), targets(std::move(targets)) {}
  const ExprList &getTargets() const { return targets; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Delete; }

private:
  ExprList targets;
};

/// `global a, b` or `nonlocal a, b`.
class ScopeDeclStmt : public Stmt {
public:
  const std::vector<Identifier> &getNames() const { return names; }
  static bool classof(const Stmt *s) {
    return s->getKind() == Kind::Global || s->getKind() == Kind::Nonlocal;
  }

protected:
  ScopeDeclStmt(Kind kind, Location loc, std::vector<Identifier> names)
      : Stmt(kind, loc), names(std::move(names)) {}

private:
  std::vector<Identifier> names;
};

class GlobalStmt : public ScopeDeclStmt {
public:
  GlobalStmt(Location loc, std::vector<Identifier> names)
      : ScopeDeclStmt(Kind::Global, loc, std::move(names)) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Global; }
};

class NonlocalStmt : public ScopeDeclStmt {
public:
  NonlocalStmt(Location loc, std::vector<Identifier> names)
      : ScopeDeclStmt(Kind::Nonlocal, loc, std::move(names)) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Nonlocal; }
};

/// A function parameter: `x`, `x: int`, `x=1`, `x: int = 1`; keyword-only after `*`;
/// `*args` (varArgs) and `**kwargs` (varKeywords), which take what no other parameter
/// does.
struct Param {
  Location loc;
  std::string name;
  ExprPtr annotation; ///< May be null.
  ExprPtr defaultValue; ///< May be null.
  bool keywordOnly = false;
  bool varArgs = false;
  bool varKeywords = false;
  /// A parameter that binds one argument (not *args or **kwargs).
  bool isPlain() const { return !varArgs && !varKeywords; }
};

/// `@decorators def name(params) -> returns: body`.
class FunctionDefStmt : public Stmt {
public:
  FunctionDefStmt(Location loc, std::string name, Location nameLoc, std::vector<Param> params,
                  ExprList decorators, ExprPtr returns, StmtList body, int tfFunction = -1)
      : Stmt(Kind::FunctionDef, loc), name(std::move(name)), nameLoc(nameLoc),
        params(std::move(params)), decorators(std::move(decorators)),
        returns(std::move(returns)), body(std::move(body)), tfFunction(tfFunction) {}
  llvm::StringRef getName() const { return name; }
  const Location &getNameLoc() const { return nameLoc; }
  const std::vector<Param> &getParams() const { return params; }
  /// Every decorator, outermost first (@tf.function among them).
  const ExprList &getDecorators() const { return decorators; }
  /// The @tf.function decorator (which carries input_signature=), or null.
  const Expr *getTfFunction() const {
    return tfFunction < 0 ? nullptr : decorators[tfFunction].get();
  }
  bool isTfFunction() const { return tfFunction >= 0; }
  const Expr *getReturns() const { return returns.get(); }
  const StmtList &getBody() const { return body; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::FunctionDef; }

private:
  std::string name;
  Location nameLoc;
  std::vector<Param> params;
  ExprList decorators;
  ExprPtr returns;
  StmtList body;
  int tfFunction; ///< The index of @tf.function in decorators, or -1.
};

/// `@decorators class name(bases, keywords): body`. Its body runs once, in a namespace of
/// its own, when the statement runs.
class ClassDefStmt : public Stmt {
public:
  ClassDefStmt(Location loc, std::string name, Location nameLoc, ExprList bases,
               std::vector<Keyword> keywords, ExprList decorators, StmtList body)
      : Stmt(Kind::ClassDef, loc), name(std::move(name)), nameLoc(nameLoc),
        bases(std::move(bases)), keywords(std::move(keywords)),
        decorators(std::move(decorators)), body(std::move(body)) {}
  llvm::StringRef getName() const { return name; }
  const Location &getNameLoc() const { return nameLoc; }
  const ExprList &getBases() const { return bases; }
  const std::vector<Keyword> &getKeywords() const { return keywords; }
  const ExprList &getDecorators() const { return decorators; }
  const StmtList &getBody() const { return body; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::ClassDef; }

private:
  std::string name;
  Location nameLoc;
  ExprList bases;
  std::vector<Keyword> keywords;
  ExprList decorators;
  StmtList body;
};

/// A statement agc cannot compile (a `with`, a class, a parameter `*args`, ...), kept so
/// that the file still parses: it is an error only when tracing reaches it, as TensorFlow
/// reports only what it traces. Module-level code binds `binds` (the name of a refused
/// `def` or `class`, the names an assignment targets) to values that are refused where
/// they are used.
class UnsupportedStmt : public Stmt {
public:
  UnsupportedStmt(Location loc, std::vector<StoredDiagnostic> why, std::vector<Identifier> binds,
                  bool tfFunction, std::string source)
      : Stmt(Kind::Unsupported, loc), why(std::move(why)), binds(std::move(binds)),
        tfFunction(tfFunction), source(std::move(source)) {}
  /// The refusals, in source order, each error followed by its notes (at least one).
  const std::vector<StoredDiagnostic> &getWhy() const { return why; }
  const std::vector<Identifier> &getBinds() const { return binds; }
  /// A `def` decorated with tf.function: compiling the whole file compiles it.
  bool isTfFunction() const { return tfFunction; }
  /// The statement as written, for printers (its first line from its first column).
  llvm::StringRef getSource() const { return source; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Unsupported; }

private:
  std::vector<StoredDiagnostic> why;
  std::vector<Identifier> binds;
  bool tfFunction;
  std::string source;
};

//===----------------------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------------------===//

/// A whole source file.
class Module {
public:
  Module(Location loc, StmtList body) : location(loc), body(std::move(body)) {}
  const Location &loc() const { return location; }
  const StmtList &getBody() const { return body; }
  /// The top-level function called `name`, or null.
  const FunctionDefStmt *findFunction(llvm::StringRef name) const;
  /// The top-level class called `name`, or null.
  const ClassDefStmt *findClass(llvm::StringRef name) const;

  /// What `agc compile --function NAME` and `agc run FILE:NAME` name: a top-level function
  /// (`f`), or a method of an instance the file makes at its top level (`model.method`;
  /// `model` alone is its `__call__`), found from the source: `model = Model(...)` with
  /// `Model` a top-level class whose body, or a base's, defines the method.
  struct Entry {
    const FunctionDefStmt *def = nullptr;
    std::string receiver; ///< The instance's name, for a method; empty for a function.
  };
  /// The entry `name` names, or nothing with `why` saying why not.
  std::optional<Entry> findEntry(llvm::StringRef name, std::string &why) const;
  /// The names findEntry takes for the @tf.function methods of the instances the file
  /// makes at its top level (`model` for a decorated `__call__`, `model.method`), in the
  /// order of the instances, then of the methods along the class's bases.
  std::vector<std::string> tfFunctionMethodEntries() const;

private:
  Location location;
  StmtList body;
};

/// The statement lists nested in `stmt` (not in a function it defines), in source order:
/// an if's, while's or for's body and orelse, a with's body, a try's body, handlers,
/// orelse and finalbody. Every walker of nested statements goes through it.
llvm::SmallVector<const StmtList *, 2> nestedBlocks(const Stmt &stmt);

/// The name CPython's `ast` gives each kind ("Name", "BinOp", "FunctionDef", ...).
llvm::StringRef kindName(Expr::Kind kind);
llvm::StringRef kindName(Stmt::Kind kind);

} // namespace ag::ast

#endif // AG_FRONTEND_AST_H
