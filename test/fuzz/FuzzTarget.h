//===- FuzzTarget.h - What agc's fuzz targets share ------------------------===//
//
// Each fuzz target is one LLVMFuzzerTestOneInput over a Python source: the bytes go
// through one prefix of agc's pipeline, with diagnostics written nowhere. A target
// passes when it returns: no crash, no sanitizer report, no hang (libFuzzer's -timeout).
// Built with clang's -fsanitize=fuzzer by tools/fuzz.sh (meson -Dfuzz=true), and
// otherwise with StandaloneMain.cpp, which replays files (the seed corpus, in the tests).
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_TEST_FUZZ_FUZZTARGET_H
#define AG_TEST_FUZZ_FUZZTARGET_H

#include "ag/frontend/Diagnostics.h"
#include "ag/frontend/Parser.h"
#include "ag/frontend/Source.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace ag::fuzz {

/// Parses `data` as the file "fuzz.py" and calls `then(module, diag)` when it parses.
template <typename Then>
int withModule(const uint8_t *data, size_t size, Then then) {
  llvm::SourceMgr sourceMgr;
  DiagnosticEngine diag(sourceMgr, llvm::nulls());
  diag.setErrorLimit(0);
  std::optional<SourceFile> source =
      addSourceBuffer("fuzz.py", llvm::StringRef(reinterpret_cast<const char *>(data), size), diag);
  if (!source)
    return 0;
  std::unique_ptr<ast::Module> module = parseModule(*source, diag);
  if (module)
    then(*module, diag);
  return 0;
}

} // namespace ag::fuzz

#endif // AG_TEST_FUZZ_FUZZTARGET_H
