//===- TreeSitter.cpp - RAII wrappers around the tree-sitter C API --------===//
//
// PythonGrammar maps every symbol of tree-sitter-python to agc's Sym enum once, by name, so
// that the AST builder can switch on node kinds; aliases get their own symbol ids, so the
// map is built over all ids rather than looked up one name at a time.
//
//===----------------------------------------------------------------------------------===//
#include "ag/frontend/TreeSitter.h"

#include "llvm/ADT/StringMap.h"

#include <cstring>

using namespace ag::ts;

namespace {
struct SymName {
  const char *name;
  Sym sym;
};
} // namespace

// The named node kinds agc reads, by their name in the grammar.
static const SymName kSymNames[] = {
    {"module", Sym::Module},
    {"block", Sym::Block},
    {"import_statement", Sym::ImportStatement},
    {"import_from_statement", Sym::ImportFromStatement},
    {"future_import_statement", Sym::FutureImportStatement},
    {"aliased_import", Sym::AliasedImport},
    {"dotted_name", Sym::DottedName},
    {"relative_import", Sym::RelativeImport},
    {"import_prefix", Sym::ImportPrefix},
    {"wildcard_import", Sym::WildcardImport},
    {"expression_statement", Sym::ExpressionStatement},
    {"assignment", Sym::Assignment},
    {"augmented_assignment", Sym::AugmentedAssignment},
    {"if_statement", Sym::IfStatement},
    {"elif_clause", Sym::ElifClause},
    {"else_clause", Sym::ElseClause},
    {"while_statement", Sym::WhileStatement},
    {"for_statement", Sym::ForStatement},
    {"break_statement", Sym::BreakStatement},
    {"continue_statement", Sym::ContinueStatement},
    {"return_statement", Sym::ReturnStatement},
    {"pass_statement", Sym::PassStatement},
    {"assert_statement", Sym::AssertStatement},
    {"delete_statement", Sym::DeleteStatement},
    {"global_statement", Sym::GlobalStatement},
    {"nonlocal_statement", Sym::NonlocalStatement},
    {"function_definition", Sym::FunctionDefinition},
    {"decorated_definition", Sym::DecoratedDefinition},
    {"decorator", Sym::Decorator},
    {"parameters", Sym::Parameters},
    {"default_parameter", Sym::DefaultParameter},
    {"typed_parameter", Sym::TypedParameter},
    {"typed_default_parameter", Sym::TypedDefaultParameter},
    {"keyword_separator", Sym::KeywordSeparator},
    {"positional_separator", Sym::PositionalSeparator},
    {"list_splat_pattern", Sym::ListSplatPattern},
    {"dictionary_splat_pattern", Sym::DictionarySplatPattern},
    {"type", Sym::Type},
    {"pattern_list", Sym::PatternList},
    {"tuple_pattern", Sym::TuplePattern},
    {"list_pattern", Sym::ListPattern},
    {"class_definition", Sym::ClassDefinition},
    {"identifier", Sym::Identifier},
    {"integer", Sym::Integer},
    {"float", Sym::Float},
    {"string", Sym::String},
    {"concatenated_string", Sym::ConcatenatedString},
    {"string_start", Sym::StringStart},
    {"string_content", Sym::StringContent},
    {"string_end", Sym::StringEnd},
    {"escape_sequence", Sym::EscapeSequence},
    {"interpolation", Sym::Interpolation},
    {"true", Sym::True},
    {"false", Sym::False},
    {"none", Sym::None},
    {"ellipsis", Sym::Ellipsis},
    {"unary_operator", Sym::UnaryOperator},
    {"binary_operator", Sym::BinaryOperator},
    {"boolean_operator", Sym::BooleanOperator},
    {"not_operator", Sym::NotOperator},
    {"comparison_operator", Sym::ComparisonOperator},
    {"call", Sym::Call},
    {"argument_list", Sym::ArgumentList},
    {"keyword_argument", Sym::KeywordArgument},
    {"attribute", Sym::Attribute},
    {"subscript", Sym::Subscript},
    {"slice", Sym::Slice},
    {"tuple", Sym::Tuple},
    {"list", Sym::List},
    {"dictionary", Sym::Dictionary},
    {"pair", Sym::Pair},
    {"expression_list", Sym::ExpressionList},
    {"parenthesized_expression", Sym::ParenthesizedExpression},
    {"conditional_expression", Sym::ConditionalExpression},
    {"list_splat", Sym::ListSplat},
    {"dictionary_splat", Sym::DictionarySplat},
    {"lambda", Sym::Lambda},
    {"lambda_parameters", Sym::LambdaParameters},
    {"list_comprehension", Sym::ListComprehension},
    {"dictionary_comprehension", Sym::DictionaryComprehension},
    {"generator_expression", Sym::GeneratorExpression},
    {"set", Sym::Set},
    {"set_comprehension", Sym::SetComprehension},
    {"for_in_clause", Sym::ForInClause},
    {"if_clause", Sym::IfClause},
    {"with_statement", Sym::WithStatement},
    {"with_clause", Sym::WithClause},
    {"with_item", Sym::WithItem},
    {"as_pattern", Sym::AsPattern},
    {"as_pattern_target", Sym::AsPatternTarget},
    {"raise_statement", Sym::RaiseStatement},
    {"try_statement", Sym::TryStatement},
    {"except_clause", Sym::ExceptClause},
    {"finally_clause", Sym::FinallyClause},
    {"comment", Sym::Comment},
    {"line_continuation", Sym::LineContinuation},
};

