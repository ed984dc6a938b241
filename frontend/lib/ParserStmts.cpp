//===- ParserStmts.cpp - ASTBuilder: statements and function definitions --------===//
//
// One method per statement kind; CPython's own compile-time checks that need no types
// ('break' outside a loop, 'return' outside a function, ...) are made here.
//
//===----------------------------------------------------------------------------------===//
#include "ParserImpl.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace ag;
using namespace ag::ast;
using namespace ag::ast::parser;
using ts::Sym;

//===----------------------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------------------===//

std::unique_ptr<Module> ASTBuilder::buildModule(TSNode root) {
  StmtList body;
  TSNode previous{};
  for (TSNode child : namedChildren(root)) {
    if (stopped())
      break;
    uint32_t column = ts_node_start_point(child).column;
    if (column != 0) {
      // Shallower than the line before: a dedent that matches no enclosing level.
      bool dedent = !ts_node_is_null(previous) && column < indentOfLine(ts_node_end_byte(previous));
      error(child, dedent ? "unindent does not match any outer indentation level"
                          : "unexpected indent");
    } else {
      buildStmt(child, body);
    }
    previous = child;
  }
  return std::make_unique<Module>(loc(root), std::move(body));
}

void ASTBuilder::buildBlock(TSNode owner, TSFieldId blockField, StmtList &out) {
  TSNode block = field(owner, blockField);
  std::vector<TSNode> stmts =
      ts_node_is_null(block) ? std::vector<TSNode>() : namedChildren(block);
  TSPoint header = ts_node_start_point(owner);
  llvm::StringRef keyword = ts_node_is_null(ts_node_child(owner, 0))
                                ? llvm::StringRef("compound")
                                : llvm::StringRef(ts_node_type(ts_node_child(owner, 0)));
  auto expectedBlock = [&](TSNode at) {
    diag.error(ts_node_is_null(at) ? loc(owner) : loc(at),
               "expected an indented block after '" + keyword + "' statement on line " +
                   llvm::Twine(header.row + 1));
  };
  if (stmts.empty()) {
    expectedBlock(ts_node_next_named_sibling(owner));
    return;
  }
  std::optional<uint32_t> column;
  for (TSNode child : stmts) {
    if (stopped())
      return;
    TSPoint at = ts_node_start_point(child);
    if (at.row != header.row) {
      if (!column) {
        column = at.column;
        if (at.column <= header.column) {
          expectedBlock(child);
          return;
        }
      } else if (at.column != *column) {
        error(child, at.column > *column
                         ? "unexpected indent"
                         : "unindent does not match any outer indentation level");
        return;
      }
    }
    buildStmt(child, out);
  }
}

void ASTBuilder::buildStmt(TSNode node, StmtList &out) {
  size_t mark = deferred.size(), built = out.size();
  unsigned errors = diag.getNumErrors();
  // buildDecorated sets the flag; the statements of the body, built in between, keep it.
  bool outerFlag = std::exchange(decoratedTfFunction, false);
  buildStmtInner(node, out);
  bool tfFunction = kind(node) == Sym::DecoratedDefinition && decoratedTfFunction;
  decoratedTfFunction = outerFlag;
  if (deferred.size() == mark)
    return;
  std::vector<StoredDiagnostic> why(std::make_move_iterator(deferred.begin() + mark),
                                      std::make_move_iterator(deferred.end()));
  deferred.resize(mark);
  // A syntax error fails the file; a refusal of agc's waits for the tracer.
  if (diag.getNumErrors() != errors)
    return;
  out.resize(built);
  out.push_back(std::make_unique<UnsupportedStmt>(loc(node), std::move(why), boundNames(node),
                                                  tfFunction, text(node).str()));
}

