//===- TracerClasses.cpp - Classes, instances, decorators and Python's library -===//
//
// A class statement runs its body in a namespace of its own, as Python does; the class is
// an Object holding that namespace and its method resolution order (C3). Calling it makes
// an instance (an Object of attributes) and runs `__init__`; `obj.attr` looks in the
// instance, then along the MRO, binding functions as methods and running properties.
// `tf.Module` is a base class whose instances name themselves and list their variables;
// `@dataclass` writes `__init__` from the annotated fields. Decorators are Python calls,
// applied bottom-up where the definition runs (@tf.function is the identity while
// tracing: it marks what agc compiles). functools.partial/wraps/reduce and
// dataclasses.field are here too.
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <numeric>

using namespace ag;
using namespace ag::analysis;
using llvm::cast;
using llvm::dyn_cast;

//===----------------------------------------------------------------------------------===//
// Class statements
//===----------------------------------------------------------------------------------===//

/// Python's C3 linearization of `cls` over its bases' MROs; false where the bases admit
/// no consistent order.
static bool linearize(Object &cls, const std::vector<std::shared_ptr<Object>> &bases,
                      const std::shared_ptr<Object> &self) {
  std::vector<std::vector<std::shared_ptr<Object>>> seqs;
  for (const auto &base : bases)
    seqs.push_back(base->mro);
  seqs.push_back(bases);
  cls.mro = {self};
  for (;;) {
    llvm::erase_if(seqs, [](const auto &s) { return s.empty(); });
    if (seqs.empty())
      return true;
    std::shared_ptr<Object> next;
    for (const auto &seq : seqs) {
      const auto &head = seq.front();
      bool inTail = llvm::any_of(seqs, [&](const auto &s) {
        return std::find(s.begin() + 1, s.end(), head) != s.end();
      });
      if (!inTail) {
        next = head;
        break;
      }
    }
    if (!next)
      return false;
    cls.mro.push_back(next);
    for (auto &seq : seqs)
      if (seq.front() == next)
        seq.erase(seq.begin());
  }
}

Flow Tracer::Impl::execClassDef(const ast::ClassDefStmt &def) {
  if (frame().function) {
    error(def.getNameLoc(), "a class defined inside a function is not supported by agc");
    note(def.getNameLoc(), "define '" + def.getName() + "' at the top level of the file");
    return Flow::Error;
  }
  auto cls = std::make_shared<Object>();
  cls->name = def.getName().str();
  cls->def = &def;
  std::vector<std::shared_ptr<Object>> bases;
  bool enumeration = false;
  for (const ast::ExprPtr &baseExpr : def.getBases()) {
    std::optional<Value> base = eval(*baseExpr);
    if (!base)
      return Flow::Error;
    if (base->kind == Value::Kind::Class) {
      bases.push_back(base->object);
      cls->tfModule |= base->object->tfModule;
      continue;
    }
    if (base->kind == Value::Kind::Builtin && base->name == "object")
      continue;
    if (base->kind == Value::Kind::Module && base->name == "tf.Module") {
      cls->tfModule = true;
      continue;
    }
    if (base->kind == Value::Kind::Module && base->name == "typing.NamedTuple") {
      cls->namedtuple = true; // its fields are the annotated names, below
      continue;
    }
    if (base->kind == Value::Kind::Module && base->name == "enum.Enum") {
      enumeration = true; // its members are made below
      continue;
    }
    if (base->kind == Value::Kind::Module && llvm::StringRef(base->name).starts_with("tf.keras")) {
      error(baseExpr->loc(), "Keras ('" + base->name + "') is not supported by agc: a layer or "
                             "model is a Python object whose weights and calls agc cannot "
                             "compile ahead of time");
      note(baseExpr->loc(), "derive from tf.Module, create the tf.Variables in __init__, and "
                            "compute with TensorFlow ops");
      return Flow::Error;
    }
    error(baseExpr->loc(), "'" + def.getName() + "' derives from " + base->describe() +
                               ", which agc does not support as a base class");
    note(baseExpr->loc(), "agc supports plain classes, their subclasses and tf.Module");
    return Flow::Error;
  }
  for (const ast::Keyword &k : def.getKeywords()) {
    error(k.loc, "class keywords (" + (k.name.empty() ? std::string("**") : k.name + "=") +
                     ") are not supported by agc");
    return Flow::Error;
  }
  if (!linearize(*cls, bases, cls)) {
    error(def.getNameLoc(), "Cannot create a consistent method resolution order (MRO) for "
                            "bases of '" + def.getName() + "'");
    return Flow::Error;
  }

  // The body, in a namespace of its own: its names are the class's attributes. Functions
  // defined there close over the module, not the namespace, as in Python.
  frames.emplace_back(nullptr, nullptr, moduleScope());
  Flow flow = execList(def.getBody());
  Frame body = std::move(frames.back());
  frames.pop_back();
  if (flow == Flow::Error)
    return Flow::Error;
  if (flow != Flow::Normal) {
    error(def.loc(), "a class body must not leave with return, break or continue");
    return Flow::Error;
  }
  // In source order of first binding (the namespace is a dict, ordered in Python).
  std::vector<std::string> order;
  std::function<void(const ast::StmtList &)> collect = [&](const ast::StmtList &stmts) {
    for (const ast::StmtPtr &stmt : stmts) {
      std::vector<ast::Identifier> names;
      boundNames(*stmt, names);
      for (const ast::Identifier &id : names)
        if (!llvm::is_contained(order, id.name))
          order.push_back(id.name);
      for (const ast::StmtList *block : ast::nestedBlocks(*stmt))
        collect(*block);
    }
  };
  collect(def.getBody());
  for (const auto &entry : body.locals)
    if (!llvm::is_contained(order, entry.getKey().str()))
      order.push_back(entry.getKey().str());
  for (const std::string &name : order) {
    auto it = body.locals.find(name);
    if (it == body.locals.end())
      continue; // deleted, or bound on a path not taken
    const Value &v = it->second;
    // A method knows its class, for super().
    const Value *fn = &v;
    if (v.kind == Value::Kind::Wrapper && !v.elements.empty())
      fn = &v.elements[0];
    if (fn->kind == Value::Kind::Function)
      methodClasses[fn->function] = cls;
    cls->setAttr(name, v);
  }
  for (const AnnotatedField &field : annotatedFields(def))
    cls->fields.push_back(field.name);
  cls->enumeration = enumeration;
  if (enumeration) {
    // enum.Enum: each name the body binds to a value (not a function, not _private) is a
    // member, an instance with .name and .value, equal only to itself.
    for (size_t k = 0; k < cls->keys.size(); ++k) {
      llvm::StringRef name = cls->keys[k].text;
      Value &v = cls->items[k];
      if (name.starts_with("_") || v.kind == Value::Kind::Function ||
          v.kind == Value::Kind::Wrapper)
        continue;
      Value member;
      member.kind = Value::Kind::Instance;
      member.object = std::make_shared<Object>();
      member.object->mro = {cls};
      member.object->setAttr("name", Value::str(name.str()));
      member.object->setAttr("value", v);
      member.boundAt = v.boundAt;
      v = std::move(member);
    }
  }
  if (cls->namedtuple) { // typing.NamedTuple: defaults from the class body, last fields only
    for (const std::string &field : cls->fields)
      if (const Value *d = cls->attr(field))
        cls->defaults.push_back(*d);
      else if (!cls->defaults.empty()) {
        error(def.getNameLoc(), "TypeError: Non-default namedtuple field " + field +
                                    " cannot follow default field");
        return Flow::Error;
      }
  } else {
    // A subclass of a namedtuple class makes the same tuples.
    for (const auto &base : bases)
      if (base->namedtuple) {
        cls->namedtuple = true;
        cls->fields = base->fields;
        cls->defaults = base->defaults;
        break;
      }
  }

  Value value;
  value.kind = Value::Kind::Class;
  value.object = cls;
  value.boundAt = def.getNameLoc();
  std::optional<Value> decorated = applyDecorators(def.getDecorators(), value, nullptr);
  if (!decorated)
    return Flow::Error;
  frame().locals[def.getName()] = std::move(*decorated);
  return Flow::Normal;
}

