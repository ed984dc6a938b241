//===- TracerStrings.cpp - f-strings, str.format and the methods of str --------===//
//
// Python's string formatting, as tracing runs it: an f-string or a str.format call formats
// Python values with the format-spec mini-language (fill, alignment, sign, zero padding,
// width, grouping, precision and the types d, x, o, b, e, f, g, %, s); a tensor formats as
// TensorFlow prints a symbolic one (`Tensor("x:0", shape=(), dtype=float32)`), and a format
// spec on a tensor is refused as TensorFlow refuses it.
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdio>

using namespace ag;
using namespace ag::analysis;

namespace {

struct FormatSpec {
  char fill = ' ', align = 0, sign = '-', type = 0, grouping = 0;
  bool zero = false;
  int width = -1, precision = -1;
};

std::optional<FormatSpec> parseSpec(llvm::StringRef s, std::string &error) {
  FormatSpec f;
  size_t i = 0;
  auto isAlign = [](char c) { return c == '<' || c == '>' || c == '=' || c == '^'; };
  if (s.size() >= 2 && isAlign(s[1])) {
    f.fill = s[0];
    f.align = s[1];
    i = 2;
  } else if (!s.empty() && isAlign(s[0])) {
    f.align = s[0];
    i = 1;
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' '))
    f.sign = s[i++];
  if (i < s.size() && s[i] == '#') {
    error = "the '#' alternate form is not supported by agc";
    return std::nullopt;
  }
  if (i < s.size() && s[i] == '0') {
    f.zero = true;
    ++i;
  }
  auto number = [&](int &out) {
    size_t start = i;
    while (i < s.size() && llvm::isDigit(s[i]))
      ++i;
    if (i > start)
      s.slice(start, i).getAsInteger(10, out);
    return i > start;
  };
  number(f.width);
  if (i < s.size() && (s[i] == ',' || s[i] == '_'))
    f.grouping = s[i++];
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!number(f.precision)) {
      error = "Format specifier missing precision";
      return std::nullopt;
    }
  }
  if (i < s.size())
    f.type = s[i++];
  if (i != s.size()) {
    error = "Invalid format specifier '" + s.str() + "'";
    return std::nullopt;
  }
  return f;
}

std::string group(const std::string &digits, char sep) {
  std::string out;
  size_t n = digits.size();
  for (size_t k = 0; k < n; ++k) {
    if (k && (n - k) % 3 == 0)
      out += sep;
    out += digits[k];
  }
  return out;
}

/// `body` (digits, no sign) padded and signed as `f` says.
std::string pad(std::string body, bool negative, const FormatSpec &f, bool numeric) {
  std::string sign = negative ? "-" : f.sign == '+' ? "+" : f.sign == ' ' ? " " : "";
  char align = f.align ? f.align : f.zero && numeric ? '=' : numeric ? '>' : '<';
  char fill = f.align ? f.fill : f.zero ? '0' : ' ';
  size_t len = sign.size() + body.size();
  size_t width = f.width > 0 ? size_t(f.width) : 0;
  if (len >= width)
    return sign + body;
  size_t extra = width - len;
  switch (align) {
  case '<': return sign + body + std::string(extra, fill);
  case '^': return std::string(extra / 2, fill) + sign + body + std::string(extra - extra / 2, fill);
  case '=': return sign + std::string(extra, fill) + body;
  default: return std::string(extra, fill) + sign + body;
  }
}

} // namespace

