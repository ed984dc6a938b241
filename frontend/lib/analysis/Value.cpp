//===- Value.cpp - What a Python name holds while agc traces a function ---===//
#include "ag/frontend/analysis/Value.h"

#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace ag;
using namespace ag::analysis;

llvm::StringRef ag::analysis::dtypeName(DType dtype) {
  switch (dtype) {
  case DType::Float32: return "float32";
  case DType::Float64: return "float64";
  case DType::Int32: return "int32";
  case DType::Int64: return "int64";
  case DType::Bool: return "bool";
  case DType::String: return "string";
  case DType::Int8: return "int8";
  case DType::Int16: return "int16";
  case DType::UInt8: return "uint8";
  case DType::UInt16: return "uint16";
  case DType::UInt32: return "uint32";
  case DType::UInt64: return "uint64";
  case DType::Float16: return "float16";
  case DType::BFloat16: return "bfloat16";
  case DType::Complex64: return "complex64";
  case DType::Complex128: return "complex128";
  }
  llvm_unreachable("unknown DType");
}

std::optional<DType> ag::analysis::dtypeFromName(llvm::StringRef name) {
  for (DType d : {DType::Float32, DType::Float64, DType::Int32, DType::Int64, DType::Bool,
                  DType::String, DType::Int8, DType::Int16, DType::UInt8, DType::UInt16,
                  DType::UInt32, DType::UInt64, DType::Float16, DType::BFloat16,
                  DType::Complex64, DType::Complex128})
    if (dtypeName(d) == name)
      return d;
  if (name == "double")
    return DType::Float64;
  if (name == "half")
    return DType::Float16;
  return std::nullopt;
}

std::string ag::analysis::pythonFloat(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  // The shortest %g form that reads back as the same double, as Python's repr prints it.
  char buffer[64];
  for (int precision = 1; precision <= 17; ++precision) {
    snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value)
      break;
  }
  std::string text = buffer;
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0";
  return text;
}

bool Shape::isFullyKnown() const {
  return rankKnown && llvm::all_of(dims, [](int64_t d) { return d >= 0; });
}

bool Shape::isCompatibleWith(const Shape &other) const {
  if (!rankKnown || !other.rankKnown)
    return true;
  if (rank() != other.rank())
    return false;
  for (unsigned i = 0; i < rank(); ++i)
    if (dims[i] >= 0 && other.dims[i] >= 0 && dims[i] != other.dims[i])
      return false;
  return true;
}

bool Shape::admits(const Shape &other) const {
  if (!rankKnown)
    return true;
  if (!other.rankKnown || rank() != other.rank())
    return false;
  for (unsigned i = 0; i < rank(); ++i)
    if (dims[i] >= 0 && dims[i] != other.dims[i])
      return false;
  return true;
}

Shape Shape::join(const Shape &other) const {
  if (!rankKnown || !other.rankKnown || rank() != other.rank())
    return unknownRank();
  Shape out = *this;
  for (unsigned i = 0; i < rank(); ++i)
    if (dims[i] != other.dims[i])
      out.dims[i] = -1;
  return out;
}

std::string Shape::str() const {
  if (!rankKnown)
    return "<unknown>";
  std::string out = "(";
  for (unsigned i = 0; i < rank(); ++i) {
    if (i)
      out += ", ";
    out += dims[i] < 0 ? "None" : std::to_string(dims[i]);
  }
  if (rank() == 1)
    out += ",";
  return out + ")";
}

std::string Shape::pyList() const {
  if (!rankKnown)
    return "None";
  std::string out = "[";
  for (unsigned i = 0; i < rank(); ++i)
    out += (i ? ", " : "") + (dims[i] < 0 ? std::string("None") : std::to_string(dims[i]));
  return out + "]";
}

std::string Value::typeString() const {
  switch (kind) {
  case Kind::Undefined: return "undefined";
  case Kind::Tensor: {
    std::string out = dtypeName(dtype).str();
    if (!shape.rankKnown)
      return out + "[...]";
    out += "[";
    for (unsigned i = 0; i < shape.rank(); ++i)
      out += (i ? "," : "") + (shape.dims[i] < 0 ? std::string("?") : std::to_string(shape.dims[i]));
    return out + "]";
  }
  case Kind::Int: return "int";
  case Kind::Float: return "float";
  case Kind::Bool: return "bool";
  case Kind::Str: return "str";
  case Kind::None: return "None";
  case Kind::Tuple: return "tuple";
  case Kind::List: return "list";
  case Kind::Range: return "range";
  case Kind::Module: return "module";
  case Kind::Function: return "function";
  case Kind::DTypeRef: return "dtype";
  case Kind::Variable: return "tf.Variable";
  case Kind::TensorArray: return "tf.TensorArray";
  case Kind::TensorSpec: return "tf.TensorSpec";
  case Kind::Builtin: return "builtin";
  case Kind::Method: return "method";
  case Kind::Refused: return "refused";
  case Kind::Dict: return "dict";
  case Kind::Class: return "class";
  case Kind::Instance: return object->mro.front()->name;
  case Kind::BoundMethod: return "method";
  case Kind::Wrapper: return name;
  case Kind::Set: return "set";
  case Kind::NDArray: return "numpy.ndarray";
  case Kind::Operation: return "Operation";
  case Kind::Dataset: return "tf.data.Dataset";
  }
  llvm_unreachable("unknown Value::Kind");
}

