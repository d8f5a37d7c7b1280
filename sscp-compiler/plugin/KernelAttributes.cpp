#include "KernelAttributes.h"

#include "Diagnostics.h"
#include "KernelImage.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"

#include <algorithm>
#include <functional>
#include <optional>

using namespace clang;

namespace onepass::sscp {

namespace {

constexpr const char *kWorkGroupSize = "reqd_work_group_size";
constexpr const char *kSubGroupSize = "reqd_sub_group_size";
constexpr const char *kWorkGroupSizeHint = "work_group_size_hint";
constexpr const char *kDeviceHas = "device_has";

// An attribute as written: `sycl::<name>(<constant>, ...)`.
struct WrittenAttribute {
  std::string name;
  std::vector<uint64_t> arguments;
  std::string problem;  // why it cannot be read, if it cannot
};

// Raw tokens from `location` on (the attribute's own text, at its spelling),
// with one token of lookahead. With a preprocessor, an object-like macro's
// name reads as the tokens of its definition (SIZE_MAX, say), nested up to
// kMaxExpansionDepth deep.
class TokenReader {
public:
  TokenReader(const SourceManager &sources, const LangOptions &options, SourceLocation location,
              const Preprocessor *preprocessor = nullptr)
      : preprocessor_(preprocessor) {
    SourceLocation spelling = sources.getSpellingLoc(location);
    std::pair<FileID, unsigned> place = sources.getDecomposedLoc(spelling);
    bool invalid = false;
    StringRef buffer = sources.getBufferData(place.first, &invalid);
    if (invalid) return;
    lexer_.emplace(sources.getLocForStartOfFile(place.first), options, buffer.begin(), buffer.begin() + place.second,
                   buffer.end());
    advance();
  }
  tok::TokenKind kind() const { return kind_; }
  const std::string &text() const { return text_; }
  bool is(tok::TokenKind kind) const { return kind_ == kind; }
  SourceLocation location() const { return location_; }
  void advance() {
    for (;;) {
      Token token;
      if (!expansions_.empty()) {
        Expansion &top = expansions_.back();
        if (top.next == top.tokens.size()) {
          expansions_.pop_back();
          continue;
        }
        token = top.tokens[top.next++];
      } else {
        if (!lexer_) return;
        lexer_->LexFromRawLexer(token);
      }
      set(token);
      if (!expandable()) return;
    }
  }

private:
  static constexpr size_t kMaxExpansionDepth = 16;
  struct Expansion {
    std::vector<Token> tokens;
    size_t next = 0;
  };

  void set(const Token &token) {
    kind_ = token.getKind();
    // A macro definition's identifiers are lexed ones: read as raw ones.
    if (kind_ == tok::identifier && token.getIdentifierInfo()) {
      kind_ = tok::raw_identifier;
      text_ = token.getIdentifierInfo()->getName().str();
      location_ = token.getLocation();
      return;
    }
    location_ = token.getLocation();
    if (token.is(tok::raw_identifier)) text_ = token.getRawIdentifier().str();
    // (getLiteralData is for literals only: clang asserts it.)
    else if (token.isLiteral() && token.getLiteralData()) text_ = std::string(token.getLiteralData(), token.getLength());
    else if (preprocessor_ && token.isLiteral()) text_ = preprocessor_->getSpelling(token);
    else text_ = tok::getPunctuatorSpelling(kind_) ? tok::getPunctuatorSpelling(kind_) : "";
  }
  // If the current token names an object-like macro, starts reading its
  // definition and returns true.
  bool expandable() {
    if (!preprocessor_ || kind_ != tok::raw_identifier || expansions_.size() >= kMaxExpansionDepth) return false;
    const IdentifierInfo *name = preprocessor_->getIdentifierInfo(text_);
    if (!name || !name->hasMacroDefinition()) return false;
    const MacroInfo *macro = preprocessor_->getMacroInfo(name);
    if (!macro || macro->isFunctionLike() || macro->isBuiltinMacro()) return false;
    expansions_.push_back(Expansion{std::vector<Token>(macro->tokens().begin(), macro->tokens().end()), 0});
    return true;
  }