std::vector<Identifier> ASTBuilder::boundNames(TSNode node) {
  std::vector<Identifier> names;
  auto named = [&](TSNode at) {
    if (!ts_node_is_null(at) && kind(at) == Sym::Identifier)
      names.push_back({loc(at), text(at).str()});
  };
  switch (kind(node)) {
  case Sym::DecoratedDefinition:
    named(field(field(node, f.definition), f.name));
    break;
  case Sym::FunctionDefinition:
  case Sym::ClassDefinition:
    named(field(node, f.name));
    break;
  case Sym::ExpressionStatement: {
    std::vector<TSNode> kids = namedChildren(node);
    // `a = b = v` nests assignments to the right.
    for (TSNode at = kids.size() == 1 ? kids[0] : TSNode{};
         !ts_node_is_null(at) && kind(at) == Sym::Assignment; at = field(at, f.right)) {
      TSNode left = field(at, f.left);
      if (kind(left) == Sym::Identifier)
        named(left);
      else if (kind(left) == Sym::PatternList || kind(left) == Sym::TuplePattern)
        for (TSNode part : namedChildren(left))
          named(part);
    }
    break;
  }
  default:
    break;
  }
  return names;
}

void ASTBuilder::buildStmtInner(TSNode node, StmtList &out) {
  Nest nest(*this);
  if (tooDeep(node))
    return;
  StmtPtr stmt;
  switch (kind(node)) {
  case Sym::ExpressionStatement:
    return buildExpressionStatement(node, out);
  case Sym::IfStatement: stmt = buildIf(node); break;
  case Sym::WhileStatement: stmt = buildWhile(node); break;
  case Sym::WithStatement: stmt = buildWith(node); break;
  case Sym::RaiseStatement: stmt = buildRaise(node); break;
  case Sym::TryStatement: stmt = buildTry(node); break;
  case Sym::ForStatement: stmt = buildFor(node); break;
  case Sym::BreakStatement:
  case Sym::ContinueStatement: {
    bool isBreak = kind(node) == Sym::BreakStatement;
    if (loopDepth == 0) {
      error(node, isBreak ? "'break' outside loop" : "'continue' not properly in loop");
      return;
    }
    if (isBreak)
      stmt = std::make_unique<BreakStmt>(loc(node));
    else
      stmt = std::make_unique<ContinueStmt>(loc(node));
    break;
  }
  case Sym::PassStatement: stmt = std::make_unique<PassStmt>(loc(node)); break;
  case Sym::ReturnStatement: stmt = buildReturn(node); break;
  case Sym::AssertStatement: stmt = buildAssert(node); break;
  case Sym::DeleteStatement: stmt = buildDelete(node); break;
  case Sym::GlobalStatement: stmt = buildScopeDecl(node, true); break;
  case Sym::NonlocalStatement: stmt = buildScopeDecl(node, false); break;
  case Sym::ImportStatement: stmt = buildImport(node); break;
  case Sym::ImportFromStatement: stmt = buildImportFrom(node, false); break;
  case Sym::FutureImportStatement: stmt = buildImportFrom(node, true); break;
  case Sym::FunctionDefinition: stmt = buildFunction(node, {}); break;
  case Sym::DecoratedDefinition: stmt = buildDecorated(node); break;
  case Sym::ClassDefinition: stmt = buildClass(node, {}); break;
  default:
    unsupportedNode(node);
    return;
  }
  if (stmt)
    out.push_back(std::move(stmt));
}

void ASTBuilder::buildExpressionStatement(TSNode node, StmtList &out) {
  std::vector<TSNode> kids = namedChildren(node);
  if (kids.size() == 1) {
    switch (kind(kids[0])) {
    case Sym::Assignment:
      if (StmtPtr s = buildAssignment(kids[0]))
        out.push_back(std::move(s));
      return;
    case Sym::AugmentedAssignment:
      if (StmtPtr s = buildAugmentedAssignment(kids[0]))
        out.push_back(std::move(s));
      return;
    default:
      if (ExprPtr e = buildExpr(kids[0]))
        out.push_back(std::make_unique<ExprStmt>(loc(node), std::move(e)));
      return;
    }
  }
  // `a, b` as a statement: a tuple.
  if (ExprPtr e = buildSequence(node, Sym::ExpressionList, /*asTarget=*/false))
    out.push_back(std::make_unique<ExprStmt>(loc(node), std::move(e)));
}

