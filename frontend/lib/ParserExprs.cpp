//===- ParserExprs.cpp - ASTBuilder: expressions, literals and targets ----------===//
//
// One method per expression kind: numbers and strings decoded as CPython decodes them,
// operators, calls (a repeated keyword argument refused), subscripts, displays.
//
//===----------------------------------------------------------------------------------===//
#include "ParserImpl.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <cerrno>
#include <cstdlib>

using namespace ag;
using namespace ag::ast;
using namespace ag::ast::parser;
using ts::Sym;

//===----------------------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------------------===//

ExprPtr ASTBuilder::buildExpr(TSNode node) {
  Nest nest(*this);
  if (tooDeep(node) || ts_node_is_null(node))
    return nullptr;
  return buildExprInner(node);
}

ExprPtr ASTBuilder::buildExprInner(TSNode node) {
  switch (kind(node)) {
  case Sym::Identifier:
    return std::make_unique<NameExpr>(loc(node), text(node).str());
  case Sym::Integer: return buildInteger(node);
  case Sym::Float: return buildFloat(node);
  case Sym::String:
  case Sym::ConcatenatedString: return buildStrings(node);
  case Sym::True: return std::make_unique<BoolLitExpr>(loc(node), true);
  case Sym::False: return std::make_unique<BoolLitExpr>(loc(node), false);
  case Sym::None: return std::make_unique<NoneLitExpr>(loc(node));
  case Sym::Ellipsis: return std::make_unique<EllipsisLitExpr>(loc(node));
  case Sym::UnaryOperator:
  case Sym::NotOperator: return buildUnary(node);
  case Sym::BinaryOperator: return buildBinary(node);
  case Sym::BooleanOperator: return buildBoolean(node);
  case Sym::ComparisonOperator: return buildComparison(node);
  case Sym::Call: return buildCall(node);
  case Sym::Attribute: {
    ExprPtr value = buildExpr(field(node, f.object));
    if (!value)
      return nullptr;
    TSNode attr = field(node, f.attribute);
    return std::make_unique<AttributeExpr>(loc(node), std::move(value), text(attr).str(),
                                           loc(attr));
  }
  case Sym::Subscript: return buildSubscript(node);
  case Sym::Tuple:
  case Sym::List:
  case Sym::ExpressionList: return buildSequence(node, kind(node), /*asTarget=*/false);
  case Sym::Dictionary: return buildDict(node);
  case Sym::ConditionalExpression: return buildConditional(node);
  case Sym::ParenthesizedExpression: {
    std::vector<TSNode> kids = namedChildren(node);
    if (kids.size() != 1)
      return error(node, "invalid syntax");
    return buildExpr(kids[0]);
  }
  case Sym::Slice:
    return error(node, "a slice is only allowed inside '[]'");
  case Sym::Lambda: return buildLambda(node);
  case Sym::ListComprehension:
  case Sym::DictionaryComprehension:
  case Sym::GeneratorExpression:
  case Sym::SetComprehension: return buildComprehension(node);
  case Sym::Set: return buildSequence(node, Sym::Set, /*asTarget=*/false);
  default:
    return unsupportedNode(node);
  }
}

ExprPtr ASTBuilder::buildStarred(TSNode node) {
  std::vector<TSNode> kids = namedChildren(node);
  ExprPtr value = kids.size() == 1 ? buildExpr(kids[0]) : nullptr;
  if (!value)
    return kids.size() == 1 ? nullptr : error(node, "invalid syntax");
  return std::make_unique<StarredExpr>(loc(node), std::move(value));
}

ExprPtr ASTBuilder::buildLambda(TSNode node) {
  std::vector<Param> params;
  TSNode paramsNode = field(node, f.parameters);
  bool ok = ts_node_is_null(paramsNode) || buildParams(paramsNode, params);
  // A lambda body is a function body: `return` is allowed in neither, loops end.
  unsigned savedLoops = std::exchange(loopDepth, 0);
  ++functionDepth;
  ExprPtr body = buildExpr(field(node, f.body));
  --functionDepth;
  loopDepth = savedLoops;
  if (!ok || !body)
    return nullptr;
  StmtList stmts;
  Location bodyLoc = body->loc();
  stmts.push_back(std::make_unique<ReturnStmt>(bodyLoc, std::move(body)));
  auto def = std::make_unique<FunctionDefStmt>(loc(node), "<lambda>", loc(node),
                                               std::move(params), ExprList(), nullptr,
                                               std::move(stmts));
  return std::make_unique<LambdaExpr>(loc(node), std::move(def));
}

