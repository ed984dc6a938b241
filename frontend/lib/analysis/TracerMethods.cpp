//===- TracerMethods.cpp - Methods of tensors, variables and tensor arrays --===//
//
// `x.set_shape(...)`, `v.assign(...)`, `ta.write(...)`, the methods of Python lists and
// dicts; a tensor's other methods are the tf functions of the same name (`x.numpy()` is
// refused).
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

using namespace ag;
using namespace ag::analysis;
using llvm::dyn_cast;
using llvm::isa;

std::optional<Value> Tracer::Impl::callMethod(const Value &method, const CallArgs &args,
                                              const ast::CallExpr &expr) {
  const Value &self = method.elements[0];
  llvm::StringRef name = method.name;
  const Location &loc = args.loc;
  // The receiver's name, for a method that rebinds it (set_shape).
  const auto *callee = dyn_cast<ast::AttributeExpr>(&expr.getCallee());
  const auto *receiver = callee ? dyn_cast<ast::NameExpr>(&callee->getValue()) : nullptr;
  auto rebind = [&](Value v) {
    Value *bound = receiver ? bindingOf(receiver->getId()) : nullptr;
    if (!bound)
      return;
    v.boundAt = bound->boundAt;
    *bound = std::move(v);
  };

  if (self.kind == Value::Kind::Tensor) {
    if (name == "set_shape") {
      const Value *shape = args.get(0, "shape");
      std::optional<Shape> s = shape ? shapeFrom(*shape, loc) : std::nullopt;
      if (!s)
        return std::nullopt;
      if (!self.shape.isCompatibleWith(*s))
        return error(loc, "set_shape(): shapes " + self.shape.str() + " and " + s->str() +
                              " are incompatible");
      Shape refined = *s;
      if (self.shape.rankKnown && s->rankKnown)
        for (unsigned i = 0; i < refined.rank(); ++i)
          if (refined.dims[i] < 0)
            refined.dims[i] = self.shape.dims[i];
      Value narrowed = Value::tensor(self.dtype, refined);
      if (emitter && !emitter->castTo(narrowed, self, loc)) {
        failed = true;
        return std::nullopt;
      }
      rebind(std::move(narrowed));
      return Value::none();
    }
    if (name == "get_shape")
      return attribute(self, "shape", loc);
    if (name == "numpy")
      return error(loc, ".numpy() needs the tensor's value, which exists only at run time");
    CallArgs withSelf = args;
    withSelf.positional.insert(withSelf.positional.begin(), self);
    return callTF("tf." + name.str(), withSelf);
  }
  if (self.kind == Value::Kind::Variable) {
    if (name == "assign" || name == "assign_add" || name == "assign_sub") {
      const Value *v = args.get(0, "value");
      if (!v)
        return error(loc, name + "() is missing its value");
      std::optional<Value> t = v->isTensorLike() ? asTensor(*v, loc) : toTensor(*v, loc, self.dtype);
      if (!t)
        return std::nullopt;
      if (t->dtype != self.dtype)
        return error(loc, "cannot " + name + " " + t->describe() + " to " + self.describe());
      if (!self.shape.isCompatibleWith(t->shape))
        return error(loc, "cannot " + name + " a value of shape " + t->shape.str() + " to " +
                              self.describe());
      if (emitter && !emitter->assignVariable(name, self, *t, loc)) {
        failed = true;
        return std::nullopt;
      }
      return self;
    }
    if (name == "read_value" || name == "value")
      return asTensor(self, loc);
    return error(loc, "tf.Variable has no method '" + name + "' agc knows");
  }
  if (self.kind == Value::Kind::TensorArray)
    return callTensorArray(self, name, args);
  if (self.kind == Value::Kind::Dataset)
    return datasetMethod(self, name, args);
  if (self.kind == Value::Kind::List)
    return listMethod(self, name, args);
  if (self.kind == Value::Kind::Dict)
    return dictMethod(self, name, args);
  if (self.kind == Value::Kind::Set)
    return setMethod(self, name, args);
  if (self.kind == Value::Kind::Str)
    return strMethod(self, name, args);
  if (self.kind == Value::Kind::Tuple && self.object) { // a namedtuple's _asdict, _replace
    const Object &cls = *self.object;
    if (name == "_asdict") {
      std::vector<Value> keys;
      for (const std::string &f : cls.fields)
        keys.push_back(Value::str(f));
      return Value::dict(std::move(keys), self.elements);
    }
    Value out = Value::sequence(Value::Kind::Tuple, self.elements);
    out.object = self.object;
    if (!args.positional.empty())
      return error(loc, "_replace() takes keyword arguments only");
    for (const auto &[key, v] : args.keywords) {
      auto field = llvm::find(cls.fields, key);
      if (field == cls.fields.end())
        return error(loc, "ValueError: Got unexpected field names: ['" + key + "']");
      out.elements[field - cls.fields.begin()] = v;
    }
    return out;
  }
  if (self.kind == Value::Kind::Tuple && self.name == "TensorShape") {
    if (!args.positional.empty() || !args.keywords.empty())
      return error(loc, "TensorShape." + name + "() takes no arguments");
    bool known = llvm::all_of(self.elements, [](const Value &d) { return d.kind == Value::Kind::Int; });
    if (name == "as_list")
      return Value::list(self.elements);
    if (name == "is_fully_defined")
      return Value::boolean(known);
    if (name == "num_elements") { // None where a dimension is unknown
      if (!known)
        return Value::none();
      int64_t n = 1;
      for (const Value &d : self.elements)
        n *= d.i;
      return Value::integer(n);
    }
  }
  return error(loc, self.describe() + " has no method '" + name + "' agc knows");
}