StmtPtr ASTBuilder::buildAssignment(TSNode node) {
  // `a = b = v` nests: assignment(left a, right assignment(left b, right v)).
  ExprList targets;
  TSNode current = node;
  TSNode annotation = field(node, f.type);
  for (;;) {
    ExprPtr target = buildTarget(field(current, f.left));
    if (!target)
      return nullptr;
    targets.push_back(std::move(target));
    TSNode right = field(current, f.right);
    if (ts_node_is_null(right) || kind(right) != Sym::Assignment)
      break;
    if (!ts_node_is_null(field(right, f.type)))
      return error(right, "invalid syntax: an annotated assignment cannot be chained");
    current = right;
  }
  TSNode right = field(current, f.right);
  if (!ts_node_is_null(annotation)) {
    if (targets.size() != 1)
      return error(node, "invalid syntax: an annotated assignment cannot be chained");
    ExprPtr ann = buildAnnotation(annotation);
    ExprPtr value;
    if (!ts_node_is_null(right) && !(value = buildExpr(right)))
      return nullptr;
    if (!ann)
      return nullptr;
    if (!llvm::isa<NameExpr, AttributeExpr, SubscriptExpr>(targets[0].get()))
      return error(node, "only a single target can be annotated");
    return std::make_unique<AnnAssignStmt>(loc(node), std::move(targets[0]), std::move(ann),
                                           std::move(value));
  }
  if (ts_node_is_null(right))
    return error(node, "invalid syntax: expected a value after '='");
  ExprPtr value = buildExpr(right);
  if (!value)
    return nullptr;
  return std::make_unique<AssignStmt>(loc(node), std::move(targets), std::move(value));
}

StmtPtr ASTBuilder::buildAugmentedAssignment(TSNode node) {
  static const std::pair<const char *, BinaryOp> kOps[] = {
      {"+=", BinaryOp::Add},       {"-=", BinaryOp::Sub},     {"*=", BinaryOp::Mul},
      {"/=", BinaryOp::Div},       {"//=", BinaryOp::FloorDiv}, {"%=", BinaryOp::Mod},
      {"**=", BinaryOp::Pow},      {"@=", BinaryOp::MatMul},  {"&=", BinaryOp::BitAnd},
      {"|=", BinaryOp::BitOr},     {"^=", BinaryOp::BitXor},  {"<<=", BinaryOp::LShift},
      {">>=", BinaryOp::RShift}};
  llvm::StringRef opText = ts_node_type(field(node, f.operator_));
  std::optional<BinaryOp> op;
  for (const auto &[spelled, value] : kOps)
    if (opText == spelled)
      op = value;
  if (!op)
    return error(field(node, f.operator_), "unknown operator '" + opText + "'");
  TSNode left = field(node, f.left);
  ExprPtr target = buildTarget(left);
  ExprPtr value = buildExpr(field(node, f.right));
  if (!target || !value)
    return nullptr;
  if (!llvm::isa<NameExpr, AttributeExpr, SubscriptExpr>(target.get()))
    return error(left, "'" + text(left) + "' is an illegal expression for augmented assignment");
  return std::make_unique<AugAssignStmt>(loc(node), std::move(target), *op, std::move(value));
}

StmtPtr ASTBuilder::buildIf(TSNode node) {
  // if c0: b0 elif c1: b1 else: b2  =>  If(c0, b0, [If(c1, b1, b2, elif)])
  ExprPtr test = buildExpr(field(node, f.condition));
  StmtList body;
  buildBlock(node, f.consequence, body);
  std::vector<TSNode> alternatives = fieldChildren(node, f.alternative);
  StmtList orelse;
  for (TSNode alt : llvm::reverse(alternatives)) {
    if (kind(alt) == Sym::ElseClause) {
      buildBlock(alt, f.body, orelse);
      continue;
    }
    ExprPtr elifTest = buildExpr(field(alt, f.condition));
    StmtList elifBody;
    buildBlock(alt, f.consequence, elifBody);
    if (!elifTest)
      return nullptr;
    // The elif's own location runs to the end of the whole chain, like CPython's.
    Location elifLoc = loc(alt);
    elifLoc.end = loc(node).end;
    StmtList wrapped;
    wrapped.push_back(std::make_unique<IfStmt>(elifLoc, std::move(elifTest), std::move(elifBody),
                                               std::move(orelse), /*elif=*/true));
    orelse = std::move(wrapped);
  }
  if (!test)
    return nullptr;
  return std::make_unique<IfStmt>(loc(node), std::move(test), std::move(body), std::move(orelse),
                                  /*elif=*/false);
}

