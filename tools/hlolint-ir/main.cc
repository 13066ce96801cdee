// Developer tool: prints the IR hlolint builds for a file (one line per
// instruction with its shape, operands and users), or the parse error.
#include <iostream>

#include "parse/parser.h"

using namespace hlolint;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: hlolint-ir FILE\n";
    return 2;
  }
  auto file = SourceFile::Open(argv[1], argv[1]);
  if (!file.ok()) {
    std::cerr << file.status().message() << "\n";
    return 2;
  }
  for (ParsedModule& parsed : ParseAllModules(**file)) {
    if (parsed.error) {
      LineCol at = (*file)->Locate(parsed.error->offset);
      std::cout << "error " << at.line << ":" << at.column << ": " << parsed.error->message << "\n";
      continue;
    }
    const Module& m = *parsed.module;
    std::cout << "module " << m.name() << (m.is_scheduled() ? " scheduled" : "") << "\n";
    for (CompId c = 0; c < m.computation_count(); ++c) {
      const Computation& comp = m.computation(c);
      std::cout << "computation " << m.computation_name(c) << (comp.is_entry ? " entry" : "")
                << (comp.is_fusion_computation ? " fusion" : "") << "\n";
      for (InstrId i : m.instructions(c)) {
        std::cout << "  " << (m.IsRoot(i) ? "ROOT " : "") << m.name(i) << " = "
                  << ShapeToString(m.shape(i)) << " " << OpcodeName(m.opcode(i)) << "(";
        const char* sep = "";
        for (InstrId o : m.operands(i)) {
          std::cout << sep << m.name(o);
          sep = ", ";
        }
        std::cout << ") users=" << m.users(i).size() << "\n";
      }
    }
  }
  return 0;
}