llvm::Expected<const PythonGrammar &> PythonGrammar::get() {
  static const PythonGrammar grammar;
  uint32_t version = grammar.getAbiVersion();
  if (version < TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION ||
      version > TREE_SITTER_LANGUAGE_VERSION)
    return llvm::createStringError(
        "the tree-sitter-python grammar has language ABI version " + std::to_string(version) +
        ", but the tree-sitter runtime loads versions " +
        std::to_string(TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION) + " to " +
        std::to_string(TREE_SITTER_LANGUAGE_VERSION) +
        "; rebuild with the grammar pinned in tools/grammar.lock");
  return grammar;
}

PythonGrammar::PythonGrammar() : language(tree_sitter_python()) {
  llvm::StringMap<Sym> byName;
  for (const SymName &entry : kSymNames)
    byName[entry.name] = entry.sym;
  uint32_t count = ts_language_symbol_count(language);
  symbols.assign(count, Sym::Other);
  for (uint32_t id = 0; id < count; ++id) {
    TSSymbol symbol = static_cast<TSSymbol>(id);
    if (ts_language_symbol_type(language, symbol) != TSSymbolTypeRegular)
      continue;
    auto it = byName.find(ts_language_symbol_name(language, symbol));
    if (it != byName.end())
      symbols[id] = it->second;
  }
  auto field = [&](const char *name) {
    return ts_language_field_id_for_name(language, name, std::strlen(name));
  };
  fieldIds = Fields{field("alias"),     field("alternative"), field("argument"),
                    field("arguments"), field("attribute"),   field("body"),
                    field("condition"), field("consequence"), field("definition"),
                    field("expression"), field("format_specifier"),
                    field("function"),  field("key"),         field("left"),
                    field("module_name"), field("name"),      field("object"),
                    field("operator"),  field("type_conversion"), field("operators"),
                    field("parameters"),
                    field("return_type"), field("right"),     field("subscript"),
                    field("superclasses"), field("type"),    field("value")};
}

Tree &Tree::operator=(Tree &&other) noexcept {
  if (this != &other) {
    if (tree)
      ts_tree_delete(tree);
    tree = other.tree;
    other.tree = nullptr;
  }
  return *this;
}

Tree::~Tree() {
  if (tree)
    ts_tree_delete(tree);
}

Parser::Parser(const PythonGrammar &grammar) : parser(ts_parser_new()) {
  // The ABI range was checked when the grammar was obtained, so this cannot fail.
  ts_parser_set_language(parser, grammar.getLanguage());
}

Parser &Parser::operator=(Parser &&other) noexcept {
  if (this != &other) {
    if (parser)
      ts_parser_delete(parser);
    parser = other.parser;
    other.parser = nullptr;
  }
  return *this;
}

Parser::~Parser() {
  if (parser)
    ts_parser_delete(parser);
}

llvm::Expected<Tree> Parser::parse(llvm::StringRef text, uint64_t timeoutMicros) {
  ts_parser_set_timeout_micros(parser, timeoutMicros);
  TSTree *tree = ts_parser_parse_string(parser, nullptr, text.data(),
                                        static_cast<uint32_t>(text.size()));
  if (!tree) {
    ts_parser_reset(parser);
    return llvm::createStringError("parsing did not finish within " +
                                   std::to_string(timeoutMicros / 1000000) + " s");
  }
  return Tree(tree);
}

TreeCursor::TreeCursor(TreeCursor &&other) noexcept : cursor(other.cursor) {
  other.owned = false;
}

TreeCursor::~TreeCursor() {
  if (owned)
    ts_tree_cursor_delete(&cursor);
}

ChildList ag::ts::children(TreeCursor &cursor, TSNode node) {
  ChildList result;
  cursor.reset(node);
  if (cursor.gotoFirstChild()) {
    do
      result.push_back({cursor.node(), cursor.fieldId()});
    while (cursor.gotoNextSibling());
  }
  return result;
}
