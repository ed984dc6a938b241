// Unit tests for DiagnosticEngine and source loading: format, carets, notes, the error
// limit, and the checks on raw bytes.
#include "TestUtil.h"

#include "ag/frontend/Diagnostics.h"
#include "ag/frontend/Source.h"

#include <doctest/doctest.h>

using namespace ag;

TEST_CASE("an error prints file:line:col, the line, and a caret with an underline") {
  llvm::SourceMgr mgr;
  std::string out;
  llvm::raw_string_ostream os(out);
  DiagnosticEngine diag(mgr, os);
  auto source = addSourceBuffer("m.py", "x = 1\ny = foo + 2\n", diag);
  REQUIRE(source);
  diag.error(source->locationOf(10, 13), "bad thing");
  diag.note(source->locationOf(0, 1), "see here");
  CHECK(out == "m.py:2:5: error: bad thing\n"
               "y = foo + 2\n"
               "    ^~~\n"
               "m.py:1:1: note: see here\n"
               "x = 1\n"
               "^\n");
  CHECK(diag.getNumErrors() == 1);
}

TEST_CASE("past the error limit, errors and their notes are swallowed") {
  llvm::SourceMgr mgr;
  std::string out;
  llvm::raw_string_ostream os(out);
  DiagnosticEngine diag(mgr, os);
  diag.setErrorLimit(2);
  auto source = addSourceBuffer("m.py", "x\n", diag);
  REQUIRE(source);
  for (int i = 0; i < 5; ++i) {
    diag.error(source->locationOf(0, 1), "e");
    diag.note(source->locationOf(0, 1), "n");
  }
  CHECK(diag.getNumErrors() == 5);
  CHECK(diag.reachedErrorLimit());
  size_t errors = 0, notes = 0;
  for (size_t at = out.find("error: e"); at != std::string::npos; at = out.find("error: e", at + 1))
    ++errors;
  for (size_t at = out.find("note: n"); at != std::string::npos; at = out.find("note: n", at + 1))
    ++notes;
  CHECK(errors == 2);
  CHECK(notes == 2);
  CHECK(out.find("too many errors (2), stopping here") != std::string::npos);
}

TEST_CASE("invalid UTF-8 and NUL bytes are refused at their position") {
  llvm::SourceMgr mgr;
  std::string out;
  llvm::raw_string_ostream os(out);
  DiagnosticEngine diag(mgr, os);
  CHECK_FALSE(addSourceBuffer("a.py", std::string("x = 1\ny = '\xff'\n"), diag));
  CHECK(out.find("a.py:2:6: error: source code is not valid UTF-8 (byte 0xFF)") !=
        std::string::npos);
  out.clear();
  CHECK_FALSE(addSourceBuffer("b.py", std::string("x = 1\0\n", 7), diag));
  CHECK(out.find("b.py:1:6: error: source code cannot contain NUL bytes") != std::string::npos);
  CHECK(addSourceBuffer("c.py", "s = '\xc3\xa9'\n", diag));
}

TEST_CASE("locationOf counts lines and byte columns") {
  llvm::SourceMgr mgr;
  std::string out;
  llvm::raw_string_ostream os(out);
  DiagnosticEngine diag(mgr, os);
  auto source = addSourceBuffer("m.py", "ab\ncd\n\nef", diag);
  REQUIRE(source);
  Location loc = source->locationOf(7, 9);
  CHECK(loc.begin.line == 4);
  CHECK(loc.begin.column == 1);
  CHECK(loc.end.column == 3);
}

TEST_CASE("a sink keeps diagnostics unprinted and uncounted, to be reported later") {
  llvm::SourceMgr mgr;
  std::string out;
  llvm::raw_string_ostream os(out);
  DiagnosticEngine diag(mgr, os);
  auto source = addSourceBuffer("m.py", "x = 1\n", diag);
  REQUIRE(source);
  std::vector<StoredDiagnostic> kept;
  CHECK(diag.setSink(&kept) == nullptr);
  diag.error(source->locationOf(4, 5), "later");
  diag.note(source->locationOf(0, 1), "because");
  diag.usageError("a usage error is never kept");
  CHECK(diag.setSink(nullptr) == &kept);
  REQUIRE(kept.size() == 2);
  CHECK(kept[0].severity == Severity::Error);
  CHECK(kept[1].severity == Severity::Note);
  CHECK(diag.getNumErrors() == 1); // the usage error only
  CHECK(out.find("later") == std::string::npos);
  diag.report(kept);
  CHECK(diag.getNumErrors() == 2);
  CHECK(out.find("m.py:1:5: error: later") != std::string::npos);
  CHECK(out.find("m.py:1:1: note: because") != std::string::npos);
}
