//===- TracerCalls.cpp - Calls, builtins, attributes and subscripts -------------===//
//
// A call goes to a user function (traced inline), a Python builtin, a tf function
// (TFOps.cpp) or a method (TracerMethods.cpp); subscripts of Python sequences are
// evaluated, subscripts of tensors typed and handed to the Emitter.
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>

using namespace ag;
using namespace ag::analysis;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

//===----------------------------------------------------------------------------------===//
// Calls, attributes, subscripts
//===----------------------------------------------------------------------------------===//

std::optional<Value> Tracer::Impl::call(const Value &callee, const CallArgs &args,
                                        const ast::CallExpr &expr) {
  switch (callee.kind) {
  case Value::Kind::Function:
  case Value::Kind::Module:
  case Value::Kind::Builtin:
  case Value::Kind::Class:
  case Value::Kind::Instance:
  case Value::Kind::BoundMethod:
  case Value::Kind::Wrapper:
    return callValue(callee, args);
  case Value::Kind::Method:
    return callMethod(callee, args, expr);
  default:
    return error(expr.getCallee().loc(), callee.describe() + " is not callable");
  }
}

/// Python's float(str) and int(str): decimal text with optional sign and surrounding
/// white space; float also takes "nan", "inf" and "infinity" in any case.
std::optional<Value> Tracer::Impl::parseNumber(llvm::StringRef name, llvm::StringRef text,
                                               const Location &loc) {
  std::string trimmed = text.trim().str();
  std::string lower = llvm::StringRef(trimmed).lower();
  llvm::StringRef body = llvm::StringRef(lower).ltrim("+-");
  bool decimal = !body.empty() && body.find_first_not_of("0123456789._e+-") == llvm::StringRef::npos;
  if (name == "int") {
    int64_t i = 0;
    llvm::StringRef digits = llvm::StringRef(trimmed).starts_with("+") ? llvm::StringRef(trimmed).drop_front() : llvm::StringRef(trimmed);
    if (!digits.empty() && digits.find_first_not_of("-0123456789") == llvm::StringRef::npos &&
        !digits.getAsInteger(10, i))
      return Value::integer(i);
    return error(loc, "invalid literal for int() with base 10: '" + text + "' (or one outside "
                      "the 64 bits in which agc evaluates Python ints)");
  }
  if (decimal || body == "nan" || body == "inf" || body == "infinity") {
    char *end = nullptr;
    double x = std::strtod(trimmed.c_str(), &end);
    if (end && *end == '\0')
      return Value::floating(x);
  }
  return error(loc, "could not convert string to float: '" + text + "'");
}

