//===- TracerSets.cpp - Python sets while tracing ---------------------------------===//
//
// A set is a Python value the tracer evaluates: its displays and comprehensions, set(),
// its methods and operators. Python iterates a set in the order of its elements' hashes;
// agc iterates one only where that order is certain (setIterationOrder), and otherwise
// refuses, located, what depends on the order (a for loop, list(s), printing it), while
// len, in, sorted, min, max, any, all and the set algebra never need it.
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

using namespace ag;
using namespace ag::analysis;

std::optional<std::vector<Value>> Tracer::Impl::itemsInAnyOrder(const Value &iterable,
                                                                const Location &loc) {
  if (iterable.kind == Value::Kind::Set)
    return iterable.object->items;
  return pythonItems(iterable, loc);
}

std::optional<std::vector<Value>> Tracer::Impl::setItemsInOrder(const Value &set,
                                                                const Location &loc) {
  if (std::optional<std::vector<Value>> items = setIterationOrder(set))
    return items;
  error(loc, "this depends on the order Python iterates " + set.describe() + " in, which "
             "follows the hashes of its elements; agc knows that order only for ints from 0 "
             "to 7 (for str it changes with every run of Python)");
  note(loc, "iterate over sorted(...) of the set for an order that is the same everywhere");
  return std::nullopt;
}

bool Tracer::Impl::checkPrintable(const Value &v, const Location &loc) {
  if (v.kind == Value::Kind::NDArray) {
    error(loc, "printing " + v.describe() + " as NumPy does is not supported by agc");
    note(loc, "print tf.constant(array) with tf.print");
    return false;
  }
  if (v.kind == Value::Kind::Set)
    return setItemsInOrder(v, loc).has_value();
  if (v.isPySequence() || v.kind == Value::Kind::Dict)
    for (const Value &item : v.items())
      if (!checkPrintable(item, loc))
        return false;
  return true;
}

std::optional<Value> Tracer::Impl::makeSet(const std::vector<Value> &elements,
                                           const Location &loc) {
  for (const Value &e : elements)
    if (!isHashable(e)) {
      error(loc, "unhashable type: " + e.describe() + " cannot be an element of a set");
      if (e.isTensorLike())
        note(loc, "a tensor is not hashable in TensorFlow 2; use tensor.ref(), or a Python "
                  "value");
      return std::nullopt;
    }
  return Value::set(elements);
}

/// The elements of `a` that are (`keep` true) or are not in `b`.
static std::vector<Value> select(const Value &a, const Value &b, bool keep) {
  std::vector<Value> out;
  for (const Value &e : a.object->items)
    if (b.object->findElement(e).has_value() == keep)
      out.push_back(e);
  return out;
}

std::optional<Value> Tracer::Impl::setOperator(ast::BinaryOp op, const Value &lhs,
                                               const Value &rhs, const Location &loc) {
  using B = ast::BinaryOp;
  if (lhs.kind != Value::Kind::Set || rhs.kind != Value::Kind::Set)
    return std::nullopt;
  std::vector<Value> out;
  switch (op) {
  case B::BitOr:
    out = lhs.object->items;
    out.insert(out.end(), rhs.object->items.begin(), rhs.object->items.end());
    break;
  case B::BitAnd: out = select(lhs, rhs, true); break;
  case B::Sub: out = select(lhs, rhs, false); break;
  case B::BitXor: {
    out = select(lhs, rhs, false);
    std::vector<Value> more = select(rhs, lhs, false);
    out.insert(out.end(), more.begin(), more.end());
    break;
  }
  default:
    return error(loc, "unsupported operand types for " + ast::spelling(op) + ": two sets");
  }
  return Value::set(out);
}

std::optional<bool> Tracer::Impl::setCompare(ast::CmpOp op, const Value &lhs,
                                             const Value &rhs) {
  using C = ast::CmpOp;
  if (lhs.kind != Value::Kind::Set || rhs.kind != Value::Kind::Set)
    return std::nullopt;
  bool subset = select(lhs, rhs, false).empty(), superset = select(rhs, lhs, false).empty();
  switch (op) {
  case C::LtE: return subset;
  case C::Lt: return subset && !superset;
  case C::GtE: return superset;
  case C::Gt: return superset && !subset;
  default: return std::nullopt;
  }
}