/// tf.TensorArray's gather, concat, scatter and split, over stack, unstack and write (the
/// array's elements are one tensor's rows, all of one shape, as with infer_shape=True).
static std::optional<Value> tensorArrayOverRows(Tracer::Impl &impl, const Value &self,
                                                llvm::StringRef name, const CallArgs &args) {
  const Location &loc = args.loc;
  auto call = [&](llvm::StringRef path, std::vector<Value> operands,
                  std::vector<std::pair<std::string, Value>> keywords = {}) {
    CallArgs a;
    a.positional = std::move(operands);
    a.keywords = std::move(keywords);
    a.loc = loc;
    return impl.callTF(path, a);
  };
  auto method = [&](const Value &ta, llvm::StringRef m, std::vector<Value> operands) {
    CallArgs a;
    a.positional = std::move(operands);
    a.loc = loc;
    return impl.callTensorArray(ta, m, a);
  };
  std::string api = "TensorArray." + name.str();
  if (name == "gather") {
    std::optional<std::vector<const Value *>> p = bindParams(impl, api, args, {"indices", "name"}, 1);
    std::optional<Value> stacked = p ? method(self, "stack", {}) : std::nullopt;
    return stacked ? call("tf.gather", {*stacked, *(*p)[0]}) : std::nullopt;
  }
  if (name == "concat") {
    // The elements joined along their first dimension.
    if (!bindParams(impl, api, args, {"name"}, 0))
      return std::nullopt;
    if (self.shape.rankKnown && self.shape.rank() == 0)
      return impl.error(loc, "TensorArray.concat(): Concat saw a scalar shape at index 0 but "
                             "requires at least vectors");
    if (!self.shape.rankKnown)
      return impl.error(loc, "TensorArray.concat(): the rank of the array's elements is unknown");
    std::vector<Value> dims{Value::integer(-1)};
    for (size_t d = 1; d < self.shape.rank(); ++d) {
      if (self.shape.dims[d] < 0)
        return impl.error(loc, "TensorArray.concat() of elements with dimensions known only "
                               "at run time after the first is not supported by agc");
      dims.push_back(Value::integer(self.shape.dims[d]));
    }
    std::optional<Value> stacked = method(self, "stack", {});
    return stacked ? call("tf.reshape", {*stacked, Value::list(dims)}) : std::nullopt;
  }
  if (name == "split") {
    // Pieces of `value` of the given lengths, which agc needs equal (one element shape).
    std::optional<std::vector<const Value *>> p =
        bindParams(impl, api, args, {"value", "lengths", "name"}, 2);
    if (!p)
      return std::nullopt;
    std::optional<Value> value = impl.asTensor(*(*p)[0], loc);
    if (!value)
      return std::nullopt;
    const Value &lengths = *(*p)[1];
    if (!lengths.isPySequence() || lengths.items().empty())
      return impl.error(loc, "TensorArray.split(): agc takes the lengths as a non-empty list of "
                             "Python ints, not " + lengths.describe());
    int64_t each = -1, total = 0;
    for (const Value &n : lengths.items()) {
      if (n.kind != Value::Kind::Int || n.i < 0)
        return impl.error(loc, "TensorArray.split(): the lengths must be non-negative Python "
                               "ints, not " + n.describe());
      if (each >= 0 && n.i != each)
        return impl.error(loc, "TensorArray.split(): pieces of different lengths are not "
                               "supported by agc (its arrays hold elements of one shape)");
      each = n.i;
      total += n.i;
    }
    if (!value->shape.rankKnown || value->shape.rank() == 0)
      return impl.error(loc, "TensorArray.split(): the value must be at least 1-D");
    if (value->shape.dims[0] >= 0 && value->shape.dims[0] != total)
      return impl.error(loc, "TensorArray.split(): Expected sum of lengths to be equal to "
                             "values.shape[0], but sum of lengths is " + llvm::Twine(total) +
                             " and value's shape is: " + value->shape.str());
    int64_t count = lengths.items().size();
    std::vector<Value> shape{Value::integer(count), Value::integer(each)};
    for (size_t d = 1; d < value->shape.rank(); ++d)
      shape.push_back(Value::integer(value->shape.dims[d]));
    for (size_t d = 1; d < value->shape.rank(); ++d)
      if (value->shape.dims[d] < 0)
        return impl.error(loc, "TensorArray.split() of a value with dimensions known only at "
                               "run time after the first is not supported by agc");
    std::optional<Value> pieces = call("tf.reshape", {*value, Value::list(shape)});
    return pieces ? method(self, "unstack", {*pieces}) : std::nullopt;
  }
  // scatter: each row of `value` written at its index.
  std::optional<std::vector<const Value *>> p =
      bindParams(impl, api, args, {"indices", "value", "name"}, 2);
  if (!p)
    return std::nullopt;
  std::optional<Value> value = impl.asTensor(*(*p)[1], loc);
  if (!value)
    return std::nullopt;
  std::vector<Value> indices;
  const Value &given = *(*p)[0];
  if (given.isPySequence()) {
    indices = given.items();
  } else if (given.isTensorLike() && given.shape.rankKnown && given.shape.rank() == 1 &&
             given.shape.dims[0] >= 0) {
    for (int64_t k = 0; k < given.shape.dims[0]; ++k) {
      std::optional<Value> at = call("tf.gather", {given, Value::integer(k)});
      if (!at)
        return std::nullopt;
      indices.push_back(*at);
    }
  } else {
    return impl.error(loc, "TensorArray.scatter(): agc takes the indices as a list or a 1-D "
                           "tensor of known length, not " + given.describe());
  }
  if (value->shape.rankKnown && value->shape.rank() > 0 && value->shape.dims[0] >= 0 &&
      value->shape.dims[0] != int64_t(indices.size()))
    return impl.error(loc, "TensorArray.scatter(): " + llvm::Twine(indices.size()) +
                           " indices but the value has " + llvm::Twine(value->shape.dims[0]) +
                           " rows");
  Value ta = self;
  for (size_t k = 0; k < indices.size(); ++k) {
    std::optional<Value> row = call("tf.gather", {*value, Value::integer(k)});
    std::optional<Value> next = row ? method(ta, "write", {indices[k], *row}) : std::nullopt;
    if (!next)
      return std::nullopt;
    ta = *next;
  }
  return ta;
}

