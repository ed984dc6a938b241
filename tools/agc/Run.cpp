//===- Run.cpp - agc run FILE.py:FUNC --args JSON --kwargs JSON -------------===//
//
// Compiles FUNC through exactly the path `agc compile` takes (MLIRGen, the CPU pipeline,
// the C entry points, an object file from the TargetMachine), loads the object into this
// process, calls the entry point with the arguments converted from JSON, and prints one
// JSON document, `{"result": R}`, on stdout.
//
// An argument `{"dtype": "float32", "value": [[1, 2], [3, 4]]}` is a tensor: it types the
// parameter, as --signature would. Any other JSON value is a Python argument: it
// specializes the function, as -D would (and as a new trace does in TensorFlow). A
// parameter that an input_signature types takes a JSON number or list as that tensor.
//
//===----------------------------------------------------------------------------------===//
#include "Run.h"

#include "ag/driver/Driver.h"
#include "ag/frontend/Parser.h"
#include "ag/frontend/Source.h"

#include "agc/runtime.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <ffi.h>

#include <cmath>
#include <cstring>
#include <deque>
#include <functional>
#include <map>

using namespace ag;

namespace {

enum ExitCode { kSuccess = 0, kRefused = 1, kUsage = 2, kRuntime = 3 };

/// A parsed JSON value; numbers keep their text, so that 1 and 1.0 stay an int and a
/// float, as in Python.
struct Json {
  enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
  bool boolean = false;
  std::string text; ///< Number: as written; String: decoded.
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> members;

  const Json *member(llvm::StringRef name) const {
    for (const auto &[key, value] : members)
      if (key == name)
        return &value;
    return nullptr;
  }
  bool isFloat() const { return text.find_first_of(".eE") != std::string::npos; }
};

/// A small strict JSON parser (RFC 8259, plus NaN and Infinity as Python writes them).
class JsonParser {
public:
  explicit JsonParser(llvm::StringRef text) : s(text) {}
  std::optional<Json> parseDocument(std::string &error) {
    std::optional<Json> v = value();
    space();
    if (v && i != s.size())
      fail("unexpected text after the value");
    if (!v || !problem.empty()) {
      error = problem + " at offset " + std::to_string(i);
      return std::nullopt;
    }
    return v;
  }

private:
  void space() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
      ++i;
  }
  std::nullopt_t fail(const std::string &why) {
    if (problem.empty())
      problem = why;
    return std::nullopt;
  }
  bool literal(llvm::StringRef word) {
    if (!s.substr(i).starts_with(word))
      return false;
    i += word.size();
    return true;
  }
  std::optional<Json> value() {
    if (++depth > 256)
      return fail("nested too deep");
    space();
    Json v;
    if (i >= s.size())
      return fail("unexpected end");
    char c = s[i];
    if (literal("null")) {
    } else if (literal("true") || literal("false")) {
      v.kind = Json::Kind::Bool;
      v.boolean = s[i - 1] == 'e' && s[i - 2] == 'u';
    } else if (c == '"') {
      std::optional<std::string> str = string();
      if (!str)
        return std::nullopt;
      v.kind = Json::Kind::String;
      v.text = *str;
    } else if (c == '[') {
      v.kind = Json::Kind::Array;
      ++i;
      space();
      if (i < s.size() && s[i] == ']') {
        ++i;
      } else {
        while (true) {
          std::optional<Json> item = value();
          if (!item)
            return std::nullopt;
          v.items.push_back(std::move(*item));
          space();
          if (i < s.size() && s[i] == ',') {
            ++i;
            continue;
          }
          if (i < s.size() && s[i] == ']') {
            ++i;
            break;
          }
          return fail("expected ',' or ']'");
        }
      }
    } else if (c == '{') {
      v.kind = Json::Kind::Object;
      ++i;
      space();
      if (i < s.size() && s[i] == '}') {
        ++i;
      } else {
        while (true) {
          space();
          if (i >= s.size() || s[i] != '"')
            return fail("expected a string key");
          std::optional<std::string> key = string();
          space();
          if (!key || i >= s.size() || s[i] != ':')
            return fail("expected ':'");
          ++i;
          std::optional<Json> item = value();
          if (!item)
            return std::nullopt;
          v.members.push_back({*key, std::move(*item)});
          space();
          if (i < s.size() && s[i] == ',') {
            ++i;
            continue;
          }
          if (i < s.size() && s[i] == '}') {
            ++i;
            break;
          }
          return fail("expected ',' or '}'");
        }
      }
    } else if (literal("NaN") || literal("Infinity") || literal("-Infinity")) {
      v.kind = Json::Kind::Number;
      v.text = s[i - 1] == 'N' ? "nan" : s[i - 9] == '-' ? "-inf" : "inf";
    } else if (c == '-' || llvm::isDigit(c)) {
      size_t start = i;
      if (s[i] == '-')
        ++i;
      while (i < s.size() && (llvm::isDigit(s[i]) || s[i] == '.' || s[i] == 'e' || s[i] == 'E' ||
                              s[i] == '+' || s[i] == '-'))
        ++i;
      v.kind = Json::Kind::Number;
      v.text = s.slice(start, i).str();
      double unused;
      if (llvm::StringRef(v.text).getAsDouble(unused))
        return fail("bad number '" + v.text + "'");
    } else {
      return fail(std::string("unexpected '") + c + "'");
    }
    --depth;
    return v;
  }
  std::optional<std::string> string() {
    ++i; // the opening quote
    std::string out;
    while (i < s.size() && s[i] != '"') {
      char c = s[i++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i >= s.size())
        break;
      char e = s[i++];
      switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'u': {
        unsigned code = 0;
        if (i + 4 > s.size() || s.substr(i, 4).getAsInteger(16, code))
          return fail("bad \\u escape");
        i += 4;
        // A UTF-16 surrogate pair (\uD83D\uDE00) is one code point; a lone half is none.
        if (code >= 0xD800 && code < 0xDC00) {
          unsigned low = 0;
          if (i + 6 > s.size() || s[i] != '\\' || s[i + 1] != 'u' ||
              s.substr(i + 2, 4).getAsInteger(16, low) || low < 0xDC00 || low >= 0xE000)
            return fail("a \\u escape of a lone UTF-16 surrogate is not a character");
          i += 6;
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        } else if (code >= 0xDC80 && code < 0xDD00) {
          // A byte that is not UTF-8, as Python's surrogateescape writes it (\udcXX is
          // byte XX): what agc run prints for such a byte of a string tensor.
          out += char(code - 0xDC00);
          continue;
        } else if (code >= 0xDC00 && code < 0xE000) {
          return fail("a \\u escape of a lone UTF-16 surrogate is not a character");
        }
        if (code >= 0x10000) {
          out += char(0xF0 | (code >> 18));
          out += char(0x80 | ((code >> 12) & 0x3F));
          out += char(0x80 | ((code >> 6) & 0x3F));
          out += char(0x80 | (code & 0x3F));
        } else if (code < 0x80) {
          out += char(code);
        } else if (code < 0x800) {
          out += char(0xC0 | (code >> 6));
          out += char(0x80 | (code & 0x3F));
        } else {
          out += char(0xE0 | (code >> 12));
          out += char(0x80 | ((code >> 6) & 0x3F));
          out += char(0x80 | (code & 0x3F));
        }
        break;
      }
      default: out += e; break;
      }
    }
    if (i >= s.size())
      return fail("unterminated string");
    ++i;
    return out;
  }

  llvm::StringRef s;
  size_t i = 0;
  unsigned depth = 0;
  std::string problem;
};