std::vector<AnnotatedField> Tracer::Impl::annotatedFields(const ast::ClassDefStmt &def) {
  std::vector<AnnotatedField> out;
  for (const ast::StmtPtr &stmt : def.getBody())
    if (const auto *s = dyn_cast<ast::AnnAssignStmt>(stmt.get()))
      if (const auto *name = dyn_cast<ast::NameExpr>(&s->getTarget()))
        out.push_back({name->getId().str(), s->getValue() != nullptr});
  return out;
}

std::optional<Value> Tracer::Impl::applyDecorators(const ast::ExprList &decorators, Value value,
                                                   const ast::Expr *tfFunction) {
  // Bottom-up: the one nearest the definition first.
  for (const ast::ExprPtr &decorator : llvm::reverse(decorators)) {
    if (decorator.get() == tfFunction)
      continue; // @tf.function: what agc compiles; the identity while tracing
    std::optional<Value> d = eval(*decorator);
    if (!d)
      return std::nullopt;
    std::optional<Value> out = callValue(*d, {value}, decorator->loc());
    if (!out)
      return std::nullopt;
    value = std::move(*out);
  }
  return value;
}

//===----------------------------------------------------------------------------------===//
// Instances and attributes
//===----------------------------------------------------------------------------------===//

/// TensorFlow's default name of a tf.Module: its class name in snake_case.
static std::string snakeCase(llvm::StringRef name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (llvm::isUpper(c)) {
      bool boundary = i > 0 && (llvm::isLower(name[i - 1]) || llvm::isDigit(name[i - 1]) ||
                                (i + 1 < name.size() && llvm::isLower(name[i + 1]) &&
                                 llvm::isUpper(name[i - 1])));
      if (boundary)
        out += '_';
      out += llvm::toLower(c);
    } else {
      out += c;
    }
  }
  return out;
}