  const Preprocessor *preprocessor_;
  std::optional<Lexer> lexer_;
  std::vector<Expansion> expansions_;
  tok::TokenKind kind_ = tok::eof;
  std::string text_;
  SourceLocation location_;
};

// The kernel attribute named at `location`, if it is one of ours.
std::optional<std::string> kernelAttributeName(const SourceManager &sources, const LangOptions &options,
                                               SourceLocation location) {
  TokenReader reader(sources, options, location);
  if (reader.text() != "sycl") return std::nullopt;
  reader.advance();
  if (!reader.is(tok::coloncolon)) return std::nullopt;
  reader.advance();
  const std::string name = reader.text();
  if (name == kWorkGroupSize || name == kSubGroupSize || name == kWorkGroupSizeHint || name == kDeviceHas) return name;
  return std::nullopt;
}

// Reads an integer literal's value (digit separators and suffixes allowed).
std::optional<uint64_t> integerLiteral(const std::string &text) {
  std::string digits;
  for (char c : text)
    if (c != '\'') digits += c;
  // (No suffix letter is a hexadecimal digit.)
  while (!digits.empty() && std::string("uUlLzZ").find(digits.back()) != std::string::npos) digits.pop_back();
  uint64_t value = 0;
  if (digits.empty() || StringRef(digits).getAsInteger(0, value)) return std::nullopt;
  return value;
}

// The value of a constant named `name` as seen from `context`: a non-type
// template argument of an enclosing template instantiation, or a constant
// integral variable or enumerator declared there or around it; with `index`,
// that element of a constant array of integers.
std::optional<uint64_t> namedConstant(ASTContext &ctx, const DeclContext *context, const std::string &name,
                                      std::optional<uint64_t> index = std::nullopt) {
  auto fromArguments = [&](const TemplateParameterList *parameters,
                           ArrayRef<TemplateArgument> arguments) -> std::optional<uint64_t> {
    if (!parameters || index) return std::nullopt;
    for (unsigned i = 0; i < parameters->size() && i < arguments.size(); ++i)
      if (parameters->getParam(i)->getName() == name && arguments[i].getKind() == TemplateArgument::Integral)
        return arguments[i].getAsIntegral().getZExtValue();
    return std::nullopt;
  };
  auto fromDecl = [&](const Decl *decl) -> std::optional<uint64_t> {
    if (const auto *constant = dyn_cast<EnumConstantDecl>(decl))
      return index ? std::nullopt : std::optional<uint64_t>(constant->getInitVal().getZExtValue());
    const auto *variable = dyn_cast<VarDecl>(decl);
    if (variable && index) {
      const ConstantArrayType *array = ctx.getAsConstantArrayType(variable->getType());
      if (!array || !array->getElementType()->isIntegralOrEnumerationType() || !variable->getInit() ||
          variable->getInit()->isValueDependent() || !variable->isConstexpr())
        return std::nullopt;
      const APValue *value = variable->evaluateValue();
      if (!value || !value->isArray() || *index >= value->getArraySize()) return std::nullopt;
      const APValue &element =
          *index < value->getArrayInitializedElts() ? value->getArrayInitializedElt(*index) : value->getArrayFiller();
      return element.isInt() ? std::optional<uint64_t>(element.getInt().getZExtValue()) : std::nullopt;
    }
    if (variable) {
      // (Not in a template's pattern, a generic lambda's: nothing to evaluate.)
      if (!variable->getType()->isIntegralOrEnumerationType() || !variable->getInit() ||
          variable->getInit()->isValueDependent() || variable->getType()->isDependentType())
        return std::nullopt;
      Expr::EvalResult result;
      if (variable->getInit()->EvaluateAsInt(result, ctx)) return result.Val.getInt().getZExtValue();
    }
    return std::nullopt;
  };
  for (; context; context = context->getParent()) {
    if (const auto *function = dyn_cast<FunctionDecl>(context)) {
      if (const TemplateArgumentList *arguments = function->getTemplateSpecializationArgs())
        if (std::optional<uint64_t> value =
                fromArguments(function->getPrimaryTemplate()->getTemplateParameters(), arguments->asArray()))
          return value;
      // (Locals: a function's declarations, its blocks' included.)
      for (const Decl *decl : function->decls())
        if (const auto *named = dyn_cast<NamedDecl>(decl); named && named->getName() == name)
          if (std::optional<uint64_t> value = fromDecl(named)) return value;
      continue;
    }
    if (const auto *specialization = dyn_cast<ClassTemplateSpecializationDecl>(context))
      if (std::optional<uint64_t> value =
              fromArguments(specialization->getSpecializedTemplate()->getTemplateParameters(),
                            specialization->getTemplateArgs().asArray()))
        return value;
    if (isa<LinkageSpecDecl, ExportDecl>(context)) continue;
    for (const NamedDecl *decl : context->lookup(&ctx.Idents.get(name)))
      if (std::optional<uint64_t> value = fromDecl(decl)) return value;
  }
  return std::nullopt;
}

// An integral constant expression over the tokens: literals, named constants
// (namedConstant, or `a::b` qualified from the translation unit), + - * / %
// << >> and parentheses. Sets `problem` and returns nullopt otherwise.
class ConstantReader {
public:
  ConstantReader(TokenReader &tokens, ASTContext &ctx, const DeclContext *context, std::string &problem)
      : tokens_(tokens), ctx_(ctx), context_(context), problem_(problem) {}