/// A JSON value as a Python literal: true -> True, null -> None, lists stay lists.
std::optional<std::string> pythonLiteral(const Json &v) {
  switch (v.kind) {
  case Json::Kind::Null: return std::string("None");
  case Json::Kind::Bool: return std::string(v.boolean ? "True" : "False");
  case Json::Kind::Number:
    if (v.text == "nan" || v.text == "inf" || v.text == "-inf")
      return std::nullopt;
    return v.text;
  case Json::Kind::String: {
    std::string out = "'";
    for (char c : v.text)
      out += c == '\'' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    return out + "'";
  }
  case Json::Kind::Array: {
    std::string out = "[";
    for (const Json &e : v.items) {
      std::optional<std::string> item = pythonLiteral(e);
      if (!item)
        return std::nullopt;
      out += (out.size() > 1 ? ", " : "") + *item;
    }
    return out + "]";
  }
  case Json::Kind::Object: return std::nullopt;
  }
  return std::nullopt;
}

/// A tensor argument built from JSON: its type and its bytes (a string tensor: its
/// strings, and the agc_strings over them, made once they stop moving).
struct TensorArg {
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<char> bytes;
  std::deque<std::string> strings;
  std::vector<agc_string> elements;
  void *data() {
    if (dtype != "string")
      return bytes.data();
    elements.clear();
    for (const std::string &text : strings)
      elements.push_back({text.data(), int64_t(text.size())});
    return elements.data();
  }
};

