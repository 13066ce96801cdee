// Shardings, device meshes and replica groups: XLA's ParseSharding,
// ParseSingleSharding (HLO and named forms), ParseMesh, ParseAxisRef and
// ParseCollectiveDeviceListBase.
#include "parse/value_parser.h"

#include "util/strings.h"

namespace hlolint {
namespace {

// Product of dims, or -1 on overflow or negative sizes.
int64_t Product(const std::vector<int64_t>& dims) {
  int64_t product = 1;
  for (int64_t d : dims) {
    if (d < 0 || (d != 0 && product > INT64_MAX / d)) return -1;
    product *= d;
  }
  return product;
}

}  // namespace

std::string ValueParser::MeshAxes::ToString() const {
  if (maximal) return "maximal_mesh";
  std::string out = "mesh[";
  const std::string_view quote = quoted ? "'" : "";
  for (size_t i = 0; i < names.size(); ++i) {
    out += StrCat(i ? "," : "", quote, names[i], quote, "=", sizes[i]);
  }
  return out + "]";
}

bool ValueParser::ParseSharding(Sharding* out) {
  DepthGuard guard(this);
  if (!guard.ok) return false;
  if (!ParseToken(TokKind::kLbrace, "expected '{' to start sharding attribute")) return false;
  // A single sharding's body does not start with '{'; a tuple sharding is a
  // list of braced shardings, possibly empty.
  if (kind() != TokKind::kLbrace && kind() != TokKind::kRbrace) {
    return ParseSingleSharding(true, out);
  }
  if (out != nullptr) {
    *out = Sharding();
    out->kind = Sharding::Kind::kTuple;
  }
  if (kind() != TokKind::kRbrace) {
    do {
      Sharding* element = nullptr;
      if (out != nullptr) element = &out->elements.emplace_back();
      if (!ParseSingleSharding(false, element)) return false;
    } while (EatIfPresent(TokKind::kComma));
  }
  return ParseToken(TokKind::kRbrace, "expected '}' to end sharding attribute");
}

bool ValueParser::ParseIotaTileAssignmentArray(std::vector<int64_t>* reshape,
                                               std::vector<int64_t>* perm) {
  reshape->clear();
  perm->clear();
  const uint32_t offset = lexer_.offset();
  if (!ParseToken(TokKind::kLsquare, "expected '[' to start sharding iota_reshape_dims")) {
    return false;
  }
  do {
    int64_t dim;
    if (!ParseInt64(&dim)) return false;
    reshape->push_back(dim);
  } while (EatIfPresent(TokKind::kComma));
  if (!ParseToken(TokKind::kRsquare, "expected ']' to end sharding iota_reshape_dims")) {
    return false;
  }
  if (reshape->size() == 1) {
    perm->push_back(0);
    return true;
  }
  if (kind() != TokKind::kIdent || tok().text != "T") {
    // The transpose is required with more than one reshape dimension; point
    // at the dimensions rather than at whatever follows them.
    return Error(offset, StrCat("expected 'T(' to start sharding devices iota_transpose_perm "
                                "after the ",
                                reshape->size(), " iota dimensions"));
  }
  Lex();
  if (!ParseToken(TokKind::kLparen, "expected 'T(' to start sharding devices iota_transpose_perm")) {
    return false;
  }
  do {
    const uint32_t dim_offset = lexer_.offset();
    int64_t dim;
    if (!ParseInt64(&dim)) return false;
    if (dim < 0 || dim >= static_cast<int64_t>(reshape->size())) {
      return Error(dim_offset,
                   StrCat("Out of range iota minor_to_major value ", dim,
                          ", expecting value in range [0, ", reshape->size(), ")"));
    }
    perm->push_back(dim);
  } while (EatIfPresent(TokKind::kComma));
  return ParseToken(TokKind::kRparen, "expected ')' to end sharding devices iota_transpose_perm");
}

bool ValueParser::ParseTileAssignment(std::vector<int64_t>* dims, std::vector<int64_t>* devices,
                                      bool allow_devices, std::vector<int64_t>* iota_reshape,
                                      std::vector<int64_t>* iota_perm) {
  dims->clear();
  if (!ParseToken(TokKind::kLsquare, "expected '[' to start sharding devices shape")) return false;
  do {
    int64_t dim;
    if (!ParseInt64(&dim)) return false;
    dims->push_back(dim);
  } while (EatIfPresent(TokKind::kComma));
  if (!ParseToken(TokKind::kRsquare, "expected ']' to end sharding devices shape")) return false;
  if (EatIfPresent(TokKind::kLeq)) return ParseIotaTileAssignmentArray(iota_reshape, iota_perm);
  if (!allow_devices) {
    return TokenError(
        "Caller expected iota tile assignment when parsing, which should not have any manual "
        "device entries.");
  }
  do {
    int64_t device;
    if (!ParseInt64(&device)) return false;
    devices->push_back(device);
  } while (EatIfPresent(TokKind::kComma));
  return true;
}

// `{maximal, manual, ...}` after `last_tile_dims=`: the sharding types of
// the last tile dimensions.
bool ValueParser::ParseLastTileDims(Sharding* out) {
  if (!ParseToken(TokKind::kLbrace, "expected '{' to start sharding type list")) return false;
  if (out != nullptr) out->last_tile_dims.clear();
  if (kind() != TokKind::kRbrace) {
    do {
      switch (kind()) {
        case TokKind::kw_maximal: case TokKind::kw_replicated:
        case TokKind::kw_manual: case TokKind::kw_unreduced:
          if (out != nullptr) out->last_tile_dims.emplace_back(lexer_.TokenText());
          Lex();
          break;
        default:
          return TokenError("expects a sharding type (maximal, replicated, manual or "
                            "unreduced)");
      }
    } while (EatIfPresent(TokKind::kComma));
  }
  return ParseToken(TokKind::kRbrace, "expected '}' to end sharding type list");
}

// A tiled sharding's tile assignment (sharding_tile_dims_, and the iota
// dimensions or the devices) against its devices, and its subgroup types
// spelled once (`both_subgroup_forms`: last_tile_dim_replicate and
// last_tile_dims, the latter at last_tile_dims_offset).
bool ValueParser::CheckTileAssignment(uint32_t offset, uint32_t devices_offset,
                                      bool both_subgroup_forms, uint32_t last_tile_dims_offset) {
  const std::vector<int64_t>& devices = sharding_devices_;
  const std::vector<int64_t>& tile_dims = sharding_tile_dims_;
  const std::vector<int64_t>& iota_reshape = sharding_iota_reshape_;
  const std::vector<int64_t>& iota_perm = sharding_iota_perm_;
  if (tile_dims.empty()) {
    return Error(offset,
                 "non-maximal shardings must have a tile assignment list including dimensions");
  }
  if (iota_perm.size() != iota_reshape.size()) {
    return Error(devices_offset, StrCat("iota_transpose_perm should have the same rank as "
                                        "iota_reshape_dims : expected ",
                                        iota_reshape.size(), ", saw ", iota_perm.size(), "."));
  }
  if (both_subgroup_forms) {
    // XLA CHECK-fails: both spell the subgroup types.
    return Error(last_tile_dims_offset,
                 "last_tile_dim_replicate and last_tile_dims cannot both be given");
  }
  const int64_t tiles = Product(tile_dims);
  if (!iota_reshape.empty()) {
    if (tiles != Product(iota_reshape)) {
      return Error(devices_offset, StrCat("iota tile assignment size ", Product(iota_reshape),
                                          " does not match the tile assignment dimensions "
                                          "product ",
                                          tiles));
    }
  } else {
    if (devices.size() <= 1) {
      return Error(devices_offset,
                   "non-maximal shardings must have more than one device assigned");
    }
    if (tiles != static_cast<int64_t>(devices.size())) {
      return Error(devices_offset, StrCat("sharding device count ", devices.size(),
                                          " does not match the tile assignment size ", tiles));
    }
  }
  return true;
}

bool ValueParser::ParseSingleSharding(bool lbrace_pre_lexed, Sharding* out) {
  if (!lbrace_pre_lexed &&
      !ParseToken(TokKind::kLbrace, "expected '{' to start sharding attribute")) {
    return false;
  }
  if (kind() == TokKind::kIdent && (tok().text == "mesh" || tok().text == "maximal_mesh")) {
    return ParseNamedSharding(out);
  }
  int metadata_count = 0;
  std::optional<int64_t> shard_as, shard_like;
  const uint32_t offset = lexer_.offset();
  bool maximal = false, replicated = false, manual = false, unknown = false, unreduced = false;
  bool last_tile_dim_replicate = false, last_tile_dims = false;
  uint32_t last_tile_dims_offset = 0;
  // Member scratch: shardings are on most instructions of SPMD dumps.
  std::vector<int64_t>& devices = sharding_devices_;
  std::vector<int64_t>& tile_dims = sharding_tile_dims_;
  std::vector<int64_t>& iota_reshape = sharding_iota_reshape_;
  std::vector<int64_t>& iota_perm = sharding_iota_perm_;
  devices.clear();
  tile_dims.clear();
  iota_reshape.clear();
  iota_perm.clear();
  uint32_t devices_offset = offset;
  while (kind() != TokKind::kRbrace) {
    switch (kind()) {
      case TokKind::kw_maximal: maximal = true; Lex(); break;
      case TokKind::kw_replicated: replicated = true; Lex(); break;
      case TokKind::kw_manual: manual = true; Lex(); break;
      case TokKind::kw_unknown: unknown = true; Lex(); break;
      case TokKind::kw_unreduced: unreduced = true; Lex(); break;
      case TokKind::kw_last_tile_dim_replicate: last_tile_dim_replicate = true; Lex(); break;
      case TokKind::kw_shard_as:
      case TokKind::kw_shard_like: {
        const bool as = kind() == TokKind::kw_shard_as;
        Lex();
        int64_t group;
        if (!ParseInt64(&group)) return false;
        (as ? shard_as : shard_like) = group;
        break;
      }
      case TokKind::kAttributeName: {
        std::string_view name = tok().text;
        if (name == "device") {
          devices_offset = lexer_.offset();
          if (Lex() != TokKind::kInt) return TokenError("device= attribute must be an integer");
          devices.assign(1, tok().int_value);
          Lex();
        } else if (name == "devices") {
          devices_offset = lexer_.offset();
          Lex();
          if (!ParseTileAssignment(&tile_dims, &devices, true, &iota_reshape, &iota_perm)) {
            return false;
          }
        } else if (name == "metadata") {
          Lex();
          if (!ParseSingleOrListMetadata(&metadata_count)) return false;
        } else if (name == "last_tile_dims") {
          last_tile_dims = true;
          last_tile_dims_offset = lexer_.offset();
          Lex();
          if (!ParseLastTileDims(out)) return false;
        } else {
          return TokenError(
              "unknown attribute in sharding: expected device=, devices= metadata= or "
              "last_tile_dims= ");
        }
        break;
      }
      case TokKind::kEof:
        return TokenError("expected '}' to end sharding attribute");
      default:
        return TokenError("unexpected token");
    }
  }
  using Kind = Sharding::Kind;
  const Kind kind = replicated ? Kind::kReplicated
                    : maximal  ? Kind::kMaximal
                    : manual   ? Kind::kManual
                    : unknown  ? Kind::kUnknown
                    : unreduced ? Kind::kUnreduced
                                : Kind::kTiled;
  if (!CheckShardingDevices(kind, offset, devices_offset, last_tile_dim_replicate && last_tile_dims,
                            last_tile_dims_offset)) {
    return false;
  }
  Lex();  // '}'
  if (out != nullptr) {
    out->kind = kind;
    out->device = kind == Kind::kMaximal ? devices[0] : -1;
    if (kind == Kind::kTiled) {
      out->tile_dims = tile_dims;
      out->devices = devices;
      out->iota_reshape = iota_reshape;
      out->iota_perm = iota_perm;
    }
    out->last_tile_dim_replicate = last_tile_dim_replicate;
    out->shard_as = shard_as;
    out->shard_like = shard_like;
    out->metadata_count = metadata_count;
  }
  return true;
}

// The devices a sharding of `kind` names: one for a maximal sharding, a
// tile assignment for a tiled one, none for the others.
bool ValueParser::CheckShardingDevices(Sharding::Kind kind, uint32_t offset,
                                       uint32_t devices_offset, bool both_subgroup_forms,
                                       uint32_t last_tile_dims_offset) {
  using Kind = Sharding::Kind;
  const std::vector<int64_t>& devices = sharding_devices_;
  if (kind == Kind::kTiled) {
    return CheckTileAssignment(offset, devices_offset, both_subgroup_forms, last_tile_dims_offset);
  }
  if (kind == Kind::kMaximal) {
    if (devices.size() == 1) return true;
    return Error(devices.empty() ? offset : devices_offset,
                 "maximal shardings should have exactly one device assigned");
  }
  if (devices.empty()) return true;
  const std::string_view what = kind == Kind::kReplicated ? "replicated"
                                : kind == Kind::kManual   ? "manual"
                                : kind == Kind::kUnknown  ? "unknown"
                                                          : "unreduced";
  return Error(devices_offset, StrCat(what, " shardings should not have any devices assigned"));
}

bool ValueParser::ParseMesh(MeshAxes* mesh, MeshAxisNames names, bool named_sharding) {
  mesh->names.clear();
  mesh->sizes.clear();
  mesh->maximal = tok().text == "maximal_mesh";
  mesh->named_sharding = named_sharding;
  mesh->quoted = names == MeshAxisNames::kQuoted;
  Lex();
  if (mesh->maximal) {
    if (!ParseToken(TokKind::kLsquare, "expected '[' after maximal_mesh")) return false;
    if (kind() != TokKind::kAttributeName || tok().text != "device_id") {
      return TokenError("expected device_id= attribute in maximal_mesh");
    }
    Lex();
    int64_t device;
    return ParseInt64(&device) && ParseToken(TokKind::kRsquare, "expected ']' to end maximal_mesh");
  }
  if (!ParseToken(TokKind::kLsquare, "expected '[' after mesh")) return false;
  // Text validated already is read in the form it has.
  if (any_xla_syntax_) mesh->quoted = kind() != TokKind::kAttributeName;
  if (kind() != TokKind::kRsquare) {
    while (true) {
      std::string_view name;
      int64_t size;
      if (!ParseMeshAxisName(*mesh, true, &name) ||
          (mesh->quoted && !ParseToken(TokKind::kEqual, "expects '=' after axis name")) ||
          !ParseInt64(&size)) {
        return false;
      }
      mesh->names.push_back(name);
      mesh->sizes.push_back(size);
      if (!EatIfPresent(TokKind::kComma)) break;
    }
  }
  if (!ParseToken(TokKind::kRsquare, "expected ']' to end mesh axes")) return false;
  if (mesh->names.empty()) return true;
  // `, device_ids=(...)` is recognised by looking at the raw text after the
  // comma, as XLA does, so that `, unreduced=...` stays for the caller.
  if (kind() != TokKind::kComma) return true;
  const char* p = lexer_.buffer() + lexer_.position();
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') ++p;
  if (std::string_view(p, 10) != "device_ids" ||
      !(p[10] == '=' || p[10] == ' ' || p[10] == '\t' || p[10] == '\0')) {
    return true;
  }
  Lex();  // ','
  if (kind() != TokKind::kAttributeName || tok().text != "device_ids") {
    return TokenError("expects 'device_ids=' after the mesh axes");
  }
  Lex();
  if (!ParseToken(TokKind::kLparen, "expected '(' for device_ids")) return false;
  const uint32_t list_offset = lexer_.offset();
  const int64_t mesh_size = Product(mesh->sizes);
  if (kind() == TokKind::kLsquare) {
    std::vector<int64_t> reshape, perm;
    if (!ParseIotaTileAssignmentArray(&reshape, &perm)) return false;
    // XLA's newer check; a mismatch builds an inconsistent device array.
    if (Product(reshape) != mesh_size) {
      return Error(list_offset, StrCat("mesh device_ids iota size ", Product(reshape),
                                       " does not match the product of the mesh axis sizes ",
                                       mesh_size));
    }
    return ParseToken(TokKind::kRparen, "expected ')' to end device_ids");
  }
  int64_t count = 0;
  if (kind() != TokKind::kRparen) {
    do {
      int64_t device;
      if (!ParseInt64(&device)) return false;
      ++count;
    } while (EatIfPresent(TokKind::kComma));
  }
  if (!ParseToken(TokKind::kRparen, "expected ')' to end device_ids")) return false;
  if (mesh_size < 0) return Error(list_offset, "mesh size overflows int64");
  if (count != mesh_size) {
    return Error(list_offset, StrCat("Expected ", mesh_size,
                                     " device_ids based on mesh axes, but got ", count));
  }
  return true;
}

bool ValueParser::ParseMeshAxisName(const MeshAxes& mesh, bool declaration,
                                    std::string_view* name) {
  // The mesh's own names in the form the XLA read for rejects but another
  // accepted: say which. (An axis reference in the other form than its
  // mesh's names no XLA accepts.)
  const bool other_form = mesh.named_sharding && declaration &&
                          kind() == (mesh.quoted ? TokKind::kAttributeName : TokKind::kString);
  if (mesh.quoted) {
    if (other_form) return TokenError(StrCat("expects string ", MeshAxisNamesNote(false)));
    return ParseString(name);
  }
  // XLA's ParseAttributeName and ParseName.
  if (declaration ? kind() == TokKind::kAttributeName
                  : kind() == TokKind::kIdent || kind() == TokKind::kName) {
    *name = tok().text;
    Lex();
    return true;
  }
  const std::string_view expected = declaration ? "expects attribute name" : "expects name";
  if (other_form) return TokenError(StrCat(expected, " ", MeshAxisNamesNote(true)));
  return TokenError(std::string(expected));
}

bool ValueParser::ParseAxisRef(const MeshAxes& mesh, int64_t* size) {
  const uint32_t offset = lexer_.offset();
  std::string_view name;
  if (!ParseMeshAxisName(mesh, false, &name)) return false;
  int64_t index = -1;
  for (size_t i = 0; i < mesh.names.size(); ++i) {
    if (mesh.names[i] == name) {
      index = static_cast<int64_t>(i);
      break;
    }
  }
  if (index < 0) {
    // The printer writes axes by index when the mesh had no names.
    if (!ParseIntText(name, &index)) {
      return Error(offset, StrCat("axis '", name, "' is not a valid axis name or index in mesh ",
                                  mesh.ToString()));
    }
    if (index < 0 || index >= static_cast<int64_t>(mesh.names.size())) {
      return Error(offset, StrCat("axis index ", index, " is out of bounds for mesh ",
                                  mesh.ToString(), " which has ", mesh.names.size(), " axes"));
    }
  }
  *size = mesh.sizes[static_cast<size_t>(index)];
  // Unquoted, `name:` is one token (the ':' taken with the name) and XLA
  // looked for the '(' only.
  if (mesh.quoted ? !EatIfPresent(TokKind::kColon) : kind() != TokKind::kLparen) return true;
  int64_t pre_size;
  return ParseToken(TokKind::kLparen, "expected '(' before pre_size in sub axis") &&
         ParseInt64(&pre_size) &&
         ParseToken(TokKind::kRparen, "expected ')' after pre_size in sub axis") &&
         ParseInt64(size);
}

bool ValueParser::ParseAxisRefList(const MeshAxes& mesh, int64_t* product) {
  *product = 1;
  if (!ParseToken(TokKind::kLbrace, "expects a list starting with '{'")) return false;
  if (kind() != TokKind::kRbrace) {
    do {
      int64_t size;
      if (!ParseAxisRef(mesh, &size)) return false;
      *product *= size;
    } while (EatIfPresent(TokKind::kComma));
  }
  return ParseToken(TokKind::kRbrace, "expects a list to end with '}'");
}

bool ValueParser::ParseNamedSharding(Sharding* out) {
  const MeshAxisNames names = NamedShardingAxisNames();
  if (names == MeshAxisNames::kNone) {
    // XLA's HLO sharding parser met a word it does not know.
    return TokenError(StrCat("unexpected token ", NoNamedShardingNote()));
  }
  MeshAxes mesh;
  if (!ParseMesh(&mesh, names, true)) return false;
  int metadata_count = 0;
  if (out != nullptr) {
    *out = Sharding();
    out->kind = Sharding::Kind::kNamed;
    for (std::string_view name : mesh.names) out->mesh_axes.emplace_back(name);
    out->mesh_sizes = mesh.sizes;
  }
  int64_t unused;
  auto parse_metadata_if_present = [&] {
    if (!EatIfPresent(TokKind::kComma)) return true;
    if (kind() != TokKind::kAttributeName || tok().text != "metadata") {
      return TokenError("expects metadata=");
    }
    Lex();
    return ParseSingleOrListMetadata(&metadata_count);
  };
  auto end = [&] {
    if (!parse_metadata_if_present()) return false;
    if (out != nullptr) out->metadata_count = metadata_count;
    return ParseToken(TokKind::kRbrace, "expected '}' to end sharding attribute");
  };
  auto parse_reduction_op = [&] {
    if ((kind() != TokKind::kIdent && kind() != TokKind::kAttributeName) ||
        (tok().text != "sum" && tok().text != "max" && tok().text != "min")) {
      return TokenError("expected sum, max, or min for unreduced op");
    }
    Lex();
    return true;
  };
  if (mesh.maximal) return end();
  EatIfPresent(TokKind::kComma);
  if (EatIfPresent(TokKind::kw_replicated) || EatIfPresent(TokKind::kw_manual)) return end();
  bool unreduced = false, has_op = false;
  if (kind() == TokKind::kAttributeName && tok().text == "unreduced") {
    unreduced = has_op = true;
    Lex();
  } else if (EatIfPresent(TokKind::kw_unreduced)) {
    unreduced = true;
    has_op = EatIfPresent(TokKind::kEqual);
  }
  if (unreduced) {
    if (has_op && !parse_reduction_op()) return false;
    if (kind() == TokKind::kLbrace && !ParseAxisRefList(mesh, &unused)) return false;
    return end();
  }
  // [{axes...}, {axes..., ?}, ...]
  if (!ParseToken(TokKind::kLsquare, "expects a list starting with '['")) return false;
  if (kind() != TokKind::kRsquare) {
    do {
      if (!ParseToken(TokKind::kLbrace, "expects a list starting with '{'")) return false;
      bool open = false;
      if (kind() != TokKind::kRbrace) {
        do {
          if (open) return TokenError("Saw axis ref after '?'");
          if (EatIfPresent(TokKind::kQuestionMark)) {
            open = true;
            continue;
          }
          if (!ParseAxisRef(mesh, &unused)) return false;
        } while (EatIfPresent(TokKind::kComma));
      }
      if (!ParseToken(TokKind::kRbrace, "expects a list to end with '}'")) return false;
    } while (EatIfPresent(TokKind::kComma));
  }
  if (!ParseToken(TokKind::kRsquare, "expects a list to end with ']'")) return false;
  while (kind() != TokKind::kRbrace) {
    if (!ParseToken(TokKind::kComma, "expected ',' before next attribute")) return false;
    const uint32_t attr_offset = lexer_.offset();
    std::string_view attr;
    if (!ParseAttributeName(&attr)) return false;
    if (attr == "replicated" || attr == "manual") {
      if (!ParseAxisRefList(mesh, &unused)) return false;
    } else if (attr == "unreduced") {
      if ((kind() == TokKind::kIdent || kind() == TokKind::kAttributeName) &&
          !parse_reduction_op()) {
        return false;
      }
      if (!ParseAxisRefList(mesh, &unused)) return false;
    } else if (attr == "metadata") {
      if (!ParseSingleOrListMetadata(&metadata_count)) return false;
    } else {
      return Error(attr_offset,
                   "unknown attribute in named sharding: expected replicated, unreduced, "
                   "manual or metadata");
    }
  }
  if (out != nullptr) out->metadata_count = metadata_count;
  return ParseToken(TokKind::kRbrace, "expected '}' to end sharding attribute");
}

bool ValueParser::ParseReplicaGroups(ReplicaGroups* out, bool expand) {
  out->groups.clear();
  out->expanded = true;
  if (kind() == TokKind::kLbrace) {
    out->form = ReplicaGroups::Form::kList;
    if (!ParseInt64ListList(TokKind::kLbrace, TokKind::kRbrace, TokKind::kComma, &out->groups)) {
      return false;
    }
    out->group_count = static_cast<int64_t>(out->groups.size());
    out->group_size = out->groups.empty() ? 0 : static_cast<int64_t>(out->groups[0].size());
    return true;
  }
  if (kind() == TokKind::kIdent && (tok().text == "mesh" || tok().text == "maximal_mesh")) {
    return ParseMeshReplicaGroups(out);
  }
  out->form = ReplicaGroups::Form::kIota;
  const uint32_t offset = lexer_.offset();
  std::vector<int64_t> dims, devices, reshape, perm;
  if (!ParseTileAssignment(&dims, &devices, false, &reshape, &perm)) return false;
  if (dims.size() != 2) {
    return Error(offset, StrCat("expected an iota replica group list [groups,size]<=[...], "
                                "but the tile assignment has ",
                                dims.size(), " dimensions"));
  }
  if (Product(dims) != Product(reshape)) {
    return Error(offset, StrCat("collective device list iota size ", Product(reshape),
                                " does not match the tile assignment dimensions product ",
                                Product(dims)));
  }
  out->group_count = dims[0];
  out->group_size = dims[1];
  // Expand small lists: device ids are the iota over `reshape`, transposed by
  // `perm`, then cut into rows of group_size.
  const int64_t total = Product(dims);
  if (!expand || total < 0 || total > (1 << 20) || dims[1] == 0) {
    out->expanded = false;
    return true;
  }
  std::vector<int64_t> strides(reshape.size(), 1);
  for (int i = static_cast<int>(reshape.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * reshape[i + 1];
  }
  std::vector<int64_t> transposed_dims;
  for (int64_t p : perm) transposed_dims.push_back(reshape[p]);
  std::vector<int64_t> index(perm.size(), 0);
  out->groups.assign(static_cast<size_t>(dims[0]), {});
  for (int64_t linear = 0; linear < total; ++linear) {
    int64_t device = 0;
    for (size_t k = 0; k < perm.size(); ++k) device += index[k] * strides[perm[k]];
    out->groups[static_cast<size_t>(linear / dims[1])].push_back(device);
    for (int k = static_cast<int>(index.size()) - 1; k >= 0; --k) {
      if (++index[k] < transposed_dims[k]) break;
      index[k] = 0;
    }
  }
  return true;
}

bool ValueParser::ParseMeshReplicaGroups(ReplicaGroups* out) {
  // mesh['a'=2,'b'=2] {'a'}: one group per combination of the other axes,
  // holding the devices along the listed axes.
  out->form = ReplicaGroups::Form::kMesh;
  out->expanded = false;
  MeshAxes mesh;
  int64_t group_size;
  if (!ParseMesh(&mesh, MeshAxisNames::kQuoted, false) ||
      !ParseAxisRefList(mesh, &group_size)) {
    return false;
  }
  const int64_t total = Product(mesh.sizes);
  out->group_size = group_size;
  out->group_count = group_size > 0 && total >= 0 ? total / group_size : 0;
  return true;
}

}  // namespace hlolint
