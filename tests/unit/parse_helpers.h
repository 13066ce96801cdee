// Helpers for the parser unit tests: parse HLO text written in the test,
// look instructions and computations up by name, and check the exact
// location and message of parse errors.
#pragma once

#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "corpus_sample.h"
#include "ir/module.h"
#include "parse/attributes.h"
#include "parse/parser.h"
#include "source/source_file.h"

namespace hlolint::parse_testing {

// Every module of a text; the SourceFile outlives the IR that points into it.
struct Parsed {
  std::unique_ptr<SourceFile> file;
  std::vector<ParsedModule> modules;

  const Module& m(size_t index = 0) const {
    REQUIRE(index < modules.size());
    REQUIRE(modules[index].module != nullptr);
    return *modules[index].module;
  }
  // The instruction called `name` in module `index` (first in id order).
  InstrId Id(std::string_view name, size_t index = 0) const {
    const Module& mod = m(index);
    for (InstrId id = 0; id < mod.instruction_count(); ++id) {
      if (mod.name(id) == name) return id;
    }
    FAIL("no instruction named " << std::string(name));
    return kNoId;
  }
  CompId Comp(std::string_view name, size_t index = 0) const {
    const Module& mod = m(index);
    for (CompId id = 0; id < mod.computation_count(); ++id) {
      if (mod.computation_name(id) == name) return id;
    }
    FAIL("no computation named " << std::string(name));
    return kNoId;
  }
  // 1-based line:column of a byte offset, as "L:C".
  std::string At(uint32_t offset) const {
    LineCol at = file->Locate(offset);
    return std::to_string(at.line) + ":" + std::to_string(at.column);
  }
};

inline Parsed ParseAny(std::string_view text, const ParseLimits& limits = {}) {
  Parsed parsed;
  parsed.file = SourceFile::FromString("test.hlo", text);
  parsed.modules = ParseAllModules(*parsed.file, limits);
  return parsed;
}

// Parses text that must hold modules without errors.
inline Parsed Parse(std::string_view text, const ParseLimits& limits = {}) {
  Parsed parsed = ParseAny(text, limits);
  REQUIRE(!parsed.modules.empty());
  for (const ParsedModule& module : parsed.modules) {
    if (module.error) {
      FAIL("unexpected parse error at " << parsed.At(module.error->offset) << ": "
                                        << module.error->message);
    }
  }
  return parsed;
}

// The first error of a text holding one failing module.
struct Failure {
  std::string at;       // "line:column"
  std::string message;
  std::string note_at;  // "" without a note
  std::string note;
};

inline Failure ParseFailure(std::string_view text, const ParseLimits& limits = {}) {
  Parsed parsed = ParseAny(text, limits);
  REQUIRE(!parsed.modules.empty());
  const ParsedModule& module = parsed.modules[0];
  if (!module.error) FAIL("expected a parse error, but the text parsed");
  Failure failure;
  failure.at = parsed.At(module.error->offset);
  failure.message = module.error->message;
  if (module.error_note) {
    failure.note_at = parsed.At(module.error_note->offset);
    failure.note = module.error_note->message;
  }
  return failure;
}

// Checks location and message (a fragment) of the text's first error.
#define CHECK_PARSE_ERROR(text, location, fragment)                       \
  do {                                                                    \
    const ::hlolint::parse_testing::Failure failure_ =                    \
        ::hlolint::parse_testing::ParseFailure(text);                     \
    INFO("error: " << failure_.at << ": " << failure_.message);           \
    CHECK(failure_.at == (location));                                     \
    CHECK_THAT(failure_.message, Catch::Matchers::Contains(fragment));    \
  } while (false)

inline std::string ShapeOf(const Module& m, InstrId id, bool with_layout = true) {
  return ShapeToString(m.shape(id), with_layout);
}

inline std::vector<std::string> Names(const Module& m, std::span<const InstrId> ids) {
  std::vector<std::string> names;
  for (InstrId id : ids) names.emplace_back(m.name(id));
  return names;
}

inline std::vector<std::string> Names(const Module& m, const InstrIdList& ids) {
  std::vector<std::string> names;
  for (InstrId id : ids) names.emplace_back(m.name(id));
  return names;
}

inline std::vector<std::string> CompNames(const Module& m, std::span<const CompId> ids) {
  std::vector<std::string> names;
  for (CompId id : ids) names.emplace_back(m.computation_name(id));
  return names;
}

using StringList = std::vector<std::string>;

// Calls visit(path, file, module) for every module that parses in every
// `stride`-th file under `dir` (the corpus's MANIFEST.tsv aside; stride as
// in corpus_sample.h).
template <typename Visit>
void ForEachModuleUnder(const std::filesystem::path& dir, Visit visit, size_t stride = 1) {
  for (const std::filesystem::path& path : FilesUnder(dir, stride)) {
    auto file = SourceFile::Open(path.string(), path.string());
    if (!file.ok()) continue;
    for (const ParsedModule& parsed : ParseAllModules(**file)) {
      if (parsed.module) visit(path.string(), **file, *parsed.module);
    }
  }
}

// A parameter with 66,000 users, each of them an operand of two
// instructions of 66,000 operands: lists longer than the 16-bit counts of
// an instruction's record, whose length then heads its id block (operands)
// or is kept apart (users).
inline std::string LongListsModule() {
  constexpr int kUses = 66000;
  std::string uses, shapes;
  std::string text = "HloModule m\n\nhelper {\n  ROOT %hp = f32[] parameter(0)\n}\n\n"
                     "ENTRY main {\n  %p = f32[] parameter(0)\n";
  for (int k = 0; k < kUses; ++k) {
    text += "  %use" + std::to_string(k) + " = f32[] negate(f32[] %p)\n";
    uses += (k == 0 ? "f32[] %use" : ", f32[] %use") + std::to_string(k);
    shapes += k == 0 ? "f32[]" : ", f32[]";
  }
  text += "  %t = (" + shapes + ") tuple(" + uses + ")\n";
  text += "  %cc = f32[] custom-call(" + uses +
          "), custom_call_target=\"x\", called_computations={helper}, control-predecessors={%t}\n";
  text += "  %g = f32[] get-tuple-element(%t), index=65999, control-predecessors={%cc}\n";
  text += "  ROOT %r = f32[] add(%g, %cc)\n}\n";
  return text;
}

}  // namespace hlolint::parse_testing