/// The values integer dtype `dtype` holds (uint64: see fillTensor).
std::pair<int64_t, int64_t> intRange(llvm::StringRef dtype) {
  return llvm::StringSwitch<std::pair<int64_t, int64_t>>(dtype)
      .Case("int8", {INT8_MIN, INT8_MAX})
      .Case("int16", {INT16_MIN, INT16_MAX})
      .Case("int32", {INT32_MIN, INT32_MAX})
      .Case("uint8", {0, UINT8_MAX})
      .Case("uint16", {0, UINT16_MAX})
      .Case("uint32", {0, UINT32_MAX})
      .Default({INT64_MIN, INT64_MAX});
}

/// `x` as float16 bits, rounded once from the double (as NumPy converts a Python float).
uint16_t halfBits(double x) {
#ifdef __FLT16_MAX__
  _Float16 h = static_cast<_Float16>(x);
  uint16_t bits;
  std::memcpy(&bits, &h, sizeof bits);
  return bits;
#else
  return agc_float_to_float16(float(x));
#endif
}

/// Flattens nested JSON lists of numbers into `arg` as `dtype`; false with `error` set.
bool fillTensor(const Json &v, const std::string &dtype, TensorArg &arg, std::string &error) {
  arg.dtype = dtype;
  // The shape: the lengths of the first elements, all the way down.
  const Json *level = &v;
  while (level->kind == Json::Kind::Array) {
    if (arg.shape.size() == AGC_MAX_RANK) {
      error = "the value has more than " + std::to_string(AGC_MAX_RANK) +
              " dimensions, the most agc's C interface passes";
      return false;
    }
    arg.shape.push_back(level->items.size());
    if (level->items.empty())
      break;
    level = &level->items[0];
  }
  // A complex element is a [real, imaginary] pair: the innermost lists are elements.
  bool complex = dtype == "complex64" || dtype == "complex128";
  if (complex && level->kind != Json::Kind::Array) {
    if (arg.shape.empty() || arg.shape.back() != 2) {
      error = "a complex element is a list [real, imaginary] of two numbers";
      return false;
    }
    arg.shape.pop_back();
  }
  std::function<bool(const Json &, size_t)> walk = [&](const Json &e, size_t d) {
    if (d < arg.shape.size()) {
      if (e.kind != Json::Kind::Array || int64_t(e.items.size()) != arg.shape[d]) {
        error = "the value is not a rectangular nested list";
        return false;
      }
      for (const Json &item : e.items)
        if (!walk(item, d + 1))
          return false;
      return true;
    }
    if (complex) {
      if (e.kind != Json::Kind::Array || e.items.size() != 2 ||
          e.items[0].kind != Json::Kind::Number || e.items[1].kind != Json::Kind::Number) {
        error = "a complex element is a list [real, imaginary] of two numbers";
        return false;
      }
      for (const Json &part : e.items) {
        double x = part.text == "nan"    ? NAN
                   : part.text == "inf"  ? INFINITY
                   : part.text == "-inf" ? -INFINITY
                                         : std::strtod(part.text.c_str(), nullptr);
        if (dtype == "complex64") {
          float f = float(x);
          const char *p = reinterpret_cast<const char *>(&f);
          arg.bytes.insert(arg.bytes.end(), p, p + sizeof f);
        } else {
          const char *p = reinterpret_cast<const char *>(&x);
          arg.bytes.insert(arg.bytes.end(), p, p + sizeof x);
        }
      }
      return true;
    }
    if (dtype == "string") {
      if (e.kind != Json::Kind::String) {
        error = "the elements of a string tensor must be JSON strings";
        return false;
      }
      arg.strings.push_back(e.text);
      return true;
    }
    double x = 0;
    if (e.kind == Json::Kind::String) {
      error = "a JSON string is an element of a string tensor, not of " + dtype;
      return false;
    }
    if (e.kind == Json::Kind::Bool) {
      x = e.boolean;
    } else if (e.kind == Json::Kind::Number) {
      x = e.text == "nan" ? NAN : e.text == "inf" ? INFINITY : e.text == "-inf" ? -INFINITY
                                                               : std::strtod(e.text.c_str(), nullptr);
      if (dtype != "float32" && dtype != "float64" && dtype != "float16" &&
          dtype != "bfloat16" && e.isFloat()) {
        error = "the value " + e.text + " is not an integer, but the dtype is " + dtype;
        return false;
      }
    } else {
      error = "tensor elements must be numbers or booleans";
      return false;
    }
    auto put = [&](auto element) {
      const char *p = reinterpret_cast<const char *>(&element);
      arg.bytes.insert(arg.bytes.end(), p, p + sizeof element);
    };
    if (dtype == "float32")
      put(float(x));
    else if (dtype == "float64")
      put(x);
    else if (dtype == "float16")
      put(halfBits(x));
    else if (dtype == "bfloat16")
      put(agc_float_to_bfloat16(float(x)));
    else if (dtype == "uint64") {
      uint64_t u = 0;
      if (e.kind == Json::Kind::Bool) {
        u = e.boolean;
      } else if (llvm::StringRef(e.text).getAsInteger(10, u)) {
        error = "the value " + e.text + " does not fit in " + dtype;
        return false;
      }
      put(u);
    } else if (dtype != "bool") {
      // Exactly, from the text: a value the dtype cannot hold is refused, never wrapped.
      int64_t i = 0;
      auto [lo, hi] = intRange(dtype);
      if (e.kind == Json::Kind::Bool) {
        i = e.boolean;
      } else if (llvm::StringRef(e.text).getAsInteger(10, i) || i < lo || i > hi) {
        error = "the value " + e.text + " does not fit in " + dtype;
        return false;
      }
      if (dtype == "int8" || dtype == "uint8")
        put(uint8_t(i));
      else if (dtype == "int16" || dtype == "uint16")
        put(uint16_t(i));
      else if (dtype == "int32" || dtype == "uint32")
        put(uint32_t(i));
      else
        put(i);
    } else {
      put(char(x != 0));
    }
    return true;
  };
  return walk(v, 0);
}