std::optional<std::string> Tracer::Impl::formatValue(const Value &v, char conversion,
                                                     llvm::StringRef specText,
                                                     const Location &loc) {
  std::string error;
  std::optional<FormatSpec> spec = parseSpec(specText, error);
  if (!spec)
    return this->error(loc, "ValueError: " + error);
  if (conversion || v.kind == Value::Kind::Str ||
      (!v.isPyScalar() && specText.empty())) {
    if (v.isTensorLike() && !specText.empty() && !conversion)
      return this->error(loc, "TypeError: unsupported format string passed to Tensor.__format__");
    if (!checkPrintable(v, loc))
      return std::nullopt;
    std::string text = conversion == 'r' || conversion == 'a' ? v.pyStr(true) : v.pyStr(false);
    if (spec->type && spec->type != 's')
      return this->error(loc, llvm::Twine("ValueError: Unknown format code '") + std::string(1, spec->type) +
                                  "' for object of type 'str'");
    if (spec->precision >= 0 && size_t(spec->precision) < text.size())
      text.resize(spec->precision);
    return pad(text, false, *spec, false);
  }
  if (!v.isPyScalar())
    return this->error(loc, "TypeError: unsupported format string passed to " +
                                (v.isTensorLike() ? std::string("Tensor") : v.typeString()) +
                                ".__format__");
  bool isFloat = v.kind == Value::Kind::Float;
  char type = spec->type;
  if (!type && !isFloat && spec->precision < 0)
    type = 'd';
  if (type == 'd' || type == 'x' || type == 'X' || type == 'o' || type == 'b' || type == 'n') {
    if (isFloat)
      return this->error(loc, llvm::Twine("ValueError: Unknown format code '") + std::string(1, type) +
                                  "' for object of type 'float'");
    if (spec->precision >= 0)
      return this->error(loc, "ValueError: Precision not allowed in integer format specifier");
    bool negative = v.i < 0;
    uint64_t magnitude = negative ? 0 - uint64_t(v.i) : uint64_t(v.i);
    std::string digits;
    if (type == 'd' || type == 'n')
      digits = std::to_string(magnitude);
    else if (type == 'x' || type == 'X')
      digits = llvm::utohexstr(magnitude, /*LowerCase=*/type == 'x');
    if (type == 'o' || type == 'b') {
      digits.clear();
      unsigned base = type == 'o' ? 8 : 2;
      do {
        digits.insert(digits.begin(), char('0' + magnitude % base));
        magnitude /= base;
      } while (magnitude);
    }
    if (spec->grouping)
      digits = group(digits, spec->grouping);
    return pad(digits, negative, *spec, true);
  }
  double x = isFloat ? v.f : double(v.i);
  if (!type && spec->precision < 0) // str() of the number
    return pad(isFloat ? pythonFloat(std::fabs(x)) : std::to_string(std::llabs(v.i)),
               std::signbit(x) && !std::isnan(x), *spec, true);
  int precision = spec->precision >= 0 ? spec->precision : 6;
  bool percent = type == '%';
  if (percent)
    x *= 100;
  char conv = percent ? 'f' : type ? type : 'g';
  if (conv != 'f' && conv != 'F' && conv != 'e' && conv != 'E' && conv != 'g' && conv != 'G')
    return this->error(loc, llvm::Twine("ValueError: Unknown format code '") + std::string(1, type) +
                                "' for object of type '" + v.typeString() + "'");
  std::string body;
  if (std::isinf(x)) {
    body = llvm::isUpper(conv) ? "INF" : "inf";
  } else if (std::isnan(x)) {
    body = llvm::isUpper(conv) ? "NAN" : "nan";
  } else {
    char fmt[8] = {'%', '.', '*', conv, 0};
    int n = std::snprintf(nullptr, 0, fmt, precision, std::fabs(x));
    body.resize(n + 1);
    std::snprintf(body.data(), body.size(), fmt, precision, std::fabs(x));
    body.resize(n);
  }
  if (spec->grouping && !std::isinf(x) && !std::isnan(x)) {
    size_t dot = body.find_first_not_of("0123456789");
    body = group(body.substr(0, dot), spec->grouping) +
           (dot == std::string::npos ? "" : body.substr(dot));
  }
  if (percent)
    body += '%';
  return pad(body, std::signbit(x) && !std::isnan(x), *spec, true);
}

std::optional<Value> Tracer::Impl::evalJoinedStr(const ast::JoinedStrExpr &s) {
  std::string out;
  for (const ast::FStringPart &part : s.getParts()) {
    if (!part.value) {
      out += part.literal;
      continue;
    }
    std::optional<Value> v = eval(*part.value);
    if (!v)
      return std::nullopt;
    std::optional<std::string> text = formatValue(*v, part.conversion, part.spec, part.value->loc());
    if (!text)
      return std::nullopt;
    out += *text;
  }
  return Value::str(std::move(out));
}