void ASTBuilder::buildLoopBlocks(TSNode node, StmtList &body, StmtList &orelse) {
  ++loopDepth;
  buildBlock(node, f.body, body);
  --loopDepth;
  TSNode alt = field(node, f.alternative);
  if (!ts_node_is_null(alt))
    buildBlock(alt, f.body, orelse);
}

StmtPtr ASTBuilder::buildWhile(TSNode node) {
  ExprPtr test = buildExpr(field(node, f.condition));
  StmtList body, orelse;
  buildLoopBlocks(node, body, orelse);
  if (!test)
    return nullptr;
  return std::make_unique<WhileStmt>(loc(node), std::move(test), std::move(body),
                                     std::move(orelse));
}

StmtPtr ASTBuilder::buildWith(TSNode node) {
  if (hasKeyword(node, "async"))
    return unsupported(node, "'async with' statements are");
  std::vector<WithItem> items;
  bool ok = true;
  for (TSNode clause : namedChildren(node)) {
    if (kind(clause) != Sym::WithClause)
      continue;
    for (TSNode item : namedChildren(clause)) {
      // `with a as x`: the item's value is as_pattern(a, alias: as_pattern_target(x)).
      TSNode value = kind(item) == Sym::WithItem ? field(item, f.value) : item;
      WithItem built;
      if (kind(value) == Sym::AsPattern) {
        std::vector<TSNode> parts = namedChildren(value);
        TSNode alias = field(value, f.alias);
        if (parts.empty() || ts_node_is_null(alias)) {
          error(value, "invalid syntax");
          ok = false;
          continue;
        }
        std::vector<TSNode> targets = namedChildren(alias);
        built.context = buildExpr(parts[0]);
        built.target = buildTarget(targets.size() == 1 ? targets[0] : alias);
        ok &= built.target != nullptr;
      } else {
        built.context = buildExpr(value);
      }
      ok &= built.context != nullptr;
      items.push_back(std::move(built));
    }
  }
  StmtList body;
  buildBlock(node, f.body, body);
  if (!ok || items.empty())
    return nullptr;
  return std::make_unique<WithStmt>(loc(node), std::move(items), std::move(body));
}

StmtPtr ASTBuilder::buildRaise(TSNode node) {
  std::vector<TSNode> kids = namedChildren(node);
  ExprPtr exc, cause;
  bool hasCause = hasKeyword(node, "from");
  if (kids.size() > (hasCause ? 1u : 0u) && !(exc = buildExpr(kids[0])))
    return nullptr;
  if (hasCause && !(cause = buildExpr(kids.back())))
    return nullptr;
  return std::make_unique<RaiseStmt>(loc(node), std::move(exc), std::move(cause));
}

void ASTBuilder::buildBlockNode(TSNode block, StmtList &out) {
  // buildBlock reads a field; a clause's block is its only block child.
  for (TSNode stmt : namedChildren(block))
    buildStmt(stmt, out);
}

