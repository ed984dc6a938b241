//===- TracerImports.cpp - Programs of several files: the user's own modules ---===//
//
// `import helpers`, `from pkg.mod import f, g as h`, `import pkg.mod as m` and relative
// imports inside packages load the user's Python files, found in the importing file's
// directory, then along -I and AGC_PATH. Each module runs once per evaluation of the
// program, in import order, in a namespace of its own (a CallScope that its functions
// close over, so they read its names and never the main module's). A package's
// `__init__.py` runs before its modules, and a module is an attribute of its package.
// tensorflow, numpy, math, functools, dataclasses, enum, collections and typing are the
// libraries agc knows; any other module agc does not find is a library it does not run:
// refused where traced code uses it, naming the module and where agc looked.
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

#include "ag/frontend/Parser.h"
#include "ag/frontend/Source.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace ag;
using namespace ag::analysis;

static bool isKnownLibrary(llvm::StringRef name) {
  static const char *const kKnown[] = {"tensorflow", "tf", "numpy", "math", "functools",
                                       "dataclasses", "enum", "collections", "typing",
                                       "__future__"};
  return llvm::is_contained(kKnown, name.split('.').first);
}

const ImportedModule *Tracer::Impl::currentModule() const {
  const CallScope *scope = moduleScope();
  return scope ? scope->module : nullptr;
}

const CallScope *Tracer::Impl::moduleScope() const {
  for (const CallScope *s = frames.back().scope.get(); s; s = s->parent)
    if (s->module)
      return s;
  return nullptr;
}

Value Tracer::Impl::moduleValue(const ImportedModule &m) {
  Value v = Value::module(m.name);
  v.closure = m.names; // a module of the user's: its names
  return v;
}

/// The directory whose files a module's own imports see first.
static std::string directoryOf(llvm::StringRef file) {
  llvm::StringRef dir = llvm::sys::path::parent_path(file);
  return dir.empty() ? "." : dir.str();
}

ImportedModule *Tracer::Impl::importModule(llvm::StringRef name, llvm::StringRef fromDir,
                                           const Location &loc, bool &failedImport,
                                           llvm::StringRef package, ImportedModule **top) {
  failedImport = false;
  llvm::SmallVector<llvm::StringRef, 4> parts;
  name.split(parts, '.');
  // The first component along the search path (only in `fromDir` inside a package); the
  // rest inside its package.
  std::vector<std::string> dirs{fromDir.str()};
  if (package.empty())
    dirs.insert(dirs.end(), importPath.begin(), importPath.end());
  std::string base;
  for (const std::string &dir : dirs) {
    llvm::SmallString<128> file(dir), init(dir);
    llvm::sys::path::append(file, parts[0] + ".py");
    llvm::sys::path::append(init, parts[0], "__init__.py");
    if (llvm::sys::fs::is_regular_file(file) || llvm::sys::fs::is_regular_file(init)) {
      base = dir;
      break;
    }
  }
  if (base.empty())
    return nullptr; // not the user's: a library
  ImportedModule *parent = nullptr;
  std::string dotted = package.str();
  llvm::SmallString<128> dir(base);
  for (size_t k = 0; k < parts.size(); ++k) {
    dotted += (dotted.empty() ? "" : ".") + parts[k].str();
    llvm::SmallString<128> file(dir), init(dir);
    llvm::sys::path::append(file, parts[k] + ".py");
    llvm::sys::path::append(init, parts[k], "__init__.py");
    bool package = llvm::sys::fs::is_regular_file(init);
    if (!package && !llvm::sys::fs::is_regular_file(file)) {
      error(loc, "ModuleNotFoundError: No module named '" + dotted + "'");
      note(loc, "agc looked for " + file.str() + " and " + init.str());
      failedImport = true;
      return nullptr;
    }
    std::string path = (package ? init : file).str().str();
    llvm::sys::path::append(dir, parts[k]);
    std::unique_ptr<ImportedModule> &slot = imported[path];
    if (slot && slot->evaluating) {
      error(loc, "an import cycle: '" + dotted + "' is being imported already (agc refuses "
                 "cycles, where Python would see a module half made)");
      note(slot->importedAt, "'" + dotted + "' is first imported here");
      failedImport = true;
      return nullptr;
    }
    if (!slot) {
      auto m = std::make_unique<ImportedModule>();
      m->name = dotted;
      m->path = path;
      m->package = package;
      m->importedAt = loc;
      // Parsed once for the Tracer's life; evaluated once per evaluation.
      std::unique_ptr<ast::Module> &parsed = parsedFiles[path];
      if (!parsed) {
        std::optional<SourceFile> source = loadSourceFile(path, diag);
        if (source)
          parsed = parseModule(*source, diag);
        if (!parsed) {
          error(loc, "cannot import '" + dotted + "': agc could not read or parse " + path);
          failedImport = true;
          return nullptr;
        }
        readFiles.push_back(path);
      }
      m->ast = parsed.get();
      m->evaluating = true;
      slot = std::move(m);
      ImportedModule &module = *slot;
      frames.emplace_back(nullptr, nullptr, nullptr);
      frame().scope->module = &module;
      module.names = frame().scope.get();
      bool wasEvaluating = std::exchange(evaluatingModule, true);
      evaluateBody(module.ast->getBody(), &module.importedAt);
      evaluatingModule = wasEvaluating;
      module.scope = std::move(frames.back().scope);
      frames.pop_back();
      module.evaluating = false;
    }
    if (parent) // a module is an attribute of its package
      parent->names->locals[parts[k]] = moduleValue(*slot);
    if (!parent && top)
      *top = slot.get();
    parent = slot.get();
  }
  return parent;
}

