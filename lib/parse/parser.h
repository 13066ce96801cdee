// The HLO text parser: builds one Module per module in a file.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "ir/module.h"
#include "parse/value_parser.h"

namespace hlolint {

// One module of a file: the IR when parsing succeeded, or the first error.
struct ParsedModule {
  std::unique_ptr<Module> module;
  std::optional<ParseError> error;
  // A second location worth showing with the error ("previously defined here").
  std::optional<ParseError> error_note;
  std::string name;            // module name when known
  bool unsupported_format = false;  // not HLO text at all (e.g. protobuf text)
  std::string fix;             // for unsupported_format: what to lint instead
  uint32_t begin_offset = 0;   // where the module's text starts
  uint32_t instruction_count = 0;
  uint32_t computation_count = 0;
  // Parts of the module parsed on another thread and merged into it
  // (ParseLimits::threads); 0 when one thread parsed all of it.
  uint32_t merged_fragments = 0;
};

// Parses every module of `file` in order and hands each to `consumer`, which
// may keep or drop it. Files may hold several modules one after another
// (`HloModule` lines or `// -----` separators); after an error the parser
// resumes at the next module. Never throws or aborts on bad input.
void ParseModules(const SourceFile& file, const std::function<void(ParsedModule&&)>& consumer,
                  const ParseLimits& limits = {});

// Convenience for tests: all modules of a file.
std::vector<ParsedModule> ParseAllModules(const SourceFile& file, const ParseLimits& limits = {});

}  // namespace hlolint