std::optional<Value> Tracer::Impl::callTensorArray(const Value &self, llvm::StringRef name,
                                                   const CallArgs &args) {
  if (name == "gather" || name == "concat" || name == "split" || name == "scatter")
    return tensorArrayOverRows(*this, self, name, args);
  std::optional<Value> out = tensorArrayMethod(self, name, args);
  if (out && emitter && !emitter->tensorArray(name, self, args, *out)) {
    failed = true;
    return std::nullopt;
  }
  return out;
}

std::optional<Value> Tracer::Impl::tensorArrayMethod(const Value &self, llvm::StringRef name,
                                                     const CallArgs &args) {
  const Location &loc = args.loc;
  if (name == "write") {
    const Value *i = args.get(0, "index"), *v = args.get(1, "value");
    if (!i || !v)
      return error(loc, "TensorArray.write() takes an index and a value");
    if (v->kind == Value::Kind::TensorArray)
      return error(loc, "TensorArray.write(): a tf.TensorArray holds tensors, not other "
                        "tf.TensorArrays (TensorFlow cannot convert one to a tensor either); "
                        "write its stack()");
    std::optional<Value> t = v->isTensorLike() ? asTensor(*v, loc) : toTensor(*v, loc, self.dtype);
    if (!t)
      return std::nullopt;
    if (t->dtype != self.dtype)
      return error(loc, "TensorArray.write(): the array holds " + dtypeName(self.dtype) +
                            " but the value is " + t->describe());
    if (!self.shape.isCompatibleWith(t->shape))
      return error(loc, "TensorArray.write(): the array holds elements of shape " +
                            self.shape.str() + " but the value has shape " + t->shape.str());
    // The element shape: the first write's, relaxed where later writes differ.
    Value out = self;
    out.shape = self.shape.rankKnown ? self.shape.join(t->shape) : t->shape;
    auto [slot, fresh] = tensorArrayShapes.insert(
        {{self.createdAt.begin.line, self.createdAt.begin.column}, out.shape});
    if (!fresh)
      slot->second = slot->second.join(out.shape);
    return out;
  }
  if (name == "read")
    return Value::tensor(self.dtype, self.shape);
  if (name == "stack") {
    Shape s = self.shape;
    if (s.rankKnown)
      s.dims.insert(s.dims.begin(), self.dynamicSize ? -1 : self.size);
    return Value::tensor(self.dtype, s);
  }
  if (name == "size")
    return Value::tensor(DType::Int32, Shape::scalar());
  if (name == "unstack") {
    const Value *v = args.get(0, "value");
    std::optional<Value> t = v ? asTensor(*v, loc) : std::nullopt;
    if (!t)
      return std::nullopt;
    Value out = self;
    out.shape = t->shape;
    if (out.shape.rankKnown && out.shape.rank() > 0)
      out.shape.dims.erase(out.shape.dims.begin());
    auto [slot, fresh] = tensorArrayShapes.insert(
        {{self.createdAt.begin.line, self.createdAt.begin.column}, out.shape});
    if (!fresh)
      slot->second = slot->second.join(out.shape);
    return out;
  }
  return error(loc, "tf.TensorArray has no method '" + name + "' agc knows");
}