std::optional<Value> Tracer::Impl::callBuiltin(llvm::StringRef name, const CallArgs &args) {
  auto py = [&](size_t i) -> const Value & { return args.positional[i]; };
  size_t n = args.positional.size();
  if (name == "print") {
    std::string line;
    for (size_t i = 0; i < n; ++i) {
      if (!checkPrintable(py(i), args.loc))
        return std::nullopt;
      line += (i ? " " : "") + py(i).pyStr(false);
    }
    if (result)
      result->printed.push_back(line);
    return Value::none();
  }
  if (name == "range") {
    if (n < 1 || n > 3)
      return error(args.loc, "range expected 1 to 3 arguments, got " + llvm::Twine(n));
    if (llvm::any_of(args.positional, [](const Value &v) { return v.isTensorLike(); })) {
      // range over a tensor bound is tf.range: a staged loop.
      return callTF("tf.range", args);
    }
    for (size_t i = 0; i < n; ++i)
      if (py(i).kind != Value::Kind::Int && py(i).kind != Value::Kind::Bool)
        return error(args.loc, "range() arguments must be integers, not " + py(i).describe());
    int64_t start = n >= 2 ? py(0).i : 0, stop = n >= 2 ? py(1).i : py(0).i,
            step = n == 3 ? py(2).i : 1;
    if (step == 0)
      return error(args.loc, "range() arg 3 must not be zero");
    return Value::sequence(Value::Kind::Range,
                           {Value::integer(start), Value::integer(stop), Value::integer(step)});
  }
  if (name == "len") {
    if (n != 1)
      return error(args.loc, "len() takes exactly one argument");
    const Value &v = py(0);
    if (v.isPySequence() || v.kind == Value::Kind::Dict || v.kind == Value::Kind::Set)
      return Value::integer(v.items().size());
    if (v.kind == Value::Kind::NDArray) {
      if (v.shape.rank() == 0)
        return error(args.loc, "TypeError: len() of unsized object");
      return Value::integer(v.shape.dims[0]);
    }
    if (v.kind == Value::Kind::Str)
      return Value::integer(v.text.size());
    if (v.kind == Value::Kind::Range) {
      std::optional<int64_t> count = rangeLength(v);
      if (!count)
        return error(args.loc, intOverflow("len() of this range"));
      return Value::integer(*count);
    }
    if (v.isTensorLike()) {
      if (!v.shape.rankKnown || v.shape.rank() == 0)
        return error(args.loc, "len() of " + v.describe() + " is not defined");
      if (v.shape.dims[0] >= 0)
        return Value::integer(v.shape.dims[0]);
      return Value::tensor(DType::Int32, Shape::scalar()); // tf.shape(x)[0]
    }
    return error(args.loc, "len() of " + v.describe() + " is not defined");
  }
  if (name == "int" || name == "float" || name == "bool" || name == "abs" || name == "str") {
    if (n != 1)
      return error(args.loc, name + "() takes one argument here");
    const Value &v = py(0);
    if (v.isTensorLike()) {
      if (name == "abs")
        return callTF("tf.math.abs", args);
      // AutoGraph's int_ and float_ are casts (to int32 and float32), elementwise.
      if (name == "int" || name == "float") {
        Value dtype;
        dtype.kind = Value::Kind::DTypeRef;
        dtype.dtype = name == "int" ? DType::Int32 : DType::Float32;
        CallArgs cast;
        cast.positional = {v, dtype};
        cast.loc = args.loc;
        return callTF("tf.cast", cast);
      }
      return error(args.loc, name + "() of " + v.describe() + " needs its value, which a "
                             "tensor has only at run time; use tf.cast");
    }
    if (name == "str")
      return checkPrintable(v, args.loc) ? std::optional<Value>(Value::str(v.pyStr(false)))
                                         : std::nullopt;
    if (v.kind == Value::Kind::Str && (name == "float" || name == "int"))
      return parseNumber(name, v.text, args.loc);
    if (!v.isPyScalar())
      return error(args.loc, name + "() of " + v.describe() + " is not supported");
    double x = v.kind == Value::Kind::Float ? v.f : double(v.i);
    if (name == "int") {
      if (v.kind != Value::Kind::Float)
        return Value::integer(v.i);
      if (std::isnan(x))
        return error(args.loc, "cannot convert float NaN to integer");
      // Every double in [-2^63, 2^63) truncates to an int64.
      if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0))
        return error(args.loc, intOverflow("int(" + pythonFloat(x) + ")"));
      return Value::integer(int64_t(x));
    }
    if (name == "float")
      return Value::floating(x);
    if (name == "bool")
      return Value::boolean(x != 0);
    if (v.kind == Value::Kind::Float)
      return Value::floating(std::fabs(v.f));
    if (v.i == INT64_MIN)
      return error(args.loc, intOverflow("abs(" + std::to_string(v.i) + ")"));
    return Value::integer(v.i < 0 ? -v.i : v.i);
  }
  if (name == "min" || name == "max") {
    std::vector<Value> items = args.positional;
    if (n == 1) {
      std::optional<std::vector<Value>> inner = itemsInAnyOrder(py(0), args.loc);
      if (!inner)
        return std::nullopt;
      items = std::move(*inner);
    }
    if (items.empty())
      return error(args.loc, name + "() of an empty sequence");
    if (llvm::any_of(items, [](const Value &v) { return v.isTensorLike(); }))
      return error(args.loc, name + "() compares values, which tensors have only at run "
                             "time; use tf.minimum / tf.maximum");
    Value best = items[0];
    for (const Value &v : items) {
      std::optional<Value> less = compare(ast::CmpOp::Lt, v, best, args.loc);
      if (!less)
        return std::nullopt;
      if ((less->i != 0) == (name == "min"))
        best = v;
    }
    return best;
  }
  if (name == "dict") {
    Value out = Value::dict({}, {});
    if (n > 1)
      return error(args.loc, "dict() takes at most one positional argument");
    CallArgs update = args;
    update.positional.clear();
    if (n == 1)
      update.positional.push_back(py(0));
    if (!dictMethod(out, "update", update))
      return std::nullopt;
    return out;
  }
  if (name == "round") {
    if (n < 1 || n > 2)
      return error(args.loc, "round() takes a number and, optionally, a number of digits");
    const Value &v = py(0);
    if (v.isTensorLike())
      return error(args.loc, "round() of " + v.describe() + " needs its value, which a tensor "
                             "has only at run time; use tf.round");
    if (!v.isPyScalar() || (n == 2 && py(1).kind != Value::Kind::Int &&
                            py(1).kind != Value::Kind::None))
      return error(args.loc, "round() takes a Python number and an int, not " + v.describe());
    bool digits = n == 2 && py(1).kind == Value::Kind::Int;
    if (v.kind != Value::Kind::Float) // an int rounds to itself (to tens with digits < 0)
      return digits && py(1).i < 0
                 ? error(args.loc, "round() of an int to negative digits is not supported by agc")
                 : std::optional<Value>(Value::integer(v.i));
    if (!digits) {
      if (!std::isfinite(v.f))
        return error(args.loc, std::isnan(v.f) ? "cannot convert float NaN to integer"
                                                : "cannot convert float infinity to integer");
      double r = std::nearbyint(v.f); // round half to even, as Python does
      if (!(r >= -9223372036854775808.0 && r < 9223372036854775808.0))
        return error(args.loc, intOverflow("round(" + pythonFloat(v.f) + ")"));
      return Value::integer(int64_t(r));
    }
    // Python rounds the exact decimal value of the double; printing it with the digits
    // asked for rounds that way too (correctly rounded, half to even on exact ties).
    if (py(1).i < 0)
      return error(args.loc, "round() to negative digits is not supported by agc");
    if (!std::isfinite(v.f))
      return Value::floating(v.f);
    int places = int(std::min<int64_t>(py(1).i, 400));
    std::string text(std::snprintf(nullptr, 0, "%.*f", places, v.f) + 1, '\0');
    std::snprintf(text.data(), text.size(), "%.*f", places, v.f);
    return Value::floating(std::strtod(text.c_str(), nullptr));
  }
  if (name == "set") {
    if (n > 1)
      return error(args.loc, "set() takes at most one argument");
    std::optional<std::vector<Value>> items =
        n == 0 ? std::optional<std::vector<Value>>(std::vector<Value>())
               : itemsInAnyOrder(py(0), args.loc);
    return items ? makeSet(*items, args.loc) : std::nullopt;
  }
  if (name == "tuple" || name == "list") {
    if (n == 0)
      return Value::sequence(name == "tuple" ? Value::Kind::Tuple : Value::Kind::List, {});
    std::optional<std::vector<Value>> items = pythonItems(py(0), args.loc);
    if (!items)
      return std::nullopt;
    return Value::sequence(name == "tuple" ? Value::Kind::Tuple : Value::Kind::List,
                           std::move(*items));
  }
  return callIterableBuiltin(name, args);
}