ExprPtr ASTBuilder::buildComprehension(TSNode node) {
  Sym k = kind(node);
  TSNode bodyNode = field(node, f.body);
  ExprPtr element, value;
  if (k == Sym::DictionaryComprehension) {
    if (kind(bodyNode) != Sym::Pair)
      return unsupportedNode(bodyNode); // {**d for ...} is a syntax error in Python too
    element = buildExpr(field(bodyNode, f.key));
    value = buildExpr(field(bodyNode, f.value));
    if (!value)
      element = nullptr;
  } else {
    element = buildExpr(bodyNode);
  }
  bool ok = element != nullptr;
  std::vector<Comprehension> generators;
  for (TSNode clause : namedChildren(node)) {
    if (kind(clause) == Sym::ForInClause) {
      if (hasKeyword(clause, "async")) {
        unsupported(clause, "'async for' in comprehensions is");
        ok = false;
        continue;
      }
      Comprehension c;
      c.target = buildTarget(field(clause, f.left));
      std::vector<TSNode> iters = fieldChildren(clause, f.right);
      if (iters.size() == 1) {
        c.iter = buildExpr(iters[0]);
      } else {
        // `for x in a, b` iterates the tuple (a, b).
        ExprList parts;
        for (TSNode part : iters)
          if (ExprPtr e = buildExpr(part))
            parts.push_back(std::move(e));
          else
            ok = false;
        Location tupleLoc = loc(iters.front());
        tupleLoc.end = loc(iters.back()).end;
        c.iter = std::make_unique<TupleExpr>(tupleLoc, std::move(parts));
      }
      ok &= c.target && c.iter;
      generators.push_back(std::move(c));
    } else if (kind(clause) == Sym::IfClause) {
      std::vector<TSNode> kids = namedChildren(clause);
      ExprPtr test = kids.size() == 1 ? buildExpr(kids[0]) : nullptr;
      if (!test || generators.empty()) {
        ok = false;
        continue;
      }
      generators.back().ifs.push_back(std::move(test));
    }
  }
  if (!ok || generators.empty())
    return nullptr;
  Expr::Kind exprKind = k == Sym::ListComprehension       ? Expr::Kind::ListComp
                        : k == Sym::DictionaryComprehension ? Expr::Kind::DictComp
                        : k == Sym::SetComprehension        ? Expr::Kind::SetComp
                                                            : Expr::Kind::GeneratorExp;
  return std::make_unique<ComprehensionExpr>(exprKind, loc(node), std::move(element),
                                             std::move(value), std::move(generators));
}

ExprPtr ASTBuilder::buildTarget(TSNode node) {
  Nest nest(*this);
  if (tooDeep(node) || ts_node_is_null(node))
    return nullptr;
  switch (kind(node)) {
  case Sym::Identifier:
  case Sym::Attribute:
  case Sym::Subscript:
    return buildExprInner(node);
  case Sym::PatternList:
  case Sym::TuplePattern:
  case Sym::ListPattern:
  case Sym::ExpressionList:
  case Sym::Tuple:
  case Sym::List:
    return buildSequence(node, kind(node), /*asTarget=*/true);
  case Sym::ParenthesizedExpression: {
    std::vector<TSNode> kids = namedChildren(node);
    if (kids.size() != 1)
      return error(node, "invalid syntax");
    return buildTarget(kids[0]);
  }
  case Sym::ListSplatPattern:
    return unsupportedNode(node);
  default:
    return error(node, "cannot assign to or delete this expression");
  }
}

ExprPtr ASTBuilder::buildSequence(TSNode node, Sym sym, bool asTarget) {
  ExprList elements;
  bool ok = true;
  for (TSNode child : namedChildren(node)) {
    ExprPtr e = asTarget              ? buildTarget(child)
                : kind(child) == Sym::ListSplat ? buildStarred(child) // [*a, b]
                                                : buildExpr(child);
    if (e)
      elements.push_back(std::move(e));
    else
      ok = false;
  }
  if (!ok)
    return nullptr;
  if (sym == Sym::List || sym == Sym::ListPattern)
    return std::make_unique<ListExpr>(loc(node), std::move(elements));
  if (sym == Sym::Set)
    return std::make_unique<SetExpr>(loc(node), std::move(elements));
  return std::make_unique<TupleExpr>(loc(node), std::move(elements));
}