std::string Value::describe() const {
  switch (kind) {
  case Kind::Tensor:
    return aDtype(dtype) + " tensor of shape " + shape.str();
  case Kind::Variable:
    return aDtype(dtype) + " tf.Variable of shape " + shape.str();
  case Kind::Int: return "the Python int " + std::to_string(i);
  case Kind::Float: return "the Python float " + pythonFloat(f);
  case Kind::Bool: return std::string("the Python bool ") + (i ? "True" : "False");
  case Kind::Str: return "the Python str '" + text + "'";
  case Kind::None: return "None";
  case Kind::Undefined: return "undefined";
  case Kind::Module: return "the module '" + name + "'";
  case Kind::Function: return "the function '" + function->getName().str() + "'";
  case Kind::Class: return "the class '" + object->name + "'";
  case Kind::Instance: return "a '" + object->mro.front()->name + "' object";
  case Kind::NDArray:
    return "a NumPy " + dtypeName(dtype).str() + " array of shape " + shape.str();
  case Kind::Operation:
    return "an Operation (what tf.no_op and tf.group return)";
  case Kind::Dataset:
    return "a tf.data.Dataset";
  case Kind::BoundMethod:
    return "the method '" + elements[1].function->getName().str() + "' of " +
           elements[0].describe();
  default:
    return "a Python " + typeString();
  }
}

std::string Value::pyStr(bool repr) const {
  const Value &v = *this;
  switch (v.kind) {
  case Value::Kind::Int: return std::to_string(v.i);
  case Value::Kind::Bool: return v.i ? "True" : "False";
  case Value::Kind::Float: return pythonFloat(v.f);
  case Value::Kind::Str: return repr ? "'" + v.text + "'" : v.text;
  case Value::Kind::None: return "None";
  case Value::Kind::Tuple:
    if (v.object && v.object->namedtuple) { // Point(x=1, y=2)
      std::string out = v.object->name + "(";
      for (size_t i = 0; i < v.elements.size() && i < v.object->fields.size(); ++i)
        out += (i ? ", " : "") + v.object->fields[i] + "=" + v.elements[i].pyStr(true);
      return out + ")";
    }
    [[fallthrough]];
  case Value::Kind::List: {
    std::string out = v.kind == Value::Kind::Tuple ? "(" : "[";
    const std::vector<Value> &items = v.items();
    for (size_t i = 0; i < items.size(); ++i)
      out += (i ? ", " : "") + items[i].pyStr(true);
    if (v.kind == Value::Kind::Tuple && items.size() == 1)
      out += ",";
    return out + (v.kind == Value::Kind::Tuple ? ")" : "]");
  }
  case Value::Kind::Class:
    return "<class '" + v.object->name + "'>";
  case Value::Kind::Instance: {
    const Object &cls = *v.object->mro.front();
    if (cls.enumeration) // Color.RED
      if (const Value *name = const_cast<Object &>(*v.object).attr("name"))
        return cls.name + "." + name->text;
    if (!cls.dataclass)
      return "<" + cls.name + " object>";
    std::string out = cls.name + "(";
    for (size_t i = 0; i < cls.fields.size(); ++i) {
      const Value *field = const_cast<Object &>(*v.object).attr(cls.fields[i]);
      out += (i ? ", " : "") + cls.fields[i] + "=" + (field ? field->pyStr(true) : "?");
    }
    return out + ")";
  }
  case Value::Kind::Set: {
    if (v.object->items.empty())
      return "set()";
    // Python's order where agc knows it (the tracer refuses to print the others).
    std::vector<Value> items = setIterationOrder(v).value_or(v.object->items);
    std::string out = "{";
    for (size_t i = 0; i < items.size(); ++i)
      out += (i ? ", " : "") + items[i].pyStr(true);
    return out + "}";
  }
  case Value::Kind::Dict: {
    std::string out = "{";
    for (size_t i = 0; i < v.object->keys.size(); ++i)
      out += (i ? ", " : "") + v.object->keys[i].pyStr(true) + ": " +
             v.object->items[i].pyStr(true);
    return out + "}";
  }
  case Value::Kind::Tensor:
  case Value::Kind::Variable:
    // An argument prints with its graph name, as in TensorFlow; other tensors' names
    // depend on TensorFlow's op naming, which agc does not reproduce.
    return "Tensor(" + (v.tensorName.empty() ? "" : "\"" + v.tensorName + ":0\", ") +
           "shape=" + v.shape.str() + ", dtype=" + dtypeName(v.dtype).str() + ")";
  default:
    return "<" + v.typeString() + ">";
  }
}