std::optional<Value> Tracer::Impl::callValue(const Value &fn, const CallArgs &args) {
  switch (fn.kind) {
  case Value::Kind::Function:
    return callFunction(*fn.function, fn.closure, args, &fn.elements);
  case Value::Kind::Builtin:
    return callBuiltin(fn.name, args);
  case Value::Kind::Module:
    if (llvm::StringRef(fn.name).starts_with("tf."))
      return callTF(fn.name, args);
    return callLibrary(fn.name, args);
  case Value::Kind::Class:
  case Value::Kind::Instance:
  case Value::Kind::BoundMethod:
  case Value::Kind::Wrapper:
    return callObject(fn, args);
  default:
    return error(args.loc, fn.describe() + " is not a function agc can call here");
  }
}

std::optional<Value> Tracer::Impl::callValue(const Value &fn, std::vector<Value> operands,
                                             const Location &loc) {
  CallArgs args;
  args.positional = std::move(operands);
  args.loc = loc;
  return callValue(fn, args);
}

std::optional<Value> Tracer::Impl::callIterableBuiltin(llvm::StringRef name,
                                                       const CallArgs &args) {
  auto py = [&](size_t i) -> const Value & { return args.positional[i]; };
  size_t n = args.positional.size();
  auto itemsOf = [&](size_t i) { return pythonItems(py(i), args.loc); };
  auto list = [](std::vector<Value> items) {
    return Value::sequence(Value::Kind::List, std::move(items));
  };
  if (name == "sum") {
    if (n < 1 || n > 2)
      return error(args.loc, "sum() takes an iterable and an optional start");
    // Ints add up the same in any order (floats do not: a set's order matters then).
    bool ints = py(0).kind == Value::Kind::Set &&
                llvm::all_of(py(0).items(), [](const Value &v) {
                  return v.kind == Value::Kind::Int || v.kind == Value::Kind::Bool;
                });
    std::optional<std::vector<Value>> items = ints ? itemsInAnyOrder(py(0), args.loc) : itemsOf(0);
    if (!items)
      return std::nullopt;
    const Value *start = args.get(1, "start");
    Value acc = start ? *start : Value::integer(0);
    for (const Value &v : *items) {
      std::optional<Value> next = binary(ast::BinaryOp::Add, acc, v, args.loc);
      if (!next)
        return std::nullopt;
      acc = std::move(*next);
    }
    return acc;
  }
  if (name == "any" || name == "all") {
    if (n != 1)
      return error(args.loc, name + "() takes one argument");
    std::optional<std::vector<Value>> items = itemsInAnyOrder(py(0), args.loc);
    if (!items)
      return std::nullopt;
    bool isAll = name == "all";
    for (const Value &v : *items) {
      std::optional<bool> t = truth(v);
      if (!t)
        return error(args.loc, name + "() needs Python bools, but an item is " + v.describe() +
                                   ", known only at run time; use tf.reduce_" +
                                   (isAll ? "all" : "any") + " on a stacked tensor");
      if (*t != isAll)
        return Value::boolean(!isAll);
    }
    return Value::boolean(isAll);
  }
  if (name == "reversed") {
    std::optional<std::vector<Value>> items = n == 1 ? itemsOf(0) : std::nullopt;
    if (!items)
      return n == 1 ? std::nullopt : error(args.loc, "reversed() takes one argument");
    std::reverse(items->begin(), items->end());
    return list(std::move(*items));
  }
  if (name == "enumerate") {
    std::optional<std::vector<Value>> items = n >= 1 ? itemsOf(0) : std::nullopt;
    if (!items)
      return n >= 1 ? std::nullopt : error(args.loc, "enumerate() takes an iterable");
    const Value *start = args.get(1, "start");
    if (start && start->kind != Value::Kind::Int)
      return error(args.loc, "enumerate(): start must be a Python int, not " + start->describe());
    std::vector<Value> out;
    int64_t k = start ? start->i : 0;
    for (Value &v : *items)
      out.push_back(Value::sequence(Value::Kind::Tuple, {Value::integer(k++), std::move(v)}));
    return list(std::move(out));
  }
  if (name == "zip" || name == "map") {
    size_t first = name == "map" ? 1 : 0;
    if (name == "map" && n < 2)
      return error(args.loc, "map() takes a function and at least one iterable");
    std::vector<std::vector<Value>> columns;
    size_t count = SIZE_MAX;
    for (size_t i = first; i < n; ++i) {
      std::optional<std::vector<Value>> items = itemsOf(i);
      if (!items)
        return std::nullopt;
      count = std::min(count, items->size());
      columns.push_back(std::move(*items));
    }
    std::vector<Value> out;
    for (size_t k = 0; k < (columns.empty() ? 0 : count); ++k) {
      std::vector<Value> row;
      for (const std::vector<Value> &column : columns)
        row.push_back(column[k]);
      if (name == "zip") {
        out.push_back(Value::sequence(Value::Kind::Tuple, std::move(row)));
        continue;
      }
      std::optional<Value> v = callValue(py(0), std::move(row), args.loc);
      if (!v)
        return std::nullopt;
      out.push_back(std::move(*v));
    }
    return list(std::move(out));
  }
  if (name == "filter" || name == "sorted") {
    bool isFilter = name == "filter";
    size_t source = isFilter ? 1 : 0;
    if (n != source + 1)
      return error(args.loc, isFilter ? "filter() takes a function and an iterable"
                                      : "sorted() takes one iterable (and key=, reverse=)");
    // Without a key, sorted() orders a set's distinct elements the same from any order.
    std::optional<std::vector<Value>> items =
        !isFilter && !args.get(99, "key") ? itemsInAnyOrder(py(source), args.loc)
                                          : itemsOf(source);
    if (!items)
      return std::nullopt;
    const Value *fn = isFilter ? &py(0) : args.get(99, "key");
    // The key of each item (filter: its test), computed once, as Python does.
    std::vector<Value> keys;
    for (const Value &v : *items) {
      if (!fn || fn->kind == Value::Kind::None) {
        keys.push_back(v);
        continue;
      }
      std::optional<Value> k = callValue(*fn, {v}, args.loc);
      if (!k)
        return std::nullopt;
      keys.push_back(std::move(*k));
    }
    std::vector<Value> out;
    if (isFilter) {
      for (size_t k = 0; k < items->size(); ++k) {
        std::optional<bool> t = truth(keys[k]);
        if (!t)
          return error(args.loc, "filter() needs Python bools, but a test gave " +
                                     keys[k].describe() + ", known only at run time; use "
                                     "tf.boolean_mask");
        if (*t)
          out.push_back((*items)[k]);
      }
      return list(std::move(out));
    }
    std::vector<size_t> order(items->size());
    for (size_t k = 0; k < order.size(); ++k)
      order[k] = k;
    bool ok = true;
    auto less = [&](size_t a, size_t b) {
      if (!ok)
        return false;
      if (keys[a].isTensorLike() || keys[b].isTensorLike()) {
        error(args.loc, "sorted() compares its items, which tensors have only at run time; "
                        "use tf.sort");
        ok = false;
        return false;
      }
      std::optional<Value> lt = compare(ast::CmpOp::Lt, keys[a], keys[b], args.loc);
      ok = lt.has_value();
      return ok && lt->i != 0;
    };
    std::stable_sort(order.begin(), order.end(), less);
    if (!ok)
      return std::nullopt;
    const Value *reverse = args.get(99, "reverse");
    std::optional<bool> backwards = reverse ? truth(*reverse) : false;
    if (!backwards)
      return error(args.loc, "sorted(): reverse must be a Python bool");
    if (*backwards) // stable: equal keys keep their order, as Python's reverse=True does
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return less(b, a); });
    for (size_t k : order)
      out.push_back((*items)[k]);
    return list(std::move(out));
  }
  if (name == "isinstance") {
    if (n != 2)
      return error(args.loc, "isinstance() takes a value and a type");
    // The types tracing meets: Python's scalars and sequences, and TensorFlow's values
    // (a tf.Variable is not a tf.Tensor, as in TensorFlow 2).
    std::function<std::optional<bool>(const Value &)> is = [&](const Value &type)
        -> std::optional<bool> {
      const Value &v = py(0);
      if (type.kind == Value::Kind::Tuple) {
        bool any = false;
        for (const Value &t : type.elements) {
          std::optional<bool> one = is(t);
          if (!one)
            return std::nullopt;
          any |= *one;
        }
        return any;
      }
      using K = Value::Kind;
      if (type.kind == K::Builtin) {
        llvm::StringRef t = type.name;
        if (t == "int")
          return v.kind == K::Int || v.kind == K::Bool; // bool is an int in Python
        if (t == "float" || t == "bool" || t == "str" || t == "list" || t == "tuple" ||
            t == "range" || t == "dict" || t == "set")
          return v.typeString() == t;
      }
      if (type.kind == K::Class && type.object->namedtuple)
        return v.kind == K::Tuple && v.object && llvm::is_contained(v.object->mro, type.object);
      if (type.kind == K::Class)
        return v.kind == K::Instance && llvm::is_contained(v.object->mro.front()->mro, type.object);
      if (type.kind == K::Builtin && type.name == "object")
        return true;
      if (type.kind == K::Module) {
        if (type.name == "tf.Module")
          return v.kind == K::Instance && v.object->mro.front()->tfModule;
        if (type.name == "tf.Tensor")
          return v.kind == K::Tensor;
        if (type.name == "tf.Variable")
          return v.kind == K::Variable;
        if (type.name == "tf.TensorArray")
          return v.kind == K::TensorArray;
      }
      error(args.loc, "isinstance() with " + type.describe() + " is not supported by agc");
      return std::nullopt;
    };
    std::optional<bool> out = is(py(1));
    if (!out)
      return std::nullopt;
    return Value::boolean(*out);
  }
  static const char *const kClassBuiltins[] = {
      "property", "staticmethod", "classmethod", "super", "getattr", "hasattr", "setattr",
      "type", "object.__init__"};
  if (llvm::is_contained(kClassBuiltins, name))
    return callClassBuiltin(name, args);
  if (name == "callable" && n == 1) {
    const Value &v = py(0);
    using K = Value::Kind;
    bool instanceCall = v.kind == K::Instance &&
                        classAttribute(*v.object->mro.front(), "__call__") != nullptr;
    return Value::boolean(v.kind == K::Function || v.kind == K::Builtin || v.kind == K::Class ||
                          v.kind == K::BoundMethod || instanceCall ||
                          (v.kind == K::Wrapper && v.name == "partial"));
  }
  return error(args.loc, "the builtin '" + name + "' is not supported in traced code");
}