Flow Tracer::Impl::execImport(const ast::ImportStmt &stmt) {
  const ImportedModule *here = currentModule();
  std::string fromDir = directoryOf(here ? llvm::StringRef(here->path) : module.loc().file);
  for (const ast::ImportAlias &alias : stmt.getNames()) {
    llvm::StringRef top = llvm::StringRef(alias.name).split('.').first;
    llvm::StringRef bound = alias.asname.empty() ? top : llvm::StringRef(alias.asname);
    bool failedImport = false;
    ImportedModule *first = nullptr;
    ImportedModule *found = isKnownLibrary(alias.name)
                                ? nullptr
                                : importModule(alias.name, fromDir, alias.loc, failedImport, "",
                                               &first);
    if (failedImport)
      return Flow::Error;
    if (!found) { // a library: tensorflow as tf, numpy, ... or one agc does not run
      std::string path = canonicalModule(alias.asname.empty() ? top : llvm::StringRef(alias.name));
      if (!isKnownLibrary(alias.name))
        unknownModules[top.str()] = fromDir;
      frame().locals[bound] = Value::module(path);
      continue;
    }
    if (!alias.asname.empty()) {
      frame().locals[bound] = moduleValue(*found);
      continue;
    }
    // `import pkg.mod` binds pkg, whose attribute mod is the module.
    frame().locals[bound] = moduleValue(*first);
  }
  return Flow::Normal;
}

Flow Tracer::Impl::execImportFrom(const ast::ImportFromStmt &stmt) {
  const ImportedModule *here = currentModule();
  llvm::StringRef file = here ? llvm::StringRef(here->path) : module.loc().file;
  std::string fromDir = directoryOf(file);
  std::string name = stmt.getModule().str();
  ImportedModule *found = nullptr;
  bool failedImport = false;
  if (stmt.getLevel() > 0) {
    // Relative: from the package the importing module is in, up level - 1 packages.
    if (!here) {
      error(stmt.loc(), "ImportError: attempted relative import with no known parent package");
      note(stmt.loc(), "the file agc compiles is the main module; import its neighbours "
                       "by name ('from helpers import f'), or compile a file inside the package "
                       "that imports this one");
      return Flow::Error;
    }
    llvm::SmallVector<llvm::StringRef, 4> package;
    llvm::StringRef(here->name).split(package, '.');
    if (!here->package)
      package.pop_back();
    std::string dir = fromDir;
    for (unsigned k = 1; k < stmt.getLevel(); ++k) {
      if (package.empty())
        break;
      package.pop_back();
      dir = directoryOf(dir);
    }
    if (package.empty()) {
      error(stmt.loc(), "ImportError: attempted relative import beyond top-level package");
      return Flow::Error;
    }
    std::string prefix = llvm::join(package, ".");
    // The package itself (already imported, as its module is), then the module in it.
    ImportedModule *pkg = nullptr;
    for (auto &[path, m] : imported)
      if (m->name == prefix && m->package)
        pkg = m.get();
    if (name.empty()) {
      found = pkg;
      if (!found) {
        error(stmt.loc(), "ImportError: cannot find the package '" + prefix + "'");
        return Flow::Error;
      }
    } else {
      found = importModule(name, dir, stmt.loc(), failedImport, prefix);
      if (failedImport)
        return Flow::Error;
      if (!found) {
        error(stmt.loc(), "ModuleNotFoundError: No module named '" + prefix + "." + name + "'");
        return Flow::Error;
      }
    }
  } else if (!isKnownLibrary(name)) {
    found = importModule(name, fromDir, stmt.loc(), failedImport);
    if (failedImport)
      return Flow::Error;
  }
  if (!found) { // a library
    if (!isKnownLibrary(name))
      unknownModules[llvm::StringRef(name).split('.').first.str()] = fromDir;
    for (const ast::ImportAlias &alias : stmt.getNames())
      frame().locals[alias.asname.empty() ? alias.name : alias.asname] =
          Value::module(canonicalModule(name) + "." + alias.name);
    return Flow::Normal;
  }
  for (const ast::ImportAlias &alias : stmt.getNames()) {
    llvm::StringRef bound = alias.asname.empty() ? llvm::StringRef(alias.name) : alias.asname;
    auto it = found->names->locals.find(alias.name);
    if (it != found->names->locals.end()) {
      frame().locals[bound] = it->second;
      continue;
    }
    // `from pkg import mod`: a module of the package.
    if (found->package) {
      ImportedModule *sub = importModule(alias.name, directoryOf(found->path), alias.loc,
                                         failedImport, found->name);
      if (failedImport)
        return Flow::Error;
      if (sub) {
        found->names->locals[alias.name] = moduleValue(*sub);
        frame().locals[bound] = moduleValue(*sub);
        continue;
      }
    }
    error(alias.loc, "ImportError: cannot import name '" + alias.name + "' from '" +
                         found->name + "' (" + found->path + ")");
    return Flow::Error;
  }
  return Flow::Normal;
}