std::optional<Value> Tracer::Impl::callClass(const Value &cls, const CallArgs &args) {
  Object &c = *cls.object;
  if (c.namedtuple) {
    // The fields by position or name, the last ones defaulted: a tuple of this class.
    size_t n = c.fields.size(), firstDefault = n - c.defaults.size();
    if (args.positional.size() > n)
      return error(args.loc, "TypeError: " + c.name + "() takes " + llvm::Twine(n) +
                                 " positional arguments but " +
                                 llvm::Twine(args.positional.size()) + " were given");
    for (const auto &[key, v] : args.keywords)
      if (!llvm::is_contained(c.fields, key))
        return error(args.loc, "TypeError: " + c.name + "() got an unexpected keyword "
                                   "argument '" + key + "'");
    std::vector<Value> items;
    for (size_t k = 0; k < n; ++k) {
      const Value *kw = args.get(~0u, c.fields[k]);
      if (k < args.positional.size() && kw)
        return error(args.loc, "TypeError: " + c.name + "() got multiple values for argument '" +
                                   c.fields[k] + "'");
      if (k < args.positional.size())
        items.push_back(args.positional[k]);
      else if (kw)
        items.push_back(*kw);
      else if (k >= firstDefault)
        items.push_back(c.defaults[k - firstDefault]);
      else
        return error(args.loc, "TypeError: " + c.name + "() missing required argument: '" +
                                   c.fields[k] + "'");
    }
    Value t = Value::sequence(Value::Kind::Tuple, std::move(items));
    t.object = cls.object;
    return t;
  }
  Value self;
  self.kind = Value::Kind::Instance;
  self.object = std::make_shared<Object>();
  self.object->mro = {cls.object};
  self.boundAt = args.loc;
  if (c.tfModule) {
    self.object->setAttr("_name", Value::str(snakeCase(c.name)));
    for (const auto &[key, v] : args.keywords)
      if (key == "name" && v.kind == Value::Kind::Str && !classAttribute(c, "__init__"))
        self.object->setAttr("_name", v);
  }
  const Value *init = classAttribute(c, "__init__");
  if (init && init->kind == Value::Kind::Function) {
    CallArgs withSelf = args;
    withSelf.positional.insert(withSelf.positional.begin(), self);
    UnconvertedScope python(*this, "a constructor (" + c.name + ".__init__), which Python "
                                   "calls");
    std::optional<Value> r = callValue(*init, withSelf);
    if (!r)
      return std::nullopt;
    if (r->kind != Value::Kind::None)
      return error(args.loc, "TypeError: __init__() should return None, not '" +
                                 r->typeString() + "'");
  } else if (init) {
    return error(args.loc, "'" + c.name + "'.__init__ is " + init->describe() +
                               ", which agc cannot call");
  } else if (c.dataclass) {
    if (!initDataclass(cls, self, args))
      return std::nullopt;
  } else if (c.tfModule) {
    for (const auto &[key, v] : args.keywords)
      if (key != "name")
        return error(args.loc, "tf.Module() got an unexpected keyword argument '" + key + "'");
    if (!args.positional.empty())
      return error(args.loc, "tf.Module() takes only name=");
  } else if (args.count() > 0) {
    return error(args.loc, "TypeError: " + c.name + "() takes no arguments");
  }
  return self;
}

bool Tracer::Impl::initDataclass(const Value &cls, const Value &self, const CallArgs &args) {
  // Fields of the bases first, as @dataclass collects them.
  std::vector<std::string> fields;
  std::vector<const Object *> owners;
  for (const auto &k : llvm::reverse(cls.object->mro))
    if (k->dataclass)
      for (const std::string &f : k->fields)
        if (!llvm::is_contained(fields, f)) {
          fields.push_back(f);
          owners.push_back(k.get());
        }
  const std::string &name = cls.object->name;
  if (args.positional.size() > fields.size()) {
    error(args.loc, "TypeError: " + name + ".__init__() takes " + llvm::Twine(fields.size() + 1) +
                        " positional arguments but " + llvm::Twine(args.positional.size() + 1) +
                        " were given");
    return false;
  }
  for (const auto &[key, v] : args.keywords)
    if (!llvm::is_contained(fields, key)) {
      error(args.loc, "TypeError: " + name + ".__init__() got an unexpected keyword argument '" +
                          key + "'");
      return false;
    }
  for (size_t k = 0; k < fields.size(); ++k) {
    std::optional<Value> value;
    if (k < args.positional.size())
      value = args.positional[k];
    if (const Value *kw = args.get(~0u, fields[k])) {
      if (value) {
        error(args.loc, "TypeError: " + name + ".__init__() got multiple values for argument '" +
                            fields[k] + "'");
        return false;
      }
      value = *kw;
    }
    if (!value) {
      const Value *dflt = const_cast<Object *>(owners[k])->attr(fields[k]);
      if (dflt && dflt->kind == Value::Kind::Wrapper && dflt->name == "field") {
        // field(default=...) or field(default_factory=...): elements [default, factory].
        if (dflt->elements[0].isDefined())
          value = dflt->elements[0];
        else if (dflt->elements[1].isDefined()) {
          value = callValue(dflt->elements[1], std::vector<Value>{}, args.loc);
          if (!value)
            return false;
        }
      } else if (dflt) {
        value = *dflt;
      }
    }
    if (!value) {
      error(args.loc, "TypeError: " + name + ".__init__() missing 1 required positional "
                          "argument: '" + fields[k] + "'");
      return false;
    }
    self.object->setAttr(fields[k], *value);
  }
  if (const Value *post = classAttribute(*cls.object, "__post_init__");
      post && post->kind == Value::Kind::Function) {
    std::optional<Value> r = callValue(*post, std::vector<Value>{self}, args.loc);
    if (!r)
      return false;
  }
  return true;
}

const Value *Tracer::Impl::classAttribute(Object &cls, llvm::StringRef name,
                                          size_t from, Object **owner) {
  for (size_t k = from; k < cls.mro.size(); ++k)
    if (const Value *v = cls.mro[k]->attr(name)) {
      if (owner)
        *owner = cls.mro[k].get();
      return v;
    }
  return nullptr;
}