static uint64_t objectsMade = 0;

Object::Object() : serial(objectsMade++) {}
uint64_t Object::made() { return objectsMade; }

std::optional<size_t> Object::find(const Value &key) const {
  for (size_t k = 0; k < keys.size(); ++k)
    if (keyEquals(keys[k], key))
      return k;
  return std::nullopt;
}

Value *Object::attr(llvm::StringRef name) {
  for (size_t k = 0; k < keys.size(); ++k)
    if (keys[k].kind == Value::Kind::Str && keys[k].text == name)
      return &items[k];
  return nullptr;
}

void Object::setAttr(llvm::StringRef name, Value value) {
  put(Value::str(name.str()), std::move(value));
}

void Object::put(const Value &key, Value value) {
  if (std::optional<size_t> k = find(key)) {
    items[*k] = std::move(value);
    return;
  }
  keys.push_back(key);
  items.push_back(std::move(value));
}

Value Value::sequence(Kind kind, std::vector<Value> elements) {
  Value v;
  v.kind = kind;
  if (kind == Kind::List) {
    v.object = std::make_shared<Object>();
    v.object->items = std::move(elements);
  } else {
    v.elements = std::move(elements);
  }
  return v;
}

Value Value::set(const std::vector<Value> &elements) {
  Value v;
  v.kind = Kind::Set;
  v.object = std::make_shared<Object>();
  for (const Value &e : elements)
    v.object->add(e);
  return v;
}

std::optional<size_t> Object::findElement(const Value &key) const {
  for (size_t k = 0; k < items.size(); ++k)
    if (keyEquals(items[k], key))
      return k;
  return std::nullopt;
}

bool Object::add(const Value &key) {
  if (findElement(key))
    return false;
  items.push_back(key);
  return true;
}

std::optional<std::vector<Value>> ag::analysis::setIterationOrder(const Value &set) {
  std::vector<Value> out = set.object->items;
  for (const Value &e : out)
    if ((e.kind != Value::Kind::Int && e.kind != Value::Kind::Bool) || e.i < 0 || e.i > 7)
      return std::nullopt;
  llvm::sort(out, [](const Value &a, const Value &b) { return a.i < b.i; });
  return out;
}

Value Value::dict(std::vector<Value> keys, std::vector<Value> values) {
  Value v;
  v.kind = Kind::Dict;
  v.object = std::make_shared<Object>();
  v.object->keys = std::move(keys);
  v.object->items = std::move(values);
  return v;
}

bool ag::analysis::isHashable(const Value &v) {
  switch (v.kind) {
  case Value::Kind::Int: case Value::Kind::Float: case Value::Kind::Bool:
  case Value::Kind::Str: case Value::Kind::None: case Value::Kind::DTypeRef:
    return true;
  case Value::Kind::Tuple:
    return llvm::all_of(v.elements, isHashable);
  default:
    return false;
  }
}

