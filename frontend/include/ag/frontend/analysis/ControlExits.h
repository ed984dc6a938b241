//===- ControlExits.h - AutoGraph's lowering of break, continue and return ----===//
//
// Under a staged condition, `break`, `continue` and `return` cannot jump: AutoGraph
// turns each into a flag, the staged loop's test reads `not break`, and the statements
// after one that may set a flag run under a guard, `if not (flags)`; a return's value
// waits in a slot until the function ends. This file is the one description of that
// lowering, which both of its consumers follow: the Tracer, which emits the flags as IR
// (TracerStmts.cpp sets them, TracerConditionals.cpp guards, TracerLoops.cpp tests), and
// to-code, which prints them as Python (ToCode.cpp). It says
//   - what the flags and slots are called: names no Python name can take (they hold a
//     '#'), kept among the traced function's names, and how to-code spells them;
//   - which exits a loop's body holds for that loop (a nested loop's are its own);
//   - which of them a statement may take (so what follows it is guarded);
//   - whether a statement list returns on every path.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_ANALYSIS_CONTROLEXITS_H
#define AG_FRONTEND_ANALYSIS_CONTROLEXITS_H

#include "ag/frontend/AST.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace ag::analysis {

enum class ExitKind : uint8_t { Break, Continue, Return };

/// The flag of exit `kind`: a bool that is true once the exit is taken. A break or
/// continue flag belongs to the loop with `loopDepth` loops around it in its function
/// (0 for an outermost loop); there is one return flag per function.
std::string exitFlag(ExitKind kind, unsigned loopDepth = 0);
/// The slot that holds the value a function returns under a staged condition.
std::string returnSlot();
/// The index a staged `for` counts its passes with, for the loop at `loopDepth`.
std::string loopIndexSlot(unsigned loopDepth);

/// The flag a staged loop sets at the end of its body where it starts a name it binds as
/// zeros (the name was unbound before it): whether the loop ran, checked after it.
std::string loopRanSlot(unsigned loopDepth);

/// Whether `name` is one of the above (a flag or a slot): never a Python name.
bool isExitName(llvm::StringRef name);
/// Whether `name` is a flag (a bool a guard tests), not a slot.
bool isExitFlag(llvm::StringRef name);
/// Whether `name` is a loop's index slot.
bool isLoopIndexSlot(llvm::StringRef name);

/// How to-code spells a break (`kind` Break) or continue flag in Python, as AutoGraph
/// names it (`break_`, `continue_`), tagged with `line`, the line of the loop it belongs
/// to; `taken` says which names the function already uses, and the spelling grows an
/// underscore until it is free. (to-code prints no return flag: see ToCode.cpp.)
std::string spellExitFlag(ExitKind kind, unsigned line,
                          llvm::function_ref<bool(llvm::StringRef)> taken);

/// The exits a loop's body takes for that loop: its break and continue statements,
/// under ifs at any depth, not those of loops nested in it (nor of nested functions).
struct LoopExits {
  bool breaks = false;
  bool continues = false;
};
LoopExits loopExits(const ast::StmtList &body);
/// The exits of the enclosing loop that `stmt`, a statement of its body, may take:
/// what follows `stmt` in a staged loop runs guarded when this is not empty.
LoopExits exitsTakenBy(const ast::Stmt &stmt);

/// Whether every path through `stmts` ends in a return (so nothing after them runs).
bool alwaysReturns(const ast::StmtList &stmts);

} // namespace ag::analysis

#endif // AG_FRONTEND_ANALYSIS_CONTROLEXITS_H