//===----------------------------------------------------------------------------------===//
// Python lists and dicts
//===----------------------------------------------------------------------------------===//

bool Tracer::Impl::mayChange(const Value &container, const Location &loc, bool store) {
  if (!container.object)
    return true;
  // The innermost block the object was made before (a guard's bound is its call's start,
  // which may come before an enclosing loop's).
  auto made = llvm::find_if(llvm::reverse(staging), [&](const StagedBlock &b) {
    return container.object->serial < b.firstObject;
  });
  if (made == staging.rend())
    return true;
  const StagedBlock &block = *made;
  bool loop = llvm::StringRef(block.what).starts_with("loop");
  if (store && block.frameDepth == frames.size()) {
    // TensorFlow carries `d[k]` or `a.b` set in a staged block as a variable of its own.
    error(loc, "this sets " + llvm::Twine(container.kind == Value::Kind::Instance
                                              ? "an attribute of "
                                              : "an item of ") +
                   "a Python " + container.typeString() + " made before the staged " +
                   block.what + " it is in, which agc does not carry");
    note(block.loc, llvm::Twine("the staged ") + block.what + ": TensorFlow carries an item or "
                    "attribute set in it as a variable of its own (AutoGraph's compound "
                    "symbols); agc carries names, and the tuples, lists and dicts bound to "
                    "them");
    if (container.kind == Value::Kind::Dict)
      note(loc, "bind the name to a new dict instead (d = {**d, 'key': value}): a staged if "
                "or loop carries a dict's values one by one");
    else if (container.kind == Value::Kind::List)
      note(loc, "bind the name to a new list instead (l = l[:i] + [value] + l[i + 1:]): a "
                "staged if or loop carries a list's items one by one");
    else
      note(loc, "keep the value in a name during the staged " + llvm::Twine(block.what) +
                    ", and set the attribute after it");
    return false;
  }
  error(loc, "this changes a Python " + container.typeString() + " made before the staged " +
                 block.what + " it is in");
  note(block.loc, llvm::Twine("the staged ") + block.what + ": TensorFlow traces its code once, "
                  "whatever happens at run time, so the change would be made once whether or "
                  "not the code runs, and a tensor made inside it cannot be used outside it "
                  "(InaccessibleTensorError)");
  note(loc, loop ? "to collect tensors in a staged loop, use a tf.TensorArray (ta = "
                   "ta.write(i, x) in the loop, ta.stack() after it)"
                 : "compute the values inside, and change the " + container.typeString() +
                       " after it");
  return false;
}