std::optional<Value> Tracer::Impl::setMethod(const Value &self, llvm::StringRef name,
                                             const CallArgs &args) {
  const Location &loc = args.loc;
  const std::vector<Value> &pos = args.positional;
  auto arity = [&](size_t lo, size_t hi) {
    return checkArity("set", name, args, lo, hi, /*keywords=*/false);
  };
  // The arguments of union, update, ... as sets (any iterable of hashable values).
  auto others = [&]() -> std::optional<std::vector<Value>> {
    std::vector<Value> sets;
    for (const Value &arg : pos) {
      std::optional<std::vector<Value>> items = itemsInAnyOrder(arg, loc);
      if (!items)
        return std::nullopt;
      std::optional<Value> s = makeSet(*items, loc);
      if (!s)
        return std::nullopt;
      sets.push_back(*s);
    }
    return sets;
  };
  std::vector<Value> &items = self.object->items;
  if (name == "add" || name == "discard" || name == "remove") {
    if (!arity(1, 1) || !mayChange(self, loc))
      return std::nullopt;
    if (!isHashable(pos[0]))
      return error(loc, "unhashable type: " + pos[0].describe() + " cannot be an element of a set");
    if (name == "add") {
      self.object->add(pos[0]);
      return Value::none();
    }
    std::optional<size_t> at = self.object->findElement(pos[0]);
    if (!at)
      return name == "remove" ? error(loc, "KeyError: " + pos[0].pyStr(true))
                              : std::optional<Value>(Value::none());
    items.erase(items.begin() + *at);
    return Value::none();
  }
  if (name == "pop") {
    if (!arity(0, 0) || !mayChange(self, loc))
      return std::nullopt;
    if (items.empty())
      return error(loc, "KeyError: 'pop from an empty set'");
    std::optional<std::vector<Value>> order = setItemsInOrder(self, loc);
    if (!order)
      return std::nullopt;
    Value first = order->front();
    items.erase(items.begin() + *self.object->findElement(first));
    return first;
  }
  if (name == "clear") {
    if (!arity(0, 0) || !mayChange(self, loc))
      return std::nullopt;
    items.clear();
    return Value::none();
  }
  if (name == "copy") {
    if (!arity(0, 0))
      return std::nullopt;
    return Value::set(items);
  }
  if (name == "update" || name == "union" || name == "intersection" ||
      name == "difference" || name == "symmetric_difference" ||
      name == "intersection_update" || name == "difference_update" ||
      name == "symmetric_difference_update") {
    bool symmetric = llvm::StringRef(name).starts_with("symmetric");
    if (symmetric && !arity(1, 1))
      return std::nullopt;
    std::optional<std::vector<Value>> sets = others();
    if (!sets)
      return std::nullopt;
    bool inPlace = name == "update" || name.ends_with("_update");
    if (inPlace && !mayChange(self, loc))
      return std::nullopt;
    Value result = Value::set(items);
    for (const Value &other : *sets) {
      ast::BinaryOp op = name == "update" || name == "union" ? ast::BinaryOp::BitOr
                         : name.starts_with("intersection")  ? ast::BinaryOp::BitAnd
                         : symmetric                          ? ast::BinaryOp::BitXor
                                                              : ast::BinaryOp::Sub;
      std::optional<Value> next = setOperator(op, result, other, loc);
      if (!next)
        return std::nullopt;
      result = *next;
    }
    if (!inPlace)
      return result;
    items = result.object->items;
    return Value::none();
  }
  if (name == "issubset" || name == "issuperset" || name == "isdisjoint") {
    if (!arity(1, 1))
      return std::nullopt;
    std::optional<std::vector<Value>> sets = others();
    if (!sets)
      return std::nullopt;
    const Value &other = sets->front();
    if (name == "isdisjoint")
      return Value::boolean(select(self, other, true).empty());
    return Value::boolean(
        *setCompare(name == "issubset" ? ast::CmpOp::LtE : ast::CmpOp::GtE, self, other));
  }
  return error(loc, "'set' object has no method '" + name + "' agc knows");
}
