//===- PythonPrinter.h - AST back to Python source ------------------------===//
//
// Prints AST nodes as Python source: four-space indentation, the fewest parentheses
// Python's precedence allows, literals as written (numbers keep their spelling; strings
// print as Python's repr would). The printer round-trips: parsing its output gives the
// same AST (locations aside).
//
// Subclasses change how some nodes print (to-code prints staged control flow as tf.cond
// and tf.while_loop) by overriding printStmt / printExpr and calling the base class for
// everything else.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_PYTHONPRINTER_H
#define AG_FRONTEND_PYTHONPRINTER_H

#include "ag/frontend/AST.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace ag {

class PythonPrinter {
public:
  explicit PythonPrinter(llvm::raw_ostream &os) : os(os) {}
  virtual ~PythonPrinter() = default;

  /// Prints `expr`, parenthesized when its precedence is below `context`.
  virtual void printExpr(const ast::Expr &expr, unsigned context = 0);
  /// Prints `stmt` at `indent` levels, ending with a newline.
  virtual void printStmt(const ast::Stmt &stmt, unsigned indent);
  /// Prints the statements, or `pass` when there are none.
  void printBlock(const ast::StmtList &stmts, unsigned indent);
  void printModule(const ast::Module &module);

  /// The Python source of `expr` alone.
  static std::string text(const ast::Expr &expr);
  /// Python's repr of a str.
  static std::string quote(llvm::StringRef value);

  /// Python's operator precedence, low to high.
  enum Precedence : unsigned {
    PrecTuple = 0, PrecIfExp, PrecOr, PrecAnd, PrecNot, PrecCompare, PrecBitOr, PrecBitXor,
    PrecBitAnd, PrecShift, PrecAdd, PrecMul, PrecUnary, PrecPow, PrecPrimary, PrecAtom,
  };
  static unsigned precedenceOf(const ast::Expr &expr);

protected:
  llvm::raw_ostream &indent(unsigned levels) { return os.indent(levels * 4); }
  void printTarget(const ast::Expr &target);
  void printCommaList(const ast::ExprList &exprs);
  void printFunction(const ast::FunctionDefStmt &def, unsigned indent);
  /// The body of a with or try statement: printBlock here; to-code converts it as the
  /// statements around it.
  virtual void printBody(const ast::StmtList &stmts, unsigned indent) {
    printBlock(stmts, indent);
  }
  /// A parameter list as written (annotations optional), defaults printed unconverted.
  void printParams(const std::vector<ast::Param> &params, bool annotations);

  llvm::raw_ostream &os;
};

} // namespace ag

#endif // AG_FRONTEND_PYTHONPRINTER_H