bool Tracer::Impl::checkHashable(const Value &key, const Location &loc) {
  if (isHashable(key))
    return true;
  error(loc, "unhashable type: " + key.describe() + " cannot be a dict key");
  if (key.isTensorLike())
    note(loc, "a tensor is not hashable in TensorFlow 2; use tensor.ref() as the key, or a "
              "Python value");
  return false;
}

std::optional<Value> Tracer::Impl::dictItem(const Value &dict, const Value &key,
                                            const Location &loc) {
  if (!checkHashable(key, loc))
    return std::nullopt;
  std::optional<size_t> k = dict.object->find(key);
  if (!k)
    return error(loc, "KeyError: " + key.pyStr(true));
  return dict.object->items[*k];
}

/// An index into a list of `size` items (negative counts from the end), or nothing.
static std::optional<size_t> listIndex(const Value &index, size_t size) {
  if (index.kind != Value::Kind::Int && index.kind != Value::Kind::Bool)
    return std::nullopt;
  int64_t k = index.i < 0 ? index.i + int64_t(size) : index.i;
  if (k < 0 || k >= int64_t(size))
    return std::nullopt;
  return size_t(k);
}

bool Tracer::Impl::setItem(const Value &container, const ast::Expr &indexExpr,
                           const Value *value, const Location &loc) {
  const char *verb = value ? "assignment" : "deletion";
  if (container.kind != Value::Kind::List && container.kind != Value::Kind::Dict) {
    error(loc, "item " + llvm::Twine(verb) + " to " + container.describe() +
                   " is not supported" + (container.kind == Value::Kind::Tuple ||
                                                  container.kind == Value::Kind::Str
                                              ? ": it is immutable"
                                              : " by agc"));
    return false;
  }
  if (isa<ast::SliceExpr>(indexExpr)) {
    error(indexExpr.loc(), "slice " + llvm::Twine(verb) + " to a Python list is not supported "
                           "by agc; build a new list with + and slices");
    return false;
  }
  std::optional<Value> index = eval(indexExpr);
  if (!index || !mayChange(container, loc, /*store=*/value != nullptr) ||
      (value && !mayHold(container, *value, loc)))
    return false;
  Object &object = *container.object;
  if (container.kind == Value::Kind::Dict) {
    if (!checkHashable(*index, indexExpr.loc()))
      return false;
    std::optional<size_t> k = object.find(*index);
    if (value) {
      object.put(*index, *value);
    } else if (k) {
      object.keys.erase(object.keys.begin() + *k);
      object.items.erase(object.items.begin() + *k);
    } else {
      error(indexExpr.loc(), "KeyError: " + index->pyStr(true));
      return false;
    }
    return true;
  }
  if (index->kind != Value::Kind::Int && index->kind != Value::Kind::Bool) {
    error(indexExpr.loc(), "list indices must be integers, not " + index->describe());
    return false;
  }
  std::optional<size_t> k = listIndex(*index, object.items.size());
  if (!k) {
    error(indexExpr.loc(), llvm::Twine("list ") + verb + " index out of range");
    return false;
  }
  if (value)
    object.items[*k] = *value;
  else
    object.items.erase(object.items.begin() + *k);
  return true;
}

