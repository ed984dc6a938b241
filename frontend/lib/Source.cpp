//===- Source.cpp - Loading a Python source file --------------------------===//
//
// Steps: read the file (or stdin) into a MemoryBuffer; refuse it when too large; hand it to
// the SourceMgr so diagnostics can quote it; then check that it is valid UTF-8 without NUL
// bytes, pointing at the first offending byte otherwise.
//
//===----------------------------------------------------------------------------------===//
#include "ag/frontend/Source.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace ag;

Location SourceFile::locationOf(uint32_t begin, uint32_t end) const {
  auto position = [&](uint32_t offset) {
    offset = std::min<uint32_t>(offset, text.size());
    llvm::StringRef before = text.take_front(offset);
    size_t lineStart = before.rfind('\n');
    lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
    return Position{static_cast<uint32_t>(before.count('\n') + 1),
                    static_cast<uint32_t>(offset - lineStart + 1), offset};
  };
  return Location{name, position(begin), position(end)};
}

/// Offset of the first byte that breaks UTF-8 or is NUL, or npos.
static size_t findBadByte(llvm::StringRef text, bool &isNul) {
  const auto *begin = reinterpret_cast<const llvm::UTF8 *>(text.data());
  const auto *end = begin + text.size();
  for (const llvm::UTF8 *p = begin; p < end;) {
    if (*p == 0) {
      isNul = true;
      return p - begin;
    }
    if (*p < 0x80) {
      ++p;
      continue;
    }
    unsigned n = llvm::getNumBytesForUTF8(*p);
    if (p + n > end || !llvm::isLegalUTF8Sequence(p, p + n)) {
      isNul = false;
      return p - begin;
    }
    p += n;
  }
  return llvm::StringRef::npos;
}

/// Checks `buffer` and hands it to the SourceMgr.
static std::optional<SourceFile> addBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
                                           DiagnosticEngine &diag) {
  if (buffer->getBufferSize() > kMaxSourceBytes) {
    diag.error(buffer->getBufferIdentifier() + ": file is too large (" +
               llvm::Twine(buffer->getBufferSize()) + " bytes; agc reads at most " +
               llvm::Twine(kMaxSourceBytes) + ")");
    return std::nullopt;
  }
  llvm::StringRef stored = buffer->getBuffer();
  llvm::StringRef storedName = buffer->getBufferIdentifier();
  unsigned id = diag.getSourceMgr().AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  SourceFile file{storedName, stored, id};

  bool isNul = false;
  size_t bad = findBadByte(stored, isNul);
  if (bad != llvm::StringRef::npos) {
    diag.error(file.locationOf(bad, bad + 1),
               isNul ? "source code cannot contain NUL bytes"
                     : "source code is not valid UTF-8 (byte 0x" +
                           llvm::utohexstr(static_cast<uint8_t>(stored[bad])) + ")");
    return std::nullopt;
  }
  return file;
}

std::optional<SourceFile> ag::addSourceBuffer(llvm::StringRef name, llvm::StringRef text,
                                              DiagnosticEngine &diag) {
  return addBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name), diag);
}

std::optional<SourceFile> ag::loadSourceFile(llvm::StringRef path, DiagnosticEngine &diag) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false,
                                                   /*RequiresNullTerminator=*/false);
  if (!buffer) {
    diag.error("cannot read '" + path + "': " + buffer.getError().message());
    return std::nullopt;
  }
  // getFileOrSTDIN names the buffer after the path, and "<stdin>" for "-".
  return addBuffer(std::move(*buffer), diag);
}