  std::optional<uint64_t> expression() { return binary(0); }

private:
  // The binary operators by precedence, loosest first: << >>, + -, * / %.
  static int levelOf(tok::TokenKind kind) {
    switch (kind) {
    case tok::lessless:
    case tok::greatergreater: return 0;
    case tok::plus:
    case tok::minus: return 1;
    case tok::star:
    case tok::slash:
    case tok::percent: return 2;
    default: return -1;
    }
  }
  static constexpr int kLevels = 3;

  // Operands of operators of `level` and tighter, left to right.
  std::optional<uint64_t> binary(int level) {
    if (level == kLevels) return unary();
    std::optional<uint64_t> value = binary(level + 1);
    while (value && levelOf(tokens_.kind()) == level) {
      const tok::TokenKind op = tokens_.kind();
      tokens_.advance();
      std::optional<uint64_t> other = binary(level + 1);
      if (!other) return std::nullopt;
      value = apply(op, *value, *other);
    }
    return value;
  }
  std::optional<uint64_t> apply(tok::TokenKind op, uint64_t a, uint64_t b) {
    switch (op) {
    case tok::lessless:
    case tok::greatergreater:
      if (b >= 64) return fail("a shift by " + std::to_string(b));
      return op == tok::lessless ? a << b : a >> b;
    case tok::plus: return a + b;
    case tok::minus: return a - b;
    case tok::star: return a * b;
    default:
      if (b == 0) return fail("a division by zero");
      return op == tok::slash ? a / b : a % b;
    }
  }
  std::optional<uint64_t> unary() {
    if (tokens_.is(tok::minus)) {
      tokens_.advance();
      std::optional<uint64_t> value = unary();
      return value ? std::optional<uint64_t>(0 - *value) : std::nullopt;
    }
    if (tokens_.is(tok::plus)) tokens_.advance();
    return primary();
  }
  std::optional<uint64_t> primary() {
    if (tokens_.is(tok::l_paren)) {
      tokens_.advance();
      std::optional<uint64_t> value = expression();
      if (!value) return std::nullopt;
      if (!tokens_.is(tok::r_paren)) return fail("'" + tokens_.text() + "' where ')' belongs");
      tokens_.advance();
      return value;
    }
    if (tokens_.is(tok::numeric_constant)) {
      std::optional<uint64_t> value = integerLiteral(tokens_.text());
      if (!value) return fail("'" + tokens_.text() + "', which is not an integer");
      tokens_.advance();
      return value;
    }
    if (tokens_.is(tok::raw_identifier) || tokens_.is(tok::coloncolon)) return name();
    return fail("'" + tokens_.text() + "'");
  }
  // A name, perhaps qualified: the last component is looked up in the
  // namespaces and classes the others name (from the translation unit), or
  // unqualified from the kernel's context.
  std::optional<uint64_t> name() {
    std::vector<std::string> parts;
    bool fromRoot = tokens_.is(tok::coloncolon);
    if (fromRoot) tokens_.advance();
    for (;;) {
      if (!tokens_.is(tok::raw_identifier)) return fail("'" + tokens_.text() + "'");
      parts.push_back(tokens_.text());
      tokens_.advance();
      if (!tokens_.is(tok::coloncolon)) break;
      tokens_.advance();
    }
    std::string spelled;
    for (const std::string &part : parts) spelled += (spelled.empty() ? "" : "::") + part;
    // An element of a constant array: name[index].
    std::optional<uint64_t> index;
    if (tokens_.is(tok::l_square)) {
      tokens_.advance();
      index = expression();
      if (!index) return std::nullopt;
      if (!tokens_.is(tok::r_square)) return fail("'" + tokens_.text() + "' where ']' belongs");
      tokens_.advance();
      spelled += "[" + std::to_string(*index) + "]";
    }
    std::optional<uint64_t> value;
    if (parts.size() == 1 && !fromRoot) {
      value = namedConstant(ctx_, context_, parts[0], index);
    } else {
      // The first component from the kernel's scopes outward (and the
      // namespaces their using-directives name: `aspect::gpu` under `using
      // namespace sycl`), or from the translation unit for `::a::b`.
      const DeclContext *scope = fromRoot ? ctx_.getTranslationUnitDecl() : enclosingScope(parts[0]);
      for (size_t i = fromRoot ? 0 : 1; scope && i + 1 < parts.size(); ++i) {
        const DeclContext *inner = nullptr;
        for (const NamedDecl *decl : scope->lookup(&ctx_.Idents.get(parts[i])))
          if (const auto *context = dyn_cast<DeclContext>(decl)) inner = context;
        scope = inner;
      }
      if (scope)
        for (const NamedDecl *decl : scope->lookup(&ctx_.Idents.get(parts.back()))) {
          value = namedConstant(ctx_, decl->getDeclContext(), parts.back(), index);
          if (value) break;
        }
    }
    if (!value) return fail("'" + spelled + "', which is not an integral constant OnePass can find");
    return value;
  }
  // The namespace or class `name` names, looked up from the kernel's context.
  const DeclContext *enclosingScope(const std::string &name) {
    IdentifierInfo &id = ctx_.Idents.get(name);
    auto scopeIn = [&](const DeclContext *in) -> const DeclContext * {
      for (const NamedDecl *decl : in->lookup(&id))
        if (const auto *found = dyn_cast<DeclContext>(decl)) return found;
      return nullptr;
    };
    for (const DeclContext *at = context_ ? context_ : ctx_.getTranslationUnitDecl(); at; at = at->getParent()) {
      if (const DeclContext *found = scopeIn(at)) return found;
      // (A function's using-directives are statements of its body, in any
      // of its blocks; a namespace's are found by lookup.)
      std::vector<const UsingDirectiveDecl *> directives;
      if (at->isFunctionOrMethod()) {
        const auto *function = dyn_cast<FunctionDecl>(at);
        std::function<void(const Stmt *)> collect = [&](const Stmt *stmt) {
          if (!stmt) return;
          if (const auto *declaration = dyn_cast<DeclStmt>(stmt))
            for (const Decl *decl : declaration->decls())
              if (const auto *directive = dyn_cast<UsingDirectiveDecl>(decl)) directives.push_back(directive);
          for (const Stmt *child : stmt->children()) collect(child);
        };
        if (function) collect(function->getBody());
      } else {
        for (const UsingDirectiveDecl *directive : at->using_directives()) directives.push_back(directive);
      }
      for (const UsingDirectiveDecl *directive : directives)
        if (const NamespaceDecl *nominated = directive->getNominatedNamespace())
          if (const DeclContext *found = scopeIn(nominated)) return found;
    }
    return nullptr;
  }
  std::optional<uint64_t> fail(const std::string &what) {
    if (problem_.empty()) problem_ = what;
    return std::nullopt;
  }

