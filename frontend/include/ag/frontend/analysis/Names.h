//===- Names.h - The local names of one function, numbered ---------------===//
//
// Dataflow over a function works on bit vectors indexed by name. A NameTable numbers the
// names that a function's code mentions (parameters, assigned names, read names), in
// order of first appearance, so that sets of names are llvm::BitVectors and printing them
// in table order is deterministic. A NameSet is such a bit vector.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_ANALYSIS_NAMES_H
#define AG_FRONTEND_ANALYSIS_NAMES_H

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace ag::analysis {

using NameSet = llvm::BitVector;

class NameTable {
public:
  /// The index of `name`, numbering it if new.
  unsigned intern(llvm::StringRef name) {
    auto [it, inserted] = indices.try_emplace(name, names.size());
    if (inserted)
      names.push_back(it->getKey());
    return it->second;
  }
  /// The index of `name`, or -1 when the function never mentions it.
  int lookup(llvm::StringRef name) const {
    auto it = indices.find(name);
    return it == indices.end() ? -1 : static_cast<int>(it->second);
  }
  llvm::StringRef name(unsigned index) const { return names[index]; }
  unsigned size() const { return names.size(); }

  /// An empty set sized for this table.
  NameSet emptySet() const { return NameSet(size()); }
  /// The names of `set`, sorted alphabetically (for messages and printing).
  std::vector<std::string> sorted(const NameSet &set) const;
  /// `{a, b}` with the names sorted; `{}` when empty.
  void print(const NameSet &set, llvm::raw_ostream &os) const;

private:
  llvm::StringMap<unsigned> indices;
  std::vector<llvm::StringRef> names; ///< Keys owned by `indices`.
};

/// `a | b` where the two may have been sized before the table grew.
inline void unionInto(NameSet &into, const NameSet &from) {
  if (into.size() < from.size())
    into.resize(from.size());
  into |= from;
}

} // namespace ag::analysis

#endif // AG_FRONTEND_ANALYSIS_NAMES_H
