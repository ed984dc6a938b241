//===- Value.h - What a Python name holds while agc traces a function -----===//
//
// The lattice of type inference. A Value is what tracing under tf.function would find in
// a variable: a tensor (a dtype and a shape whose dimensions may be unknown), or a Python
// value the compiler knows exactly (int, float, bool, str, None, tuple, list, dict, range), or a
// reference the compiler resolves (a module such as `tf`, a user function, a dtype, a
// tf.Variable, a tf.TensorArray, a TensorSpec, a builtin such as `range`).
//
// Python values are evaluated by the compiler, as tracing evaluates them; tensors are
// symbolic. A name bound nowhere yet is Undefined. A list or dict is a mutable Object that
// every Value referring to it shares, as Python's references do: a change through one name
// (or a callee's parameter) is seen through every other.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_ANALYSIS_VALUE_H
#define AG_FRONTEND_ANALYSIS_VALUE_H

#include "ag/frontend/AST.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ag::analysis {

struct CallScope;
struct Object;

enum class DType : uint8_t {
  Float32, Float64, Int32, Int64, Bool, String,
  Int8, Int16, UInt8, UInt16, UInt32, UInt64, Float16, BFloat16,
  Complex64, Complex128, ///< pairs of float32 / float64: (real, imaginary)
};
llvm::StringRef dtypeName(DType dtype); ///< "float32", ...
std::optional<DType> dtypeFromName(llvm::StringRef name);
/// A Python float as Python's repr prints it: 1.5, 1e-07, 3.0, inf.
std::string pythonFloat(double value);

/// "a float32", "an int32": the dtype with its article, for messages.
inline std::string aDtype(DType dtype) {
  bool vowel = dtypeName(dtype).starts_with("i");
  return (vowel ? "an " : "a ") + dtypeName(dtype).str();
}
inline bool isFloat(DType d) {
  return d == DType::Float32 || d == DType::Float64 || d == DType::Float16 ||
         d == DType::BFloat16;
}
/// Any integer dtype, signed or unsigned, of any width.
inline bool isInteger(DType d) {
  return d == DType::Int32 || d == DType::Int64 || d == DType::Int8 || d == DType::Int16 ||
         d == DType::UInt8 || d == DType::UInt16 || d == DType::UInt32 || d == DType::UInt64;
}
inline bool isComplex(DType d) { return d == DType::Complex64 || d == DType::Complex128; }
/// The dtype of a complex dtype's parts (float32 of complex64), else `d` itself.
inline DType realPart(DType d) {
  return d == DType::Complex64 ? DType::Float32 : d == DType::Complex128 ? DType::Float64 : d;
}
inline bool isUnsigned(DType d) {
  return d == DType::UInt8 || d == DType::UInt16 || d == DType::UInt32 || d == DType::UInt64;
}
/// int32 or int64: what indices, sizes and shapes are (TensorFlow's Tindices).
inline bool isIndexInteger(DType d) { return d == DType::Int32 || d == DType::Int64; }
/// Bits per element (bool: 1; a string handle: 64).
inline unsigned bitWidth(DType d) {
  switch (d) {
  case DType::Bool: return 1;
  case DType::Int8: case DType::UInt8: return 8;
  case DType::Int16: case DType::UInt16: case DType::Float16: case DType::BFloat16: return 16;
  case DType::Float32: case DType::Int32: case DType::UInt32: return 32;
  case DType::Complex128: return 128;
  default: return 64;
  }
}

/// A tensor shape: unknown rank, or a list of dimensions where -1 is unknown.
struct Shape {
  bool rankKnown = true;
  llvm::SmallVector<int64_t, 4> dims;