ExprPtr ASTBuilder::buildInteger(TSNode node) {
  llvm::StringRef spelling = text(node);
  if (spelling.ends_with("j") || spelling.ends_with("J"))
    return unsupported(node, "Python complex numbers ('" + spelling + "') are",
                       "; make complex tensors with tf.complex(real, imag)");
  if (spelling.ends_with("l") || spelling.ends_with("L"))
    return error(node, "invalid syntax: Python 2 long literals ('" + spelling + "') are not Python 3");
  std::string digits;
  for (char c : spelling)
    if (c != '_')
      digits += c;
  unsigned radix = 10;
  llvm::StringRef body = digits;
  if (body.size() > 1 && body[0] == '0' && llvm::isAlpha(body[1])) {
    char p = llvm::toLower(body[1]);
    radix = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
    body = body.drop_front(2);
    if (radix == 0 || body.empty())
      return error(node, "invalid integer literal '" + spelling + "'");
  } else if (body.size() > 1 && body[0] == '0' && body.find_first_not_of('0') != llvm::StringRef::npos) {
    return error(node, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
  }
  uint64_t value = 0;
  std::optional<int64_t> result;
  if (!body.getAsInteger(radix, value) && value <= uint64_t(INT64_MAX))
    result = static_cast<int64_t>(value);
  return std::make_unique<IntLitExpr>(loc(node), spelling.str(), result);
}

ExprPtr ASTBuilder::buildFloat(TSNode node) {
  llvm::StringRef spelling = text(node);
  if (spelling.ends_with("j") || spelling.ends_with("J"))
    return unsupported(node, "Python complex numbers ('" + spelling + "') are",
                       "; make complex tensors with tf.complex(real, imag)");
  std::string digits;
  for (char c : spelling)
    if (c != '_')
      digits += c;
  errno = 0;
  char *end = nullptr;
  double value = std::strtod(digits.c_str(), &end);
  if (end != digits.c_str() + digits.size())
    return error(node, "invalid float literal '" + spelling + "'");
  return std::make_unique<FloatLitExpr>(loc(node), spelling.str(), value);
}

bool ASTBuilder::appendString(TSNode node, std::vector<FStringPart> &out) {
  TSNode start{}, end{};
  std::vector<TSNode> fields;
  for (const ts::Child &c : children(node)) {
    Sym k = kind(c.node);
    if (k == Sym::StringStart)
      start = c.node;
    else if (k == Sym::StringEnd)
      end = c.node;
    else if (k == Sym::Interpolation)
      fields.push_back(c.node);
  }
  if (ts_node_is_null(start) || ts_node_is_null(end)) {
    error(node, "invalid string literal");
    return false;
  }
  llvm::StringRef opening = text(start);
  llvm::StringRef prefix = opening.take_until([](char c) { return c == '\'' || c == '"'; });
  std::string lower = prefix.lower();
  bool formatted = llvm::StringRef(lower).contains('f');
  if (llvm::StringRef(lower).contains('b')) {
    unsupported(node, "bytes literals are");
    return false;
  }
  // The literal text from byte `from` to `to`: escapes decoded (not in raw strings), and
  // in an f-string `{{` and `}}` are braces.
  auto literal = [&](uint32_t from, uint32_t to) -> bool {
    llvm::StringRef body = source.text.slice(from, to);
    std::string decoded;
    if (llvm::StringRef(lower).contains('r')) {
      decoded = body.str();
    } else {
      size_t bad = 0;
      bool named = false;
      if (!decodeEscapes(body, decoded, bad, named)) {
        uint32_t at = from + bad;
        if (named)
          diag.error(source.locationOf(at, at + 2),
                     "named Unicode escapes ('\\N{...}') are not supported by agc");
        else
          diag.error(source.locationOf(at, at + 2), "invalid escape sequence in string literal");
        return false;
      }
    }
    if (formatted) {
      std::string unbraced;
      for (size_t i = 0; i < decoded.size(); ++i) {
        unbraced += decoded[i];
        if ((decoded[i] == '{' || decoded[i] == '}') && i + 1 < decoded.size() &&
            decoded[i + 1] == decoded[i])
          ++i;
      }
      decoded = std::move(unbraced);
    }
    if (!out.empty() && !out.back().value)
      out.back().literal += decoded;
    else
      out.push_back({decoded, nullptr, 0, ""});
    return true;
  };
  uint32_t pos = ts_node_end_byte(start);
  for (TSNode field : fields) {
    if (!literal(pos, ts_node_start_byte(field)))
      return false;
    pos = ts_node_end_byte(field);
    FStringPart part;
    part.value = buildExpr(this->field(field, f.expression));
    if (!part.value)
      return false;
    for (const ts::Child &c : children(field))
      if (llvm::StringRef(ts_node_type(c.node)) == "=") {
        unsupported(field, "self-documenting f-string fields ('{x=}') are");
        return false;
      }
    TSNode conversion = this->field(field, f.typeConversion);
    if (!ts_node_is_null(conversion)) {
      llvm::StringRef c = text(conversion).ltrim('!');
      if (c != "r" && c != "s" && c != "a") {
        error(conversion, "f-string: invalid conversion character: expected 's', 'r', or 'a'");
        return false;
      }
      part.conversion = c[0];
    }
    TSNode spec = this->field(field, f.formatSpecifier);
    if (!ts_node_is_null(spec)) {
      part.spec = text(spec).ltrim(':').str();
      if (llvm::StringRef(part.spec).contains('{')) {
        unsupported(spec, "replacement fields inside an f-string's format spec are");
        return false;
      }
    }
    out.push_back(std::move(part));
  }
  return literal(pos, ts_node_start_byte(end));
}

ExprPtr ASTBuilder::buildStrings(TSNode node) {
  std::vector<FStringPart> parts;
  if (kind(node) == Sym::String) {
    if (!appendString(node, parts))
      return nullptr;
  } else {
    for (TSNode part : namedChildren(node))
      if (!appendString(part, parts))
        return nullptr;
  }
  if (llvm::all_of(parts, [](const FStringPart &p) { return !p.value; }))
    return std::make_unique<StrLitExpr>(loc(node), parts.empty() ? "" : parts[0].literal);
  return std::make_unique<JoinedStrExpr>(loc(node), std::move(parts));
}

ExprPtr ASTBuilder::buildUnary(TSNode node) {
  UnaryOp op = UnaryOp::Not;
  if (kind(node) == Sym::UnaryOperator) {
    llvm::StringRef spelled = ts_node_type(field(node, f.operator_));
    op = spelled == "-" ? UnaryOp::Minus : spelled == "+" ? UnaryOp::Plus : UnaryOp::Invert;
  }
  ExprPtr operand = buildExpr(field(node, f.argument));
  if (!operand)
    return nullptr;
  return std::make_unique<UnaryExpr>(loc(node), op, std::move(operand));
}

ExprPtr ASTBuilder::buildBinary(TSNode node) {
  static const std::pair<const char *, BinaryOp> kOps[] = {
      {"+", BinaryOp::Add},   {"-", BinaryOp::Sub},       {"*", BinaryOp::Mul},
      {"/", BinaryOp::Div},   {"//", BinaryOp::FloorDiv}, {"%", BinaryOp::Mod},
      {"**", BinaryOp::Pow},  {"@", BinaryOp::MatMul},    {"&", BinaryOp::BitAnd},
      {"|", BinaryOp::BitOr}, {"^", BinaryOp::BitXor},    {"<<", BinaryOp::LShift},
      {">>", BinaryOp::RShift}};
  TSNode opNode = field(node, f.operator_);
  llvm::StringRef spelled = ts_node_type(opNode);
  std::optional<BinaryOp> op;
  for (const auto &[s, value] : kOps)
    if (spelled == s)
      op = value;
  if (!op)
    return error(opNode, "invalid syntax: '" + spelled + "' is not a Python 3 operator");
  ExprPtr lhs = buildExpr(field(node, f.left));
  ExprPtr rhs = lhs ? buildExpr(field(node, f.right)) : nullptr;
  if (!lhs || !rhs)
    return nullptr;
  return std::make_unique<BinaryExpr>(loc(node), *op, std::move(lhs), std::move(rhs));
}

ExprPtr ASTBuilder::buildBoolean(TSNode node) {
  // tree-sitter nests `a and b and c` to the left; CPython keeps one BoolOp with all
  // operands. Walk down the left spine while the operator stays the same.
  llvm::StringRef spelled = ts_node_type(field(node, f.operator_));
  BoolOpKind op = spelled == "and" ? BoolOpKind::And : BoolOpKind::Or;
  std::vector<TSNode> rights;
  TSNode current = node;
  while (kind(current) == Sym::BooleanOperator &&
         llvm::StringRef(ts_node_type(field(current, f.operator_))) == spelled) {
    rights.push_back(field(current, f.right));
    current = field(current, f.left);
    if (rights.size() > options.maxNestingDepth) {
      tooDeep(node);
      return nullptr;
    }
  }
  ExprList values;
  ExprPtr first = buildExpr(current);
  if (!first)
    return nullptr;
  values.push_back(std::move(first));
  for (TSNode right : llvm::reverse(rights)) {
    ExprPtr e = buildExpr(right);
    if (!e)
      return nullptr;
    values.push_back(std::move(e));
  }
  return std::make_unique<BoolOpExpr>(loc(node), op, std::move(values));
}

ExprPtr ASTBuilder::buildComparison(TSNode node) {
  static const std::pair<const char *, CmpOp> kOps[] = {
      {"<", CmpOp::Lt},   {"<=", CmpOp::LtE}, {">", CmpOp::Gt},         {">=", CmpOp::GtE},
      {"==", CmpOp::Eq},  {"!=", CmpOp::NotEq}, {"in", CmpOp::In},      {"not in", CmpOp::NotIn},
      {"is", CmpOp::Is},  {"is not", CmpOp::IsNot}};
  ExprList operands;
  std::vector<CmpOp> ops;
  for (const ts::Child &c : children(node)) {
    if (ts_node_is_extra(c.node))
      continue;
    if (c.field == f.operators) {
      llvm::StringRef spelled = ts_node_type(c.node);
      std::optional<CmpOp> op;
      for (const auto &[s, value] : kOps)
        if (spelled == s)
          op = value;
      if (!op)
        return error(c.node, "invalid syntax: '" + spelled + "' is not a Python 3 comparison");
      ops.push_back(*op);
      continue;
    }
    if (!ts_node_is_named(c.node))
      continue;
    ExprPtr e = buildExpr(c.node);
    if (!e)
      return nullptr;
    operands.push_back(std::move(e));
  }
  if (operands.size() != ops.size() + 1)
    return error(node, "invalid syntax in comparison");
  ExprPtr left = std::move(operands.front());
  operands.erase(operands.begin());
  return std::make_unique<CompareExpr>(loc(node), std::move(left), std::move(ops),
                                       std::move(operands));
}

bool ASTBuilder::buildArguments(TSNode argsNode, ExprList &args, std::vector<Keyword> &keywords) {
  bool ok = true;
  llvm::StringSet<> seen;
  for (TSNode arg : namedChildren(argsNode)) {
    if (kind(arg) == Sym::DictionarySplat) {
      std::vector<TSNode> kids = namedChildren(arg);
      ExprPtr value = kids.size() == 1 ? buildExpr(kids[0]) : nullptr;
      if (!value) {
        ok = false;
        continue;
      }
      keywords.push_back({loc(arg), "", std::move(value)});
      continue;
    }
    if (kind(arg) == Sym::ListSplat) {
      if (llvm::any_of(keywords, [](const Keyword &k) { return k.name.empty(); })) {
        error(arg, "iterable argument unpacking follows keyword argument unpacking");
        ok = false;
        continue;
      }
      ExprPtr value = buildStarred(arg);
      if (!value) {
        ok = false;
        continue;
      }
      args.push_back(std::move(value));
      continue;
    }
    if (kind(arg) == Sym::KeywordArgument) {
      TSNode name = field(arg, f.name);
      ExprPtr value = buildExpr(field(arg, f.value));
      if (kind(name) != Sym::Identifier) {
        error(name, "expression cannot contain assignment, perhaps you meant \"==\"?");
        ok = false;
        continue;
      }
      if (!seen.insert(text(name)).second) {
        error(arg, "keyword argument repeated: " + text(name));
        ok = false;
      }
      if (!value) {
        ok = false;
        continue;
      }
      keywords.push_back({loc(arg), text(name).str(), std::move(value)});
      continue;
    }
    if (!keywords.empty()) {
      error(arg, "positional argument follows keyword argument");
      ok = false;
      continue;
    }
    ExprPtr value = buildExpr(arg);
    if (!value) {
      ok = false;
      continue;
    }
    args.push_back(std::move(value));
  }
  return ok;
}

ExprPtr ASTBuilder::buildCall(TSNode node) {
  ExprPtr callee = buildExpr(field(node, f.function));
  TSNode argsNode = field(node, f.arguments);
  ExprList args;
  std::vector<Keyword> keywords;
  if (kind(argsNode) == Sym::GeneratorExpression) { // f(x for x in xs)
    ExprPtr gen = buildComprehension(argsNode);
    if (!callee || !gen)
      return nullptr;
    args.push_back(std::move(gen));
    return std::make_unique<CallExpr>(loc(node), std::move(callee), std::move(args),
                                      std::move(keywords));
  }
  if (kind(argsNode) != Sym::ArgumentList)
    return unsupportedNode(argsNode);
  bool ok = buildArguments(argsNode, args, keywords) && callee != nullptr;
  if (!ok)
    return nullptr;
  return std::make_unique<CallExpr>(loc(node), std::move(callee), std::move(args),
                                    std::move(keywords));
}

ExprPtr ASTBuilder::buildSlice(TSNode node) {
  // The parts sit between ':' tokens: lower ':' upper [':' step], each optional.
  ExprPtr parts[3];
  unsigned index = 0;
  for (const ts::Child &c : children(node)) {
    if (ts_node_is_extra(c.node))
      continue;
    if (!ts_node_is_named(c.node)) {
      if (llvm::StringRef(ts_node_type(c.node)) == ":")
        ++index;
      continue;
    }
    if (index > 2)
      return error(c.node, "invalid syntax in slice");
    if (!(parts[index] = buildExpr(c.node)))
      return nullptr;
  }
  return std::make_unique<SliceExpr>(loc(node), std::move(parts[0]), std::move(parts[1]),
                                     std::move(parts[2]));
}

ExprPtr ASTBuilder::buildSubscript(TSNode node) {
  ExprPtr value = buildExpr(field(node, f.value));
  std::vector<TSNode> subscripts = fieldChildren(node, f.subscript);
  ExprList indices;
  bool ok = value != nullptr;
  for (TSNode s : subscripts) {
    Nest nest(*this);
    ExprPtr e = kind(s) == Sym::Slice ? (tooDeep(s) ? nullptr : buildSlice(s)) : buildExpr(s);
    if (e)
      indices.push_back(std::move(e));
    else
      ok = false;
  }
  if (!ok || indices.empty())
    return ok ? error(node, "invalid syntax: empty subscript") : nullptr;
  ExprPtr index;
  if (indices.size() == 1 && !hasKeyword(node, ",")) {
    index = std::move(indices.front());
  } else {
    // x[a, b:c] indexes with a tuple that spans the brackets' contents.
    Location tupleLoc = indices.front()->loc();
    tupleLoc.end = indices.back()->loc().end;
    index = std::make_unique<TupleExpr>(tupleLoc, std::move(indices));
  }
  return std::make_unique<SubscriptExpr>(loc(node), std::move(value), std::move(index));
}

ExprPtr ASTBuilder::buildDict(TSNode node) {
  ExprList keys, values;
  bool ok = true;
  for (TSNode item : namedChildren(node)) {
    if (kind(item) == Sym::DictionarySplat) { // {**other}: a null key
      std::vector<TSNode> kids = namedChildren(item);
      ExprPtr value = kids.size() == 1 ? buildExpr(kids[0]) : nullptr;
      if (!value) {
        ok = false;
        continue;
      }
      keys.push_back(nullptr);
      values.push_back(std::move(value));
      continue;
    }
    if (kind(item) != Sym::Pair) {
      unsupportedNode(item);
      ok = false;
      continue;
    }
    ExprPtr k = buildExpr(field(item, f.key));
    ExprPtr v = buildExpr(field(item, f.value));
    if (!k || !v) {
      ok = false;
      continue;
    }
    keys.push_back(std::move(k));
    values.push_back(std::move(v));
  }
  if (!ok)
    return nullptr;
  return std::make_unique<DictExpr>(loc(node), std::move(keys), std::move(values));
}

ExprPtr ASTBuilder::buildConditional(TSNode node) {
  std::vector<TSNode> kids = namedChildren(node);
  if (kids.size() != 3)
    return error(node, "invalid syntax in conditional expression");
  ExprPtr body = buildExpr(kids[0]);
  ExprPtr test = buildExpr(kids[1]);
  ExprPtr orelse = buildExpr(kids[2]);
  if (!body || !test || !orelse)
    return nullptr;
  return std::make_unique<IfExpExpr>(loc(node), std::move(test), std::move(body),
                                     std::move(orelse));
}

ExprPtr ASTBuilder::buildAnnotation(TSNode typeNode) {
  std::vector<TSNode> kids = namedChildren(typeNode);
  if (kids.size() == 1) {
    switch (kind(kids[0])) {
    case Sym::Identifier:
    case Sym::Attribute:
    case Sym::Subscript:
    case Sym::String:
    case Sym::None:
    case Sym::BinaryOperator:
    case Sym::Call:
      return buildExpr(kids[0]);
    default:
      break;
    }
  }
  return unsupported(typeNode, "this form of type annotation is");
}
