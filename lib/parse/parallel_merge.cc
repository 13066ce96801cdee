// Merging the fragments of a module parsed on two threads (see
// parallel_parse.h) into the module the first thread parses: renumbering
// ids, interning the fragment's shapes and attribute value keys in the
// order the one-thread parse would have, and resolving the names it could
// not know.
#include <algorithm>
#include <span>
#include <vector>

#include "parse/module_parser.h"
#include "parse/parallel_parse.h"

namespace hlolint {
namespace {

constexpr CompId kNotKnownYet = NameResolver::kNotKnownYetComputation;

// A shape of one module's table against one of another's: the same
// structure, which is what interning both in one table would find equal.
bool SameShape(const Shape& a, const Shape& b) {
  if (a.element_type != b.element_type || a.has_layout != b.has_layout ||
      a.dimensions != b.dimensions || a.dynamic_dimensions != b.dynamic_dimensions ||
      a.tuple_shapes.size() != b.tuple_shapes.size()) {
    return false;
  }
  for (size_t i = 0; i < a.tuple_shapes.size(); ++i) {
    if (!SameShape(*a.tuple_shapes[i], *b.tuple_shapes[i])) return false;
  }
  if (!a.has_layout) return true;
  const Shape* physical_a = a.layout.physical_shape;
  const Shape* physical_b = b.layout.physical_shape;
  if ((physical_a == nullptr) != (physical_b == nullptr)) return false;
  if (physical_a != nullptr && !SameShape(*physical_a, *physical_b)) return false;
  Layout layout_a = a.layout, layout_b = b.layout;
  layout_a.physical_shape = layout_b.physical_shape = nullptr;
  return layout_a == layout_b;
}

// Appends a fragment's computation `c` to `comps`: its root and parameters
// through `instr_to`, its signature through `shape_to`, its instructions'
// list to `order` (whose size before the merge's first list is
// `order_base`). Its parameter and signature lists move with the
// fragment's list storage (AdoptLists), which the module owns from then on.
template <typename InstrTo>
void AppendComputation(std::vector<Computation>& comps, const Computation& c,
                       const InstrTo& instr_to, const std::vector<ShapeId>& shape_to,
                       uint32_t order_base, std::vector<InstrId>& order) {
  Computation& merged = comps.emplace_back(c);
  if (merged.root != kNoId) merged.root = instr_to(c.root);
  if (!c.consecutive_order) {
    merged.order_begin += order_base;
  } else if (c.order_count > 0) {
    // Consecutive ids stay consecutive unless the map breaks the run (it
    // never does: only the continued computation has stubs); then the list
    // is written out.
    merged.order_begin = instr_to(c.order_begin);
    for (uint32_t i = 1; i < c.order_count && merged.consecutive_order; ++i) {
      merged.consecutive_order = instr_to(c.order_begin + i) == merged.order_begin + i;
    }
    if (!merged.consecutive_order) {
      merged.order_begin = static_cast<uint32_t>(order.size());
      for (uint32_t i = 0; i < c.order_count; ++i) order.push_back(instr_to(c.order_begin + i));
    }
  }
  uint32_t* const lists = const_cast<uint32_t*>(c.lists);
  for (InstrId& p : std::span(lists, c.parameter_count)) {
    if (p != kNoId) p = instr_to(p);
  }
  for (ShapeId& p : std::span(lists + c.parameter_count, c.signature_param_count)) {
    p = shape_to[p];
  }
  if (merged.signature_result != kNoShape) merged.signature_result = shape_to[c.signature_result];
}

// Renumbers a merged instruction: its operands, `users` users (0 where its
// block has no user list yet) and control predecessors through `instr_to`,
// its called computations through `comp_to`, its shape through
// `shape_to`. `list` is its block of ids. A fusion marks the first-half
// computations it calls (AddInstruction marked the fragment's own).
template <typename InstrTo, typename CompTo>
void RenumberMerged(Instruction& in, uint32_t* list, uint32_t users, const InstrTo& instr_to,
                    const CompTo& comp_to, std::vector<Computation>& comps,
                    const std::vector<ShapeId>& shape_to, CompId first_external) {
  const uint32_t operand_count = in.OperandCountAt(list);
  for (uint32_t k = 0; k < operand_count; ++k) list[k] = instr_to(list[k]);
  const bool marks_fusion =
      in.opcode == Opcode::kFusion ||
      (in.opcode == Opcode::kAsyncStart && (in.flags & Instruction::kAsyncSugar) &&
       static_cast<Opcode>(in.WrappedOrKindAt(list)) == Opcode::kFusion);
  const uint32_t called_end = operand_count + in.CalledCountAt(list);
  for (uint32_t k = operand_count; k < called_end; ++k) {
    const CompId c = list[k];
    list[k] = comp_to(c);
    if (marks_fusion && c >= first_external) comps[list[k]].is_fusion_computation = true;
  }
  const uint32_t users_end = called_end + users;
  for (uint32_t k = called_end; k < users_end; ++k) list[k] = instr_to(list[k]);
  if (in.flags & Instruction::kHasControl) {
    const uint32_t controls = in.ControlCountAt(list);
    for (uint32_t k = users_end; k < users_end + controls; ++k) list[k] = instr_to(list[k]);
  }
  if (in.shape != kNoShape) in.shape = shape_to[in.shape];
}

}  // namespace

bool ModuleParser::CanMerge(const ModuleParser& half, std::vector<CompId>* external_to) const {
  const ExternalNames& externals = half.names_.computations_not_known_yet();
  external_to->resize(externals.size());
  for (size_t k = 0; k < externals.size(); ++k) {
    // Defined before the split, or the one-thread parse fails here.
    const CompId c = computation_names_.Find(externals.name(k));
    if (c == CopyingNameTable::kNotFound) return false;
    (*external_to)[k] = c;
  }
  const CopyingNameTable& names = half.computation_names_;
  for (size_t k = 0; k < names.size(); ++k) {
    if (computation_names_.Find(names.name(k)) != CopyingNameTable::kNotFound) return false;
  }
  if (uint64_t{value_key_count_} + half.value_key_count_ >= Attribute::kMaxValueKey) return false;
  const ShapeTable& half_shapes = half.builder_->shapes();
  for (ShapeId s = 0; s < half_shapes.size(); ++s) {
    // Interning in id order needs a shape's parts interned before it.
    const Shape& shape = half_shapes.Get(s);
    for (const Shape* element : shape.tuple_shapes) {
      if (element->id >= s) return false;
    }
    if (shape.layout.physical_shape != nullptr && shape.layout.physical_shape->id >= s) {
      return false;
    }
  }
  const uint64_t comp_count =
      uint64_t{builder_->computations().size()} + half.builder_->computations().size();
  return comp_count < kNotKnownYet;
}

void ModuleParser::MergeShapesAndKeys(const ModuleParser& half, std::vector<ShapeId>* shape_to,
                                      std::vector<uint32_t>* key_to) {
  // Shapes and value keys new to the module get the next ids in the order
  // the fragment met them, which is the order the one-thread parse would.
  ShapeTable& shapes = builder_->shapes();
  const ShapeTable& half_shapes = half.builder_->shapes();
  shape_to->assign(half_shapes.size(), kNoShape);
  for (ShapeId s = 0; s < half_shapes.size(); ++s) {
    Shape copy = half_shapes.Get(s);
    for (const Shape*& element : copy.tuple_shapes) element = &shapes.Get((*shape_to)[element->id]);
    if (copy.layout.physical_shape != nullptr) {
      copy.layout.physical_shape = &shapes.Get((*shape_to)[copy.layout.physical_shape->id]);
    }
    (*shape_to)[s] = shapes.Intern(copy);
  }
  const CopyingNameTable& keys = half.value_keys_;
  key_to->assign(half.value_key_count_ + 1, 0);
  for (size_t k = 0; k < keys.size(); ++k) {
    const uint32_t next = value_key_count_ + 1;
    const uint32_t key = value_keys_.Insert(keys.name(k), next) & Attribute::kMaxValueKey;
    if (key == next) ++value_key_count_;
    (*key_to)[keys.value(k)] = key;
  }
}

bool ModuleParser::TakeFragment(ModuleParser& half, CompId* entry) {
  Module::Builder& to = *builder_;
  Module::Builder& from = *half.builder_;

  // Everything that can refuse the merge is checked before anything changes.
  // Both sides end between computations, so their user lists can be laid
  // out (FinishUsers; ParseFragment did the fragment's): the fragment's are
  // merged as they are.
  to.FinishUsers();
  if (!from.AllUsersFinished()) return false;
  std::vector<CompId> external_to;
  if (!CanMerge(half, &external_to)) return false;
  if (*entry != kNoId && half.fragment_entry_ != kNoId) return false;  // two ENTRY
  std::vector<ShapeId> shape_to;
  std::vector<uint32_t> key_to;
  MergeShapesAndKeys(half, &shape_to, &key_to);
  const CopyingNameTable& names = half.computation_names_;

  const uint32_t instr_base = static_cast<uint32_t>(to.instructions().size());
  const uint32_t comp_base = static_cast<uint32_t>(to.computations().size());
  const uint32_t order_base = static_cast<uint32_t>(to.order().size());
  const uint32_t attr_base = static_cast<uint32_t>(to.attributes().size());
  auto comp_to = [&](CompId c) {
    return c >= kNotKnownYet ? external_to[c - kNotKnownYet] : c + comp_base;
  };

  auto& comps = to.computations();
  auto shifted = [&](InstrId id) { return id + instr_base; };
  // The lists first: a computation's list written out lands after them.
  auto& order = to.order();
  order.insert(order.end(), from.order().begin(), from.order().end());
  for (InstrId& id : std::span(order.data() + order_base, from.order().size())) id += instr_base;
  for (const Computation& c : from.computations()) {
    AppendComputation(comps, c, shifted, shape_to, order_base, order);
  }
  to.AdoptLists(*half.module_);

  // The records and lists, a block at a time: copied in bulk, then
  // renumbered while the block is in cache.
  auto& instrs = to.instructions();
  auto& ids = to.ids();
  const std::vector<Instruction>& half_instrs = from.instructions();
  const std::vector<uint32_t>& half_ids = from.ids();
  const uint32_t ids_base = static_cast<uint32_t>(ids.size());
  ids.insert(ids.end(), half_ids.begin(), half_ids.end());
  uint32_t* const merged_ids = ids.data() + ids_base;
  constexpr size_t kBlock = 1024;
  for (size_t begin = 0; begin < half_instrs.size(); begin += kBlock) {
    const size_t end = std::min(half_instrs.size(), begin + kBlock);
    const size_t first = instrs.size();
    instrs.insert(instrs.end(), half_instrs.begin() + begin, half_instrs.begin() + end);
    for (size_t k = begin; k < end; ++k) {
      Instruction& in = instrs[first + k - begin];
      // The fragment's lists are laid out in id order from 0: header words,
      // operands, called computations, users, control predecessors.
      uint32_t* list = merged_ids + in.operands_begin;
      in.operands_begin += ids_base;
      in.attrs_begin += attr_base;
      const uint32_t users = half.module_->UserCount(static_cast<InstrId>(k));
      RenumberMerged(in, list, users, shifted, comp_to, comps, shape_to, kNotKnownYet);
    }
  }
  for (const auto& [index, offset] : from.apart_attribute_names()) {
    to.apart_attribute_names().emplace_back(index + attr_base, offset);
  }
  auto& attributes = to.attributes();
  const std::vector<Attribute>& half_attributes = from.attributes();
  for (size_t begin = 0; begin < half_attributes.size(); begin += kBlock) {
    const size_t end = std::min(half_attributes.size(), begin + kBlock);
    const size_t first = attributes.size();
    attributes.insert(attributes.end(), half_attributes.begin() + begin,
                      half_attributes.begin() + end);
    for (Attribute& a : std::span(attributes.data() + first, end - begin)) {
      if (a.value_key != 0) a.value_key = key_to[a.value_key];
    }
  }
  auto& hashes = to.name_hashes();
  hashes.insert(hashes.end(), from.name_hashes().begin(), from.name_hashes().end());
  to.counted_users += from.counted_users;
  to.AdoptFinishedUsers(from, instr_base);
  // Later fragments and chunks may call the fragment's computations. The
  // table of a module of 100,000s of computations is far bigger than the
  // caches: each slot is fetched a few names ahead.
  constexpr size_t kAhead = 8;
  for (size_t k = 0; k < names.size(); ++k) {
    if (k + kAhead < names.size()) computation_names_.Prefetch(names.name(k + kAhead));
    computation_names_.Insert(names.name(k), names.value(k) + comp_base);
  }

  if (half.fragment_entry_ != kNoId) *entry = half.fragment_entry_ + comp_base;
  ResumeAfterMerge(half);
  return true;
}

// The other thread's text is parsed: its directive markers join the file's,
// and this thread reads on from where the merged part ends.
void ModuleParser::ResumeAfterMerge(const ModuleParser& half) {
  HandOverMarkers(lexer_.offset());
  file_.AdoptMarkers(lexer_.offset(), half.lexed_markers_);
  lexer_.Reset(half.fragment_end_);
  RestartMarkers(half.fragment_end_);
  Lex();
  ++merged_fragments_;
}

bool ModuleParser::TakeContinuation(ModuleParser& half, CompId computation, InstrId* root,
                                    uint32_t* root_offset) {
  // Everything that can refuse the merge is checked before anything changes
  // (but the names, whose inserts are undone on a refusal).
  if (half.continuation_root_ != kNoId && *root != kNoId) return false;  // two ROOTs
  std::vector<CompId> external_to;
  if (!CanMerge(half, &external_to)) return false;
  std::vector<InstrId> id_to;
  if (!MapContinuationIds(half, &id_to) || !InsertContinuationNames(half, id_to)) return false;
  AppendContinuation(half, computation, id_to, external_to);

  // The computation goes on here: its instructions (their names are in
  // the table already), compact get-tuple-elements and async chains as if
  // this thread had read them.
  std::vector<InstrId>& scope_order = scope_order_[scope_depth_ - 1];
  for (const InstrId f : half.scope_order_[0]) scope_order.push_back(id_to[f]);
  for (const auto& [key, gte] : half.gte_cache_[0]) {
    const uint64_t tuple = id_to[static_cast<InstrId>(key >> 32)];
    gte_cache_[scope_depth_ - 1].emplace((tuple << 32) | (key & 0xffffffffu), id_to[gte]);
  }
  for (const auto& [instr, start] : half.async_start_of_) {
    async_start_of_[id_to[instr]] = id_to[start];
  }
  if (half.continuation_root_ != kNoId) {
    *root = id_to[half.continuation_root_];
    *root_offset = half.continuation_root_offset_;
  }

  ResumeAfterMerge(half);
  return true;
}

// Each stub names an instruction defined before the cut, of the shape the
// text declared for it there; else the one-thread parse reads otherwise.
// The stubs become the instructions they stand for, the rest follow this
// module's last instruction in order.
bool ModuleParser::MapContinuationIds(const ModuleParser& half,
                                      std::vector<InstrId>* id_to) const {
  Module::Builder& from = *half.builder_;
  const std::vector<Instruction>& half_instrs = from.instructions();
  const ScopeNameTable& scope = scopes_[scope_depth_ - 1];
  const std::span<const InstrId> stubs = half.names_.stubs();
  std::vector<InstrId> stub_to(stubs.size());
  for (size_t k = 0; k < stubs.size(); ++k) {
    const InstrId stub = stubs[k];
    const uint32_t found = scope.FindHashedIf(static_cast<uint32_t>(from.name_hashes()[stub]),
                                              NamedAsIn(half, stub));
    if (found == ScopeNameTable::kNotFound) return false;
    const Shape& declared = from.shapes().Get(half_instrs[stub].shape);
    if (!SameShape(shape(builder_->instructions()[found].shape), declared)) return false;
    stub_to[k] = found;
  }
  id_to->resize(half_instrs.size());
  InstrId next = static_cast<InstrId>(builder_->instructions().size());
  size_t k = 0;
  for (InstrId f = 0; f < half_instrs.size(); ++f) {
    (*id_to)[f] = k < stubs.size() && stubs[k] == f ? stub_to[k++] : next++;
  }
  return true;
}

// The names go into this scope's table, which also finds any name defined
// on both sides of the cut; then the inserts so far are undone and nothing
// has changed. One probe a name: the table of a large computation is far
// bigger than the caches, so its slots are fetched a few names ahead.
bool ModuleParser::InsertContinuationNames(const ModuleParser& half,
                                           const std::vector<InstrId>& id_to) {
  const std::vector<Instruction>& half_instrs = half.builder_->instructions();
  const std::vector<uint64_t>& half_hashes = half.builder_->name_hashes();
  const std::vector<InstrId>& half_order = half.scope_order_[0];
  ScopeNameTable& scope = scopes_[scope_depth_ - 1];
  constexpr size_t kAhead = 16;
  scope.MakeRoomFor(half_order.size());
  for (size_t i = 0; i < half_order.size(); ++i) {
    if (i + kAhead < half_order.size()) {
      scope.Prefetch(static_cast<uint32_t>(half_hashes[half_order[i + kAhead]]));
    }
    const InstrId f = half_order[i];
    if (half_instrs[f].flags & Instruction::kAnonymous) continue;
    const auto hash = static_cast<uint32_t>(half_hashes[f]);
    if (scope.InsertHashedIf(hash, id_to[f], NamedAsIn(half, f)) == id_to[f]) continue;
    while (i-- > 0) {
      const InstrId g = half_order[i];
      if (half_instrs[g].flags & Instruction::kAnonymous) continue;
      scope.UndoInsert(static_cast<uint32_t>(half_hashes[g]), id_to[g]);
    }
    return false;
  }
  return true;
}

void ModuleParser::AppendContinuation(ModuleParser& half, CompId computation,
                                      const std::vector<InstrId>& id_to,
                                      const std::vector<CompId>& external_to) {
  Module::Builder& to = *builder_;
  Module::Builder& from = *half.builder_;
  const std::vector<Instruction>& half_instrs = from.instructions();
  std::vector<ShapeId> shape_to;
  std::vector<uint32_t> key_to;
  MergeShapesAndKeys(half, &shape_to, &key_to);
  const uint32_t comp_base = static_cast<uint32_t>(to.computations().size());
  const uint32_t order_base = static_cast<uint32_t>(to.order().size());
  const uint32_t attr_base = static_cast<uint32_t>(to.attributes().size());
  // The fragment's computation 0 is the one continued; its others (inline
  // computations of the continuation) follow this module's.
  auto comp_to = [&](CompId c) {
    return c >= kNotKnownYet ? external_to[c - kNotKnownYet]
           : c == 0          ? computation
                             : c - 1 + comp_base;
  };
  auto& comps = to.computations();
  auto mapped = [&](InstrId id) { return id_to[id]; };
  // The lists first: a computation's list written out lands after them.
  auto& order = to.order();
  for (InstrId f : from.order()) order.push_back(id_to[f]);
  for (size_t c = 1; c < from.computations().size(); ++c) {
    AppendComputation(comps, from.computations()[c], mapped, shape_to, order_base, order);
  }
  to.AdoptLists(*half.module_);

  auto& ids = to.ids();
  const uint32_t ids_base = static_cast<uint32_t>(ids.size());
  ids.insert(ids.end(), from.ids().begin(), from.ids().end());  // a stub's block is empty
  uint32_t* const merged_ids = ids.data() + ids_base;
  for (InstrId f = 0; f < half_instrs.size(); ++f) {
    const Instruction& source = half_instrs[f];
    if (half.names_.InstructionNotKnownYet(f)) {
      to.AddUses(id_to[f], source.user_count);
      continue;
    }
    Instruction& in = to.instructions().emplace_back(source);
    to.name_hashes().push_back(from.name_hashes()[f]);
    uint32_t* list = merged_ids + in.operands_begin;
    in.operands_begin += ids_base;
    in.attrs_begin += attr_base;
    RenumberMerged(in, list, 0, mapped, comp_to, comps, shape_to, kNotKnownYet);
  }
  for (const auto& [index, offset] : from.apart_attribute_names()) {
    to.apart_attribute_names().emplace_back(index + attr_base, offset);
  }
  auto& attributes = to.attributes();
  const size_t attr_first = attributes.size();
  attributes.insert(attributes.end(), from.attributes().begin(), from.attributes().end());
  for (Attribute& a : std::span(attributes.data() + attr_first, from.attributes().size())) {
    if (a.value_key != 0) a.value_key = key_to[a.value_key];
  }
  to.counted_users += from.counted_users;
  for (InstrId used : from.more_uses) to.more_uses.push_back(id_to[used]);
  const CopyingNameTable& names = half.computation_names_;
  for (size_t k = 0; k < names.size(); ++k) {
    computation_names_.Insert(names.name(k), comp_to(names.value(k)));
  }
}

}  // namespace hlolint