std::optional<Value> Tracer::Impl::attribute(const Value &base, llvm::StringRef attr,
                                             const Location &loc) {
  switch (base.kind) {
  case Value::Kind::Module: {
    if (base.closure) { // a module of the user's: its names
      auto it = base.closure->locals.find(attr);
      if (it == base.closure->locals.end())
        return error(loc, "AttributeError: module '" + base.name + "' has no attribute '" +
                              attr + "'");
      if (it->second.kind == Value::Kind::Refused)
        return useOfRefused(it->second, loc, "'" + base.name + "." + attr + "'");
      return it->second;
    }
    if (std::optional<DType> d = dtypeFromName(attr); d && base.name == "tf") {
      Value v;
      v.kind = Value::Kind::DTypeRef;
      v.dtype = *d;
      return v;
    }
    if ((base.name == "tf" || base.name == "numpy") && attr == "newaxis")
      return Value::none();
    if (base.name == "math" || base.name == "numpy") {
      const double pi = 3.141592653589793;
      if (attr == "pi")
        return Value::floating(pi);
      if (attr == "e")
        return Value::floating(2.718281828459045);
      if (attr == "tau")
        return Value::floating(2 * pi);
      if (attr == "inf")
        return Value::floating(HUGE_VAL);
      if (attr == "nan")
        return Value::floating(std::nan(""));
    }
    return Value::module(base.name + "." + attr.str());
  }
  case Value::Kind::Tensor:
  case Value::Kind::Variable:
    if (attr == "shape") {
      if (!base.shape.rankKnown)
        return error(loc, "the shape of " + base.describe() + " has an unknown rank");
      return shapeValue(base.shape);
    }
    if (attr == "dtype") {
      Value v;
      v.kind = Value::Kind::DTypeRef;
      v.dtype = base.dtype;
      return v;
    }
    if (attr == "ndim") {
      if (!base.shape.rankKnown)
        return error(loc, "the rank of " + base.describe() + " is unknown");
      return Value::integer(base.shape.rank());
    }
    break;
  case Value::Kind::TensorArray:
    // The element shape as a TensorShape is (a tuple; None for an unknown rank), and dtype.
    if (attr == "element_shape")
      return shapeValue(base.shape);
    if (attr == "dtype")
      return Value::dtypeOf(base.dtype);
    break;
  case Value::Kind::List:
  case Value::Kind::Dict:
  case Value::Kind::Set:
  case Value::Kind::DTypeRef:
  case Value::Kind::Dataset:
    break;
  case Value::Kind::NDArray:
    if (attr == "shape" || attr == "ndim" || attr == "size" || attr == "dtype")
      return arrayAttribute(base, attr, loc);
  case Value::Kind::Str:
    break;
  case Value::Kind::Instance:
  case Value::Kind::Class:
    return objectAttribute(base, attr, loc);
  case Value::Kind::Tuple:
    if (base.object) // a namedtuple
      return objectAttribute(base, attr, loc);
    if (base.name == "TensorShape") { // a tuple standing for a tf.TensorShape of known rank
      if (attr == "rank" || attr == "ndims")
        return Value::integer(base.elements.size());
      if (attr == "as_list" || attr == "is_fully_defined" || attr == "num_elements")
        break; // methods (Tracer::Impl::callMethod)
    }
    return error(loc, base.describe() + " has no attribute '" + attr + "'");
  case Value::Kind::Wrapper:
    if (base.name == "super")
      return objectAttribute(base, attr, loc);
    return error(loc, base.describe() + " has no attribute '" + attr + "'");
  default:
    return error(loc, base.describe() + " has no attribute '" + attr + "'");
  }
  if (base.kind == Value::Kind::DTypeRef && attr == "name")
    return Value::str(dtypeName(base.dtype).str());
  Value method;
  method.kind = Value::Kind::Method;
  method.name = attr.str();
  method.elements.push_back(base);
  return method;
}