bool Tracer::Impl::unpackKeywords(const Value &mapping, const Location &loc, CallArgs &args) {
  if (mapping.kind != Value::Kind::Dict) {
    error(loc, "argument after ** must be a dict, not " + mapping.describe());
    return false;
  }
  for (size_t k = 0; k < mapping.object->keys.size(); ++k) {
    const Value &key = mapping.object->keys[k];
    if (key.kind != Value::Kind::Str) {
      error(loc, "keywords must be strings, not " + key.describe());
      return false;
    }
    if (llvm::any_of(args.keywords, [&](const auto &kw) { return kw.first == key.text; })) {
      error(loc, "got multiple values for keyword argument '" + key.text + "'");
      return false;
    }
    args.keywords.push_back({key.text, mapping.object->items[k]});
  }
  return true;
}

bool Tracer::Impl::checkArity(llvm::StringRef type, llvm::StringRef name, const CallArgs &args,
                              size_t lo, size_t hi, bool keywords) {
  size_t n = args.positional.size();
  if (n >= lo && n <= hi && (keywords || args.keywords.empty()))
    return true;
  error(args.loc, type + "." + name + "() takes " +
                      (lo == hi ? llvm::Twine(lo) : llvm::Twine(lo) + " to " + llvm::Twine(hi)) +
                      " positional arguments, but got " + llvm::Twine(n) +
                      (args.keywords.empty() ? "" : " and keywords"));
  return false;
}

