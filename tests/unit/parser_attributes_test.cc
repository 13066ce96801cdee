// Attribute values: every value grammar of XLA's ParseAttributeHelper, read
// back through the typed accessors of parse/attributes.h.
#include <catch2/catch.hpp>

#include "parse_helpers.h"

namespace hlolint::parse_testing {
namespace {

constexpr std::string_view kAdd =
    "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n";

// A module whose entry has parameters a (f32[4]), m (f32[4,4]) and c
// (f32[1,4,1]), then `line` (line 11 of the text).
std::string WithLine(const std::string& line) {
  return "HloModule m\n" + std::string(kAdd) +
         "ENTRY e {\n  a = f32[4] parameter(0)\n  m = f32[4,4] parameter(1)\n"
         "  c = f32[1,4,1] parameter(2)\n" + line + "\n}\n";
}

TEST_CASE("attributes: windows") {
  Parsed p = Parse(WithLine(
      "  ROOT r = f32[4] reduce-window(a, a), to_apply=add, "
      "window={size=3 stride=2 pad=1_1 lhs_dilate=1 rhs_dilate=2 rhs_reversal=1}"));
  const auto window = WindowAttr(p.m(), p.Id("r"));
  REQUIRE(window);
  REQUIRE(window->size() == 1);
  const WindowDimension& d = (*window)[0];
  CHECK(d.size == 3);
  CHECK(d.stride == 2);
  CHECK(d.padding_low == 1);
  CHECK(d.padding_high == 1);
  CHECK(d.base_dilation == 1);
  CHECK(d.window_dilation == 2);
  CHECK(d.window_reversal);
  Parsed two = Parse(WithLine(
      "  ROOT r = f32[1,4,1] convolution(c, c), window={pad=0_-1x2_3 size=2x3}, "
      "dim_labels=b01_io01->b01"));
  const auto w2 = WindowAttr(two.m(), two.Id("r"));
  REQUIRE(w2->size() == 2);
  CHECK((*w2)[0].size == 2);
  CHECK((*w2)[1].size == 3);
  CHECK((*w2)[0].padding_high == -1);
  CHECK((*w2)[1].padding_low == 2);
  CHECK((*w2)[1].stride == 1);  // defaults
  CHECK_FALSE((*w2)[1].window_reversal);
  Parsed empty = Parse(WithLine("  ROOT r = f32[4] reduce-window(a, a), to_apply=add, window={}"));
  CHECK(WindowAttr(empty.m(), empty.Id("r"))->empty());
  CHECK_FALSE(WindowAttr(empty.m(), empty.Id("a")));
}

TEST_CASE("attributes: window errors") {
  const std::string head = "  ROOT r = f32[4] reduce-window(a, a), to_apply=add, window=";
  // `window={` starts at column 61.
  CHECK_PARSE_ERROR(WithLine(head + "{size=2x2 stride=1}"), "11:71",
                    "expects 'stride=' has the same size as 'size='");
  CHECK_PARSE_ERROR(WithLine(head + "{size=2 pad=0_0x1_1}"), "11:69",
                    "expects 'pad=' has the same size as 'size='");
  CHECK_PARSE_ERROR(WithLine(head + "{size=1 rhs_reversal=1x1}"), "11:69",
                    "expects 'rhs_reversal=' has the same size as 'size='");
  CHECK_PARSE_ERROR(WithLine(head + "{size=2 size=2}"), "11:69", "sub-attribute 'size=' already exists");
  CHECK_PARSE_ERROR(WithLine(head + "{size=2 pad=1}"), "11:73",
                    "expects window pad pattern, e.g., '0_0x3_3'");
  CHECK_PARSE_ERROR(WithLine(head + "{size=2 pad=1_1_0}"), "11:73",
                    "expects padding_low and padding_high separated by '_'");
  CHECK_PARSE_ERROR(WithLine(head + "{size=2, stride=1}"), "11:68", "expects sub-attributes in window");
  CHECK_PARSE_ERROR(WithLine(head + "{size=2 step=1}"), "11:69", "unexpected attribute name: step");
  CHECK_PARSE_ERROR(WithLine(head + "{size=abc}"), "11:67", "expects token type kInt or kDxD");
}

TEST_CASE("attributes: dim_labels") {
  Parsed p = Parse(WithLine("  ROOT r = f32[1,4,1] convolution(c, c), window={size=1}, "
                          "dim_labels=f0b_i0o->0bf, feature_group_count=1"));
  const auto d = DimLabelsAttr(p.m(), p.Id("r"));
  REQUIRE(d);
  CHECK(d->input_feature == 0);
  CHECK(d->input_batch == 2);
  CHECK(d->input_spatial == std::vector<int64_t>{1});
  CHECK(d->kernel_input_feature == 0);
  CHECK(d->kernel_output_feature == 2);
  CHECK(d->kernel_spatial == std::vector<int64_t>{1});
  CHECK(d->output_batch == 1);
  CHECK(d->output_feature == 2);
  CHECK(d->output_spatial == std::vector<int64_t>{0});
  Parsed q = Parse(WithLine("  ROOT r = f32[1,4,1] convolution(c, c), dim_labels=?" "?_?" "?->?" "?"));
  CHECK(DimLabelsAttr(q.m(), q.Id("r"))->input_spatial.empty());
  // The labels token starts at column 53.
  const std::string head = "  ROOT r = f32[1,4,1] convolution(c, c), dim_labels=";
  CHECK_PARSE_ERROR(WithLine(head + "bb0_0io->b0f"), "11:53",
                    "expects unique lhs dimension numbers, but sees bb0");
  CHECK_PARSE_ERROR(WithLine(head + "b0f_00o->b0f"), "11:53",
                    "expects unique rhs dimension numbers, but sees 00o");
  CHECK_PARSE_ERROR(WithLine(head + "b1f_0io->b0f"), "11:53", "expects [0-0bf?] in lhs dimension numbers");
  CHECK_PARSE_ERROR(WithLine(head + "b0f_0io->b01f"), "11:53",
                    "input, kernel, and output must have same number of spatial dimensions, but "
                    "got 1, 1, 2, respectively.");
  CHECK_PARSE_ERROR(WithLine(head + "b0f"), "11:53", "expects dim labels pattern, e.g., 'bf0_0io->0bf'");
  CHECK_PARSE_ERROR(WithLine("  ROOT r = f32[1,4,1] convolution(c, c), window={size=1}"), "11:23",
                    "attribute dim_labels is expected but not seen");
}

TEST_CASE("attributes: slices, padding and integer lists") {
  Parsed p = Parse(WithLine(
      "  sl = f32[2] slice(a), slice={[0:4:2]}\n"
      "  sl2 = f32[2,1] slice(m), slice={[1:3], [-1:0:1]}\n"
      "  sl3 = f32[2,3] slice(m), slice={[0:2],  [1:4]}\n"
      "  sl4 = f32[2,3] slice(m), slice={ [0:2], [1:4] }\n"
      "  pd = f32[7] pad(a, a), padding=1_2_0\n"
      "  pd2 = f32[5,5] pad(m, a), padding=0_1x-1_0_1\n"
      "  ROOT d = f32[4] dot(m, a), lhs_contracting_dims={1}, rhs_contracting_dims={0}, "
      "lhs_batch_dims={}, rhs_batch_dims={}"));
  const Module& m = p.m();
  const auto s = SliceAttr(m, p.Id("sl"));
  REQUIRE(s);
  CHECK(s->starts == std::vector<int64_t>{0});
  CHECK(s->limits == std::vector<int64_t>{4});
  CHECK(s->strides == std::vector<int64_t>{2});
  const auto s2 = SliceAttr(m, p.Id("sl2"));
  CHECK(s2->starts == std::vector<int64_t>{1, -1});
  CHECK(s2->limits == std::vector<int64_t>{3, 0});
  CHECK(s2->strides == std::vector<int64_t>{1, 1});
  // Read from the bytes (two blanks after a comma are fine) and by the
  // grammar (a blank after '{'): the same ranges.
  for (const char* name : {"sl3", "sl4"}) {
    const auto s3 = SliceAttr(m, p.Id(name));
    REQUIRE(s3);
    CHECK(s3->starts == std::vector<int64_t>{0, 1});
    CHECK(s3->limits == std::vector<int64_t>{2, 4});
    CHECK(s3->strides == std::vector<int64_t>{1, 1});
  }
  const auto pd = PaddingAttr(m, p.Id("pd"));
  REQUIRE(pd->size() == 1);
  CHECK((*pd)[0].low == 1);
  CHECK((*pd)[0].high == 2);
  const auto pd2 = PaddingAttr(m, p.Id("pd2"));
  REQUIRE(pd2->size() == 2);
  CHECK((*pd2)[1].low == -1);
  CHECK((*pd2)[1].interior == 1);
  CHECK(IntListAttr(m, p.Id("d"), AttrName::kLhsContractingDims) == std::vector<int64_t>{1});
  CHECK(IntListAttr(m, p.Id("d"), AttrName::kLhsBatchDims) == std::vector<int64_t>{});
  CHECK_FALSE(IntListAttr(m, p.Id("d"), AttrName::kDimensions));
  CHECK_PARSE_ERROR(WithLine("  ROOT s = f32[2] slice(a), slice={[0:4:2:1]}"), "11:36",
                    "expects [start:limit:step] or [start:limit], but sees 4 elements.");
  CHECK_PARSE_ERROR(WithLine("  ROOT s = f32[2] pad(a, a), padding=1"), "11:38",
                    "expects padding config, e.g., '0_0_0x3_3_1'");
  CHECK_PARSE_ERROR(WithLine("  ROOT s = f32[4] reverse(a), dimensions={0.5}"), "11:44",
                    "expects a list to end with '}'");
  CHECK_PARSE_ERROR(WithLine("  ROOT s = f32[4] reverse(a), dimensions={0,}"), "11:45", "expects integer");
}

TEST_CASE("attributes: gather and scatter dimension numbers") {
  Parsed p = Parse(WithLine(
      "  i = s32[2,1] parameter(3)\n"
      "  g = f32[2,4] gather(m, i), offset_dims={1}, collapsed_slice_dims={0}, "
      "start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}, operand_batching_dims={}, "
      "start_indices_batching_dims={}\n"
      "  ROOT sc = f32[4,4] scatter(m, i, g), update_window_dims={1}, inserted_window_dims={0}, "
      "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add, "
      "indices_are_sorted=true"));
  const Module& m = p.m();
  CHECK(IntListAttr(m, p.Id("g"), AttrName::kSliceSizes) == std::vector<int64_t>{1, 4});
  CHECK(IntAttr(m, p.Id("g"), AttrName::kIndexVectorDim) == 1);
  CHECK(IntListAttr(m, p.Id("sc"), AttrName::kScatterDimsToOperandDims) ==
        std::vector<int64_t>{0});
  CHECK(BoolAttr(m, p.Id("sc"), AttrName::kIndicesAreSorted) == true);
  CHECK_FALSE(BoolAttr(m, p.Id("sc"), AttrName::kUniqueIndices));
}

TEST_CASE("attributes: replica groups in list, iota and mesh forms") {
  Parsed p = Parse(WithLine(
      "  l = f32[4] all-reduce(a), to_apply=add, replica_groups={{0,2},{1,3}}\n"
      "  e = f32[4] all-reduce(l), to_apply=add, replica_groups={}\n"
      "  i = f32[4] all-reduce(e), to_apply=add, replica_groups=[2,2]<=[4]\n"
      "  t = f32[4] all-reduce(i), to_apply=add, replica_groups=[2,2]<=[2,2]T(1,0)\n"
      "  ms = f32[4] all-reduce(t), to_apply=add, replica_groups=mesh['x'=2,'y'=2] {'y'}\n"
      "  md = f32[4] all-reduce(ms), to_apply=add, "
      "replica_groups=mesh['x'=2,'y'=4], device_ids=(0,1,2,3,4,5,6,7) {'1':(1)2}\n"
      "  ROOT mi = f32[4] all-reduce(md), to_apply=add, "
      "replica_groups=mesh['x'=2,'y'=2], device_ids=([2,2]T(1,0)) {'x', 'y'}"));
  const Module& m = p.m();
  const auto l = ReplicaGroupsAttr(m, p.Id("l"));
  CHECK(l->form == ReplicaGroups::Form::kList);
  CHECK(l->groups == std::vector<std::vector<int64_t>>{{0, 2}, {1, 3}});
  CHECK(l->group_count == 2);
  CHECK(l->group_size == 2);
  CHECK(ReplicaGroupsAttr(m, p.Id("e"))->groups.empty());
  const auto i = ReplicaGroupsAttr(m, p.Id("i"));
  CHECK(i->form == ReplicaGroups::Form::kIota);
  CHECK(i->groups == std::vector<std::vector<int64_t>>{{0, 1}, {2, 3}});
  const auto t = ReplicaGroupsAttr(m, p.Id("t"));
  CHECK(t->groups == std::vector<std::vector<int64_t>>{{0, 2}, {1, 3}});
  const auto ms = ReplicaGroupsAttr(m, p.Id("ms"));
  CHECK(ms->form == ReplicaGroups::Form::kMesh);
  CHECK(ms->group_size == 2);
  CHECK(ms->group_count == 2);
  const auto md = ReplicaGroupsAttr(m, p.Id("md"));
  CHECK(md->group_size == 2);  // the sub-axis (1)2 of axis 1
  CHECK(md->group_count == 4);
  CHECK(ReplicaGroupsAttr(m, p.Id("mi"))->group_size == 4);
}

TEST_CASE("attributes: replica group errors") {
  const std::string head = "  ROOT r = f32[4] all-reduce(a), to_apply=add, replica_groups=";
  // The value starts at column 63.
  CHECK_PARSE_ERROR(WithLine(head + "[2,2]<=[8]"), "11:63",
                    "collective device list iota size 8 does not match the tile assignment "
                    "dimensions product 4");
  CHECK_PARSE_ERROR(WithLine(head + "[4]<=[4]"), "11:63",
                    "expected an iota replica group list [groups,size]<=[...]");
  CHECK_PARSE_ERROR(WithLine(head + "[2,2]<=[2,2]T(2,0)"), "11:77",
                    "Out of range iota minor_to_major value 2, expecting value in range [0, 2)");
  CHECK_PARSE_ERROR(WithLine(head + "[2,2]<=[2,2]"), "11:70",
                    "expected 'T(' to start sharding devices iota_transpose_perm after the 2 iota dimensions");
  CHECK_PARSE_ERROR(WithLine(head + "[2,2]0,1,2,3"), "11:68",
                    "Caller expected iota tile assignment when parsing");
  CHECK_PARSE_ERROR(WithLine(head + "mesh['x'=2,'y'=2] {'z'}"), "11:82",
                    "axis 'z' is not a valid axis name or index in mesh mesh['x'=2,'y'=2]");
  CHECK_PARSE_ERROR(WithLine(head + "mesh['x'=2,'y'=2] {'5'}"), "11:82",
                    "axis index 5 is out of bounds for mesh mesh['x'=2,'y'=2] which has 2 axes");
  CHECK_PARSE_ERROR(WithLine(head + "mesh['x'=2,'y'=2], device_ids=(0,1,2) {'x'}"), "11:94",
                    "Expected 4 device_ids based on mesh axes, but got 3");
  // device_ids must follow the closing bracket.
  CHECK_PARSE_ERROR(WithLine(head + "mesh['x'=2,'y'=2, device_ids=(0,1,2,3)] {'x'}"), "11:81",
                    "expects string");
  CHECK_PARSE_ERROR(WithLine(head + "mesh[x=2] {'x'}"), "11:68", "expects string");
}

TEST_CASE("attributes: shardings") {
  Parsed p = Parse(WithLine(
      "  r1 = f32[4] negate(a), sharding={replicated}\n"
      "  r2 = f32[4] negate(a), sharding={maximal device=3}\n"
      "  r3 = f32[4] negate(a), sharding={manual}\n"
      "  r4 = f32[4] negate(a), sharding={unknown shard_as 2}\n"
      "  r5 = f32[4] negate(a), sharding={unreduced}\n"
      "  t1 = f32[4,4] negate(m), sharding={devices=[2,2]0,2,1,3 shard_like 1}\n"
      "  t2 = f32[4,4] negate(m), sharding={devices=[2,2,2]<=[2,4]T(1,0) last_tile_dim_replicate}\n"
      "  t3 = f32[4,4] negate(m), sharding={devices=[2,1,2]<=[4] last_tile_dims={manual} "
      "metadata={op_name=\"x\"}}\n"
      "  t4 = f32[4,4] negate(m), sharding={devices=[4,1]0,1,2,3 metadata={{op_name=\"a\"}, "
      "{op_type=\"b\"}}}\n"
      "  tu = (f32[4], f32[4]) tuple(a, a), sharding={{replicated}, /*index=1*/ {maximal device=0}}\n"
      "  te = () tuple(), sharding={}\n"
      "  n1 = f32[4,4] negate(m), sharding={mesh['x'=2,'y'=2], [{'x'}, {'y', ?}], "
      "replicated={}, unreduced=max {}, manual={}, metadata={op_name=\"n\"}}\n"
      "  n2 = f32[4,4] negate(m), sharding={mesh['x'=2], unreduced=sum {'x'}}\n"
      "  n3 = f32[4,4] negate(m), sharding={mesh['a'=4] replicated}\n"
      "  n4 = f32[4,4] negate(m), sharding={maximal_mesh[device_id=5]}\n"
      "  n5 = f32[4,4] negate(m), sharding={mesh['a'=4,'b'=2], device_ids=(0,1,2,3,4,5,6,7) "
      "[{'a':(1)2}, {}]}\n"
      "  ROOT n6 = f32[4,4] negate(m), sharding={mesh[] manual}"));
  const Module& m = p.m();
  using Kind = Sharding::Kind;
  CHECK(ShardingAttr(m, p.Id("r1"))->kind == Kind::kReplicated);
  const auto r2 = ShardingAttr(m, p.Id("r2"));
  CHECK(r2->kind == Kind::kMaximal);
  CHECK(r2->device == 3);
  CHECK(ShardingAttr(m, p.Id("r3"))->kind == Kind::kManual);
  CHECK(ShardingAttr(m, p.Id("r4"))->kind == Kind::kUnknown);
  CHECK(ShardingAttr(m, p.Id("r4"))->shard_as == 2);
  CHECK(ShardingAttr(m, p.Id("r5"))->kind == Kind::kUnreduced);
  const auto t1 = ShardingAttr(m, p.Id("t1"));
  CHECK(t1->kind == Kind::kTiled);
  CHECK(t1->tile_dims == std::vector<int64_t>{2, 2});
  CHECK(t1->devices == std::vector<int64_t>{0, 2, 1, 3});
  CHECK(t1->shard_like == 1);
  const auto t2 = ShardingAttr(m, p.Id("t2"));
  CHECK(t2->iota_reshape == std::vector<int64_t>{2, 4});
  CHECK(t2->iota_perm == std::vector<int64_t>{1, 0});
  CHECK(t2->devices.empty());
  CHECK(t2->last_tile_dim_replicate);
  const auto t3 = ShardingAttr(m, p.Id("t3"));
  CHECK(t3->iota_perm == std::vector<int64_t>{0});
  CHECK(t3->last_tile_dims == std::vector<std::string>{"manual"});
  CHECK(t3->metadata_count == 1);
  CHECK(ShardingAttr(m, p.Id("t4"))->metadata_count == 2);
  const auto tu = ShardingAttr(m, p.Id("tu"));
  CHECK(tu->kind == Kind::kTuple);
  REQUIRE(tu->elements.size() == 2);
  CHECK(tu->elements[1].kind == Kind::kMaximal);
  CHECK(tu->elements[1].device == 0);
  CHECK(ShardingAttr(m, p.Id("te"))->elements.empty());
  const auto n1 = ShardingAttr(m, p.Id("n1"));
  CHECK(n1->kind == Kind::kNamed);
  CHECK(n1->mesh_axes == std::vector<std::string>{"x", "y"});
  CHECK(n1->mesh_sizes == std::vector<int64_t>{2, 2});
  CHECK(n1->metadata_count == 1);
  CHECK(ShardingAttr(m, p.Id("n4"))->kind == Kind::kNamed);
  CHECK_FALSE(ShardingAttr(m, p.Id("a")));
}

TEST_CASE("attributes: sharding errors") {
  const std::string head = "  ROOT r = f32[4,4] negate(m), sharding=";
  // The sharding value starts at column 41.
  CHECK_PARSE_ERROR(WithLine(head + "{devices=[2,2]0,1,2}"), "11:42",
                    "sharding device count 3 does not match the tile assignment size 4");
  CHECK_PARSE_ERROR(WithLine(head + "{devices=[2,2]<=[8]}"), "11:42",
                    "iota tile assignment size 8 does not match the tile assignment dimensions "
                    "product 4");
  CHECK_PARSE_ERROR(WithLine(head + "{devices=[1]0}"), "11:42",
                    "non-maximal shardings must have more than one device assigned");
  CHECK_PARSE_ERROR(WithLine(head + "{maximal}"), "11:42",
                    "maximal shardings should have exactly one device assigned");
  CHECK_PARSE_ERROR(WithLine(head + "{replicated device=1}"), "11:53",
                    "replicated shardings should not have any devices assigned");
  CHECK_PARSE_ERROR(WithLine(head + "{last_tile_dim_replicate}"), "11:42",
                    "non-maximal shardings must have a tile assignment list including dimensions");
  CHECK_PARSE_ERROR(WithLine(head + "{devices=[2,2]<=[4] last_tile_dim_replicate "
                                  "last_tile_dims={manual}}"),
                    "11:85", "last_tile_dim_replicate and last_tile_dims cannot both be given");
  CHECK_PARSE_ERROR(WithLine(head + "{devices=[2,2]0,1,2,3 colour=1}"), "11:63",
                    "unknown attribute in sharding");
  CHECK_PARSE_ERROR(WithLine(head + "{replicated, manual}"), "11:52", "unexpected token");
  CHECK_PARSE_ERROR(WithLine(head + "{device=x}"), "11:49", "device= attribute must be an integer");
  CHECK_PARSE_ERROR(WithLine(head + "{mesh['x'=2], [{?, 'x'}]}"), "11:60", "Saw axis ref after '?'");
  CHECK_PARSE_ERROR(WithLine(head + "{mesh['x'=2], unreduced=avg {'x'}}"), "11:65",
                    "expected sum, max, or min for unreduced op");
  CHECK_PARSE_ERROR(WithLine(head + "{mesh['x'=2], [{'x'}], colour={}}"), "11:64",
                    "unknown attribute in named sharding");
  CHECK_PARSE_ERROR(WithLine(head + "replicated"), "11:41", "expected '{' to start sharding attribute");
}

TEST_CASE("attributes: metadata") {
  Parsed p = Parse(WithLine(
      "  ROOT r = f32[4] negate(a), metadata={op_type=\"Neg\" op_name=\"jit(f)/neg\", "
      "source_file=\"/src/x.py\" source_line=42 source_end_line=43 source_column=1 "
      "source_end_column=9 profile_type={1,2} deduplicated_name=\"d\" scheduling_name=\"s\" "
      "stack_frame_id=7 metadata_payload=\"p\"}"));
  const auto md = Metadata(p.m(), p.Id("r"));
  REQUIRE(md);
  CHECK(md->op_type == "Neg");
  CHECK(md->op_name == "jit(f)/neg");
  CHECK(md->source_file == "/src/x.py");
  CHECK(md->source_line == 42);
  CHECK(md->has_source_line);
  CHECK(md->scheduling_name == "s");
  Parsed empty = Parse(WithLine("  ROOT r = f32[4] negate(a), metadata={}"));
  CHECK_FALSE(Metadata(empty.m(), empty.Id("r"))->has_source_line);
  CHECK_FALSE(Metadata(empty.m(), empty.Id("a")));
  const std::string head = "  ROOT r = f32[4] negate(a), metadata=";
  // The value starts at column 39.
  CHECK_PARSE_ERROR(WithLine(head + "{op_colour=\"x\"}"), "11:40", "unexpected attribute \"op_colour\"");
  CHECK_PARSE_ERROR(WithLine(head + "{source_line=4294967296}"), "11:52", "value out of range for int32_t");
  CHECK_PARSE_ERROR(WithLine(head + "{profile_type={7}}"), "11:53", "invalid profile_type 7");
  CHECK_PARSE_ERROR(WithLine(head + "{op_name=\"a\" op_name=\"b\"}"), "11:52",
                    "attribute op_name already exists");
}

TEST_CASE("attributes: frontend attributes and backend_config") {
  Parsed p = Parse(WithLine(
      "  b = f32[4] negate(a), backend_config=\"{\\\"k\\\":1}\", "
      "frontend_attributes={_xla_pairs={{0,1},{1,2}}, name=\"tab\\tbed\", empty=\"\"}\n"
      "  ROOT r = f32[4] negate(b), backend_config={\"operation_queue_id\":\"0\", "
      "\"nested\":{\"a\":\"}\"}}, frontend_attributes={}"));
  const Module& m = p.m();
  CHECK(FrontendAttribute(m, p.Id("b"), "_xla_pairs") == "{{0,1},{1,2}}");
  CHECK(FrontendAttribute(m, p.Id("b"), "name") == "tab\tbed");
  CHECK(FrontendAttribute(m, p.Id("b"), "empty") == "");
  CHECK_FALSE(FrontendAttribute(m, p.Id("b"), "absent"));
  CHECK_FALSE(FrontendAttribute(m, p.Id("r"), "name"));
  CHECK(StringAttr(m, p.Id("b"), AttrName::kBackendConfig) == "{\"k\":1}");
  CHECK(RawStringAttr(m, p.Id("b"), AttrName::kBackendConfig) == "{\\\"k\\\":1}");
  CHECK(RawStringAttr(m, p.Id("r"), AttrName::kBackendConfig) ==
        "{\"operation_queue_id\":\"0\", \"nested\":{\"a\":\"}\"}}");
  CHECK_FALSE(StringAttr(m, p.Id("r"), AttrName::kBackendConfig));  // not a string
  CHECK_PARSE_ERROR(WithLine("  ROOT r = f32[4] negate(a), backend_config=7"), "11:45",
                    "expects a string or a JSON object");
  CHECK_PARSE_ERROR(WithLine("  ROOT r = f32[4] negate(a), frontend_attributes={k=1}"), "11:53",
                    "expects a string or a {...} value for frontend attribute k");
  CHECK_PARSE_ERROR(WithLine("  ROOT r = f32[4] negate(a), backend_config={\"a\": {1"), "11:45",
                    "unterminated JSON object");
}

TEST_CASE("attributes: aliasing, layout constraints, schedules, literals") {
  Parsed p = Parse(WithLine(
      "  f = (f32[4], f32[4]) custom-call(a, a), custom_call_target=\"t\", "
      "output_to_operand_aliasing={{0}: (1, {}), {1}: (0, {})}, schedule=SCHEDULE_EARLIEST, "
      "api_version=API_VERSION_STATUS_RETURNING\n"
      "  ROOT l = f32[4]{0} custom-call(a, m), custom_call_target=\"t\", "
      "operand_layout_constraints={f32[4]{0}, f32[4,4]{0,1}}, literal=s32[2]{0} {7, 8}, "
      "padding_type=PADDING_SAME, feature_group_count=2"));
  const Module& m = p.m();
  const auto aliasing = OutputToOperandAliasing(m, p.Id("f"));
  REQUIRE(aliasing.size() == 2);
  CHECK(aliasing[0].output_index == ShapeIndex{0});
  CHECK(aliasing[0].operand == 1);
  CHECK(aliasing[0].operand_index.empty());
  CHECK(aliasing[1].operand == 0);
  CHECK(OutputToOperandAliasing(m, p.Id("l")).empty());
  CHECK(IdentAttr(m, p.Id("f"), AttrName::kSchedule) == "SCHEDULE_EARLIEST");
  CHECK(IdentAttr(m, p.Id("f"), AttrName::kApiVersion) == "API_VERSION_STATUS_RETURNING");
  ShapeTable table;
  const auto constraints = ShapeListAttr(m, p.Id("l"), AttrName::kOperandLayoutConstraints, table);
  REQUIRE(constraints);
  REQUIRE(constraints->size() == 2);
  CHECK(ShapeToString(table.Get((*constraints)[1])) == "f32[4,4]{0,1}");
  CHECK(IntAttr(m, p.Id("l"), AttrName::kFeatureGroupCount) == 2);
  CHECK(IdentAttr(m, p.Id("l"), AttrName::kPaddingType) == "PADDING_SAME");
  CHECK_PARSE_ERROR(WithLine("  ROOT r = f32[4] custom-call(a), custom_call_target=\"t\", "
                           "output_to_operand_aliasing={{0}: 1}"),
                    "11:92", "Expected format: <output_shape_index>: (<operand_index>");
  CHECK_PARSE_ERROR(WithLine("  ROOT r = f32[4] custom-call(a), custom_call_target=\"t\", "
                           "schedule=SOMETIMES"),
                    "11:68", "expects custom-call schedule but sees: SOMETIMES");
}

TEST_CASE("attributes: enumerations") {
  Parsed p = Parse(WithLine(
      "  k = f32[4] compare(a, a), direction=GE, type=FLOAT\n"
      "  f = f32[4] fusion(a), kind=kOutput, calls=add\n"
      "  r = f32[4] rng(a, a), distribution=RNG_NORMAL\n"
      "  g = (u64[2], u32[4]) rng-bit-generator(a), algorithm=rng_philox\n"
      "  d = f32[4] dot(m, a), lhs_contracting_dims={1}, rhs_contracting_dims={0}, "
      "operand_precision={HIGHEST, default}, algorithm=DOT_BF16_BF16_F32_X3\n"
      "  t = f32[4,4] triangular-solve(m, m), transpose_a=ADJOINT\n"
      "  x = f32[1,4,1] convolution(c, c), dim_labels=b0f_0io->b0f, convolution_kind=dgrad\n"
      "  ff = c64[4] fft(a), fft_type=IRFFT, fft_length={4}\n"
      "  ROOT ar = f32[4] all-reduce(a), to_apply=add, mode=cross_replica_and_partition"));
  const Module& m = p.m();
  CHECK(IdentAttr(m, p.Id("k"), AttrName::kDirection) == "GE");
  CHECK(IdentAttr(m, p.Id("k"), AttrName::kType) == "FLOAT");
  CHECK(m.fusion_kind(p.Id("f")) == FusionKind::kOutput);
  CHECK(IdentAttr(m, p.Id("r"), AttrName::kDistribution) == "RNG_NORMAL");
  CHECK(IdentAttr(m, p.Id("t"), AttrName::kTransposeA) == "ADJOINT");
  CHECK(IdentAttr(m, p.Id("ar"), AttrName::kMode) == "cross_replica_and_partition");
  const std::string head = "  ROOT r = f32[4] ";
  CHECK_PARSE_ERROR(WithLine(head + "compare(a, a), direction=lt"), "11:44",
                    "expects comparison direction but sees: lt");
  CHECK_PARSE_ERROR(WithLine(head + "fusion(a), kind=loop, calls=add"), "11:35",
                    "expects fusion kind but sees: loop");
  CHECK_PARSE_ERROR(WithLine(head + "rng(a, a), distribution=3"), "11:43", "expects random distribution");
  CHECK_PARSE_ERROR(WithLine(head + "dot(m, a), operand_precision={higher}"), "11:49",
                    "expects precision but sees: higher");
  CHECK_PARSE_ERROR(WithLine(head + "all-reduce(a), to_apply=add, mode=everywhere"), "11:53",
                    "expects collective op group mode but sees: everywhere");
  CHECK_PARSE_ERROR(WithLine(head + "sqrt(a), result_accuracy={mode=high}"), "11:50",
                    "expects ResultAccuracy type but sees: high");
  CHECK_PARSE_ERROR(WithLine(head + "negate(a), result_accuracy={mode=default}"), "11:30",
                    "unexpected attribute \"result_accuracy\"");
}

TEST_CASE("attributes: booleans, integers, floats, strings, statistics, replication, origin") {
  Parsed p = Parse(WithLine(
      "  b = f32[4] negate(a), statistics={visualizing_index=1,stat-1=33.5,stat-2=7}, "
      "origin={{\"a\" {1}}}\n"
      "  t = (f32[4], f32[4]) tuple(a, a), origin={({\"x\"}, {})}, parameter_replication={true,false}\n"
      "  s = f32[4] negate(a), origin={[synthetic_call]}\n"
      "  ROOT bn = f32[4,4] batch-norm-inference(m, a, a, a, a), epsilon=-1.5e-3, feature_index=1"));
  const Module& m = p.m();
  CHECK(IntAttr(m, p.Id("bn"), AttrName::kFeatureIndex) == 1);
  CHECK(m.FindAttribute(p.Id("b"), AttrName::kStatistics) != nullptr);
  CHECK(m.FindAttribute(p.Id("t"), AttrName::kOrigin) != nullptr);
  const std::string head = "  ROOT r = ";
  CHECK_PARSE_ERROR(WithLine(head + "f32[4,4] batch-norm-inference(m, a, a, a, a), epsilon=1e39, "
                                  "feature_index=1"),
                    "11:66", "value out of range for float");
  CHECK_PARSE_ERROR(WithLine(head + "s32[4] iota(), iota_dimension=x"), "11:42", "expects integer");
  CHECK_PARSE_ERROR(WithLine(head + "f32[4] sort(a), dimensions={0}, is_stable=1, to_apply=add"),
                    "11:54", "expects true or false");
  CHECK_PARSE_ERROR(WithLine(head + "f32[4] custom-call(a), custom_call_target=foo"), "11:54",
                    "expects string");
  CHECK_PARSE_ERROR(WithLine(head + "f32[4] negate(a), statistics={stat=1.5}"), "11:47",
                    "expects integer");
  CHECK_PARSE_ERROR(WithLine(head + "f32[4] negate(a), parameter_replication={yes}"), "11:53",
                    "expects true or false");
  CHECK_PARSE_ERROR(WithLine(head + "f32[4] negate(a), origin={<synthetic>}"), "11:38",
                    "unexpected '<' (only '<=' is a token)");
  CHECK_PARSE_ERROR(WithLine(head + "f32[4] negate(a), origin={[other]}"), "11:39",
                    "Expects 'synthetic_call' after '[' for a synthetic_call value.");
  CHECK_PARSE_ERROR(WithLine(head + "f32[4] negate(a), origin={\"a\"}"), "11:38",
                    "Expects '[synthetic]' or a tuple tree of original arrays");
}

// IntAttr and BoolAttr read the plain forms byte-wise and hand every other
// form to the grammar; both readings must agree.
TEST_CASE("attributes: integers and booleans in every spelling") {
  Parsed p = Parse(WithLine(
      "  t = (f32[4], f32[4]) tuple(a, a)\n"
      "  g0 = f32[4] get-tuple-element(t), index=0\n"
      "  g1 = f32[4] get-tuple-element(t), index=1 /* a comment */\n"
      "  g2 = f32[4] get-tuple-element(t), index=/*before*/1\n"
      "  g3 = f32[4] get-tuple-element(t), index=01, metadata={op_name=\"x\"}\n"
      "  r0 = f32[4] all-reduce(a), channel_id=123456789012345678, to_apply=add\n"
      "  r1 = f32[4] all-reduce(a), channel_id=1234567890123456789, to_apply=add\n"
      "  so0 = f32[4] sort(a), dimensions={0}, is_stable=true, to_apply=add\n"
      "  so1 = f32[4] sort(a), dimensions={0}, to_apply=add, is_stable=false\n"
      "  ROOT so2 = f32[4] sort(a), dimensions={0}, to_apply=add, is_stable=true\t"));
  const Module& m = p.m();
  CHECK(IntAttr(m, p.Id("g0"), AttrName::kIndex) == 0);
  CHECK(IntAttr(m, p.Id("g1"), AttrName::kIndex) == 1);
  CHECK(IntAttr(m, p.Id("g2"), AttrName::kIndex) == 1);
  CHECK(IntAttr(m, p.Id("g3"), AttrName::kIndex) == 1);
  CHECK(IntAttr(m, p.Id("r0"), AttrName::kChannelId) == 123456789012345678);
  CHECK(IntAttr(m, p.Id("r1"), AttrName::kChannelId) == 1234567890123456789);
  CHECK(BoolAttr(m, p.Id("so0"), AttrName::kIsStable) == true);
  CHECK(BoolAttr(m, p.Id("so1"), AttrName::kIsStable) == false);
  CHECK(BoolAttr(m, p.Id("so2"), AttrName::kIsStable) == true);
  CHECK_FALSE(BoolAttr(m, p.Id("so0"), AttrName::kIndex));
  CHECK_FALSE(IntAttr(m, p.Id("so0"), AttrName::kIsStable));
}

TEST_CASE("attributes: domain") {
  Parse(WithLine("  ROOT d = f32[4] domain(a), domain={kind=\"sharding\", entry={maximal device=0}, "
               "exit={replicated}}"));
  CHECK_PARSE_ERROR(WithLine("  ROOT d = f32[4] domain(a), domain={kind=\"other\", entry={replicated}, "
                           "exit={replicated}}"),
                    "11:43", "unsupported domain kind: other");
  CHECK_PARSE_ERROR(WithLine("  ROOT d = f32[4] domain(a), domain={kind=\"sharding\", entry={replicated}}"),
                    "11:37", "sub-attribute exit is expected but not seen");
}

TEST_CASE("attributes: generic attribute errors") {
  const std::string head = "  ROOT r = f32[4] ";
  // Unknown, duplicate and missing attributes; values without a name.
  Failure unknown = ParseFailure(WithLine(head + "negate(a), colour=1"));
  CHECK(unknown.at == "11:30");
  CHECK(unknown.message ==
        "unexpected attribute \"colour\". Allowed attributes: backend_config, "
        "control-predecessors, frontend_attributes, metadata, origin, "
        "outer_dimension_partitions, parameter_replication, sharding, statistics");
  CHECK_PARSE_ERROR(WithLine(head + "negate(a), metadata={}, metadata={}"), "11:43",
                    "attribute metadata already exists");
  CHECK_PARSE_ERROR(WithLine(head + "get-tuple-element(a)"), "11:19",
                    "attribute index is expected but not seen");
  CHECK_PARSE_ERROR(WithLine(head + "negate(a), 7"), "11:30", "expects attribute name");
  CHECK_PARSE_ERROR(WithLine(head + "negate(a) metadata={}"), "11:29",
                    "expects ',' before attribute metadata");
  CHECK_PARSE_ERROR(WithLine(head + "negate(a), metadata ={}"), "11:30", "expects attribute name");
  // Nested operand instructions take no attributes, but still need their
  // required ones.
  CHECK_PARSE_ERROR(WithLine(head + "negate(broadcast(a))"), "11:26",
                    "attribute dimensions is expected but not seen");
  CHECK_PARSE_ERROR(WithLine("  ROOT r = f32[4] convolution(c, c), window={size=1}, dim_labels=b0f_0io->b0f, "
                           "conv_kind=fprop"),
                    "11:80", "unexpected attribute \"conv_kind\"");
}

}  // namespace
}  // namespace hlolint::parse_testing