StmtPtr ASTBuilder::buildTry(TSNode node) {
  StmtList body, orelse, finalbody;
  std::vector<ExceptHandler> handlers;
  buildBlock(node, f.body, body);
  bool ok = true;
  for (TSNode clause : namedChildren(node)) {
    switch (kind(clause)) {
    case Sym::ExceptClause: {
      ExceptHandler handler;
      handler.loc = loc(clause);
      for (TSNode part : namedChildren(clause)) {
        if (kind(part) == Sym::Block) {
          buildBlockNode(part, handler.body);
        } else if (kind(part) == Sym::AsPattern) {
          // `except E as e`: the type, and the name bound to the exception.
          std::vector<TSNode> inner = namedChildren(part);
          TSNode alias = field(part, f.alias);
          handler.type = inner.empty() ? nullptr : buildExpr(inner[0]);
          std::vector<TSNode> names = ts_node_is_null(alias) ? std::vector<TSNode>() : namedChildren(alias);
          handler.name = text(names.size() == 1 ? names[0] : alias).str();
          ok &= handler.type != nullptr;
        } else if (!handler.type) {
          ok &= (handler.type = buildExpr(part)) != nullptr;
        } else {
          handler.name = text(part).str(); // `except E, e` never parses; `except E as e`
        }
      }
      handlers.push_back(std::move(handler));
      break;
    }
    case Sym::ElseClause:
      buildBlock(clause, f.body, orelse);
      break;
    case Sym::FinallyClause:
      for (TSNode part : namedChildren(clause))
        if (kind(part) == Sym::Block)
          buildBlockNode(part, finalbody);
      break;
    case Sym::Block:
      break;
    default:
      unsupportedNode(clause); // except* (exception groups)
      ok = false;
      break;
    }
  }
  if (!ok)
    return nullptr;
  return std::make_unique<TryStmt>(loc(node), std::move(body), std::move(handlers),
                                   std::move(orelse), std::move(finalbody));
}

StmtPtr ASTBuilder::buildFor(TSNode node) {
  if (hasKeyword(node, "async"))
    return unsupported(node, "'async for' loops are");
  ExprPtr target = buildTarget(field(node, f.left));
  ExprPtr iter = buildExpr(field(node, f.right));
  StmtList body, orelse;
  buildLoopBlocks(node, body, orelse);
  if (!target || !iter)
    return nullptr;
  return std::make_unique<ForStmt>(loc(node), std::move(target), std::move(iter),
                                   std::move(body), std::move(orelse));
}

StmtPtr ASTBuilder::buildReturn(TSNode node) {
  if (functionDepth == 0)
    return error(node, "'return' outside function");
  std::vector<TSNode> kids = namedChildren(node);
  ExprPtr value;
  if (!kids.empty() && !(value = buildExpr(kids[0])))
    return nullptr;
  return std::make_unique<ReturnStmt>(loc(node), std::move(value));
}

StmtPtr ASTBuilder::buildAssert(TSNode node) {
  std::vector<TSNode> kids = namedChildren(node);
  ExprPtr test = kids.size() > 0 ? buildExpr(kids[0]) : nullptr;
  ExprPtr msg;
  if (kids.size() > 1 && !(msg = buildExpr(kids[1])))
    return nullptr;
  if (!test)
    return nullptr;
  return std::make_unique<AssertStmt>(loc(node), std::move(test), std::move(msg));
}

StmtPtr ASTBuilder::buildDelete(TSNode node) {
  std::vector<TSNode> kids = namedChildren(node);
  ExprList targets;
  std::vector<TSNode> items;
  if (kids.size() == 1 && kind(kids[0]) == Sym::ExpressionList)
    items = namedChildren(kids[0]);
  else
    items = kids;
  for (TSNode item : items) {
    ExprPtr target = buildTarget(item);
    if (!target)
      return nullptr;
    targets.push_back(std::move(target));
  }
  return std::make_unique<DeleteStmt>(loc(node), std::move(targets));
}

StmtPtr ASTBuilder::buildScopeDecl(TSNode node, bool global) {
  if (!global && functionDepth == 0)
    return error(node, "nonlocal declaration not allowed at module level");
  std::vector<Identifier> names;
  for (TSNode id : namedChildren(node))
    names.push_back({loc(id), text(id).str()});
  if (global)
    return std::make_unique<GlobalStmt>(loc(node), std::move(names));
  return std::make_unique<NonlocalStmt>(loc(node), std::move(names));
}

StmtPtr ASTBuilder::buildImport(TSNode node) {
  std::vector<ImportAlias> names;
  for (TSNode item : fieldChildren(node, f.name)) {
    if (kind(item) == Sym::AliasedImport) {
      names.push_back({loc(item), dottedName(field(item, f.name)), text(field(item, f.alias)).str()});
    } else {
      names.push_back({loc(item), dottedName(item), ""});
    }
    const ImportAlias &alias = names.back();
    if (alias.name == "tensorflow")
      tensorflowAliases.insert(alias.asname.empty() ? "tensorflow" : alias.asname);
  }
  return std::make_unique<ImportStmt>(loc(node), std::move(names));
}