std::optional<Value> Tracer::Impl::strFormat(const Value &self, const CallArgs &args) {
  llvm::StringRef text = self.text;
  std::string out;
  size_t next = 0;
  bool manual = false, automatic = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '}') {
      if (i + 1 < text.size() && text[i + 1] == '}') {
        out += '}';
        ++i;
        continue;
      }
      return error(args.loc, "ValueError: Single '}' encountered in format string");
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    size_t close = text.find('}', i);
    if (close == llvm::StringRef::npos)
      return error(args.loc, "ValueError: Single '{' encountered in format string");
    llvm::StringRef field = text.slice(i + 1, close);
    i = close;
    auto [head, spec] = field.split(':');
    auto [name, conv] = head.split('!');
    if (field.contains('{'))
      return error(args.loc, "nested replacement fields in str.format are not supported by agc");
    const Value *v = nullptr;
    if (name.empty()) {
      if (manual)
        return error(args.loc, "ValueError: cannot switch from manual field specification to "
                               "automatic field numbering");
      automatic = true;
      if (next >= args.positional.size())
        return error(args.loc, "IndexError: Replacement index " + llvm::Twine(next) +
                                   " out of range for positional args tuple");
      v = &args.positional[next++];
    } else if (llvm::all_of(name, llvm::isDigit)) {
      if (automatic)
        return error(args.loc, "ValueError: cannot switch from automatic field numbering to "
                               "manual field specification");
      manual = true;
      unsigned k = 0;
      name.getAsInteger(10, k);
      if (k >= args.positional.size())
        return error(args.loc, "IndexError: Replacement index " + llvm::Twine(k) +
                                   " out of range for positional args tuple");
      v = &args.positional[k];
    } else {
      for (const auto &[key, value] : args.keywords)
        if (key == name)
          v = &value;
      if (!v) {
        if (name.find_first_of(".[") != llvm::StringRef::npos)
          return error(args.loc, "attribute and index fields in str.format ('" + name +
                                     "') are not supported by agc");
        return error(args.loc, "KeyError: '" + name + "'");
      }
    }
    if (!conv.empty() && conv != "r" && conv != "s" && conv != "a")
      return error(args.loc, "ValueError: Unknown conversion specifier " + conv);
    std::optional<std::string> formatted =
        formatValue(*v, conv.empty() ? 0 : conv[0], spec, args.loc);
    if (!formatted)
      return std::nullopt;
    out += *formatted;
  }
  return Value::str(std::move(out));
}

