//===- Location.h - Source locations of the Python frontend ----------------===//
//
// A Location is where an AST node came from: the file, the first and one-past-the-last
// position, each as a 1-based line and column (columns count bytes, as clang's do) and a
// 0-based byte offset into the file's buffer. The offsets are what llvm::SourceMgr needs to
// print a source line with a caret; the line and column are what dumps and diagnostics show.
// The file name is a view into the SourceFile that owns the buffer, which outlives the AST.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_LOCATION_H
#define AG_FRONTEND_LOCATION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace ag {

/// A point in a source file.
struct Position {
  uint32_t line = 0;   ///< 1-based; 0 means unknown.
  uint32_t column = 0; ///< 1-based, in bytes.
  uint32_t offset = 0; ///< 0-based byte offset into the buffer.
};

/// A half-open range [begin, end) in one source file.
struct Location {
  llvm::StringRef file;
  Position begin;
  Position end;

  bool isValid() const { return begin.line != 0; }
};

/// Prints `file:line:col`.
inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const Location &loc) {
  return os << loc.file << ':' << loc.begin.line << ':' << loc.begin.column;
}

} // namespace ag

#endif // AG_FRONTEND_LOCATION_H