StmtPtr ASTBuilder::buildImportFrom(TSNode node, bool future) {
  std::string module = "__future__";
  unsigned level = 0;
  if (!future) {
    TSNode moduleNode = field(node, f.moduleName);
    if (kind(moduleNode) == Sym::RelativeImport) {
      module.clear();
      for (TSNode part : namedChildren(moduleNode)) {
        if (kind(part) == Sym::ImportPrefix)
          level = text(part).size();
        else
          module = dottedName(part);
      }
    } else {
      module = dottedName(moduleNode);
    }
  }
  std::vector<ImportAlias> names;
  for (const ts::Child &c : children(node)) {
    if (kind(c.node) == Sym::WildcardImport)
      return unsupportedNode(c.node);
    if (c.field != f.name)
      continue;
    if (kind(c.node) == Sym::AliasedImport)
      names.push_back({loc(c.node), dottedName(field(c.node, f.name)),
                       text(field(c.node, f.alias)).str()});
    else
      names.push_back({loc(c.node), dottedName(c.node), ""});
    if (module == "tensorflow" && names.back().name == "function")
      functionAliases.insert(names.back().asname.empty() ? "function" : names.back().asname);
  }
  return std::make_unique<ImportFromStmt>(loc(node), std::move(module), level, std::move(names));
}

StmtPtr ASTBuilder::buildDecorated(TSNode node) {
  ExprList decorators;
  bool ok = true;
  TSNode definition = field(node, f.definition);
  for (TSNode child : namedChildren(node)) {
    if (kind(child) != Sym::Decorator)
      continue;
    std::vector<TSNode> inner = namedChildren(child);
    ExprPtr e = inner.empty() ? nullptr : buildExpr(inner[0]);
    if (e)
      decorators.push_back(std::move(e));
    else
      ok = false;
  }
  if (!ok)
    return nullptr;
  // As in CPython, the definition is located at 'def' (or 'class'); decorators carry their
  // own. Any decorator is Python the tracer runs; @tf.function marks what compiles.
  if (kind(definition) == Sym::ClassDefinition)
    return buildClass(definition, std::move(decorators));
  if (kind(definition) != Sym::FunctionDefinition)
    return unsupportedNode(definition);
  decoratedTfFunction = llvm::any_of(decorators, [&](const ExprPtr &d) { return isTfFunction(*d); });
  return buildFunction(definition, std::move(decorators));
}

bool ASTBuilder::buildParams(TSNode node, std::vector<Param> &params) {
  bool ok = true;
  bool keywordOnly = false;
  bool sawDefault = false;
  llvm::StringSet<> seen;
  for (TSNode p : namedChildren(node)) {
    Param param;
    param.loc = loc(p);
    param.keywordOnly = keywordOnly;
    TSNode nameNode = p;
    switch (kind(p)) {
    case Sym::Identifier:
      break;
    case Sym::DefaultParameter:
      nameNode = field(p, f.name);
      param.defaultValue = buildExpr(field(p, f.value));
      ok &= param.defaultValue != nullptr;
      break;
    case Sym::TypedParameter: {
      std::vector<TSNode> kids = namedChildren(p);
      nameNode = kids.front();
      if (kind(nameNode) != Sym::Identifier) {
        unsupportedNode(nameNode);
        ok = false;
        continue;
      }
      param.annotation = buildAnnotation(field(p, f.type));
      ok &= param.annotation != nullptr;
      break;
    }
    case Sym::TypedDefaultParameter:
      nameNode = field(p, f.name);
      param.annotation = buildAnnotation(field(p, f.type));
      param.defaultValue = buildExpr(field(p, f.value));
      ok &= param.annotation && param.defaultValue;
      break;
    case Sym::KeywordSeparator:
      keywordOnly = true;
      continue;
    case Sym::PositionalSeparator:
      unsupported(p, "positional-only parameters ('/') are");
      ok = false;
      continue;
    case Sym::ListSplatPattern:
    case Sym::DictionarySplatPattern: {
      // `*args` (after which parameters are keyword-only) and `**kwargs` (the last).
      std::vector<TSNode> kids = namedChildren(p);
      if (kids.size() != 1 || kind(kids[0]) != Sym::Identifier) {
        unsupportedNode(p);
        ok = false;
        continue;
      }
      nameNode = kids[0];
      if (kind(p) == Sym::ListSplatPattern) {
        param.varArgs = true;
        keywordOnly = true;
      } else {
        param.varKeywords = true;
      }
      break;
    }
    default:
      unsupportedNode(p);
      ok = false;
      continue;
    }
    param.name = text(nameNode).str();
    if (!seen.insert(param.name).second) {
      error(nameNode, "duplicate argument '" + param.name + "' in function definition");
      ok = false;
    }
    if (param.defaultValue)
      sawDefault = true;
    else if (sawDefault && !keywordOnly && param.isPlain()) {
      error(p, "non-default argument '" + param.name + "' follows default argument");
      ok = false;
    }
    params.push_back(std::move(param));
  }
  return ok;
}

