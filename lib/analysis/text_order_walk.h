// The one place where rules and analyses release the text of a large file.
//
// Attribute values stay in the text until someone reads them. The parser
// releases the text behind it as it goes (SourceFile::ReleasePages), so a
// later reader of attributes maps those pages back in; going through the
// instructions in id order, which is text order, it can release them again
// behind it and keep the file from becoming resident all at once. A reader
// says which instruction it is at; when and how much text leaves memory is
// decided by TextReleaser, and the directive markers in that text are
// searched before it leaves (SourceFile::DirectiveMarkers).
#pragma once

#include "ir/module.h"
#include "source/source_file.h"

namespace hlolint {

class TextOrderWalk {
 public:
  explicit TextOrderWalk(const Module& module)
      : module_(module), releaser_(module.source(), module.begin_offset()) {}

  // The reader is at instruction `id`, about to read its text. Ids visited
  // should grow: text behind the latest one may leave memory (reading it
  // again still works, at the price of mapping it back in).
  void Visit(InstrId id) { releaser_.Advance(module_.instr(id).name_offset); }

 private:
  const Module& module_;
  TextReleaser releaser_;
};

}  // namespace hlolint