std::optional<Value> Tracer::Impl::listMethod(const Value &self, llvm::StringRef name,
                                              const CallArgs &args) {
  const Location &loc = args.loc;
  const std::vector<Value> &pos = args.positional;
  auto arity = [&](size_t lo, size_t hi) {
    return checkArity("list", name, args, lo, hi, /*keywords=*/false);
  };
  std::vector<Value> &items = self.object->items;
  // Python's == on one item and `x`, as list.index/count/remove compare.
  auto equal = [&](const Value &item, const Value &x) -> std::optional<bool> {
    std::optional<Value> eq = compare(ast::CmpOp::Eq, item, x, loc);
    if (!eq)
      return std::nullopt;
    std::optional<bool> t = truth(*eq);
    if (!t)
      return error(loc, "list." + name + "() compares " + item.describe() + " with " +
                            x.describe() + ", whose values exist only at run time");
    return t;
  };
  auto find = [&](const Value &x) -> std::optional<std::optional<size_t>> {
    for (size_t k = 0; k < items.size(); ++k) {
      std::optional<bool> eq = equal(items[k], x);
      if (!eq)
        return std::nullopt;
      if (*eq)
        return std::optional<size_t>(k);
    }
    return std::optional<size_t>();
  };
  if (name == "index" || name == "count") {
    if (!arity(1, 1))
      return std::nullopt;
    int64_t count = 0;
    for (size_t k = 0; k < items.size(); ++k) {
      std::optional<bool> eq = equal(items[k], pos[0]);
      if (!eq)
        return std::nullopt;
      if (*eq && name == "index")
        return Value::integer(k);
      count += *eq;
    }
    if (name == "index")
      return error(loc, "ValueError: " + pos[0].pyStr(true) + " is not in list");
    return Value::integer(count);
  }
  if (name == "copy") {
    if (!arity(0, 0))
      return std::nullopt;
    return Value::list(items);
  }
  static const char *const kChanging[] = {"append", "extend", "insert", "pop", "remove",
                                          "clear", "reverse", "sort"};
  if (!llvm::is_contained(kChanging, name))
    return error(loc, "a Python list has no method '" + name + "' agc knows");
  if (!mayChange(self, loc))
    return std::nullopt;
  if (name == "append" || name == "extend") {
    if (!arity(1, 1))
      return std::nullopt;
    std::vector<Value> more;
    if (name == "append") {
      more.push_back(pos[0]);
    } else {
      std::optional<std::vector<Value>> got = pythonItems(pos[0], loc);
      if (!got)
        return std::nullopt;
      more = std::move(*got);
    }
    for (const Value &v : more)
      if (!mayHold(self, v, loc))
        return std::nullopt;
    if (int64_t(items.size() + more.size()) > kMaxSequence)
      return error(loc, "this list would hold more than " + llvm::Twine(kMaxSequence) +
                            " items, agc's limit while tracing");
    items.insert(items.end(), more.begin(), more.end());
    return Value::none();
  }
  if (name == "insert") {
    if (!arity(2, 2))
      return std::nullopt;
    if (pos[0].kind != Value::Kind::Int && pos[0].kind != Value::Kind::Bool)
      return error(loc, "list.insert(): the index must be an int, not " + pos[0].describe());
    if (!mayHold(self, pos[1], loc))
      return std::nullopt;
    int64_t size = items.size(), k = pos[0].i < 0 ? pos[0].i + size : pos[0].i;
    items.insert(items.begin() + std::clamp<int64_t>(k, 0, size), pos[1]);
    return Value::none();
  }
  if (name == "pop") {
    if (!arity(0, 1))
      return std::nullopt;
    if (items.empty())
      return error(loc, "IndexError: pop from empty list");
    std::optional<size_t> k = pos.empty() ? std::optional<size_t>(items.size() - 1)
                                          : listIndex(pos[0], items.size());
    if (!k)
      return error(loc, pos[0].kind == Value::Kind::Int ? "IndexError: pop index out of range"
                                                        : "list.pop(): the index must be an int");
    Value out = items[*k];
    items.erase(items.begin() + *k);
    return out;
  }
  if (name == "remove") {
    if (!arity(1, 1))
      return std::nullopt;
    std::optional<std::optional<size_t>> k = find(pos[0]);
    if (!k)
      return std::nullopt;
    if (!*k)
      return error(loc, "ValueError: list.remove(x): x not in list");
    items.erase(items.begin() + **k);
    return Value::none();
  }
  if (name == "clear" || name == "reverse") {
    if (!arity(0, 0))
      return std::nullopt;
    if (name == "clear")
      items.clear();
    else
      std::reverse(items.begin(), items.end());
    return Value::none();
  }
  // sort(key=None, reverse=False): as sorted(), in place.
  if (!pos.empty())
    return error(loc, "list.sort() takes no positional arguments");
  CallArgs sortArgs = args;
  sortArgs.positional = {Value::list(items)};
  std::optional<Value> sorted = callIterableBuiltin("sorted", sortArgs);
  if (!sorted)
    return std::nullopt;
  items = sorted->items();
  return Value::none();
}