  static Shape unknownRank() { return Shape{false, {}}; }
  static Shape scalar() { return Shape{}; }
  static Shape of(llvm::ArrayRef<int64_t> dims) { return Shape{true, {dims.begin(), dims.end()}}; }
  unsigned rank() const { return dims.size(); }
  bool isFullyKnown() const;
  /// Whether it may hold one element: tf.cond squeezes its test, so shapes (1,) and
  /// (None,) pass while tracing (the element count is checked at run time).
  bool canBeScalar() const {
    return llvm::all_of(dims, [](int64_t d) { return d == 1 || d < 0; });
  }
  /// TensorFlow's compatibility: same rank, and equal wherever both are known.
  bool isCompatibleWith(const Shape &other) const;
  /// Whether every shape `other` admits, this admits too (this is as or less specific).
  bool admits(const Shape &other) const;
  /// The most specific shape that admits both.
  Shape join(const Shape &other) const;
  bool operator==(const Shape &other) const {
    return rankKnown == other.rankKnown && dims == other.dims;
  }
  bool operator!=(const Shape &other) const { return !(*this == other); }
  /// `(2, None)` as TensorFlow prints a TensorShape; `<unknown>` for unknown rank.
  std::string str() const;
  /// `[2, None]` as Python code writes it for tf.TensorShape(...); `None` for unknown rank.
  std::string pyList() const;
};

struct Value {
  enum class Kind : uint8_t {
    Undefined, Tensor, Int, Float, Bool, Str, None, Tuple, List, Range, Module, Function,
    DTypeRef, Variable, TensorArray, TensorSpec, Builtin, Method, Refused, Dict,
    Class,       ///< A user class (object: its namespace and MRO).
    Instance,    ///< An instance of a user class (object: its attributes and class).
    BoundMethod, ///< elements: [self, function]: `obj.method`.
    /// What a builtin wraps: name "property", "staticmethod", "classmethod" (elements:
    /// [function]), "partial" (elements: [function, args...], object: a dict of keywords),
    /// "super" (elements: [self, the class whose MRO it starts after]).
    Wrapper,
    /// A set: its object's items are its elements (distinct by Python's ==), in the order
    /// they were added (not Python's iteration order: see setIterationOrder).
    Set,
    /// A NumPy array made while tracing (np.array, np.zeros, ...): its dtype, its (known)
    /// shape, and its elements flat in `elements` (Python ints, floats or bools). TensorFlow
    /// turns one into a constant where an op takes it.
    NDArray,
    /// What tf.no_op and tf.group return (a graph Operation): it stands for them only,
    /// since code runs in program order. A function cannot return one.
    Operation,
    /// A tf.data.Dataset made while tracing (TracerData.cpp): `name` says which source or
    /// transformation ("range", "slices", "zip", "map", "take", ...), `elements` holds its
    /// input dataset and arguments; "range" keeps its element dtype in `dtype`.
    Dataset,
  };
  Kind kind = Kind::Undefined;
  // Tensor, Variable (its value), TensorArray (its elements), TensorSpec, DTypeRef, NDArray.
  DType dtype = DType::Float32;
  Shape shape;
  // Int, Bool (0/1), Range (start, stop, step in elements[0..2] as Int values).
  int64_t i = 0;
  double f = 0;
  std::string text; ///< Str: its characters.
  std::string name; ///< Module: its path ("tf.math"); Builtin, Method: the name.
  /// Tuple, Range; Method: [receiver]; Function: its parameters' default values, one per
  /// parameter (Undefined where it has none). Not a List's: read items().
  std::vector<Value> elements;
  /// List, Dict, Class, Instance: the object it refers to, shared by every copy of this
  /// Value; Variable: its identity (an empty object); Tuple: its namedtuple class, if any.
  std::shared_ptr<Object> object;
  const ast::FunctionDefStmt *function = nullptr;
  /// Function: the bindings of the call it was defined in, which it reads when it runs
  /// (Python's closure cells; owned by the Tracer); null for a function of the module,
  /// whose free names are the module's.
  const CallScope *closure = nullptr;
  /// Refused: a module-level name whose statement agc refused or could not evaluate (a
  /// Keras model, a class): why, reported where a traced function uses it. Owned by the
  /// AST or the Tracer.
  const std::vector<StoredDiagnostic> *refusal = nullptr;
  /// TensorArray: whether size is dynamic; number of elements if known (-1 otherwise).
  bool dynamicSize = false;
  int64_t size = -1;
  /// A tensor that is an argument of the traced function: its graph name ("x"), which
  /// print() shows as TensorFlow does (Tensor("x:0", ...)).
  std::string tensorName;
  /// Where this value was bound, for notes (invalid when unknown).
  Location boundAt;
  /// TensorArray: the call that created it (the key of its element shape).
  Location createdAt;
  /// Tensor, Variable, TensorArray: the code generator's handle for it (see Emitter.h),
  /// null when no Emitter is attached or the value has none.
  const void *ir = nullptr;

