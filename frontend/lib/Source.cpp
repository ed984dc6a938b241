//===- Source.cpp - Loading a Python source file --------------------------===//
//
// Steps: read the file (or stdin) into a MemoryBuffer, never more than one byte past the
// size limit; refuse it when too large; drop a UTF-8 byte order mark and read lone "\r"
// as line ends, as CPython does; hand it to the SourceMgr so diagnostics can quote it;
// then check that it is valid UTF-8 without NUL bytes, pointing at the first offending
// byte otherwise.
//
//===----------------------------------------------------------------------------------===//
#include "ag/frontend/Source.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
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

/// CPython's view of the text: a leading UTF-8 byte order mark is not part of the source,
/// and a lone carriage return ends a line as "\n" does. Offsets after the mark are kept
/// (a lone "\r" becomes "\n", one byte for one).
static std::unique_ptr<llvm::MemoryBuffer> normalize(std::unique_ptr<llvm::MemoryBuffer> buffer) {
  llvm::StringRef text = buffer->getBuffer();
  bool bom = text.starts_with("\xEF\xBB\xBF");
  bool loneCR = false;
  for (size_t i = text.find('\r'); i != llvm::StringRef::npos; i = text.find('\r', i + 1))
    loneCR |= i + 1 == text.size() || text[i + 1] != '\n';
  if (!bom && !loneCR)
    return buffer;
  std::string copy = text.drop_front(bom ? 3 : 0).str();
  for (size_t i = 0; i < copy.size(); ++i)
    if (copy[i] == '\r' && (i + 1 == copy.size() || copy[i + 1] != '\n'))
      copy[i] = '\n';
  return llvm::MemoryBuffer::getMemBufferCopy(copy, buffer->getBufferIdentifier());
}

/// Checks `buffer` and hands it to the SourceMgr.
static std::optional<SourceFile> addBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
                                           DiagnosticEngine &diag) {
  if (buffer->getBufferSize() > kMaxSourceBytes) {
    diag.error(buffer->getBufferIdentifier() + ": file is too large (more than " +
               llvm::Twine(kMaxSourceBytes) + " bytes, the most agc reads)");
    return std::nullopt;
  }
  buffer = normalize(std::move(buffer));
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

/// Reads `path` ("-" for stdin) up to one byte past kMaxSourceBytes, so that an endless
/// input (/dev/zero, a pipe) is refused by its size rather than read whole.
static llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> readBounded(llvm::StringRef path) {
  namespace fs = llvm::sys::fs;
  bool isStdin = path == "-";
  fs::file_t fd = fs::getStdinHandle();
  if (!isStdin) {
    llvm::Expected<fs::file_t> opened = fs::openNativeFileForRead(path);
    if (!opened)
      return opened.takeError();
    fd = *opened;
  }
  llvm::SmallVector<char, 0> bytes;
  llvm::Error failure = llvm::Error::success();
  while (bytes.size() <= kMaxSourceBytes) {
    size_t old = bytes.size();
    size_t chunk = std::min<size_t>(1 << 16, kMaxSourceBytes + 1 - old);
    bytes.resize_for_overwrite(old + chunk);
    llvm::Expected<size_t> got = fs::readNativeFile(fd, llvm::MutableArrayRef(bytes.data() + old, chunk));
    if (!got) {
      failure = got.takeError();
      bytes.truncate(old);
      break;
    }
    bytes.truncate(old + *got);
    if (*got == 0)
      break;
  }
  if (!isStdin)
    fs::closeFile(fd);
  if (failure)
    return failure;
  return llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(bytes.data(), bytes.size()),
                                              isStdin ? "<stdin>" : path);
}

std::optional<SourceFile> ag::loadSourceFile(llvm::StringRef path, DiagnosticEngine &diag) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> buffer = readBounded(path);
  if (!buffer) {
    diag.error("cannot read '" + path + "': " + llvm::toString(buffer.takeError()));
    return std::nullopt;
  }
  return addBuffer(std::move(*buffer), diag);
}
