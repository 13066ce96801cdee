// What kind of text a file holds, told from its first few KiB: HLO text, or
// one of the things people pass by mistake (StableHLO/MLIR, HLO protos in
// binary, text or JSON form, other binary data, prose). Directory scans
// use it to leave out `.txt` files that are not HLO; the parser uses it to
// report such a file as one unsupported-format finding with advice instead
// of a parse error at its first byte.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hlolint {

// How many bytes of a file's start the sniff reads.
inline constexpr size_t kSniffBytes = 4096;

enum class TextFormat {
  kHloText,     // starts, after comments, with HloModule, ENTRY or a computation
  kNoModule,    // nothing but blank lines and comments (the whole file)
  kUndecided,   // only comments in the bytes sniffed, more after them
  kHloLike,     // does not start like HLO, but holds HLO words or shapes
  kMlirText,    // StableHLO / MHLO / other MLIR text
  kProtoText,   // an HloModuleProto or HloProto in protobuf text format
  kProtoBinary, // a serialized HloModuleProto or HloProto
  kProtoJson,   // an HloModuleProto or HloProto as JSON
  kJson,        // other JSON
  kBinary,      // NUL or control bytes, or bytes that are not UTF-8
  kPlainText,   // text with nothing of HLO in it
};

struct SniffResult {
  TextFormat format = TextFormat::kHloText;
  uint32_t offset = 0;  // where the evidence starts (the first line that is not a comment)
};

// Sniffs `head`, the first bytes of a file; `whole` says whether it is all
// of the file (else a format is judged on the bytes there are).
SniffResult SniffTextFormat(std::string_view head, bool whole);

// Whether a directory scan lints a `.txt` file of this format: HLO, a file
// whose sniffed start holds only comments, and HLO that is broken at its
// start (skipping that would let a CI gate pass on a broken dump).
inline bool ScanLints(TextFormat format) {
  return format == TextFormat::kHloText || format == TextFormat::kUndecided ||
         format == TextFormat::kHloLike;
}

// For the formats that are not HLO and not empty (kMlirText ... kPlainText):
// what the file is, as a finding's message, and what to do instead.
struct FormatAdvice {
  std::string message;
  std::string fix;
};
FormatAdvice AdviceFor(TextFormat format);
// Whether AdviceFor applies: the file is reported as unsupported-format.
bool IsUnsupportedFormat(TextFormat format);

}  // namespace hlolint
