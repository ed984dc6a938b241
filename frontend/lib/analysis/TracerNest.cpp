//===- TracerNest.cpp - Tuples, lists and dicts carried through staged blocks --------===//
//
// As TensorFlow's `nest`: a tuple, list or dict (a namedtuple too) that a staged if
// produces, a staged loop carries, or a staged return gives is flattened into its
// leaves, each carried on its own, and packed again into the same structure after the
// block. Lists and dicts packed again are new objects, as `nest.pack_sequence_as` makes
// them: the body of a staged loop may change the one it is given.
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

using namespace ag;
using namespace ag::analysis;

bool analysis::isNest(const Value &v) {
  return v.kind == Value::Kind::Tuple || v.kind == Value::Kind::List ||
         v.kind == Value::Kind::Dict;
}

/// The path of item `k` of `v` under `path`: `v[0]`, `d['s']`, `p.lo`.
static std::string itemPath(const Value &v, size_t k, const std::string &path) {
  if (v.kind == Value::Kind::Dict)
    return path + "[" + v.object->keys[k].pyStr(true) + "]";
  if (v.kind == Value::Kind::Tuple && v.object && k < v.object->fields.size())
    return path + "." + v.object->fields[k];
  return path + "[" + std::to_string(k) + "]";
}

std::string analysis::nestDifference(const Value &a, const Value &b, const std::string &path) {
  if (!isNest(a) && !isNest(b))
    return "";
  auto describe = [&](const Value &v) {
    if (v.kind == Value::Kind::Tuple && v.object)
      return "a " + v.object->name + " (a namedtuple)";
    if (isNest(v)) {
      size_t n = v.items().size();
      return "a " + v.typeString() + " of " + std::to_string(n) + (n == 1 ? " item" : " items");
    }
    return v.describe();
  };
  bool sameKind = a.kind == b.kind && (a.kind != Value::Kind::Tuple || a.object == b.object);
  if (!sameKind || a.items().size() != b.items().size())
    return "'" + path + "' is " + describe(a) + ", then " + describe(b);
  for (size_t k = 0; k < a.items().size(); ++k) {
    const Value *other = &b.items()[k];
    if (a.kind == Value::Kind::Dict) {
      std::optional<size_t> at = b.object->find(a.object->keys[k]);
      if (!at)
        return "'" + path + "' has the key " + a.object->keys[k].pyStr(true) +
               " on one side only";
      other = &b.object->items[*at];
    }
    std::string inner = nestDifference(a.items()[k], *other, itemPath(a, k, path));
    if (!inner.empty())
      return inner;
  }
  return "";
}

void analysis::flattenNest(const Value &v, const Value &structure, const std::string &path,
                           std::vector<NestLeaf> &out) {
  if (!isNest(structure)) {
    out.push_back({path, v});
    return;
  }
  for (size_t k = 0; k < structure.items().size(); ++k) {
    const Value *item = &v.items()[k];
    if (structure.kind == Value::Kind::Dict)
      item = &v.object->items[*v.object->find(structure.object->keys[k])];
    flattenNest(*item, structure.items()[k], itemPath(structure, k, path), out);
  }
}

Value analysis::packNest(const Value &structure, llvm::ArrayRef<Value> leaves, size_t &next) {
  if (!isNest(structure))
    return leaves[next++];
  std::vector<Value> items;
  for (const Value &item : structure.items())
    items.push_back(packNest(item, leaves, next));
  Value packed = structure.kind == Value::Kind::Dict
                     ? Value::dict(structure.object->keys, std::move(items))
                     : Value::sequence(structure.kind, std::move(items));
  if (structure.kind == Value::Kind::Tuple)
    packed.object = structure.object; // its namedtuple class
  packed.boundAt = structure.boundAt;
  return packed;
}
