//===- Run.h - agc run: compile one function, load it, call it, print JSON --===//
#ifndef AGC_TOOLS_AGC_RUN_H
#define AGC_TOOLS_AGC_RUN_H

#include "ag/driver/Target.h"

#include "llvm/ADT/StringRef.h"

namespace ag {

/// agc run TARGET --args ARGS --kwargs KWARGS; returns the exit status (DESIGN.md §4).
/// `target` must generate code for this machine (the CPU, --mcpu=native by default).
/// `runtimeChecks`: see analysis::ArgumentSpec. `scalarEntry`: call the function's
/// scalar entry point (PREFIX_f_scalar, values in and out) where it has one.
int runFunction(llvm::StringRef fileFunction, llvm::StringRef args, llvm::StringRef kwargs,
                unsigned errorLimit, const driver::Target &target, bool runtimeChecks = true,
                std::vector<std::string> importDirs = {}, bool scalarEntry = false);

} // namespace ag

#endif // AGC_TOOLS_AGC_RUN_H
