//===- Names.cpp - The local names of one function, numbered --------------===//
#include "ag/frontend/analysis/Names.h"

#include <algorithm>

using namespace ag::analysis;

std::vector<std::string> NameTable::sorted(const NameSet &set) const {
  std::vector<std::string> out;
  for (unsigned i : set.set_bits())
    out.push_back(names[i].str());
  std::sort(out.begin(), out.end());
  return out;
}

void NameTable::print(const NameSet &set, llvm::raw_ostream &os) const {
  os << '{';
  bool first = true;
  for (const std::string &name : sorted(set)) {
    os << (first ? "" : ", ") << name;
    first = false;
  }
  os << '}';
}
