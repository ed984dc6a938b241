//===- StandaloneMain.cpp - Runs a fuzz target over files, without libFuzzer -===//
//
// `TARGET FILE|DIR...`: each file (each regular file of a directory, sorted) goes
// through LLVMFuzzerTestOneInput once, as libFuzzer replays a corpus. The tests use it
// to replay the seed corpus with the ordinary build; tools/fuzz.sh fuzzes with libFuzzer.
//
//===----------------------------------------------------------------------------------===//
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (!llvm::sys::fs::is_directory(argv[i])) {
      files.push_back(argv[i]);
      continue;
    }
    std::error_code ec;
    std::vector<std::string> found;
    for (llvm::sys::fs::directory_iterator it(argv[i], ec), end; it != end && !ec; it.increment(ec))
      if (llvm::sys::fs::is_regular_file(it->path()))
        found.push_back(it->path());
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!buffer) {
      llvm::errs() << file << ": " << buffer.getError().message() << "\n";
      return 2;
    }
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>((*buffer)->getBufferStart()),
                           (*buffer)->getBufferSize());
  }
  llvm::outs() << "ran " << files.size() << " inputs\n";
  return 0;
}