/// One element as JSON: the shortest decimal that reads back as the same value.
std::string elementJson(agc_dtype dtype, const char *at) {
  char buffer[64];
  auto real = [&](double x, int shortDigits, int longDigits, bool single) {
    if (std::isnan(x))
      return std::string("NaN");
    if (std::isinf(x))
      return std::string(x < 0 ? "-Infinity" : "Infinity");
    snprintf(buffer, sizeof buffer, "%.*g", shortDigits, x);
    if (single ? std::strtof(buffer, nullptr) != float(x) : std::strtod(buffer, nullptr) != x)
      snprintf(buffer, sizeof buffer, "%.*g", longDigits, x);
    std::string s = buffer;
    // A float stays a float in JSON readers that care: 2 -> 2.0.
    if (s.find_first_of(".eEn") == std::string::npos)
      s += ".0";
    return s;
  };
  switch (dtype) {
  case AGC_FLOAT32: {
    float x;
    std::memcpy(&x, at, sizeof x);
    return real(x, 6, 9, true);
  }
  case AGC_COMPLEX64: { // [real, imaginary]
    float x[2];
    std::memcpy(x, at, sizeof x);
    std::string re = real(x[0], 6, 9, true);
    return "[" + re + ", " + real(x[1], 6, 9, true) + "]";
  }
  case AGC_COMPLEX128: {
    double x[2];
    std::memcpy(x, at, sizeof x);
    std::string re = real(x[0], 15, 17, false);
    return "[" + re + ", " + real(x[1], 15, 17, false) + "]";
  }
  case AGC_FLOAT64: {
    double x;
    std::memcpy(&x, at, sizeof x);
    return real(x, 15, 17, false);
  }
  case AGC_INT32: {
    int32_t x;
    std::memcpy(&x, at, sizeof x);
    return std::to_string(x);
  }
  case AGC_INT64: {
    int64_t x;
    std::memcpy(&x, at, sizeof x);
    return std::to_string(x);
  }
  case AGC_BOOL: return *at ? "true" : "false";
  case AGC_INT8: return std::to_string(int(*reinterpret_cast<const int8_t *>(at)));
  case AGC_UINT8: return std::to_string(unsigned(*reinterpret_cast<const uint8_t *>(at)));
  case AGC_INT16: {
    int16_t x;
    std::memcpy(&x, at, sizeof x);
    return std::to_string(x);
  }
  case AGC_UINT16: {
    uint16_t x;
    std::memcpy(&x, at, sizeof x);
    return std::to_string(x);
  }
  case AGC_UINT32: {
    uint32_t x;
    std::memcpy(&x, at, sizeof x);
    return std::to_string(x);
  }
  case AGC_UINT64: {
    uint64_t x;
    std::memcpy(&x, at, sizeof x);
    return std::to_string(x);
  }
  case AGC_FLOAT16:
  case AGC_BFLOAT16: {
    // The shortest decimal that reads back as the same 16 bits.
    uint16_t bits;
    std::memcpy(&bits, at, sizeof bits);
    bool half = dtype == AGC_FLOAT16;
    // As the float32 it widens to (exactly, as NumPy's tolist gives it): 1.6484375.
    float x = half ? agc_float16_to_float(bits) : agc_bfloat16_to_float(bits);
    return real(x, 6, 9, true);
  }
  case AGC_STRING: {
    // A JSON string: its bytes as UTF-8 where they are; a byte XX that is not, \udcXX
    // (Python's surrogateescape: bytes.decode('utf-8', 'surrogateescape') reads the same).
    agc_string x;
    std::memcpy(&x, at, sizeof x);
    llvm::StringRef bytes(x.data, size_t(x.size));
    std::string out = "\"";
    for (size_t i = 0; i < bytes.size(); ++i) {
      unsigned char c = bytes[i];
      if (c == '"' || c == '\\') {
        out += '\\';
        out += char(c);
      } else if (c < 0x20) {
        snprintf(buffer, sizeof buffer, "\\u%04x", c);
        out += buffer;
      } else if (c >= 0x80) {
        // Valid UTF-8 sequences are kept as they are.
        size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
        bool valid = n && i + n <= bytes.size();
        for (size_t k = 1; valid && k < n; ++k)
          valid = (static_cast<unsigned char>(bytes[i + k]) & 0xC0) == 0x80;
        if (valid) {
          out += bytes.substr(i, n).str();
          i += n - 1;
        } else {
          snprintf(buffer, sizeof buffer, "\\udc%02x", c);
          out += buffer;
        }
      } else {
        out += char(c);
      }
    }
    return out + "\"";
  }
  }
  return "null";
}