std::optional<Value> Tracer::Impl::subscript(const Value &base, const ast::Expr &index,
                                             const Location &loc) {
  if (base.isPySequence() || base.kind == Value::Kind::Str)
    return subscriptSequence(base, index);
  if (base.kind == Value::Kind::Dict) {
    if (isa<ast::SliceExpr>(index))
      return error(index.loc(), "a dict cannot be sliced");
    std::optional<Value> key = eval(index);
    return key ? dictItem(base, *key, index.loc()) : std::nullopt;
  }
  if (!base.isTensorLike())
    return error(loc, base.describe() + " cannot be indexed");
  return subscriptTensor(base, index, loc);
}

/// A Python list, tuple or str indexed with an int, or sliced with Python bounds.
std::optional<Value> Tracer::Impl::subscriptSequence(const Value &base, const ast::Expr &index) {
  size_t size = base.kind == Value::Kind::Str ? base.text.size() : base.items().size();
  if (const auto *slice = dyn_cast<ast::SliceExpr>(&index)) {
    int64_t bounds[3] = {0, int64_t(size), 1};
    bool given[3] = {false, false, false};
    const ast::Expr *parts[3] = {slice->getLower(), slice->getUpper(), slice->getStep()};
    for (int k = 0; k < 3; ++k) {
      if (!parts[k])
        continue;
      std::optional<Value> v = eval(*parts[k]);
      if (!v)
        return std::nullopt;
      if (v->kind == Value::Kind::None)
        continue;
      if (v->kind != Value::Kind::Int)
        return error(parts[k]->loc(), "slice indices of a Python sequence must be ints, not " +
                                          v->describe());
      bounds[k] = v->i;
      given[k] = true;
    }
    int64_t step = bounds[2];
    if (step == 0)
      return error(slice->getStep()->loc(), "ValueError: slice step cannot be zero");
    // Python's slice.indices: bounds clamp to [0, size] going forwards, to [-1, size - 1]
    // going backwards, with the defaults of each direction.
    int64_t n = int64_t(size), least = step > 0 ? 0 : -1, most = step > 0 ? n : n - 1;
    auto clamp = [&](int64_t i) { return std::clamp<int64_t>(i < 0 ? i + n : i, least, most); };
    int64_t lo = given[0] ? clamp(bounds[0]) : (step > 0 ? 0 : n - 1);
    int64_t hi = given[1] ? clamp(bounds[1]) : (step > 0 ? n : -1);
    // (Counted first: lo + k * step stays within the sequence for any step.)
    int64_t span = step > 0 ? hi - lo : lo - hi;
    uint64_t stride = step > 0 ? uint64_t(step) : 0 - uint64_t(step);
    uint64_t count = span > 0 ? 1 + uint64_t(span - 1) / stride : 0;
    std::vector<int64_t> picked;
    for (uint64_t k = 0; k < count; ++k)
      picked.push_back(step > 0 ? lo + int64_t(k * stride) : lo - int64_t(k * stride));
    if (base.kind == Value::Kind::Str) {
      std::string text;
      for (int64_t i : picked)
        text += base.text[i];
      return Value::str(text);
    }
    std::vector<Value> items;
    for (int64_t i : picked)
      items.push_back(base.items()[i]);
    Value sliced = Value::sequence(base.kind, std::move(items)); // a new list
    if (base.kind == Value::Kind::Tuple)
      sliced.name = base.name; // a TensorShape's slice is one (x.shape[1:].as_list())
    return sliced;
  }
  std::optional<Value> i = eval(index);
  if (!i)
    return std::nullopt;
  if (i->kind != Value::Kind::Int && i->kind != Value::Kind::Bool)
    return error(index.loc(), "a Python " + base.typeString() + " is indexed with an int, not " +
                                  i->describe());
  int64_t k = i->i < 0 ? i->i + int64_t(size) : i->i;
  if (k < 0 || k >= int64_t(size))
    return error(index.loc(), base.typeString() + " index " + llvm::Twine(i->i) + " out of range");
  if (base.kind == Value::Kind::Str)
    return Value::str(std::string(1, base.text[k]));
  return base.items()[k];
}