  TokenReader &tokens_;
  ASTContext &ctx_;
  const DeclContext *context_;
  std::string &problem_;
};

WrittenAttribute readAttribute(ASTContext &ctx, const DeclContext *context, SourceLocation location,
                               const Preprocessor *preprocessor) {
  WrittenAttribute attribute;
  TokenReader tokens(ctx.getSourceManager(), ctx.getLangOpts(), location, preprocessor);
  tokens.advance();  // sycl
  tokens.advance();  // ::
  attribute.name = tokens.text();
  tokens.advance();
  const std::string spelled = "'sycl::" + attribute.name + "'";
  if (!tokens.is(tok::l_paren)) {
    attribute.problem = spelled + " needs its arguments";
    return attribute;
  }
  tokens.advance();
  if (tokens.is(tok::r_paren) && attribute.name == kDeviceHas) return attribute;  // device_has(): no aspects
  for (;;) {
    std::string problem;
    std::optional<uint64_t> value = ConstantReader(tokens, ctx, context, problem).expression();
    if (!value) {
      attribute.problem =
          "the arguments of " + spelled +
          " must be integral constant expressions OnePass can read from the source (literals, "
          "template arguments, constant variables and their array elements, enumerators, + - * / % << >>); it "
          "cannot read " +
          problem;
      return attribute;
    }
    attribute.arguments.push_back(*value);
    if (tokens.is(tok::r_paren)) return attribute;
    if (!tokens.is(tok::comma)) break;
    tokens.advance();
  }
  attribute.problem = spelled + " is malformed: expected ',' or ')' after an argument, found '" + tokens.text() + "'";
  return attribute;
}

// Whether `location` lies in [begin, end), file locations of the
// translation unit (filePlace).
bool within(const SourceManager &sources, SourceLocation location, SourceLocation begin, SourceLocation end) {
  if (begin.isInvalid() || end.isInvalid()) return false;
  SourceLocation at = sources.getFileLoc(location);
  return !sources.isBeforeInTranslationUnit(at, begin) && sources.isBeforeInTranslationUnit(at, end);
}

// A place as a range of the file where it was written: code in a macro's
// arguments (a Catch2 TEST_CASE's body, say) maps to where it is written; a
// place within one macro's own body, which collapses to one point, widens to
// the whole invocation of that macro, whose arguments may hold the attribute.
SourceRange filePlace(const SourceManager &sources, SourceRange place) {
  const SourceLocation begin = sources.getFileLoc(place.getBegin()), end = sources.getFileLoc(place.getEnd());
  if (begin != end || !place.getBegin().isMacroID()) return {begin, end};
  SourceLocation location = place.getBegin();
  CharSourceRange invocation;
  while (location.isMacroID()) {
    if (sources.isMacroArgExpansion(location)) {
      location = sources.getImmediateSpellingLoc(location);
    } else {
      invocation = sources.getImmediateExpansionRange(location);
      location = invocation.getBegin();
    }
  }
  if (invocation.isInvalid()) return {begin, end};
  return {sources.getFileLoc(invocation.getBegin()), sources.getFileLoc(invocation.getEnd())};
}

// `member` as a call operator (also a templated one), or null.
static const CXXMethodDecl *callOperator(const Decl *member) {
  const auto *method = dyn_cast<CXXMethodDecl>(member);
  if (const auto *tmpl = dyn_cast<FunctionTemplateDecl>(member))
    method = dyn_cast<CXXMethodDecl>(tmpl->getTemplatedDecl());
  return method && method->getOverloadedOperator() == OO_Call ? method : nullptr;
}

// Whether `method`, a call operator of a function object with several, can
// be the one a kernel of `dimensions` calls: a parameterless one for a
// single_task (0); else its first parameter, if a SYCL class template with
// a dimension argument (item, nd_item, id, group, h_item...), has that many.
static bool callableWithDimensions(const CXXMethodDecl &method, uint32_t dimensions) {
  if (dimensions == 0) return method.getNumParams() == 0;
  if (method.getNumParams() == 0) return false;
  QualType type = method.getParamDecl(0)->getType().getNonReferenceType();
  const auto *record = type->getAsCXXRecordDecl();
  const auto *specialization = dyn_cast_or_null<ClassTemplateSpecializationDecl>(record);
  if (!specialization) return true;
  for (const TemplateArgument &argument : specialization->getTemplateArgs().asArray())
    if (argument.getKind() == TemplateArgument::Integral) return argument.getAsIntegral().getZExtValue() == dimensions;
  return true;
}

// Where attributes of `kernel` may be written: ranges of source.
std::vector<SourceRange> attributePlaces(const CXXRecordDecl &kernel, uint32_t dimensions) {
  std::vector<SourceRange> places;
  auto bodyStart = [](const FunctionDecl &fn) {
    const FunctionDecl *definition = nullptr;
    if (fn.isDefined(definition) && definition->getBody()) return definition->getBody()->getBeginLoc();
    return fn.getEndLoc();
  };
  if (kernel.isLambda()) {
    // The lambda's head: from the introducer to the body.
    if (const CXXMethodDecl *call = kernel.getLambdaCallOperator())
      places.emplace_back(kernel.getLocation(), bodyStart(*call));
    return places;
  }
  // With several call operators (one per dimensionality, say), only the
  // attributes of those the kernel may call apply.
  const auto callOperators = std::count_if(kernel.decls_begin(), kernel.decls_end(),
                                           [](const Decl *member) { return callOperator(member) != nullptr; });
  const Decl *previous = nullptr;
  for (const Decl *member : kernel.decls()) {
    const CXXMethodDecl *method = callOperator(member);
    if (method && (callOperators < 2 || callableWithDimensions(*method, dimensions))) {
      // From the previous member's end (the declaration's leading attributes
      // and specifiers) to the parameters (attributes after the name).
      SourceLocation after = previous ? previous->getEndLoc() : kernel.getBraceRange().getBegin();
      SourceLocation parameters = bodyStart(*method);
      if (TypeSourceInfo *type = method->getTypeSourceInfo())
        if (FunctionTypeLoc function = type->getTypeLoc().getAsAdjusted<FunctionTypeLoc>())
          parameters = function.getLParenLoc();
      places.emplace_back(after, parameters);
    }
    if (!member->isImplicit()) previous = member;
  }
  return places;
}

}  // namespace

KernelAttributeRecorder::KernelAttributeRecorder(DiagnosticsEngine &engine) {
  target_ = engine.getClient();
  ownedTarget_ = engine.takeClient();
  engine.setClient(this, /*ShouldOwnClient=*/true);
  // The warning must reach this consumer even where the user turned it off
  // (-w, -Wno-unknown-attributes), or attributes written through macros go
  // unseen: it is turned on, and this consumer drops what the user did not
  // want to see.
  // Under -Werror it must stay a warning for ours, and this consumer turns
  // the others into the errors the user asked for.
  const DiagnosticsEngine::Level level =
      engine.getDiagnosticLevel(diag::warn_unknown_attribute_ignored, SourceLocation());
  userIgnoresWarnings_ = engine.getIgnoreAllWarnings();
  userIgnoresUnknown_ = level == DiagnosticsEngine::Ignored;
  userErrorsUnknown_ = level >= DiagnosticsEngine::Error;
  if (userIgnoresWarnings_) engine.setIgnoreAllWarnings(false);
  if (userIgnoresUnknown_)
    engine.setSeverity(diag::warn_unknown_attribute_ignored, diag::Severity::Warning, SourceLocation());
  if (userErrorsUnknown_) engine.setDiagnosticGroupWarningAsError("unknown-attributes", false);
}

void KernelAttributeRecorder::BeginSourceFile(const LangOptions &options, const Preprocessor *preprocessor) {
  options_ = options;
  target_->BeginSourceFile(options, preprocessor);
}
void KernelAttributeRecorder::EndSourceFile() { target_->EndSourceFile(); }
void KernelAttributeRecorder::finish() { target_->finish(); }
void KernelAttributeRecorder::clear() {
  DiagnosticConsumer::clear();
  target_->clear();
}
bool KernelAttributeRecorder::IncludeInDiagnosticCounts() const { return target_->IncludeInDiagnosticCounts(); }

void KernelAttributeRecorder::HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic &info) {
  // (As a warning only: under -Werror clang already counts it as an error,
  // so the user must see why.)
  if (info.getID() == diag::warn_unknown_attribute_ignored && level == DiagnosticsEngine::Warning &&
      info.hasSourceManager() && info.getLocation().isValid() &&
      kernelAttributeName(info.getSourceManager(), options_, info.getLocation())) {
    locations_.push_back(info.getLocation());
    droppingNotes_ = true;
    return;
  }
  // What the user turned off (see the constructor), with its notes.
  if (level == DiagnosticsEngine::Note && droppingNotes_) return;
  const bool unknownAttribute = info.getID() == diag::warn_unknown_attribute_ignored;
  droppingNotes_ =
      level == DiagnosticsEngine::Warning && (userIgnoresWarnings_ || (userIgnoresUnknown_ && unknownAttribute));
  if (droppingNotes_) return;
  // (Counted here, the error fails the compilation: clang's exit status
  // follows its consumer's error count.)
  if (unknownAttribute && userErrorsUnknown_ && level == DiagnosticsEngine::Warning) level = DiagnosticsEngine::Error;
  DiagnosticConsumer::HandleDiagnostic(level, info);
  target_->HandleDiagnostic(level, info);
}