/// `{"dtype": "float32", "shape": [2], "value": [1.0, 2.0]}`.
std::string tensorJson(const agc_tensor &t) {
  std::string out = "{\"dtype\": \"" + std::string(agc_dtype_name(t.dtype)) + "\", \"shape\": [";
  for (int32_t d = 0; d < t.rank; ++d)
    out += (d ? ", " : "") + std::to_string(t.shape[d]);
  out += "], \"value\": ";
  size_t element = agc_dtype_size(t.dtype);
  int64_t at = 0;
  std::function<void(int32_t)> level = [&](int32_t d) {
    if (d == t.rank) {
      out += elementJson(t.dtype, static_cast<const char *>(t.data) + at * element);
      ++at;
      return;
    }
    out += "[";
    for (int64_t i = 0; i < t.shape[d]; ++i) {
      if (i)
        out += ", ";
      level(d + 1);
    }
    out += "]";
  };
  level(0);
  return out + "}";
}

/// The Python result: `structure` (JSON with each tensor's index) with the tensors in.
std::string resultJson(llvm::StringRef structure, const std::vector<agc_tensor> &outputs) {
  std::string out;
  for (size_t i = 0; i < structure.size();) {
    if (structure[i] == '"') { // a dict's key, copied as it is
      size_t j = i + 1;
      while (j < structure.size() && structure[j] != '"')
        j += structure[j] == '\\' ? 2 : 1;
      out += structure.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (llvm::isDigit(structure[i])) {
      size_t j = i;
      while (j < structure.size() && llvm::isDigit(structure[j]))
        ++j;
      unsigned index = 0;
      structure.slice(i, j).getAsInteger(10, index);
      out += index < outputs.size() ? tensorJson(outputs[index]) : "null";
      i = j;
      continue;
    }
    out += structure[i++];
  }
  return out.empty() ? "null" : out;
}

int usage(const llvm::Twine &message) {
  llvm::errs() << "agc: error: " << message << "\n";
  return kUsage;
}

} // namespace

/// The libffi type of an element of `dtype` at a scalar entry point, from the C type
/// the header declares for it (driver::scalarCType); nullptr where it has none.
static ffi_type *scalarFfiType(llvm::StringRef dtype) {
  const driver::ScalarCType *c = driver::scalarCType(dtype);
  if (!c)
    return nullptr;
  switch (c->kind) {
  case driver::ScalarCType::Float:
    return c->bits == 32 ? &ffi_type_float : c->bits == 64 ? &ffi_type_double : nullptr;
  case driver::ScalarCType::Signed:
    switch (c->bits) {
    case 8: return &ffi_type_sint8;
    case 16: return &ffi_type_sint16;
    case 32: return &ffi_type_sint32;
    case 64: return &ffi_type_sint64;
    }
    return nullptr;
  case driver::ScalarCType::Unsigned:
  case driver::ScalarCType::Bool: // C's bool passes as an unsigned byte
    switch (c->bits) {
    case 8: return &ffi_type_uint8;
    case 16: return &ffi_type_uint16;
    case 32: return &ffi_type_uint32;
    case 64: return &ffi_type_uint64;
    }
    return nullptr;
  }
  return nullptr;
}