/// Python's == on Python values; nothing where it would compare tensors (whose == is a
/// tensor: TensorFlow cannot use it as a Python bool while tracing).
std::optional<bool> ag::analysis::pyEquals(const Value &a, const Value &b) {
  if (a.isTensorLike() || b.isTensorLike())
    return std::nullopt;
  if (a.object && a.object == b.object)
    return true;
  if (a.isPyScalar() && b.isPyScalar()) {
    if (a.kind != Value::Kind::Float && b.kind != Value::Kind::Float)
      return a.i == b.i;
    return (a.kind == Value::Kind::Float ? a.f : double(a.i)) ==
           (b.kind == Value::Kind::Float ? b.f : double(b.i));
  }
  if (a.kind != b.kind)
    return false;
  switch (a.kind) {
  case Value::Kind::Str: return a.text == b.text;
  case Value::Kind::None: return true;
  case Value::Kind::DTypeRef: return a.dtype == b.dtype;
  case Value::Kind::Range:
    return a.elements[0].i == b.elements[0].i && a.elements[1].i == b.elements[1].i &&
           a.elements[2].i == b.elements[2].i;
  case Value::Kind::Function: return a.function == b.function && a.closure == b.closure;
  case Value::Kind::Module: case Value::Kind::Builtin: return a.name == b.name;
  case Value::Kind::Tuple:
  case Value::Kind::List: {
    const std::vector<Value> &x = a.items(), &y = b.items();
    if (x.size() != y.size())
      return false;
    for (size_t k = 0; k < x.size(); ++k) {
      std::optional<bool> eq = pyEquals(x[k], y[k]);
      if (!eq || !*eq)
        return eq;
    }
    return true;
  }
  case Value::Kind::Set: {
    const Object &x = *a.object, &y = *b.object;
    if (x.items.size() != y.items.size())
      return false;
    return llvm::all_of(x.items, [&](const Value &e) { return y.findElement(e).has_value(); });
  }
  case Value::Kind::Dict: {
    const Object &x = *a.object, &y = *b.object;
    if (x.keys.size() != y.keys.size())
      return false;
    for (size_t k = 0; k < x.keys.size(); ++k) {
      std::optional<size_t> j = y.find(x.keys[k]);
      if (!j)
        return false;
      std::optional<bool> eq = pyEquals(x.items[k], y.items[*j]);
      if (!eq || !*eq)
        return eq;
    }
    return true;
  }
  case Value::Kind::Instance: {
    // A dataclass compares its fields, as the __eq__ @dataclass writes; other objects are
    // equal only to themselves.
    const Object &cls = *a.object->mro.front();
    if (!cls.dataclass || b.object->mro.front() != a.object->mro.front())
      return false;
    for (const auto &k : cls.mro)
      for (const std::string &field : k->fields) {
        const Value *x = a.object->attr(field), *y = b.object->attr(field);
        if (!x || !y)
          return false;
        std::optional<bool> eq = pyEquals(*x, *y);
        if (!eq || !*eq)
          return eq;
      }
    return true;
  }
  default:
    return false; // distinct objects
  }
}

bool ag::analysis::keyEquals(const Value &a, const Value &b) {
  return pyEquals(a, b).value_or(false);
}

std::optional<int64_t> ag::analysis::rangeLength(const Value &range) {
  // In 128 bits, where stop - start cannot overflow.
  __int128 start = range.elements[0].i, stop = range.elements[1].i, step = range.elements[2].i;
  __int128 count = step > 0 ? (stop > start ? (stop - start + step - 1) / step : 0)
                            : (start > stop ? (start - stop - step - 1) / -step : 0);
  if (count > INT64_MAX)
    return std::nullopt;
  return int64_t(count);
}

std::optional<llvm::SmallVector<bool, 4>>
ag::analysis::squeezedDims(const Shape &shape, const Value *axis, std::string &error) {
  int64_t rank = shape.rank();
  llvm::SmallVector<bool, 4> out(rank, false);
  if (!axis || axis->kind == Value::Kind::None) {
    for (int64_t d = 0; d < rank; ++d) {
      if (shape.dims[d] < 0) {
        error = "tf.squeeze without axis= of a tensor of shape " + shape.str() +
                ": whether dimension " + std::to_string(d) + " has size 1 is known only at "
                "run time, and so is the result's rank; name the dimensions with axis=";
        return std::nullopt;
      }
      out[d] = shape.dims[d] == 1;
    }
    return out;
  }
  llvm::ArrayRef<Value> axes = axis->isPySequence() ? llvm::ArrayRef<Value>(axis->items())
                                                    : llvm::ArrayRef<Value>(axis, 1);
  for (const Value &a : axes) {
    if (a.kind != Value::Kind::Int) {
      error = "tf.squeeze: axis must be Python ints, not " + a.describe();
      return std::nullopt;
    }
    if (a.i < -rank || a.i >= rank) {
      error = "tf.squeeze: axis " + std::to_string(a.i) + " is out of range for rank " +
              std::to_string(rank);
      return std::nullopt;
    }
    int64_t d = a.i < 0 ? a.i + rank : a.i;
    if (shape.dims[d] > 1 || shape.dims[d] == 0) {
      error = "tf.squeeze: cannot squeeze dimension " + std::to_string(d) + " of shape " +
              shape.str() + ": its size is " + std::to_string(shape.dims[d]) + ", not 1";
      return std::nullopt;
    }
    out[d] = true;
  }
  return out;
}

const Value *analysis::firstTensorIn(const Value &v,
                                     llvm::function_ref<bool(const Value &)> accept) {
  if (v.isTensorLike())
    return !accept || accept(v) ? &v : nullptr;
  if (v.isPySequence())
    for (const Value &e : v.items())
      if (const Value *t = firstTensorIn(e, accept))
        return t;
  return nullptr;
}