static IndexItem indexItem(IndexItem::Kind kind, Value index, const Location &loc) {
  IndexItem item;
  item.kind = kind;
  item.index = std::move(index);
  item.loc = loc;
  return item;
}

/// A tensor indexed: each index item drops (int), keeps (slice) or adds (None) a dimension,
/// and `...` stands for the dimensions the others leave.
std::optional<Value> Tracer::Impl::subscriptTensor(const Value &base, const ast::Expr &index,
                                                   const Location &loc) {
  std::vector<const ast::Expr *> items;
  if (const auto *tuple = dyn_cast<ast::TupleExpr>(&index))
    for (const ast::ExprPtr &e : tuple->getElements())
      items.push_back(e.get());
  else
    items.push_back(&index);
  if (!base.shape.rankKnown) {
    if (emitter)
      return error(loc, "indexing a tensor of unknown rank is not supported by agc's code "
                        "generator; give the tensor a rank (an input signature, or set_shape)");
    return Value::tensor(base.dtype, Shape::unknownRank());
  }
  // Python evaluates the whole index, left to right, before it subscripts: each item's
  // value (a slice's three bounds) first, so that an item whose value is None
  // (`tf.newaxis`, `np.newaxis`, a name bound to None) adds a dimension as a literal None
  // does, rather than counting as an index.
  struct ItemValues {
    std::optional<Value> value;     // an index item's
    std::optional<Value> bounds[3]; // a slice's lower, upper, step, where written
  };
  std::vector<ItemValues> values(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    const ast::Expr *item = items[i];
    if (llvm::isa<ast::EllipsisLitExpr, ast::NoneLitExpr>(item))
      continue;
    if (const auto *slice = dyn_cast<ast::SliceExpr>(item)) {
      const ast::Expr *parts[3] = {slice->getLower(), slice->getUpper(), slice->getStep()};
      for (int k = 0; k < 3; ++k)
        if (parts[k] && !(values[i].bounds[k] = eval(*parts[k])))
          return std::nullopt;
      continue;
    }
    if (!(values[i].value = eval(*item)))
      return std::nullopt;
  }
  auto isNewAxis = [&](size_t i) {
    return llvm::isa<ast::NoneLitExpr>(items[i]) ||
           (values[i].value && values[i].value->kind == Value::Kind::None);
  };
  std::vector<IndexItem> evaluated; // for the emitter
  Shape out;
  unsigned dim = 0;
  unsigned consumed = 0;
  for (size_t i = 0; i < items.size(); ++i)
    consumed += !llvm::isa<ast::EllipsisLitExpr>(items[i]) && !isNewAxis(i);
  if (consumed > base.shape.rank())
    return error(loc, "too many indices (" + llvm::Twine(consumed) + ") for " + base.describe());
  for (size_t i = 0; i < items.size(); ++i) {
    const ast::Expr *item = items[i];
    if (llvm::isa<ast::EllipsisLitExpr>(item)) {
      // `...` stands for every dimension the other items do not index.
      for (unsigned k = 0; k < base.shape.rank() - consumed; ++k)
        out.dims.push_back(base.shape.dims[dim++]);
      evaluated.push_back(indexItem(IndexItem::Kind::Ellipsis, {}, item->loc()));
      continue;
    }
    if (isNewAxis(i)) {
      out.dims.push_back(1);
      evaluated.push_back(indexItem(IndexItem::Kind::NewAxis, {}, item->loc()));
      continue;
    }
    int64_t size = base.shape.dims[dim++];
    if (const auto *slice = dyn_cast<ast::SliceExpr>(item)) {
      const ast::Expr *parts[3] = {slice->getLower(), slice->getUpper(), slice->getStep()};
      std::optional<int64_t> bounds[3];
      Value tensorBounds[3];
      bool dynamic = false;
      for (int k = 0; k < 3; ++k) {
        if (!parts[k])
          continue;
        const std::optional<Value> &v = values[i].bounds[k];
        if (v->kind == Value::Kind::Int)
          bounds[k] = v->i;
        else if (v->isTensorLike() && isIndexInteger(v->dtype) && k < 2) {
          dynamic = true;
          std::optional<Value> t = asTensor(*v, parts[k]->loc());
          if (!t)
            return std::nullopt;
          tensorBounds[k] = *t;
        } else if (v->isTensorLike() && isIndexInteger(v->dtype))
          dynamic = true;
        else if (v->kind != Value::Kind::None)
          return error(parts[k]->loc(), "a slice bound must be an int or an integer tensor, not " +
                                            v->describe());
      }
      int64_t step = bounds[2].value_or(1);
      if (step == 0)
        return error(item->loc(), "slice step cannot be zero");
      if (dynamic && emitter && (parts[2] && !bounds[2]))
        return error(item->loc(), "slices with a tensor step are not supported by agc's code "
                                  "generator; use a Python int step");
      IndexItem sliceItem = indexItem(IndexItem::Kind::Slice, {}, item->loc());
      sliceItem.lo = bounds[0];
      sliceItem.hi = bounds[1];
      sliceItem.step = bounds[2];
      sliceItem.loTensor = tensorBounds[0];
      sliceItem.hiTensor = tensorBounds[1];
      evaluated.push_back(std::move(sliceItem));
      if (dynamic || size < 0) {
        out.dims.push_back(-1);
        continue;
      }
      auto clamp = [&](int64_t i, int64_t lo, int64_t hi) {
        if (i < 0)
          i += size;
        return std::clamp<int64_t>(i, lo, hi);
      };
      int64_t lo, hi;
      if (step > 0) {
        lo = bounds[0] ? clamp(*bounds[0], 0, size) : 0;
        hi = bounds[1] ? clamp(*bounds[1], 0, size) : size;
        out.dims.push_back(hi > lo ? (hi - lo + step - 1) / step : 0);
      } else {
        lo = bounds[0] ? clamp(*bounds[0], -1, size - 1) : size - 1;
        hi = bounds[1] ? clamp(*bounds[1], -1, size - 1) : -1;
        out.dims.push_back(lo > hi ? (lo - hi - step - 1) / -step : 0);
      }
      continue;
    }
    const std::optional<Value> &v = values[i].value;
    if (v->kind == Value::Kind::Int) {
      if (size >= 0 && (v->i >= size || v->i < -size))
        return error(item->loc(), "index " + llvm::Twine(v->i) + " is out of bounds for a "
                                  "dimension of size " + llvm::Twine(size));
      evaluated.push_back(indexItem(IndexItem::Kind::Index, *v, item->loc()));
      continue;
    }
    if (v->isTensorLike() && isIndexInteger(v->dtype) && v->shape.rankKnown && v->shape.rank() == 0) {
      std::optional<Value> t = asTensor(*v, item->loc());
      if (!t)
        return std::nullopt;
      evaluated.push_back(indexItem(IndexItem::Kind::Index, *t, item->loc()));
      continue;
    }
    return error(item->loc(), "a tensor is indexed with ints, slices, None, ... or scalar "
                              "integer tensors, not " + v->describe());
  }
  for (; dim < base.shape.rank(); ++dim)
    out.dims.push_back(base.shape.dims[dim]);
  Value r = Value::tensor(base.dtype, out);
  if (emitter) {
    std::optional<Value> t = asTensor(base, loc);
    if (!t)
      return std::nullopt;
    if (!emitter->subscript(*t, evaluated, r, loc)) {
      failed = true;
      return std::nullopt;
    }
  }
  return r;
}