/// Calls `int ENTRY_scalar(T x, ..., T *result, ..., agc_status *status)` at `entry` with
/// the values of the 0-d `inputs`, each result written to its element of `results`;
/// returns the entry point's code.
static int callScalarEntry(void *entry, const driver::FunctionSignature &sig,
                           llvm::ArrayRef<agc_tensor> inputs,
                           std::vector<uint64_t> &results, agc_status &status) {
  std::vector<ffi_type *> types;
  std::vector<void *> values;
  std::vector<void *> pointers(results.size() + 1);
  for (size_t i = 0; i < inputs.size(); ++i) {
    types.push_back(scalarFfiType(sig.inputs[i].dtype));
    values.push_back(inputs[i].data); // the value itself, in its dtype's bytes
  }
  for (size_t i = 0; i < results.size(); ++i) {
    pointers[i] = &results[i];
    types.push_back(&ffi_type_pointer);
    values.push_back(&pointers[i]);
  }
  pointers.back() = &status;
  types.push_back(&ffi_type_pointer);
  values.push_back(&pointers.back());
  ffi_cif cif;
  if (llvm::is_contained(types, nullptr) ||
      ffi_prep_cif(&cif, FFI_DEFAULT_ABI, unsigned(types.size()), &ffi_type_sint,
                   types.data()) != FFI_OK) {
    std::snprintf(status.message, sizeof status.message,
                  "libffi cannot call the scalar entry point of '%s'", sig.name.c_str());
    return status.code = AGC_INVALID_ARGUMENT;
  }
  ffi_arg code = 0;
  ffi_call(&cif, FFI_FN(entry), &code, values.data());
  return int(code);
}