// Where a kernel's attribute arguments are looked up: in its call operator
// (a lambda's enclosing function, through the closure class).
static const DeclContext *contextOf(const CXXRecordDecl &kernel) {
  if (kernel.isLambda())
    if (const CXXMethodDecl *call = kernel.getLambdaCallOperator()) return call;
  return &kernel;
}

// The kernel attributes written in `places`: those clang warned about (the
// recorder's: in macros too), and those in the source text of the places
// (found even where that warning is off, -w or -Wno-unknown-attributes).
static std::vector<SourceLocation> attributesIn(ASTContext &ctx, const KernelAttributeRecorder &recorder,
                                                const std::vector<SourceRange> &written) {
  const SourceManager &sources = ctx.getSourceManager();
  std::vector<SourceRange> places;
  for (const SourceRange &place : written) places.push_back(filePlace(sources, place));
  std::vector<SourceLocation> found;
  std::set<unsigned> spellings;
  auto add = [&](SourceLocation location) {
    if (spellings.insert(sources.getSpellingLoc(location).getRawEncoding()).second) found.push_back(location);
  };
  for (SourceLocation location : recorder.locations())
    for (const SourceRange &place : places)
      if (within(sources, location, place.getBegin(), place.getEnd())) add(location);
  for (const SourceRange &place : places) {
    const SourceLocation begin = place.getBegin(), end = place.getEnd();
    if (begin.isInvalid() || end.isInvalid() || sources.getFileID(begin) != sources.getFileID(end)) continue;
    TokenReader tokens(sources, ctx.getLangOpts(), begin);
    while (!tokens.is(tok::eof) && sources.isBeforeInTranslationUnit(tokens.location(), end)) {
      const SourceLocation at = tokens.location();
      if (tokens.text() == "sycl" && kernelAttributeName(sources, ctx.getLangOpts(), at)) add(at);
      tokens.advance();
    }
  }
  return found;
}