/// The variables a tf.Module holds: its attributes sorted by name, looked into (lists,
/// tuples, dicts and other tf.Modules), as tf.Module._flatten walks them.
static void collectVariables(const Value &v, std::vector<Value> &out,
                             std::vector<const Object *> &seen) {
  switch (v.kind) {
  case Value::Kind::Variable:
    if (llvm::none_of(out, [&](const Value &o) { return o.object == v.object; }))
      out.push_back(v);
    return;
  case Value::Kind::Tuple:
  case Value::Kind::List:
    for (const Value &e : v.items())
      collectVariables(e, out, seen);
    return;
  case Value::Kind::Dict: {
    // Sorted by key, as nest flattens a dict.
    std::vector<size_t> order(v.object->keys.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::sort(order, [&](size_t a, size_t b) {
      return v.object->keys[a].pyStr(false) < v.object->keys[b].pyStr(false);
    });
    for (size_t k : order)
      collectVariables(v.object->items[k], out, seen);
    return;
  }
  case Value::Kind::Instance: {
    if (!v.object->mro.front()->tfModule || llvm::is_contained(seen, v.object.get()))
      return;
    seen.push_back(v.object.get());
    std::vector<size_t> order(v.object->keys.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::sort(order, [&](size_t a, size_t b) {
      return v.object->keys[a].text < v.object->keys[b].text;
    });
    for (size_t k : order)
      collectVariables(v.object->items[k], out, seen);
    return;
  }
  default:
    return;
  }
}

std::optional<Value> Tracer::Impl::objectAttribute(const Value &base, llvm::StringRef attr,
                                                   const Location &loc) {
  auto bind = [&](const Value &self, const Value &raw) -> std::optional<Value> {
    if (raw.kind == Value::Kind::Function) {
      Value m;
      m.kind = Value::Kind::BoundMethod;
      m.elements = {self, raw};
      return m;
    }
    if (raw.kind == Value::Kind::Wrapper) {
      if (raw.name == "property") {
        UnconvertedScope python(*this, "a property's getter, which Python calls unconverted");
        return callValue(raw.elements[0], std::vector<Value>{self}, loc);
      }
      if (raw.name == "staticmethod")
        return raw.elements[0];
      if (raw.name == "classmethod") {
        Value cls;
        cls.kind = Value::Kind::Class;
        cls.object = self.object->mro.front();
        Value m;
        m.kind = Value::Kind::BoundMethod;
        m.elements = {cls, raw.elements[0]};
        return m;
      }
    }
    return raw;
  };
  if (base.kind == Value::Kind::Tuple) { // a namedtuple
    Object &cls = *base.object;
    auto field = llvm::find(cls.fields, attr);
    if (field != cls.fields.end() && size_t(field - cls.fields.begin()) < base.elements.size())
      return base.elements[field - cls.fields.begin()];
    if (attr == "_fields") {
      std::vector<Value> names;
      for (const std::string &f : cls.fields)
        names.push_back(Value::str(f));
      return Value::sequence(Value::Kind::Tuple, std::move(names));
    }
    if (attr == "_asdict" || attr == "_replace") {
      Value m;
      m.kind = Value::Kind::Method;
      m.name = attr.str();
      m.elements.push_back(base);
      return m;
    }
    // Methods of a class that derives from the namedtuple.
    for (const auto &k : cls.mro)
      if (const Value *raw = k->attr(attr))
        return bind(base, *raw);
    return error(loc, "AttributeError: '" + cls.name + "' object has no attribute '" + attr + "'");
  }
  if (base.kind == Value::Kind::Instance) {
    if (const Value *own = base.object->attr(attr))
      return *own;
    Object &cls = *base.object->mro.front();
    if (const Value *raw = classAttribute(cls, attr))
      return bind(base, *raw);
    if (cls.tfModule) {
      if (attr == "name")
        return *base.object->attr("_name");
      if (attr == "variables" || attr == "trainable_variables") {
        std::vector<Value> vars;
        std::vector<const Object *> seen;
        collectVariables(base, vars, seen);
        return Value::sequence(Value::Kind::Tuple, std::move(vars));
      }
    }
    if (attr == "__class__") {
      Value c;
      c.kind = Value::Kind::Class;
      c.object = base.object->mro.front();
      return c;
    }
    return error(loc, "AttributeError: '" + cls.name + "' object has no attribute '" + attr +
                          "'");
  }
  if (base.kind == Value::Kind::Class) {
    if (attr == "__name__")
      return Value::str(base.object->name);
    const Value *raw = classAttribute(*base.object, attr);
    if (!raw)
      return error(loc, "AttributeError: type object '" + base.object->name +
                            "' has no attribute '" + attr + "'");
    if (raw->kind == Value::Kind::Wrapper && raw->name == "staticmethod")
      return raw->elements[0];
    if (raw->kind == Value::Kind::Wrapper && raw->name == "classmethod") {
      Value m;
      m.kind = Value::Kind::BoundMethod;
      m.elements = {base, raw->elements[0]};
      return m;
    }
    return *raw;
  }
  // super(): along the MRO of self's class, after the class the method is defined in.
  const Value &self = base.elements[0];
  Object &cls = *self.object->mro.front();
  size_t after = 0;
  while (after < cls.mro.size() && cls.mro[after] != base.elements[1].object)
    ++after;
  if (const Value *raw = classAttribute(cls, attr, after + 1))
    return bind(self, *raw);
  if (attr == "__init__" && cls.tfModule) { // tf.Module.__init__(self, name=None)
    Value init;
    init.kind = Value::Kind::Wrapper;
    init.name = "tf.Module.__init__";
    init.elements = {self};
    return init;
  }
  if (attr == "__init__")
    return Value::builtin("object.__init__");
  return error(loc, "AttributeError: 'super' object has no attribute '" + attr + "'");
}

bool Tracer::Impl::setAttribute(const Value &base, llvm::StringRef attr, const Value &value,
                                const Location &loc) {
  if (base.kind != Value::Kind::Instance && base.kind != Value::Kind::Class) {
    error(loc, "cannot set an attribute of " + base.describe() + " in traced code");
    return false;
  }
  Object &cls = base.kind == Value::Kind::Instance ? *base.object->mro.front() : *base.object;
  if (base.kind == Value::Kind::Instance && cls.frozen) {
    error(loc, "dataclasses.FrozenInstanceError: cannot assign to field '" + attr + "'");
    return false;
  }
  if (const Value *raw = classAttribute(cls, attr);
      base.kind == Value::Kind::Instance && raw && raw->kind == Value::Kind::Wrapper &&
      raw->name == "property") {
    error(loc, "AttributeError: property '" + attr + "' of '" + cls.name +
                   "' object has no setter agc supports");
    return false;
  }
  if (!mayChange(base, loc, /*store=*/true) || !mayHold(base, value, loc))
    return false;
  // A tf.Variable made for an attribute at module level is named after it.
  if (emitter && evaluatingModule && value.kind == Value::Kind::Variable)
    emitter->bound(value, attr);
  Value stored = value;
  stored.boundAt = loc;
  base.object->setAttr(attr, std::move(stored));
  return true;
}

bool Tracer::Impl::mayHold(const Value &container, const Value &value, const Location &) {
  // A module-level object outlives each trace: a tensor one traced function keeps in it is
  // forgotten when the trace ends (forgetKeptTensors), as another function cannot use it.
  if (!result || !container.object || container.object->serial >= traceFirstObject)
    return true;
  std::function<bool(const Value &, unsigned)> holdsTensor = [&](const Value &v, unsigned depth) {
    if (v.isTensor() || v.kind == Value::Kind::TensorArray)
      return true;
    if (depth > 8 || (v.kind != Value::Kind::Tuple && v.kind != Value::Kind::List &&
                      v.kind != Value::Kind::Dict))
      return false; // (a list that holds itself stops somewhere)
    return llvm::any_of(v.items(), [&](const Value &e) { return holdsTensor(e, depth + 1); });
  };
  if (holdsTensor(value, 0) && !llvm::is_contained(keptTensors, container.object))
    keptTensors.push_back(container.object);
  return true;
}

void Tracer::Impl::forgetKeptTensors(const ast::FunctionDefStmt &traced) {
  if (keptTensors.empty())
    return;
  std::vector<StoredDiagnostic> why;
  why.push_back({Severity::Note, traced.getNameLoc(),
                 "the traced function '" + traced.getName().str() + "' computed it and kept "
                 "it in a Python object made outside it; a tensor cannot leave the function "
                 "that computes it (in TensorFlow: a tensor of another graph). Return it, or "
                 "keep it in a tf.Variable (assign)"});
  refusals.push_back(std::move(why));
  const std::vector<StoredDiagnostic> *reason = &refusals.back();
  llvm::DenseSet<const Object *> seen;
  std::function<void(Value &)> forget = [&](Value &v) {
    if (v.isTensor() || v.kind == Value::Kind::TensorArray) {
      Location at = v.boundAt;
      v = Value();
      v.kind = Value::Kind::Refused;
      v.refusal = reason;
      v.name = "this tensor was computed by another traced function";
      v.boundAt = at;
      return;
    }
    if (v.kind == Value::Kind::Tuple)
      for (Value &e : v.elements)
        forget(e);
    if ((v.kind == Value::Kind::List || v.kind == Value::Kind::Dict) &&
        seen.insert(v.object.get()).second)
      for (Value &e : v.object->items)
        forget(e);
  };
  for (const std::shared_ptr<Object> &object : keptTensors)
    if (seen.insert(object.get()).second)
      for (Value &e : object->items)
        forget(e);
  keptTensors.clear();
}

//===----------------------------------------------------------------------------------===//
// Calls of classes, methods and Python's library
//===----------------------------------------------------------------------------------===//

std::optional<Value> Tracer::Impl::callObject(const Value &callee, const CallArgs &args) {
  switch (callee.kind) {
  case Value::Kind::Class:
    return callClass(callee, args);
  case Value::Kind::Instance: {
    const Value *call = classAttribute(*callee.object->mro.front(), "__call__");
    if (!call || call->kind != Value::Kind::Function)
      return error(args.loc, "TypeError: '" + callee.object->mro.front()->name +
                                 "' object is not callable");
    CallArgs withSelf = args;
    withSelf.positional.insert(withSelf.positional.begin(), callee);
    return callValue(*call, withSelf);
  }
  case Value::Kind::BoundMethod: {
    CallArgs withSelf = args;
    withSelf.positional.insert(withSelf.positional.begin(), callee.elements[0]);
    return callValue(callee.elements[1], withSelf);
  }
  case Value::Kind::Wrapper: {
    if (callee.name == "partial") {
      CallArgs merged;
      merged.loc = args.loc;
      merged.positional.assign(callee.elements.begin() + 1, callee.elements.end());
      merged.positional.insert(merged.positional.end(), args.positional.begin(),
                               args.positional.end());
      for (size_t k = 0; k < callee.object->keys.size(); ++k)
        merged.keywords.push_back({callee.object->keys[k].text, callee.object->items[k]});
      for (const auto &[key, v] : args.keywords) {
        auto same = llvm::find_if(merged.keywords, [&](const auto &kw) { return kw.first == key; });
        if (same != merged.keywords.end())
          same->second = v; // a call's keyword replaces the partial's
        else
          merged.keywords.push_back({key, v});
      }
      return callValue(callee.elements[0], merged);
    }
    if (callee.name == "dataclass") { // @dataclass(frozen=True)
      if (args.positional.size() != 1 || args.positional[0].kind != Value::Kind::Class)
        return error(args.loc, "dataclass() decorates a class");
      return makeDataclass(args.positional[0], callee.object.get(), args.loc);
    }
    if (callee.name == "tf.Module.__init__") {
      const Value *name = args.get(0, "name");
      if (args.positional.size() > 1 ||
          llvm::any_of(args.keywords, [](const auto &kw) { return kw.first != "name"; }))
        return error(args.loc, "TypeError: tf.Module.__init__() takes only name=");
      if (name && name->kind == Value::Kind::Str)
        callee.elements[0].object->setAttr("_name", *name);
      else if (name && name->kind != Value::Kind::None)
        return error(args.loc, "tf.Module's name must be a str or None, not " + name->describe());
      return Value::none();
    }
    if (callee.name == "wraps") // functools.wraps(f)(wrapper) is wrapper
      return args.positional.size() == 1
                 ? std::optional<Value>(args.positional[0])
                 : error(args.loc, "functools.wraps(...) decorates one function");
    return error(args.loc, "a " + callee.name + " object is not callable");
  }
  default:
    return error(args.loc, callee.describe() + " is not callable");
  }
}

std::optional<Value> Tracer::Impl::makeDataclass(const Value &cls, const Object *options,
                                                 const Location &loc) {
  Object &c = *cls.object;
  c.dataclass = true;
  if (options)
    for (size_t k = 0; k < options->keys.size(); ++k) {
      llvm::StringRef key = options->keys[k].text;
      std::optional<bool> on = truth(options->items[k]);
      if (key == "frozen" && on)
        c.frozen = *on;
      else if (key != "eq" && key != "repr" && key != "init" && key != "order" &&
               key != "unsafe_hash")
        return error(loc, "dataclass() option '" + key + "' is not supported by agc");
    }
  // A field without a default after one with a default, as @dataclass refuses it.
  bool sawDefault = false;
  for (const AnnotatedField &field : annotatedFields(*c.def)) {
    if (field.hasDefault)
      sawDefault = true;
    else if (sawDefault)
      return error(c.def->getNameLoc(), "TypeError: non-default argument '" + field.name +
                                            "' follows default argument");
  }
  return cls;
}

std::optional<Value> Tracer::Impl::callLibrary(llvm::StringRef path, const CallArgs &args) {
  const std::vector<Value> &pos = args.positional;
  auto wrap = [&](llvm::StringRef name, std::vector<Value> elements) {
    Value w;
    w.kind = Value::Kind::Wrapper;
    w.name = name.str();
    w.elements = std::move(elements);
    return w;
  };
  if (path == "functools.partial") {
    if (pos.empty())
      return error(args.loc, "functools.partial() needs a function");
    Value w = wrap("partial", pos);
    w.object = std::make_shared<Object>();
    for (const auto &[key, v] : args.keywords) {
      w.object->keys.push_back(Value::str(key));
      w.object->items.push_back(v);
    }
    return w;
  }
  if (path == "functools.wraps")
    return wrap("wraps", pos);
  if (path == "functools.reduce") {
    if (pos.size() < 2 || pos.size() > 3)
      return error(args.loc, "functools.reduce() takes a function, an iterable and an initial "
                             "value");
    std::optional<std::vector<Value>> items = pythonItems(pos[1], args.loc);
    if (!items)
      return std::nullopt;
    if (items->empty() && pos.size() == 2)
      return error(args.loc, "TypeError: reduce() of empty iterable with no initial value");
    Value acc = pos.size() == 3 ? pos[2] : (*items)[0];
    for (size_t k = pos.size() == 3 ? 0 : 1; k < items->size(); ++k) {
      std::optional<Value> next = callValue(pos[0], {acc, (*items)[k]}, args.loc);
      if (!next)
        return std::nullopt;
      acc = std::move(*next);
    }
    return acc;
  }
  if (path == "dataclasses.dataclass") {
    if (pos.size() == 1 && pos[0].kind == Value::Kind::Class && args.keywords.empty())
      return makeDataclass(pos[0], nullptr, args.loc);
    if (!pos.empty())
      return error(args.loc, "dataclass() decorates a class");
    Value w = wrap("dataclass", {});
    w.object = std::make_shared<Object>();
    for (const auto &[key, v] : args.keywords) {
      w.object->keys.push_back(Value::str(key));
      w.object->items.push_back(v);
    }
    return w;
  }
  if (path == "dataclasses.field") {
    const Value *dflt = args.get(~0u, "default");
    const Value *factory = args.get(~0u, "default_factory");
    for (const auto &[key, v] : args.keywords)
      if (key != "default" && key != "default_factory" && key != "repr" && key != "compare")
        return error(args.loc, "dataclasses.field() option '" + key + "' is not supported by agc");
    return wrap("field", {dflt ? *dflt : Value(), factory ? *factory : Value()});
  }
  if (path == "collections.namedtuple") {
    // namedtuple(typename, field_names, defaults=None): field names a list of str, or one
    // str of names separated by spaces or commas.
    const Value *typeName = args.get(0, "typename"), *names = args.get(1, "field_names");
    const Value *defaults = args.get(~0u, "defaults");
    if (!typeName || typeName->kind != Value::Kind::Str || !names)
      return error(args.loc, "namedtuple() takes a type name and its field names");
    auto cls = std::make_shared<Object>();
    cls->name = typeName->text;
    cls->namedtuple = true;
    cls->mro = {cls};
    if (names->kind == Value::Kind::Str) {
      llvm::SmallVector<llvm::StringRef, 4> parts;
      llvm::SplitString(names->text, parts, " ,");
      for (llvm::StringRef p : parts)
        cls->fields.push_back(p.str());
    } else {
      std::optional<std::vector<Value>> items = pythonItems(*names, args.loc);
      if (!items)
        return std::nullopt;
      for (const Value &v : *items) {
        if (v.kind != Value::Kind::Str)
          return error(args.loc, "TypeError: Type names and field names must be strings");
        cls->fields.push_back(v.text);
      }
    }
    if (defaults && defaults->kind != Value::Kind::None) {
      std::optional<std::vector<Value>> items = pythonItems(*defaults, args.loc);
      if (!items)
        return std::nullopt;
      if (items->size() > cls->fields.size())
        return error(args.loc, "TypeError: Got more default values than field names");
      cls->defaults = std::move(*items);
    }
    Value v;
    v.kind = Value::Kind::Class;
    v.object = cls;
    return v;
  }
  if (path == "dataclasses.asdict" || path == "dataclasses.astuple") {
    if (pos.size() != 1 || pos[0].kind != Value::Kind::Instance ||
        !pos[0].object->mro.front()->dataclass)
      return error(args.loc, path + "() should be called on a dataclass instance");
    std::vector<Value> keys, values;
    for (const auto &k : llvm::reverse(pos[0].object->mro.front()->mro))
      for (const std::string &f : k->fields)
        if (llvm::none_of(keys, [&](const Value &key) { return key.text == f; })) {
          keys.push_back(Value::str(f));
          values.push_back(*pos[0].object->attr(f));
        }
    if (path == "dataclasses.astuple")
      return Value::sequence(Value::Kind::Tuple, std::move(values));
    return Value::dict(std::move(keys), std::move(values));
  }
  if (std::optional<Value> v = numpyFunction(path, args))
    return v;
  if (failed)
    return std::nullopt;
  if (std::optional<Value> v = mathFunction(path, args))
    return v;
  if (failed)
    return std::nullopt;
  auto unknown = unknownModules.find(path.split('.').first.str());
  if (unknown != unknownModules.end()) {
    error(args.loc, "'" + path + "' is not supported in traced code: '" + unknown->first +
                        "' is not a module agc found nor a library it knows");
    note(args.loc, "agc looked for " + unknown->first + ".py and " + unknown->first +
                       "/__init__.py in " + unknown->second + ", in each -I directory and "
                       "along AGC_PATH; it knows tensorflow, numpy, math, functools, "
                       "dataclasses, enum, collections and typing");
    return std::nullopt;
  }
  return error(args.loc, "'" + path + "' is not supported in traced code: agc compiles "
                         "TensorFlow functions and Python, not other libraries");
}

std::optional<Value> Tracer::Impl::mathFunction(llvm::StringRef path, const CallArgs &args) {
  auto [module, name] = path.rsplit('.');
  if (module != "math" && module != "numpy")
    return std::nullopt;
  static const char *const kUnary[] = {"sqrt", "exp", "log", "log2", "log10", "sin", "cos",
                                       "tan", "tanh", "fabs", "floor", "ceil", "isnan",
                                       "isinf", "isfinite", "abs"};
  bool unary = llvm::is_contained(kUnary, name);
  if (!unary && name != "pow")
    return std::nullopt;
  const std::vector<Value> &pos = args.positional;
  size_t arity = unary ? 1 : 2;
  if (pos.size() != arity || !args.keywords.empty())
    return error(args.loc, path + "() takes " + llvm::Twine(arity) + " argument(s) here");
  for (const Value &v : pos)
    if (!v.isPyScalar())
      return error(args.loc, path + "() of " + v.describe() + (v.isTensorLike()
                                 ? " needs its value, which a tensor has only at run time; "
                                   "use tf.math." + name.str()
                                 : " is not supported by agc"));
  auto num = [](const Value &v) { return v.kind == Value::Kind::Float ? v.f : double(v.i); };
  double x = num(pos[0]);
  if (name == "isnan" || name == "isinf" || name == "isfinite")
    return Value::boolean(name == "isnan" ? std::isnan(x) : name == "isinf" ? std::isinf(x)
                                                                             : std::isfinite(x));
  if (name == "floor" || name == "ceil") {
    double r = name == "floor" ? std::floor(x) : std::ceil(x);
    if (module == "numpy")
      return Value::floating(r);
    if (!std::isfinite(r) || !(r >= -9223372036854775808.0 && r < 9223372036854775808.0))
      return error(args.loc, std::isnan(r) ? "ValueError: cannot convert float NaN to integer"
                                           : "OverflowError: cannot convert float infinity to "
                                             "integer (or one beyond 64 bits)");
    return Value::integer(int64_t(r));
  }
  if (name == "abs" && pos[0].kind != Value::Kind::Float)
    return callBuiltin("abs", args);
  bool domain = (name == "sqrt" && x < 0) ||
                ((name == "log" || name == "log2" || name == "log10") && x <= 0);
  if (domain && module == "math")
    return error(args.loc, "ValueError: math domain error");
  double r = name == "sqrt" ? std::sqrt(x) : name == "exp" ? std::exp(x)
           : name == "log" ? std::log(x) : name == "log2" ? std::log2(x)
           : name == "log10" ? std::log10(x) : name == "sin" ? std::sin(x)
           : name == "cos" ? std::cos(x) : name == "tan" ? std::tan(x)
           : name == "tanh" ? std::tanh(x) : name == "pow" ? std::pow(x, num(pos[1]))
           : std::fabs(x);
  return Value::floating(r);
}

std::optional<Value> Tracer::Impl::callClassBuiltin(llvm::StringRef name, const CallArgs &args) {
  const std::vector<Value> &pos = args.positional;
  if (name == "property" || name == "staticmethod" || name == "classmethod") {
    if (pos.size() != 1)
      return error(args.loc, name + "() takes one function");
    Value w;
    w.kind = Value::Kind::Wrapper;
    w.name = name.str();
    w.elements = {pos[0]};
    return w;
  }
  if (name == "super") {
    if (!pos.empty())
      return error(args.loc, "super() with arguments is not supported by agc; write super()");
    const ast::FunctionDefStmt *fn = frame().function;
    auto owner = fn ? methodClasses.find(fn) : methodClasses.end();
    if (owner == methodClasses.end() || fn->getParams().empty())
      return error(args.loc, "RuntimeError: super(): no arguments (call it in a method)");
    auto self = frame().locals.find(fn->getParams()[0].name);
    if (self == frame().locals.end() || self->second.kind != Value::Kind::Instance)
      return error(args.loc, "super() in a method whose first argument is not an instance is "
                             "not supported by agc");
    Value w;
    w.kind = Value::Kind::Wrapper;
    w.name = "super";
    Value cls;
    cls.kind = Value::Kind::Class;
    cls.object = owner->second;
    w.elements = {self->second, cls};
    return w;
  }
  if (name == "object.__init__") {
    if (args.count() > 0)
      return error(args.loc, "TypeError: object.__init__() takes exactly one argument (the "
                             "instance to initialize)");
    return Value::none();
  }
  if (name == "getattr" || name == "hasattr") {
    if (pos.size() < 2 || pos.size() > (name == "getattr" ? 3u : 2u) ||
        pos[1].kind != Value::Kind::Str)
      return error(args.loc, name + "() takes an object and an attribute name (a str)");
    // Whether it has it: look without reporting.
    std::vector<StoredDiagnostic> captured;
    std::vector<StoredDiagnostic> *outer = diag.setSink(&captured);
    bool wasFailed = failed;
    std::optional<Value> v = attribute(pos[0], pos[1].text, args.loc);
    diag.setSink(outer);
    failed = wasFailed;
    bool missing = !v && llvm::any_of(captured, [](const StoredDiagnostic &d) {
      return llvm::StringRef(d.message).starts_with("AttributeError") ||
             llvm::StringRef(d.message).contains("has no attribute");
    });
    if (name == "hasattr") {
      if (!v && !missing) {
        diag.report(captured);
        failed = true;
        return std::nullopt;
      }
      return Value::boolean(v.has_value());
    }
    if (v)
      return v;
    if (missing && pos.size() == 3)
      return pos[2];
    diag.report(captured);
    failed = true;
    return std::nullopt;
  }
  if (name == "setattr") {
    if (pos.size() != 3 || pos[1].kind != Value::Kind::Str)
      return error(args.loc, "setattr() takes an object, an attribute name and a value");
    if (!setAttribute(pos[0], pos[1].text, pos[2], args.loc))
      return std::nullopt;
    return Value::none();
  }
  if (name == "type") {
    if (pos.size() != 1)
      return error(args.loc, "type() with other than one argument is not supported by agc");
    if (pos[0].kind == Value::Kind::Instance) {
      Value c;
      c.kind = Value::Kind::Class;
      c.object = pos[0].object->mro.front();
      return c;
    }
    if (pos[0].isPyScalar() || pos[0].isPySequence() || pos[0].kind == Value::Kind::Str ||
        pos[0].kind == Value::Kind::Dict || pos[0].kind == Value::Kind::Set ||
        pos[0].kind == Value::Kind::None)
      return Value::builtin(pos[0].kind == Value::Kind::None ? "NoneType" : pos[0].typeString());
    return error(args.loc, "type() of " + pos[0].describe() + " is not supported by agc");
  }
  return error(args.loc, "the builtin '" + name + "' is not supported in traced code");
}
