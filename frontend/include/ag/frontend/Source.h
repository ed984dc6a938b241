//===- Source.h - Loading a Python source file ---------------------------===//
//
// A SourceFile is one Python file whose bytes are held by an llvm::SourceMgr (so that
// diagnostics can quote its lines) and checked before anything parses them: it must be
// readable, at most kMaxSourceBytes long, valid UTF-8 and free of NUL bytes, as CPython
// requires. A failed check is a located diagnostic, never a crash.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_SOURCE_H
#define AG_FRONTEND_SOURCE_H

#include "ag/frontend/Diagnostics.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace ag {

struct SourceFile {
  llvm::StringRef name; ///< As given by the user; owned by the SourceMgr buffer.
  llvm::StringRef text; ///< The whole file; owned by the SourceMgr buffer.
  unsigned bufferId = 0;

  /// The location of the byte range [begin, end) of `text`, computing lines and columns
  /// by scanning; for diagnostics that do not come from a parse tree.
  Location locationOf(uint32_t begin, uint32_t end) const;
};

/// Largest file agc reads. tree-sitter addresses bytes with 32 bits; this leaves room.
constexpr uint64_t kMaxSourceBytes = 256u << 20;

/// Reads `path` ("-" for standard input) into `diag`'s SourceMgr and checks it. Returns
/// nothing after reporting through `diag` when the file cannot be used.
std::optional<SourceFile> loadSourceFile(llvm::StringRef path, DiagnosticEngine &diag);

/// Adds `text` as a buffer named `name` and checks it, as loadSourceFile does; for tests
/// and for sources that do not come from a file.
std::optional<SourceFile> addSourceBuffer(llvm::StringRef name, llvm::StringRef text,
                                          DiagnosticEngine &diag);

} // namespace ag

#endif // AG_FRONTEND_SOURCE_H
