// Helpers shared by the unit tests of the in-place analyses: parse one HLO
// module from a string, look instructions up by name, read and write
// in-place pairs.
#pragma once

#include <catch2/catch.hpp>

#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/analyses.h"
#include "analysis/in_place.h"
#include "ir/module.h"
#include "parse/parser.h"
#include "source/source_file.h"
#include "xla/profile.h"

namespace hlolint::testing {

struct ParsedHlo {
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<Module> module;
  std::unique_ptr<Analyses> analyses;

  const Module& m() const { return *module; }
  // The instruction called `name` (first match across computations).
  InstrId Id(std::string_view name) const {
    for (InstrId id = 0; id < module->instruction_count(); ++id) {
      if (module->name(id) == name) return id;
    }
    FAIL("no instruction named " << std::string(name));
    return kNoId;
  }
  template <typename T>
  const T& Get() const {
    return analyses->Get<T>();
  }
};

// `xla`: the XLA the analyses mirror (default: latest, backend unknown).
inline ParsedHlo ParseHlo(std::string_view text, const XlaProfile& xla = XlaProfile::Latest()) {
  ParsedHlo parsed;
  parsed.file = SourceFile::FromString("test.hlo", text);
  auto modules = ParseAllModules(*parsed.file);
  REQUIRE(modules.size() == 1);
  if (modules[0].error) {
    const LineCol at = parsed.file->Locate(modules[0].error->offset);
    FAIL("parse error at " << at.line << ":" << at.column << ": " << modules[0].error->message);
  }
  REQUIRE(modules[0].module != nullptr);
  parsed.module = std::move(modules[0].module);
  parsed.analyses = std::make_unique<Analyses>(*parsed.module, xla);
  return parsed;
}

// The profile of XLA on `date` ("2026-06-03"), for `backend`.
inline XlaProfile XlaOf(std::string_view date, Backend backend = Backend::kUnknown) {
  const std::optional<XlaProfile> profile = XlaProfile::Parse(date, backend);
  REQUIRE(profile);
  return *profile;
}

// The in-place pairs XLA's analysis gives the instruction called `name`.
inline std::vector<InPlacePair> PairsOf(const ParsedHlo& h, const char* name) {
  auto span = h.Get<InPlacePairs>().Get(h.Id(name));
  return {span.begin(), span.end()};
}

// An expected pair: operand `operand` at `operand_index` -> `output_index`.
inline InPlacePair Pair(int64_t operand, std::initializer_list<int64_t> operand_index,
                        std::initializer_list<int64_t> output_index) {
  InPlacePair pair;
  pair.operand = operand;
  pair.operand_index.assign(operand_index.begin(), operand_index.end());
  pair.output_index.assign(output_index.begin(), output_index.end());
  return pair;
}

}  // namespace hlolint::testing