StmtPtr ASTBuilder::buildFunction(TSNode node, ExprList decorators) {
  if (hasKeyword(node, "async"))
    return unsupported(node, "async functions are");
  for (const ts::Child &c : children(node))
    if (llvm::StringRef(ts_node_type(c.node)) == "type_parameter")
      return unsupported(c.node, "generic type parameters are");
  TSNode nameNode = field(node, f.name);
  std::vector<Param> params;
  bool ok = buildParams(field(node, f.parameters), params);
  ExprPtr returns;
  TSNode returnType = field(node, f.returnType);
  if (!ts_node_is_null(returnType))
    ok &= (returns = buildAnnotation(returnType)) != nullptr;
  StmtList body;
  unsigned savedLoops = loopDepth;
  loopDepth = 0;
  ++functionDepth;
  buildBlock(node, f.body, body);
  --functionDepth;
  loopDepth = savedLoops;
  if (!ok)
    return nullptr;
  int tfFunction = -1;
  for (size_t k = 0; k < decorators.size(); ++k)
    if (tfFunction < 0 && isTfFunction(*decorators[k]))
      tfFunction = int(k);
  return std::make_unique<FunctionDefStmt>(loc(node), text(nameNode).str(), loc(nameNode),
                                           std::move(params), std::move(decorators),
                                           std::move(returns), std::move(body), tfFunction);
}

StmtPtr ASTBuilder::buildClass(TSNode node, ExprList decorators) {
  for (const ts::Child &c : children(node))
    if (llvm::StringRef(ts_node_type(c.node)) == "type_parameter")
      return unsupported(c.node, "generic type parameters are");
  TSNode nameNode = field(node, f.name);
  ExprList bases;
  std::vector<Keyword> keywords;
  bool ok = true;
  TSNode supers = field(node, f.superclasses);
  if (!ts_node_is_null(supers))
    ok = buildArguments(supers, bases, keywords);
  StmtList body;
  unsigned savedLoops = loopDepth;
  loopDepth = 0;
  buildBlock(node, f.body, body);
  loopDepth = savedLoops;
  if (!ok)
    return nullptr;
  return std::make_unique<ClassDefStmt>(loc(node), text(nameNode).str(), loc(nameNode),
                                        std::move(bases), std::move(keywords),
                                        std::move(decorators), std::move(body));
}

/// Decorators are kept for the analyses, which read @tf.function(input_signature=...).
/// Any other decorator would change the function in ways agc cannot see.
bool ASTBuilder::isTfFunction(const Expr &decorator) const {
  const Expr *callee = &decorator;
  if (const auto *call = llvm::dyn_cast<CallExpr>(callee))
    callee = &call->getCallee();
  if (const auto *attr = llvm::dyn_cast<AttributeExpr>(callee))
    if (const auto *base = llvm::dyn_cast<NameExpr>(&attr->getValue()))
      return attr->getAttr() == "function" && tensorflowAliases.count(base->getId());
  if (const auto *name = llvm::dyn_cast<NameExpr>(callee))
    return functionAliases.count(name->getId());
  return false;
}