  static Value tensor(DType dtype, Shape shape) {
    Value v;
    v.kind = Kind::Tensor;
    v.dtype = dtype;
    v.shape = std::move(shape);
    return v;
  }
  static Value integer(int64_t i) { Value v; v.kind = Kind::Int; v.i = i; return v; }
  static Value floating(double f) { Value v; v.kind = Kind::Float; v.f = f; return v; }
  static Value boolean(bool b) { Value v; v.kind = Kind::Bool; v.i = b; return v; }
  static Value dtypeOf(DType d) { Value v; v.kind = Kind::DTypeRef; v.dtype = d; return v; }
  static Value none() { Value v; v.kind = Kind::None; return v; }
  static Value str(std::string s) { Value v; v.kind = Kind::Str; v.text = std::move(s); return v; }
  static Value module(std::string path) { Value v; v.kind = Kind::Module; v.name = std::move(path); return v; }
  static Value builtin(std::string name) { Value v; v.kind = Kind::Builtin; v.name = std::move(name); return v; }
  /// A tuple, or a new list (an Object of its own).
  static Value sequence(Kind kind, std::vector<Value> elements);
  static Value list(std::vector<Value> items) { return sequence(Kind::List, std::move(items)); }
  /// A new set of `elements` (hashable Python values; an element equal to an earlier one
  /// is dropped, as Python keeps the first).
  static Value set(const std::vector<Value> &elements);
  /// A new dict of `keys` (hashable Python values, distinct) and their `values`.
  static Value dict(std::vector<Value> keys, std::vector<Value> values);

  /// The elements of a tuple, list or range; a dict's values.
  const std::vector<Value> &items() const;

  bool isDefined() const { return kind != Kind::Undefined; }
  bool isTensor() const { return kind == Kind::Tensor; }
  /// A Python number or bool, which converts to a scalar tensor.
  bool isPyScalar() const { return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool; }
  /// A tensor, or what reads as one (a tf.Variable).
  bool isTensorLike() const { return kind == Kind::Tensor || kind == Kind::Variable; }
  bool isPySequence() const { return kind == Kind::Tuple || kind == Kind::List; }

  /// How the user would describe it: "a float32 tensor of shape (5,)", "the Python int 3".
  std::string describe() const;
  /// A short type: `float32[5]`, `int`, `tuple`, ...
  std::string typeString() const;
  /// Python's str() (or, with `repr`, repr()) of it, as print() and tf.print write a
  /// Python value: `3`, `1.5`, `True`, `[1, 'a']`; a tensor as TensorFlow shows a
  /// symbolic one while tracing.
  std::string pyStr(bool repr) const;
};