int ag::runFunction(llvm::StringRef fileFunction, llvm::StringRef argsText,
                    llvm::StringRef kwargsText, unsigned errorLimit,
                    const driver::Target &target, bool runtimeChecks,
                    std::vector<std::string> importDirs, bool scalarEntry) {
  auto [path, function] = fileFunction.rsplit(':');
  if (!fileFunction.contains(':') || !path.ends_with(".py") || function.empty())
    return usage("agc run needs FILE.py:FUNC, not '" + fileFunction + "'");
  std::string error;
  std::optional<Json> args = JsonParser(argsText.empty() ? "[]" : argsText).parseDocument(error);
  if (!args || args->kind != Json::Kind::Array)
    return usage("--args must be a JSON list" + (error.empty() ? "" : ": " + error));
  std::optional<Json> kwargs = JsonParser(kwargsText.empty() ? "{}" : kwargsText).parseDocument(error);
  if (!kwargs || kwargs->kind != Json::Kind::Object)
    return usage("--kwargs must be a JSON object" + (error.empty() ? "" : ": " + error));

  llvm::SourceMgr sourceMgr;
  DiagnosticEngine diag(sourceMgr);
  diag.setErrorLimit(errorLimit);
  std::optional<SourceFile> source = loadSourceFile(path, diag);
  if (!source)
    return diag.hadUsageError() ? kUsage : kRefused;
  std::unique_ptr<ast::Module> module = parseModule(*source, diag);
  if (!module)
    return diag.hadUsageError() ? kUsage : kRefused;
  // A top-level function, or a method of a module-level instance (`model.method`).
  std::string why;
  std::optional<ast::Module::Entry> found = module->findEntry(function, why);
  const ast::FunctionDefStmt *fn = found ? found->def : nullptr;
  bool method = found && !found->receiver.empty();
  if (!fn) {
    // A definition agc refused as written is refused now that it is called for.
    for (const ast::StmtPtr &stmt : module->getBody())
      if (const auto *refused = llvm::dyn_cast<ast::UnsupportedStmt>(stmt.get()))
        if (llvm::any_of(refused->getBinds(), [&](const ast::Identifier &id) {
              return id.name == function && refused->isTfFunction();
            })) {
          diag.report(refused->getWhy());
          return kRefused;
        }
  }
  if (!fn)
    return usage("'" + path + "': " + why);
  if (!method && !fn->isTfFunction())
    return usage("'" + path + "' has no @tf.function called '" + function + "'");

  // Bind the arguments to the parameters, as Python would (a method's self is its
  // instance's).
  std::vector<std::string> params;
  for (size_t i = method ? 1 : 0; i < fn->getParams().size(); ++i)
    params.push_back(fn->getParams()[i].name);
  if (args->items.size() > params.size())
    return usage("'" + function + "' takes " + llvm::Twine(params.size()) + " arguments, not " +
                 llvm::Twine(args->items.size()));
  std::vector<std::pair<std::string, const Json *>> bound;
  for (size_t i = 0; i < args->items.size(); ++i)
    bound.push_back({params[i], &args->items[i]});
  for (const auto &[key, value] : kwargs->members) {
    if (!llvm::is_contained(params, key))
      return usage("'" + function + "' has no parameter '" + key + "'");
    if (llvm::any_of(bound, [&](const auto &b) { return b.first == key; }))
      return usage("'" + function + "' got two values for '" + key + "'");
    bound.push_back({key, &value});
  }
  analysis::ArgumentSpec spec;
  spec.runtimeChecks = runtimeChecks;
  spec.functions = {function.str()};
  spec.importDirs = std::move(importDirs);
  std::string signature;
  std::map<std::string, TensorArg> tensors;
  for (const auto &[name, value] : bound) {
    const Json *dtype = value->kind == Json::Kind::Object ? value->member("dtype") : nullptr;
    const Json *data = value->kind == Json::Kind::Object ? value->member("value") : nullptr;
    if (dtype && data) {
      if (dtype->kind != Json::Kind::String ||
          !llvm::is_contained({"float32", "float64", "int32", "int64", "bool", "string", "int8",
                               "int16", "uint8", "uint16", "uint32", "uint64", "float16",
                               "bfloat16", "complex64", "complex128"},
                              dtype->text))
        return usage("argument '" + name + "': dtype must be float16, bfloat16, float32, "
                     "float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool, "
                     "complex64, complex128 or string");
      TensorArg arg;
      if (!fillTensor(*data, dtype->text, arg, error))
        return usage("argument '" + name + "': " + error);
      if (const Json *shape = value->member("shape")) {
        // The shape the value cannot show: an empty tensor's other sizes ([0, 3]).
        std::vector<int64_t> given;
        bool valid = shape->kind == Json::Kind::Array && shape->items.size() <= AGC_MAX_RANK;
        for (const Json &d : valid ? shape->items : std::vector<Json>{}) {
          int64_t n = -1;
          valid &= d.kind == Json::Kind::Number && !llvm::StringRef(d.text).getAsInteger(10, n) &&
                   n >= 0;
          given.push_back(n);
        }
        if (!valid)
          return usage("argument '" + name + "': \"shape\" must be a list of at most " +
                       llvm::Twine(AGC_MAX_RANK) + " sizes, each 0 or more");
        bool empty = llvm::is_contained(given, 0);
        bool prefix = arg.shape.size() <= given.size() &&
                      std::equal(arg.shape.begin(), arg.shape.end(), given.begin());
        if (given != arg.shape && !(empty && arg.bytes.empty() && arg.strings.empty() && prefix))
          return usage("argument '" + name + "': the value does not have the shape its "
                       "\"shape\" gives");
        arg.shape = given;
      }
      std::string dims;
      for (int64_t d : arg.shape)
        dims += (dims.empty() ? "" : ",") + std::to_string(d);
      signature += (signature.empty() ? "" : ", ") + name + ": " + arg.dtype + "[" + dims + "]";
      tensors[name] = std::move(arg);
      continue;
    }
    std::optional<std::string> literal = pythonLiteral(*value);
    if (!literal)
      return usage("argument '" + name + "' is neither a tensor ({\"dtype\": ..., \"value\": ...}) "
                   "nor a Python value");
    spec.defines[name] = *literal;
  }
  // A source input_signature types the tensors itself; the call must then match it, which
  // the entry point checks (as calling a tf.function with an input_signature does).
  const auto *tfFunction = llvm::dyn_cast_or_null<ast::CallExpr>(fn->getTfFunction());
  bool hasSignature = tfFunction && tfFunction->findKeyword("input_signature");
  if (!signature.empty() && !hasSignature)
    spec.signatures[function] = (function + "(" + signature + ")").str();

  target.prepare(/*assembly=*/false); // on the other core while the program is lowered
  std::optional<driver::LoweredModule> lowered =
      driver::lowerToLLVM(*module, spec, diag, target);
  if (!lowered || lowered->functions.empty())
    return diag.hadUsageError() ? kUsage : kRefused;
  driver::FunctionSignature sig = lowered->functions.front();
  const char *prefix = "agc_run";
  driver::addEntryPoints(*lowered, prefix);
  // The JIT runs no constructors: an nvptx object's (which record its kernels) are
  // called below.
  bool structors = driver::exportStructors(*lowered, prefix);
  llvm::SmallVector<char, 0> object;
  if (llvm::Error err = target.emit(*lowered, /*assembly=*/false, object)) {
    llvm::errs() << "agc: error: " << llvm::toString(std::move(err)) << "\n";
    return diag.hadUsageError() ? kUsage : kRefused;
  }
  llvm::Expected<std::unique_ptr<driver::LoadedModule>> loaded =
      driver::loadObject(std::move(object));
  if (!loaded) {
    llvm::errs() << "agc: error: cannot load the compiled code: "
                 << llvm::toString(loaded.takeError()) << "\n";
    return diag.hadUsageError() ? kUsage : kRefused;
  }
  llvm::Expected<void *> entry = (*loaded)->lookup((llvm::Twine(prefix) + "_" + sig.name + "_v").str());
  if (!entry) {
    llvm::errs() << "agc: error: " << llvm::toString(entry.takeError()) << "\n";
    return diag.hadUsageError() ? kUsage : kRefused;
  }
  using Structors = void (*)();
  Structors destructors = nullptr;
  if (structors) {
    auto lookup = [&](const char *suffix) -> Structors {
      llvm::Expected<void *> address = (*loaded)->lookup((llvm::Twine(prefix) + suffix).str());
      if (address)
        return reinterpret_cast<Structors>(*address);
      llvm::errs() << "agc: error: " << llvm::toString(address.takeError()) << "\n";
      return nullptr;
    };
    Structors constructors = lookup("_constructors");
    destructors = constructors ? lookup("_destructors") : nullptr;
    if (!destructors)
      return kRefused;
    constructors();
  }
  // Whatever the call's outcome, the destructors run before the code is unloaded.
  llvm::scope_exit runDestructors([&] {
    if (destructors)
      destructors();
  });

  // The inputs, in the order of the compiled signature. A parameter that the source's
  // input_signature types may come as a JSON number or list.
  std::vector<agc_tensor> inputs;
  for (const driver::TensorSignature &in : sig.inputs) {
    auto it = tensors.find(in.name);
    if (it == tensors.end()) {
      auto value = llvm::find_if(bound, [&](const auto &b) { return b.first == in.name; });
      if (value == bound.end())
        return usage("no value for the tensor parameter '" + in.name + "' of '" + function + "'");
      TensorArg arg;
      if (!fillTensor(*value->second, in.dtype, arg, error))
        return usage("argument '" + in.name + "': " + error);
      it = tensors.emplace(in.name, std::move(arg)).first;
    }
    TensorArg &arg = it->second;
    auto dtype = static_cast<agc_dtype>(driver::dtypeCode(arg.dtype));
    inputs.push_back(
        agc_tensor_wrap(dtype, int32_t(arg.shape.size()), arg.shape.data(), arg.data()));
  }
  std::vector<agc_tensor> outputs(sig.results.size());
  std::vector<const agc_tensor *> inputPointers;
  std::vector<agc_tensor *> outputPointers;
  for (agc_tensor &t : inputs)
    inputPointers.push_back(&t);
  for (agc_tensor &t : outputs)
    outputPointers.push_back(&t);
  agc_status status;
  int code;
  // With --entry=scalar, the scalar entry point where the function has one: called
  // through libffi as a C caller calls it, values in by the C types of the header.
  void *scalar = nullptr;
  std::vector<uint64_t> scalarResults(sig.results.size());
  if (scalarEntry) {
    llvm::Expected<void *> found =
        (*loaded)->lookup((llvm::Twine(prefix) + "_" + sig.name + "_scalar").str());
    if (found)
      scalar = *found;
    else
      llvm::consumeError(found.takeError()); // none: the tensor entry point
  }
  if (scalar) {
    code = callScalarEntry(scalar, sig, inputs, scalarResults, status);
    for (size_t i = 0; i < outputs.size(); ++i)
      outputs[i] = agc_tensor_wrap(static_cast<agc_dtype>(driver::dtypeCode(sig.results[i].dtype)),
                                   0, nullptr, &scalarResults[i]);
  } else {
    using Entry = int (*)(const agc_tensor *const *, agc_tensor *const *, agc_status *);
    code = reinterpret_cast<Entry>(*entry)(inputPointers.data(), outputPointers.data(), &status);
  }
  llvm::outs().flush();
  if (code != AGC_OK) {
    llvm::errs() << "agc: run-time error: " << status.message << "\n";
    return kRuntime;
  }
  llvm::outs() << "{\"result\": " << resultJson(sig.resultStructure, outputs);
  if (scalarEntry) // which one it called: the scalar entry point, or the tensor one
    llvm::outs() << ", \"entry\": \"" << prefix << "_" << sig.name << (scalar ? "_scalar" : "_v")
                 << "\"";
  llvm::outs() << "}\n";
  for (agc_tensor &t : outputs)
    agc_tensor_free(&t);
  return kSuccess;
}
