//===- Diagnostics.cpp - Located errors, warnings and notes ---------------===//
//
// Turns a Location into llvm::SourceMgr terms (the buffer that holds the file, an SMLoc at
// the byte offset, an SMRange for the underline) and lets SourceMgr print the message, the
// source line and the caret.
//
//===----------------------------------------------------------------------------------===//
#include "ag/frontend/Diagnostics.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace ag;

/// The buffer whose identifier is `file`, or 0 (SourceMgr numbers buffers from 1).
static unsigned findBuffer(const llvm::SourceMgr &mgr, llvm::StringRef file) {
  for (unsigned id = 1, e = mgr.getNumBuffers(); id <= e; ++id)
    if (mgr.getMemoryBuffer(id)->getBufferIdentifier() == file)
      return id;
  return 0;
}

void DiagnosticEngine::error(const llvm::Twine &message) {
  if (sink) {
    sink->push_back({Severity::Error, Location(), message.str()});
    return;
  }
  if (severityCounts(Severity::Error))
    return;
  os << "agc: error: " << message << '\n';
}

bool DiagnosticEngine::severityCounts(Severity severity) {
  if (severity == Severity::Note)
    return suppressing;
  if (severity == Severity::Warning) {
    suppressing = false;
    return false;
  }
  ++numErrors;
  suppressing = errorLimit != 0 && numErrors > errorLimit;
  if (suppressing && numErrors == errorLimit + 1)
    os << "agc: error: too many errors (" << errorLimit << "), stopping here\n";
  return suppressing;
}

void DiagnosticEngine::report(Severity severity, const Location &loc,
                              const llvm::Twine &message) {
  if (sink) {
    sink->push_back({severity, loc, message.str()});
    return;
  }
  if (severityCounts(severity))
    return;
  llvm::SourceMgr::DiagKind kind = severity == Severity::Error     ? llvm::SourceMgr::DK_Error
                                   : severity == Severity::Warning ? llvm::SourceMgr::DK_Warning
                                                                   : llvm::SourceMgr::DK_Note;
  unsigned buffer = loc.isValid() ? findBuffer(sourceMgr, loc.file) : 0;
  if (!buffer) {
    // No source text to quote: still say where.
    if (loc.isValid())
      os << loc << ": ";
    else
      os << "agc: ";
    os << (kind == llvm::SourceMgr::DK_Error     ? "error: "
           : kind == llvm::SourceMgr::DK_Warning ? "warning: "
                                                 : "note: ")
       << message << '\n';
    return;
  }
  const llvm::MemoryBuffer *mb = sourceMgr.getMemoryBuffer(buffer);
  const char *start = mb->getBufferStart();
  size_t size = mb->getBufferSize();
  auto at = [&](uint32_t offset) {
    return llvm::SMLoc::getFromPointer(start + std::min<size_t>(offset, size));
  };
  llvm::SmallVector<llvm::SMRange, 1> ranges;
  if (loc.end.offset > loc.begin.offset + 1)
    ranges.push_back(llvm::SMRange(at(loc.begin.offset), at(loc.end.offset)));
  sourceMgr.PrintMessage(os, at(loc.begin.offset), kind, message, ranges);
}

Location DiagnosticEngine::locate(llvm::StringRef file, unsigned line, unsigned column) const {
  unsigned buffer = findBuffer(sourceMgr, file);
  if (!buffer || line == 0)
    return {};
  const llvm::MemoryBuffer *mb = sourceMgr.getMemoryBuffer(buffer);
  llvm::SMLoc at = sourceMgr.FindLocForLineAndColumn(buffer, line, column ? column : 1);
  if (!at.isValid())
    return {};
  Location loc;
  loc.file = mb->getBufferIdentifier();
  uint32_t offset = at.getPointer() - mb->getBufferStart();
  loc.begin = {line, column, offset};
  loc.end = {line, column + 1, offset + 1};
  return loc;
}

