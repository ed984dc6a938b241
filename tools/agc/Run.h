//===- Run.h - agc run: compile one function, load it, call it, print JSON --===//
#ifndef AGC_TOOLS_AGC_RUN_H
#define AGC_TOOLS_AGC_RUN_H

#include "ag/driver/Target.h"

#include "llvm/ADT/StringRef.h"

namespace ag {

/// agc run TARGET --args ARGS --kwargs KWARGS; returns the exit status (DESIGN.md §4).
/// `target` must generate code for this machine (the CPU, --mcpu=native by default).
/// `runtimeChecks`: see analysis::ArgumentSpec.
int runFunction(llvm::StringRef fileFunction, llvm::StringRef args, llvm::StringRef kwargs,
                unsigned errorLimit, const driver::Target &target, bool runtimeChecks = true,
                std::vector<std::string> importDirs = {});

} // namespace ag

#endif // AGC_TOOLS_AGC_RUN_H