std::optional<Value> Tracer::Impl::strMethod(const Value &self, llvm::StringRef name,
                                             const CallArgs &args) {
  const std::string &s = self.text;
  const std::vector<Value> &pos = args.positional;
  if (name == "format")
    return strFormat(self, args);
  auto strArg = [&](size_t k) -> const std::string * {
    return k < pos.size() && pos[k].kind == Value::Kind::Str ? &pos[k].text : nullptr;
  };
  auto fail = [&]() {
    return error(args.loc, "str." + name + "() with these arguments is not supported by agc");
  };
  if (!args.keywords.empty() && name != "split")
    return fail();
  if (name == "upper" || name == "lower" || name == "title" || name == "capitalize" ||
      name == "swapcase") {
    if (!pos.empty())
      return fail();
    std::string out = s;
    bool start = true;
    for (char &c : out) {
      if (name == "upper")
        c = llvm::toUpper(c);
      else if (name == "lower")
        c = llvm::toLower(c);
      else if (name == "swapcase")
        c = llvm::isUpper(c) ? llvm::toLower(c) : llvm::toUpper(c);
      else if (name == "title") {
        c = start ? llvm::toUpper(c) : llvm::toLower(c);
        start = !llvm::isAlpha(c);
      } else {
        c = start ? llvm::toUpper(c) : llvm::toLower(c);
        start = false;
      }
    }
    return Value::str(out);
  }
  if (name == "strip" || name == "lstrip" || name == "rstrip") {
    if (pos.size() > 1 || (pos.size() == 1 && !strArg(0) && pos[0].kind != Value::Kind::None))
      return fail();
    llvm::StringRef chars = strArg(0) ? llvm::StringRef(*strArg(0)) : " \t\n\r\f\v";
    llvm::StringRef r = s;
    if (name != "rstrip")
      r = r.ltrim(chars);
    if (name != "lstrip")
      r = r.rtrim(chars);
    return Value::str(r.str());
  }
  if (name == "startswith" || name == "endswith") {
    if (pos.size() != 1)
      return fail();
    std::vector<std::string> options;
    if (strArg(0))
      options.push_back(*strArg(0));
    else if (pos[0].kind == Value::Kind::Tuple)
      for (const Value &e : pos[0].elements) {
        if (e.kind != Value::Kind::Str)
          return fail();
        options.push_back(e.text);
      }
    else
      return fail();
    return Value::boolean(llvm::any_of(options, [&](const std::string &o) {
      return name == "startswith" ? llvm::StringRef(s).starts_with(o)
                                  : llvm::StringRef(s).ends_with(o);
    }));
  }
  if (name == "replace") {
    if (pos.size() != 2 || !strArg(0) || !strArg(1) || strArg(0)->empty())
      return fail();
    std::string out;
    llvm::StringRef rest = s;
    for (size_t at; (at = rest.find(*strArg(0))) != llvm::StringRef::npos;) {
      out += rest.take_front(at).str() + *strArg(1);
      rest = rest.drop_front(at + strArg(0)->size());
    }
    return Value::str(out + rest.str());
  }
  if (name == "find" || name == "count" || name == "index") {
    if (pos.size() != 1 || !strArg(0))
      return fail();
    if (name == "count") {
      if (strArg(0)->empty())
        return Value::integer(s.size() + 1);
      int64_t n = 0;
      for (size_t at = s.find(*strArg(0)); at != std::string::npos;
           at = s.find(*strArg(0), at + strArg(0)->size()))
        ++n;
      return Value::integer(n);
    }
    size_t at = s.find(*strArg(0));
    if (at == std::string::npos && name == "index")
      return error(args.loc, "ValueError: substring not found");
    return Value::integer(at == std::string::npos ? -1 : int64_t(at));
  }
  if (name == "split") {
    const Value *sep = args.get(0, "sep");
    if (pos.size() > 1 || (sep && sep->kind != Value::Kind::Str && sep->kind != Value::Kind::None) ||
        llvm::any_of(args.keywords, [](const auto &kw) { return kw.first != "sep"; }))
      return fail();
    std::vector<Value> parts;
    if (!sep || sep->kind == Value::Kind::None) {
      llvm::SmallVector<llvm::StringRef, 8> words;
      llvm::SplitString(s, words);
      for (llvm::StringRef w : words)
        parts.push_back(Value::str(w.str()));
    } else {
      if (sep->text.empty())
        return error(args.loc, "ValueError: empty separator");
      llvm::SmallVector<llvm::StringRef, 8> pieces;
      llvm::StringRef(s).split(pieces, sep->text);
      for (llvm::StringRef p : pieces)
        parts.push_back(Value::str(p.str()));
    }
    return Value::list(std::move(parts));
  }
  if (name == "join") {
    if (pos.size() != 1)
      return fail();
    std::optional<std::vector<Value>> items = pythonItems(pos[0], args.loc);
    if (!items)
      return std::nullopt;
    std::string out;
    for (size_t k = 0; k < items->size(); ++k) {
      if ((*items)[k].kind != Value::Kind::Str)
        return error(args.loc, "TypeError: sequence item " + llvm::Twine(k) +
                                   ": expected str instance, " + (*items)[k].describe() +
                                   " found");
      out += (k ? s : "") + (*items)[k].text;
    }
    return Value::str(out);
  }
  if (name == "isdigit" || name == "isalpha" || name == "isspace") {
    if (!pos.empty())
      return fail();
    auto test = name == "isdigit" ? llvm::isDigit : name == "isalpha" ? llvm::isAlpha
                                                                      : llvm::isSpace;
    return Value::boolean(!s.empty() && llvm::all_of(s, [&](char c) { return test(c); }));
  }
  return error(args.loc, "a Python str has no method '" + name + "' agc knows");
}