std::optional<Value> Tracer::Impl::dictMethod(const Value &self, llvm::StringRef name,
                                              const CallArgs &args) {
  const Location &loc = args.loc;
  const std::vector<Value> &pos = args.positional;
  Object &object = *self.object;
  auto arity = [&](size_t lo, size_t hi) {
    return checkArity("dict", name, args, lo, hi, /*keywords=*/name == "update");
  };
  if (name == "keys" || name == "values" || name == "items") {
    if (!arity(0, 0))
      return std::nullopt;
    // A list of them at the time of the call (a view, for what traced code does with it).
    if (name == "keys")
      return Value::list(object.keys);
    if (name == "values")
      return Value::list(object.items);
    std::vector<Value> pairs;
    for (size_t k = 0; k < object.keys.size(); ++k)
      pairs.push_back(Value::sequence(Value::Kind::Tuple, {object.keys[k], object.items[k]}));
    return Value::list(std::move(pairs));
  }
  if (name == "get") {
    if (!arity(1, 2) || !checkHashable(pos[0], loc))
      return std::nullopt;
    std::optional<size_t> k = object.find(pos[0]);
    if (k)
      return object.items[*k];
    return pos.size() == 2 ? pos[1] : Value::none();
  }
  if (name == "copy") {
    if (!arity(0, 0))
      return std::nullopt;
    return Value::dict(object.keys, object.items);
  }
  static const char *const kChanging[] = {"update", "setdefault", "pop", "popitem", "clear"};
  if (!llvm::is_contained(kChanging, name))
    return error(loc, "a Python dict has no method '" + name + "' agc knows");
  if (!mayChange(self, loc))
    return std::nullopt;
  for (const Value &v : pos)
    if (!mayHold(self, v, loc))
      return std::nullopt;
  for (const auto &kw : args.keywords)
    if (!mayHold(self, kw.second, loc))
      return std::nullopt;
  if (name == "update") {
    if (!arity(0, 1))
      return std::nullopt;
    if (!pos.empty()) {
      if (pos[0].kind == Value::Kind::Dict) {
        Object other = *pos[0].object; // a copy: d.update(d) reads what it writes
        for (size_t k = 0; k < other.keys.size(); ++k)
          object.put(other.keys[k], other.items[k]);
      } else {
        std::optional<std::vector<Value>> pairs = pythonItems(pos[0], loc);
        if (!pairs)
          return std::nullopt;
        for (const Value &pair : *pairs) {
          if (!pair.isPySequence() || pair.items().size() != 2)
            return error(loc, "dict.update(): each item must be a (key, value) pair, not " +
                                  pair.describe());
          if (!checkHashable(pair.items()[0], loc))
            return std::nullopt;
          object.put(pair.items()[0], pair.items()[1]);
        }
      }
    }
    for (const auto &[key, value] : args.keywords)
      object.put(Value::str(key), value);
    return Value::none();
  }
  if (name == "setdefault") {
    if (!arity(1, 2) || !checkHashable(pos[0], loc))
      return std::nullopt;
    if (std::optional<size_t> k = object.find(pos[0]))
      return object.items[*k];
    Value value = pos.size() == 2 ? pos[1] : Value::none();
    object.put(pos[0], value);
    return value;
  }
  if (name == "pop") {
    if (!arity(1, 2) || !checkHashable(pos[0], loc))
      return std::nullopt;
    std::optional<size_t> k = object.find(pos[0]);
    if (!k) {
      if (pos.size() == 2)
        return pos[1];
      return error(loc, "KeyError: " + pos[0].pyStr(true));
    }
    Value out = object.items[*k];
    object.keys.erase(object.keys.begin() + *k);
    object.items.erase(object.items.begin() + *k);
    return out;
  }
  if (name == "popitem") {
    if (!arity(0, 0))
      return std::nullopt;
    if (object.keys.empty())
      return error(loc, "KeyError: 'popitem(): dictionary is empty'");
    Value out = Value::sequence(Value::Kind::Tuple, {object.keys.back(), object.items.back()});
    object.keys.pop_back();
    object.items.pop_back();
    return out;
  }
  if (!arity(0, 0))
    return std::nullopt;
  object.keys.clear();
  object.items.clear();
  return Value::none();
}