/// A mutable Python object: a list (its items), a dict (its keys and values, in insertion
/// order), a class or an instance (its attributes: str keys and their values). Values refer
/// to it through shared pointers, so that aliases see each change.
struct Object {
  Object();
  std::vector<Value> items;
  std::vector<Value> keys; ///< Dict, Class, Instance: parallel to items.
  /// Class: its name, where it is defined, and its method resolution order (itself first;
  /// Python's C3 linearization). Instance: its class (mro.front()).
  std::string name;
  const ast::ClassDefStmt *def = nullptr;
  std::vector<std::shared_ptr<Object>> mro;
  /// Class: it derives from tf.Module (its instances have name, variables, ...).
  bool tfModule = false;
  /// Class: made by @dataclass: its fields in order (each a str key of the class
  /// namespace holding its default, if any); frozen ones refuse attribute assignment.
  bool dataclass = false, frozen = false;
  std::vector<std::string> fields;
  /// Class: a namedtuple (collections.namedtuple, typing.NamedTuple): its instances are
  /// tuples (Kind::Tuple) whose `object` is the class, with `fields` as names and
  /// `defaults` for the last fields.
  bool namedtuple = false;
  std::vector<Value> defaults;
  /// Class: an enum.Enum; its members are instances with `name` and `value`.
  bool enumeration = false;
  /// Class, Instance: the attribute `name` (its own, not inherited), or null.
  Value *attr(llvm::StringRef name);
  void setAttr(llvm::StringRef name, Value value);
  /// The order objects were made in: a staged block refuses changing an object made before
  /// it (TensorFlow traces the block once, whichever way it runs).
  uint64_t serial;
  /// How many objects have been made so far (the serial of the next).
  static uint64_t made();
  /// Dict: the index of `key` (Python's ==: 1, 1.0 and True are one key), or nullopt.
  std::optional<size_t> find(const Value &key) const;
  /// Dict: `d[key] = value` (a new key goes last, an existing one keeps its place).
  void put(const Value &key, Value value);
  /// Set: the index of element `key` in items (Python's ==), or nullopt.
  std::optional<size_t> findElement(const Value &key) const;
  /// Set: adds `key` unless an equal element is there; whether it did.
  bool add(const Value &key);
};

/// Whether `v` can be a dict key (a Python number, bool, str, None, or a tuple of them);
/// a tensor is not hashable in TensorFlow 2.
bool isHashable(const Value &v);
/// Python's == on Python values (a dataclass compares its fields, other objects are equal
/// to themselves); nothing where it would compare tensors, whose == is a tensor that
/// TensorFlow cannot use as a Python bool while tracing.
std::optional<bool> pyEquals(const Value &a, const Value &b);
/// Python's == on hashable values (dict keys).
bool keyEquals(const Value &a, const Value &b);
/// The first tensor (or tf.Variable) in `v`'s nesting of lists and tuples, depth first,
/// `v` itself if it is one; null where it holds none. A list holding one converts to a
/// tensor of its dtype (TensorFlow's autopacking, _get_dtype_from_nested_lists). With
/// `accept`, the first tensor it accepts.
const Value *firstTensorIn(const Value &v,
                           llvm::function_ref<bool(const Value &)> accept = nullptr);

inline const std::vector<Value> &Value::items() const {
  return kind == Kind::List || kind == Kind::Dict || kind == Kind::Set ? object->items
                                                                          : elements;
}

/// The order Python iterates set `set` in, where agc knows it for certain: CPython places
/// an element at the slot its hash picks, and its tables have at least 8 slots, so ints
/// (and bools) from 0 to 7 come out in ascending order. nullopt otherwise (Python's order
/// then depends on the hashes, and for str on the process's hash seed).
std::optional<std::vector<Value>> setIterationOrder(const Value &set);

/// How many elements the Python range `range` (start, stop, step) yields; nullopt when
/// that count does not fit in an int64 (range(-2**63, 2**63 - 1)).
std::optional<int64_t> rangeLength(const Value &range);

/// Which dimensions tf.squeeze(x, axis) removes from a tensor of (known-rank) `shape`:
/// those `axis` names (a Python int or a list of them, negative ones counting from the
/// end), each of size 1 or unknown (then checked at run time); without an axis (null or
/// None) every dimension of size 1, which needs every size known. nullopt with `error`.
std::optional<llvm::SmallVector<bool, 4>> squeezedDims(const Shape &shape, const Value *axis,
                                                      std::string &error);

} // namespace ag::analysis

#endif // AG_FRONTEND_ANALYSIS_VALUE_H