bool readKernelAttributes(ASTContext &ctx, Diagnostics &diags, const KernelAttributeRecorder &recorder,
                          const CXXRecordDecl &kernel, uint32_t dimensions, KernelAttributes &attributes,
                          std::set<unsigned> &used) {
  bool ok = true;
  bool haveWorkGroup = false;
  for (SourceLocation location : attributesIn(ctx, recorder, attributePlaces(kernel, dimensions))) {
    used.insert(location.getRawEncoding());
    WrittenAttribute attribute = readAttribute(ctx, contextOf(kernel), location, recorder.preprocessor());
    const std::string spelled = "'sycl::" + attribute.name + "'";
    auto fail = [&](const std::string &problem) {
      diags.kernelAttribute(location, problem);
      ok = false;
    };
    if (!attribute.problem.empty()) {
      fail(attribute.problem);
      continue;
    }
    if (attribute.name == kDeviceHas) {  // §5.8.1: aspects, each a sycl::aspect value
      attributes.deviceHas = true;
      for (uint64_t aspect : attribute.arguments) {
        if (aspect >= image::kAspectCount) {
          fail("the arguments of " + spelled + " must be sycl::aspect values; " + std::to_string(aspect) +
               " is none (SYCL 2020 §5.8.1)");
          break;
        }
        attributes.aspects |= uint64_t{1} << aspect;
      }
      continue;
    }
    for (uint64_t &value : attribute.arguments) {
      if (value == 0) {
        fail("the arguments of " + spelled + " must be at least 1");
        break;
      }
      // Larger than any device runs: recorded as 2^32 - 1, so that a launch
      // is errc::kernel_not_supported (§5.7), not the program an error.
      if (value > UINT32_MAX && attribute.name != kSubGroupSize) value = UINT32_MAX;
      if (value > UINT32_MAX) {
        fail("the argument of " + spelled + " must be at most " + std::to_string(UINT32_MAX));
        break;
      }
    }
    if (!ok) continue;
    if (attribute.name == kSubGroupSize) {
      if (attribute.arguments.size() != 1) {
        fail(spelled + " takes one argument, the sub-group size");
      } else if (attributes.subGroupSize != 0 && attributes.subGroupSize != attribute.arguments[0]) {
        fail(spelled + " appears twice on the kernel with different sizes");
      } else {
        attributes.subGroupSize = static_cast<uint32_t>(attribute.arguments[0]);
      }
      continue;
    }
    // reqd_work_group_size and work_group_size_hint: one argument per
    // dimension of the kernel's range.
    if (attribute.arguments.empty() || attribute.arguments.size() > 3) {
      fail(spelled + " takes one to three arguments, one per dimension");
      continue;
    }
    if (attribute.arguments.size() != dimensions) {
      fail(spelled + " has " + std::to_string(attribute.arguments.size()) +
           " argument(s), but the kernel's range has " + std::to_string(dimensions) + " dimension(s)" +
           (dimensions == 0 ? " (a single_task)" : ""));
      continue;
    }
    if (attribute.name == kWorkGroupSizeHint) continue;  // a hint: no effect
    KernelAttributes read;
    for (size_t d = 0; d < attribute.arguments.size(); ++d)
      read.workGroupSize[d] = static_cast<uint32_t>(attribute.arguments[d]);
    if (haveWorkGroup && !std::equal(read.workGroupSize, read.workGroupSize + 3, attributes.workGroupSize)) {
      fail(spelled + " appears twice on the kernel with different sizes");
      continue;
    }
    haveWorkGroup = true;
    std::copy(read.workGroupSize, read.workGroupSize + 3, attributes.workGroupSize);
  }
  return ok;
}

void warnUnusedKernelAttributes(ASTContext &ctx, Diagnostics &diags, const KernelAttributeRecorder &recorder,
                                const std::set<unsigned> &used) {
  if (recorder.userIgnoresUnknownAttributes()) return;
  for (SourceLocation location : recorder.locations())
    if (!used.count(location.getRawEncoding())) {
      std::optional<std::string> name = kernelAttributeName(ctx.getSourceManager(), ctx.getLangOpts(), location);
      // (device_has on a device function that is no kernel, §5.8.2, is an
      // assertion about the function: nothing to do, nothing to warn of.)
      if (name == kDeviceHas) continue;
      diags.unusedKernelAttribute(location, "sycl::" + name.value_or("?"));
    }
}

}  // namespace onepass::sscp
