//===- Diagnostics.h - Located errors, warnings and notes -----------------===//
//
// The DiagnosticEngine is how every stage of agc reports a problem with the user's program:
// `FILE:LINE:COL: error: MESSAGE`, then the source line, a caret and, where the location
// spans more than one column on that line, an underline; then any notes, each located the
// same way. Printing goes through llvm::SourceMgr, which owns the source buffers.
//
// Library code reports here and returns failure; it never exits. After `errorLimit` errors
// the engine prints one "too many errors" line and swallows the rest, so that a file full of
// garbage gives a readable report.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_DIAGNOSTICS_H
#define AG_FRONTEND_DIAGNOSTICS_H

#include "ag/frontend/Location.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace ag {

enum class Severity { Error, Warning, Note };

/// A diagnostic kept to be reported later, or never: a refusal that matters only if the
/// code holding it is traced.
struct StoredDiagnostic {
  Severity severity;
  Location loc;
  std::string message;
};

class DiagnosticEngine {
public:
  using Severity = ag::Severity;

  /// Reports through `sourceMgr`, which must hold the buffers the locations point into,
  /// to `os`.
  DiagnosticEngine(llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os = llvm::errs())
      : sourceMgr(sourceMgr), os(os) {}

  void error(const Location &loc, const llvm::Twine &message) {
    report(Severity::Error, loc, message);
  }
  void warning(const Location &loc, const llvm::Twine &message) {
    report(Severity::Warning, loc, message);
  }
  /// A note is attached to the diagnostic before it; it is dropped when that one was.
  void note(const Location &loc, const llvm::Twine &message) {
    report(Severity::Note, loc, message);
  }
  /// An error that belongs to no position in a file (an unreadable file, say).
  void error(const llvm::Twine &message);
  /// An error in how agc was called (a malformed --signature or -D): the driver exits with
  /// its usage status rather than "refused".
  void usageError(const llvm::Twine &message) {
    ++numUsageErrors;
    std::vector<StoredDiagnostic> *kept = setSink(nullptr); // never deferred
    error(message);
    setSink(kept);
  }
  bool hadUsageError() const { return numUsageErrors != 0; }

  void report(Severity severity, const Location &loc, const llvm::Twine &message);
  /// Reports stored diagnostics, in order.
  void report(const std::vector<StoredDiagnostic> &stored) {
    for (const StoredDiagnostic &d : stored)
      report(d.severity, d.loc, d.message);
  }

  /// While a sink is set, diagnostics (usage errors aside) are appended to it instead of
  /// being printed or counted. Returns the previous sink.
  std::vector<StoredDiagnostic> *setSink(std::vector<StoredDiagnostic> *newSink) {
    std::swap(sink, newSink);
    return newSink;
  }

  unsigned getNumErrors() const { return numErrors; }
  bool hadError() const { return numErrors != 0; }

  /// True once an error was swallowed for being past the limit (and the "too many errors"
  /// line printed): reporting more is wasted work.
  bool reachedErrorLimit() const { return errorLimit != 0 && numErrors > errorLimit; }

  /// 0 means no limit.
  void setErrorLimit(unsigned limit) { errorLimit = limit; }
  static constexpr unsigned kDefaultErrorLimit = 20;

  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }

  /// The location of `line`:`column` (1-based) in the buffer called `file`, with its byte
  /// offset, so that a position that went through another tool (an MLIR location) quotes
  /// the source again. Invalid when no buffer has that name.
  Location locate(llvm::StringRef file, unsigned line, unsigned column) const;

private:
  /// Counts a diagnostic of `severity`; true when it is to be swallowed (past the limit,
  /// or a note to a swallowed diagnostic).
  bool severityCounts(Severity severity);

  llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  unsigned numErrors = 0;
  unsigned numUsageErrors = 0;
  unsigned errorLimit = kDefaultErrorLimit;
  bool suppressing = false; ///< Past the limit, or the last error was suppressed.
  std::vector<StoredDiagnostic> *sink = nullptr;
};

} // namespace ag

#endif // AG_FRONTEND_DIAGNOSTICS_H
