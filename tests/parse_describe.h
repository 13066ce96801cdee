// Test support: everything the parser records about a file (IR, offsets,
// first error), as text, so two parses can be compared exactly. Used by the
// fast-path test and the fuzz target's fast-versus-slow oracle.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "ir/module.h"
#include "parse/parser.h"

namespace hlolint {

// Everything the parser records, in a comparable form.
inline std::string DescribeParse(const std::vector<ParsedModule>& modules) {
  std::ostringstream out;
  for (const ParsedModule& parsed : modules) {
    out << "module " << parsed.name << " @" << parsed.begin_offset << " instrs "
        << parsed.instruction_count << " comps " << parsed.computation_count << "\n";
    if (parsed.error) out << "error @" << parsed.error->offset << " " << parsed.error->message << "\n";
    if (parsed.error_note) {
      out << "note @" << parsed.error_note->offset << " " << parsed.error_note->message << "\n";
    }
    if (!parsed.module) continue;
    const Module& m = *parsed.module;
    out << "name " << m.name() << " entry " << m.entry() << " [" << m.begin_offset() << ","
        << m.end_offset() << ") scheduled " << m.is_scheduled() << " header-layouts "
        << m.header().entry_param_layouts.size() << "\n";
    auto index = [&out](const ShapeIndex& index) {
      out << "{";
      for (int64_t i : index) out << " " << i;
      out << " }";
    };
    for (const InputOutputAlias& alias : m.header().input_output_alias) {
      out << "alias @" << alias.offset << " ";
      index(alias.output_index);
      out << " param " << alias.parameter << " ";
      index(alias.parameter_index);
      out << " must " << alias.must_alias << "\n";
    }
    for (ShapeId s = 0; s < m.shapes().size(); ++s) {
      out << "shape#" << s << " " << ShapeToString(m.shapes().Get(s), true) << "\n";
    }
    for (CompId c = 0; c < m.computation_count(); ++c) {
      const Computation& comp = m.computation(c);
      out << "comp " << m.computation_name(c) << " root " << comp.root << " [" << comp.begin_offset
          << "," << comp.end_offset << ") entry " << comp.is_entry << " inline " << comp.is_inline
          << " fusion " << comp.is_fusion_computation << " thread " << m.execution_thread(c)
          << " params";
      for (InstrId p : comp.parameters()) out << " " << p;
      if (comp.has_signature) {
        out << " signature @" << comp.signature_offset;
        for (ShapeId s : comp.signature_params()) out << " " << ShapeToString(m.shapes().Get(s), true) << "#" << s;
        out << " -> " << ShapeToString(m.shapes().Get(comp.signature_result), true) << "#"
            << comp.signature_result;
      }
      out << " order";
      for (InstrId i : m.instructions(c)) out << " " << i;
      out << "\n";
    }
    for (InstrId id = 0; id < m.instruction_count(); ++id) {
      const Instruction& in = m.instr(id);
      out << id << " " << m.name(id) << " #" << m.name_hash(id) << " @" << in.name_offset << " "
          << OpcodeName(in.opcode) << " " << ShapeToString(m.shape(id), true) << " shape#"
          << in.shape << " n=" << m.number(id) << " flags=" << int(in.flags) << " parent=" << m.parent(id)
          << " kind=" << int(m.fusion_kind(id)) << " wrapped=" << int(m.async_wrapped_opcode(id))
          << " ops";
      for (InstrId o : m.operands(id)) out << " " << o;
      out << " users";
      for (InstrId u : m.users(id)) out << " " << u;
      out << " ctl";
      for (InstrId p : m.control_predecessors(id)) out << " " << p;
      out << " calls";
      for (CompId c : m.called(id)) out << " " << c;
      out << " attrs";
      for (const Attribute& a : m.attributes(id)) {
        out << " " << static_cast<int>(a.name) << "@" << m.attribute_name_offset(a) << ":" << a.value_offset
            << "#" << a.value_key;
      }
      out << "\n";
    }
    out << "unused";
    for (InstrId id : m.unused_instructions()) out << " " << id;
    out << "\n";
  }
  return out.str();
}

}  // namespace hlolint
