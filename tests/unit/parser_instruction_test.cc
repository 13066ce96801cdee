// Instructions: every opcode, operands (with and without shapes, nested,
// compact get-tuple-element), users, control predecessors, called
// computations, async chains and the per-opcode checks.
#include <catch2/catch.hpp>

#include <set>
#include <utility>

#include "parse_helpers.h"
#include "util/strings.h"

namespace hlolint::parse_testing {
namespace {

constexpr std::string_view kHelpers = R"(HloModule all_opcodes

add_f32 {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT lt = pred[] compare(a, b), direction=LT
}
cond {
  c = (s32[], f32[4]) parameter(0)
  ROOT t = pred[] constant(true)
}
body {
  ROOT b = (s32[], f32[4]) parameter(0)
}
fused {
  x = f32[4] parameter(0)
  ROOT n = f32[4] negate(x)
}
branch0 {
  ROOT b0 = f32[4] parameter(0)
}
branch1 {
  ROOT b1 = f32[4] parameter(0)
}
async_comp {
  x = f32[4] parameter(0)
  ROOT n = f32[4] negate(x)
}
scan_body {
  carry = f32[] parameter(0)
  x = f32[] parameter(1)
  sum = f32[] add(carry, x)
  ROOT t = (f32[], f32[]) tuple(sum, sum)
}

ENTRY main {
  p = f32[4] parameter(0)
  s = f32[] parameter(1)
  i = s32[] parameter(2)
  m = f32[4,4] parameter(3)
  u = u32[4] parameter(4)
  cpx = c64[4] parameter(5)
  k = s32[4] parameter(6)
  bn = f32[2,4] parameter(7)
  k2 = s32[2,1] parameter(8)
  seed = u64[2] parameter(9)
  cin = f32[1,4,1] parameter(10)
  cker = f32[1,1,1] parameter(11)
  tok = token[] after-all()
  c = f32[] constant(1)
  fin = pred[4] is-finite(p)
)";

// Instruction name and opcode text for every opcode; each line defines
// `op_<n>` with that opcode.
const std::vector<std::pair<std::string, std::string>> kOpcodeLines = {
    {"abs", "f32[4] abs(p)"},
    {"acos", "f32[4] acos(p)"},
    {"acosh", "f32[4] acosh(p)"},
    {"asin", "f32[4] asin(p)"},
    {"asinh", "f32[4] asinh(p)"},
    {"atan", "f32[4] atan(p)"},
    {"atanh", "f32[4] atanh(p)"},
    {"cbrt", "f32[4] cbrt(p)"},
    {"ceil", "f32[4] ceil(p)"},
    {"cosine", "f32[4] cosine(p)"},
    {"cosh", "f32[4] cosh(p)"},
    {"erf", "f32[4] erf(p)"},
    {"exponential", "f32[4] exponential(p)"},
    {"exponential-minus-one", "f32[4] exponential-minus-one(p)"},
    {"floor", "f32[4] floor(p)"},
    {"log", "f32[4] log(p)"},
    {"log-plus-one", "f32[4] log-plus-one(p)"},
    {"logistic", "f32[4] logistic(p)"},
    {"negate", "f32[4] negate(p)"},
    {"round-nearest-afz", "f32[4] round-nearest-afz(p)"},
    {"round-nearest-even", "f32[4] round-nearest-even(p)"},
    {"rsqrt", "f32[4] rsqrt(p), result_accuracy={mode=highest}"},
    {"sign", "f32[4] sign(p)"},
    {"sine", "f32[4] sine(p)"},
    {"sinh", "f32[4] sinh(p)"},
    {"sqrt", "f32[4] sqrt(p)"},
    {"tan", "f32[4] tan(p)"},
    {"tanh", "f32[4] tanh(p), result_accuracy={tolerance={atol=0.5, rtol=1e-3, ulps=2}}"},
    {"copy", "f32[4] copy(p)"},
    {"is-finite", "pred[4] is-finite(p)"},
    {"not", "u32[4] not(u)"},
    {"popcnt", "u32[4] popcnt(u)"},
    {"count-leading-zeros", "u32[4] count-leading-zeros(u)"},
    {"real", "f32[4] real(cpx)"},
    {"imag", "f32[4] imag(cpx)"},
    {"bitcast", "s32[4] bitcast(p)"},
    {"convert", "s32[4] convert(p)"},
    {"bitcast-convert", "u32[4] bitcast-convert(p)"},
    {"add", "f32[4] add(p, p)"},
    {"divide", "f32[4] divide(p, p)"},
    {"maximum", "f32[4] maximum(p, p)"},
    {"minimum", "f32[4] minimum(p, p)"},
    {"multiply", "f32[4] multiply(p, p)"},
    {"power", "f32[4] power(p, p)"},
    {"remainder", "f32[4] remainder(p, p)"},
    {"subtract", "f32[4] subtract(p, p)"},
    {"atan2", "f32[4] atan2(p, p)"},
    {"complex", "c64[4] complex(p, p)"},
    {"and", "u32[4] and(u, u)"},
    {"or", "u32[4] or(u, u)"},
    {"xor", "u32[4] xor(u, u)"},
    {"shift-left", "u32[4] shift-left(u, u)"},
    {"shift-right-arithmetic", "u32[4] shift-right-arithmetic(u, u)"},
    {"shift-right-logical", "u32[4] shift-right-logical(u, u)"},
    {"mulhi", "u32[4] mulhi(u, u)"},
    {"stochastic-convert", "s8[4] stochastic-convert(p, u)"},
    {"add-dependency", "f32[4] add-dependency(p, tok)"},
    {"compare", "pred[4] compare(p, p), direction=LT, type=TOTALORDER"},
    {"clamp", "f32[4] clamp(p, p, p)"},
    {"select", "f32[4] select(fin, p, p)"},
    {"after-all", "token[] after-all(tok, tok)"},
    {"all-gather", "f32[16] all-gather(p), dimensions={0}, replica_groups={}, channel_id=3, use_global_device_ids=true, constrain_layout=false"},
    {"all-gather-start", "(f32[4], f32[16]) all-gather-start(p), dimensions={0}, replica_groups=[2,2]<=[4]"},
    {"all-gather-done", "f32[16] all-gather-done(op_all-gather-start)"},
    {"all-reduce", "f32[4] all-reduce(p), to_apply=add_f32, replica_groups={{0,1},{2,3}}"},
    {"all-reduce-start", "f32[4] all-reduce-start(p), to_apply=add_f32, mode=cross_replica"},
    {"all-reduce-done", "f32[4] all-reduce-done(op_all-reduce-start)"},
    {"all-to-all", "(f32[4], f32[4]) all-to-all(p, p), replica_groups={{0,1}}"},
    {"ragged-all-to-all", "f32[4] ragged-all-to-all(p, p, k, k, k, k), replica_groups={{0,1}}"},
    {"collective-broadcast", "f32[4] collective-broadcast(p), replica_groups={{0,1}}"},
    {"collective-permute", "f32[4] collective-permute(p), source_target_pairs={{0,1},{1,0}}, channel_id=4"},
    {"collective-permute-start", "(f32[4], f32[4]) collective-permute-start(p), source_target_pairs={{0,1}}"},
    {"collective-permute-done", "f32[4] collective-permute-done(op_collective-permute-start)"},
    {"collective-reduce", "f32[4] collective-reduce(p), to_apply=add_f32"},
    {"reduce-scatter", "f32[1] reduce-scatter(p), dimensions={0}, to_apply=add_f32"},
    {"async-start", "((f32[4]), f32[4], s32[]) async-start(p), calls=async_comp"},
    {"async-update", "((f32[4]), f32[4], s32[]) async-update(op_async-start)"},
    {"async-done", "f32[4] async-done(op_async-update)"},
    {"batch-norm-training", "(f32[2,4], f32[4], f32[4]) batch-norm-training(bn, p, p), epsilon=0.001, feature_index=1"},
    {"batch-norm-inference", "f32[2,4] batch-norm-inference(bn, p, p, p, p), epsilon=1, feature_index=1"},
    {"batch-norm-grad", "(f32[2,4], f32[4], f32[4]) batch-norm-grad(bn, p, p, p, bn), epsilon=0.5, feature_index=1"},
    {"broadcast", "f32[4,4] broadcast(p), dimensions={0}"},
    {"call", "f32[] call(s, s), to_apply=add_f32, is_composite=false"},
    {"cholesky", "f32[4,4] cholesky(m), lower=true"},
    {"concatenate", "f32[8] concatenate(p, p), dimensions={0}"},
    {"conditional", "f32[4] conditional(i, p, p), branch_computations={branch0, branch1}"},
    {"constant", "f32[2] constant({1, 2})"},
    {"convolution", "f32[1,4,1] convolution(cin, cker), window={size=1}, dim_labels=b0f_0io->b0f, feature_group_count=1, batch_group_count=1, operand_precision={high, default}, sparsity_config={lhs={sparsity=2x4 dimension=1}}"},
    {"copy-start", "(f32[4], f32[4], u32[]) copy-start(p), cross_program_prefetch_index=0"},
    {"copy-done", "f32[4] copy-done(op_copy-start)"},
    {"custom-call", "f32[4] custom-call(p), custom_call_target=\"foo\", api_version=API_VERSION_TYPED_FFI, schedule=SCHEDULE_LATEST"},
    {"domain", "f32[4] domain(p), domain={kind=\"sharding\", entry={replicated}, exit={maximal device=0}}"},
    {"dot", "f32[4] dot(m, p), lhs_contracting_dims={1}, rhs_contracting_dims={0}, algorithm=dot_f32_f32_f32"},
    {"ragged-dot", "f32[4] ragged-dot(m, m, k), lhs_contracting_dims={1}, rhs_contracting_dims={0}, lhs_ragged_dims={0}"},
    {"scaled-dot", "f32[4] scaled-dot(m, s, m, s), lhs_contracting_dims={1}, rhs_contracting_dims={0}"},
    {"dynamic-reshape", "f32[<=4] dynamic-reshape(p, i)"},
    {"dynamic-slice", "f32[2] dynamic-slice(p, i), dynamic_slice_sizes={2}"},
    {"dynamic-update-slice", "f32[4] dynamic-update-slice(p, op_dynamic-slice, i)"},
    {"fft", "c64[4] fft(cpx), fft_type=FFT, fft_length={4}"},
    {"fusion", "f32[4] fusion(p), kind=kLoop, calls=fused, output_to_operand_aliasing={{}: (0, {})}"},
    {"gather", "f32[2] gather(p, k2), offset_dims={}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1}, indices_are_sorted=true"},
    {"scatter", "f32[4] scatter(p, k2, op_gather), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_f32, unique_indices=true"},
    {"get-dimension-size", "s32[] get-dimension-size(p), dimensions={0}"},
    {"set-dimension-size", "f32[<=4] set-dimension-size(p, i), dimensions={0}"},
    {"tuple", "(f32[], f32[4]) tuple(s, p)"},
    {"get-tuple-element", "f32[] get-tuple-element(op_tuple), index=0"},
    {"infeed", "(f32[4], token[]) infeed(tok), infeed_config=\"cfg\""},
    {"outfeed", "token[] outfeed(p, tok), outfeed_shape=f32[4]{0}, outfeed_config=\"x\""},
    {"iota", "s32[4] iota(), iota_dimension=0"},
    {"map", "f32[4] map(p, p), dimensions={0}, to_apply=add_f32"},
    {"pad", "f32[6] pad(p, s), padding=1_1"},
    {"partition-id", "u32[] partition-id()"},
    {"replica-id", "u32[] replica-id()"},
    {"recv", "(f32[4], u32[], token[]) recv(tok), channel_id=1, is_host_transfer=true"},
    {"recv-done", "(f32[4], token[]) recv-done(op_recv), channel_id=1, is_host_transfer=true"},
    {"send", "(f32[4], u32[], token[]) send(p, tok), channel_id=2"},
    {"send-done", "token[] send-done(op_send), channel_id=2"},
    {"reduce", "f32[] reduce(p, s), dimensions={0}, to_apply=add_f32"},
    {"reduce-precision", "f32[4] reduce-precision(p), exponent_bits=5, mantissa_bits=10"},
    {"reduce-window", "f32[4] reduce-window(p, s), window={size=1}, to_apply=add_f32"},
    {"select-and-scatter", "f32[4] select-and-scatter(p, p, s), window={size=1}, select=less, scatter=add_f32"},
    {"reshape", "f32[2,2] reshape(p), inferred_dimension=0"},
    {"reverse", "f32[4] reverse(p), dimensions={0}"},
    {"rng", "f32[4] rng(s, s), distribution=rng_uniform"},
    {"rng-bit-generator", "(u64[2], u32[4]) rng-bit-generator(seed), algorithm=rng_default"},
    {"rng-get-and-update-state", "u64[2] rng-get-and-update-state(), delta=1"},
    {"scan", "(f32[], f32[4]) scan(s, p), dimensions={0}, num_carries=1, to_apply=scan_body, is_reverse=true"},
    {"shuffle", "f32[4] shuffle(p), dimensions={0}, mode=rotate, shifts={1}"},
    {"slice", "f32[2] slice(p), slice={[0:4:2]}"},
    {"sort", "f32[4] sort(p), dimensions={0}, to_apply=less, is_stable=true"},
    {"topk", "(f32[2], s32[2]) topk(p), k=2, largest=true"},
    {"transpose", "f32[4,4] transpose(m), dimensions={1,0}"},
    {"triangular-solve", "f32[4,4] triangular-solve(m, m), left_side=true, lower=true, unit_diagonal=false, transpose_a=NO_TRANSPOSE"},
    {"while", "(s32[], f32[4]) while(wt), condition=cond, body=body"},
    {"opt-barrier", "(s32[], f32[4]) opt-barrier(wt)"},
};

TEST_CASE("instruction: every opcode parses into its IR opcode") {
  std::string text(kHelpers);
  text += "  wt = (s32[], f32[4]) tuple(i, p)\n";
  for (const auto& [opcode, rhs] : kOpcodeLines) text += "  op_" + opcode + " = " + rhs + "\n";
  text += "  ROOT r = f32[] parameter(12)\n}\n";
  Parsed p = Parse(text);
  const Module& m = p.m();
  std::set<Opcode> seen;
  for (InstrId id = 0; id < m.instruction_count(); ++id) seen.insert(m.opcode(id));
  for (const auto& [opcode, rhs] : kOpcodeLines) {
    INFO(opcode);
    const InstrId id = p.Id("op_" + opcode);
    CHECK(OpcodeName(m.opcode(id)) == opcode);
    CHECK(m.instr(id).has(Instruction::kShapeWritten));
  }
  // The module above uses every opcode hlolint knows.
  for (int i = 0; i < kOpcodeCount; ++i) {
    INFO(OpcodeName(static_cast<Opcode>(i)));
    CHECK(seen.count(static_cast<Opcode>(i)) == 1);
  }
  CHECK(m.number(p.Id("op_iota")) == 0);
  CHECK(m.number(p.Id("op_get-tuple-element")) == 0);
  CHECK(m.number(p.Id("k")) == 6);
  CHECK(m.fusion_kind(p.Id("op_fusion")) == FusionKind::kLoop);
  CHECK(CompNames(m, m.called(p.Id("op_while"))) == StringList{"cond", "body"});
  CHECK(CompNames(m, m.called(p.Id("op_conditional"))) == StringList{"branch0", "branch1"});
  CHECK(CompNames(m, m.called(p.Id("op_select-and-scatter"))) == StringList{"less", "add_f32"});
  CHECK(CompNames(m, m.called(p.Id("op_scatter"))) == StringList{"add_f32"});
  CHECK(CompNames(m, m.called(p.Id("op_async-start"))) == StringList{"async_comp"});
  // update and done inherit the chain's computation and wrapped opcode.
  CHECK(CompNames(m, m.called(p.Id("op_async-done"))) == StringList{"async_comp"});
  CHECK(m.async_wrapped_opcode(p.Id("op_async-done")) == Opcode::kNegate);
  CHECK(m.called(p.Id("op_add")).empty());
}

TEST_CASE("instruction: names, shapes and text positions") {
  Parsed p = Parse(R"(HloModule m
ENTRY e {
  %a = f32[2]{0} parameter(0)
  b.1-x..y = f32[2] parameter(1)
  %c=f32[2] add(%a, b.1-x..y)
  ROOT d = f32[2]{0} negate(c)
}
)");
  const Module& m = p.m();
  const InstrId a = p.Id("a");
  CHECK(p.At(m.instr(a).name_offset) == "3:4");
  CHECK(m.parent(a) == m.entry());
  CHECK(m.number(a) == 0);
  CHECK(ShapeOf(m, a) == "f32[2]{0}");
  const InstrId c = p.Id("c");
  CHECK(p.At(m.instr(c).name_offset) == "5:4");
  CHECK(Names(m, m.operands(c)) == StringList{"a", "b.1-x..y"});
  CHECK(m.IsRoot(p.Id("d")));
  CHECK(m.name(m.computation(m.entry()).root) == "d");
}

TEST_CASE("instruction: operands with and without shapes, nested, users") {
  Parsed p = Parse(R"(HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  y = f32[4] parameter(1)
  a = f32[4] add(f32[4] x, f32[4]{0} y)
  b = f32[4] multiply(x, negate(subtract(y, f32[4] x)))
  c = f32[4] add(x, x)
  ROOT t = (f32[4], f32[4], f32[4]) tuple(a, b, c)
}
)");
  const Module& m = p.m();
  const InstrId x = p.Id("x");
  const InstrId b = p.Id("b");
  REQUIRE(m.operands(b).size() == 2);
  const InstrId neg = m.operand(b, 1);
  CHECK(m.opcode(neg) == Opcode::kNegate);
  CHECK(m.instr(neg).has(Instruction::kAnonymous));
  CHECK(m.name(neg) == "negate");  // named after its opcode token
  CHECK_FALSE(m.instr(neg).has(Instruction::kShapeWritten));
  CHECK(ShapeOf(m, neg) == "f32[4]");  // inferred from its operand
  const InstrId sub = m.operand(neg, 0);
  CHECK(m.opcode(sub) == Opcode::kSubtract);
  CHECK(Names(m, m.operands(sub)) == StringList{"y", "x"});
  // Nested operands come before their user in the computation's order.
  CHECK(Names(m, m.instructions(m.entry())) ==
        StringList{"x", "y", "a", "subtract", "negate", "b", "c", "t"});
  // Users are distinct and in text order; `add(x, x)` counts once.
  CHECK(Names(m, m.users(x)) == StringList{"a", "subtract", "b", "c"});
  CHECK(Names(m, m.operands(p.Id("c"))) == StringList{"x", "x"});
  CHECK(m.users(p.Id("t")).empty());
}

TEST_CASE("instruction: comments may appear between any two tokens") {
  Parsed p = Parse(R"(/* lead */ HloModule /*a*/ m /*b*/, /*c*/ is_scheduled=/*d*/true // tail
ENTRY /*e*/ e /*f*/ { // open
  /*g*/ p /*h*/ = /*i*/ f32 /*j*/ [ /*k*/ 4 /*l*/ ] /*m*/ { /*n*/ 0 /*o*/ } /*p*/ parameter /*q*/ ( /*r*/ 0 /*s*/ )
  // a whole line
  /*t*/ ROOT /*u*/ r /*v*/ = f32[4] add( /*index=0*/ p, /*index=1*/ f32[4] /*w*/ p ) /*x*/ , /*y*/ metadata= /*z*/ { /*1*/ op_name= /*2*/ "n" /*3*/ }
/*4*/ } /*5*/
// end
)");
  const Module& m = p.m();
  CHECK(m.is_scheduled());
  CHECK(Names(m, m.operands(p.Id("r"))) == StringList{"p", "p"});
  CHECK(Metadata(m, p.Id("r"))->op_name == "n");
  CHECK(ShapeOf(m, p.Id("p")) == "f32[4]{0}");
}

TEST_CASE("instruction: compact get-tuple-element operands") {
  Parsed p = Parse(R"(HloModule m
ENTRY e {
  t = ((f32[2], s32[]), f16[3]) parameter(0)
  a = f32[2] negate(%t#0#0)
  b = f32[2] add(t#0#0, f32[2] t#0#0)
  ROOT r = (f16[3], s32[]) tuple(t#1, t#0#1)
}
)");
  const Module& m = p.m();
  const InstrId a = p.Id("a");
  const InstrId gte00 = m.operand(a, 0);
  CHECK(m.opcode(gte00) == Opcode::kGetTupleElement);
  CHECK(m.instr(gte00).has(Instruction::kCompactGte));
  CHECK(m.instr(gte00).has(Instruction::kAnonymous));
  CHECK(m.number(gte00) == 0);
  CHECK(m.name(gte00) == "t#0#0");
  CHECK(ShapeOf(m, gte00) == "f32[2]");
  const InstrId gte0 = m.operand(gte00, 0);
  CHECK(m.name(gte0) == "t#0");
  CHECK(m.operand(gte0, 0) == p.Id("t"));
  // One instruction per path and computation.
  const InstrId b = p.Id("b");
  CHECK(m.operand(b, 0) == gte00);
  CHECK(m.operand(b, 1) == gte00);
  const InstrId r = p.Id("r");
  CHECK(ShapeOf(m, m.operand(r, 0)) == "f16[3]");
  CHECK(m.operand(m.operand(r, 1), 0) == gte0);
  CHECK(m.number(m.operand(r, 1)) == 1);
}

TEST_CASE("instruction: control predecessors") {
  Parsed p = Parse(R"(HloModule m
ENTRY e {
  a = f32[] parameter(0)
  b = f32[] negate(a)
  c = f32[] exponential(a), control-predecessors={b, %a}
  ROOT d = f32[] add(b, c), control-predecessors={c}
}
)");
  const Module& m = p.m();
  CHECK(Names(m, m.control_predecessors(p.Id("c"))) == StringList{"b", "a"});
  CHECK(Names(m, m.control_predecessors(p.Id("d"))) == StringList{"c"});
  CHECK(m.control_predecessors(p.Id("b")).empty());
  CHECK_PARSE_ERROR(R"(HloModule m
ENTRY e {
  a = f32[] parameter(0)
  ROOT b = f32[] negate(a), control-predecessors={a, later}
  later = f32[] negate(a)
})",
                    "4:54", "instruction 'later' is not defined");
  CHECK_PARSE_ERROR(R"(HloModule m
ENTRY e {
  a = f32[] parameter(0)
  ROOT b = f32[] negate(a), control-predecessors={}
})",
                    "4:51", "expects a instruction name");
}

// verify-operand-count leaves these opcodes to the parser
// (ParsedOperandCount): one operand too many is an error right after the
// operand list, whatever the opcode.
TEST_CASE("instruction: the grammar's operand counts are enforced for every opcode") {
  int checked = 0;
  for (int o = 0; o < kOpcodeCount; ++o) {
    const auto op = static_cast<Opcode>(o);
    const int want = ParsedOperandCount(op);
    if (want < 0) continue;
    std::string operands = "a";
    for (int k = 0; k < want; ++k) operands += ", a";
    const std::string text = StrCat("HloModule m\nENTRY e {\n  a = f32[4] parameter(0)\n",
                                    "  ROOT r = f32[4] ", OpcodeName(op), "(", operands, ")\n}\n");
    INFO(text);
    const Failure failure = ParseFailure(text);
    CHECK(failure.at == StrCat("4:", 19 + OpcodeName(op).size()));
    CHECK(failure.message == StrCat("expects ", want, " operands, but has ", want + 1, " operands"));
    ++checked;
  }
  CHECK(checked > 80);
}

TEST_CASE("instruction: shape inference for omitted shapes") {
  Parsed p = Parse(R"(HloModule m
add_f32 {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  a = f32[2,3] parameter(0)
  z = c64[2,3] parameter(1)
  s = f32[] parameter(2)
  neg = negate(a)
  cmp = compare(a, neg), direction=GT
  fin = is-finite(a)
  mag = abs(z)
  cx = complex(a, a)
  sel = select(cmp, a, neg)
  tup = tuple(a, s)
  gte = get-tuple-element(tup), index=1
  tok = after-all()
  call = call(s, s), to_apply=add_f32
  bc = broadcast(s), dimensions={}
  bc2 = broadcast(a), dimensions={0}
  tr = transpose(a), dimensions={1,0}
  pid = partition-id()
  d = dot(a, a), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  ROOT r = (f32[2,3], f32[3,2]) tuple(neg, tr)
}
)");
  const Module& m = p.m();
  auto shape = [&](std::string_view name) { return ShapeOf(m, p.Id(name)); };
  CHECK(shape("neg") == "f32[2,3]");
  CHECK(shape("cmp") == "pred[2,3]");
  CHECK(shape("fin") == "pred[2,3]");
  CHECK(shape("mag") == "f32[2,3]");
  CHECK(shape("cx") == "c64[2,3]");
  CHECK(shape("sel") == "f32[2,3]");
  CHECK(shape("tup") == "(f32[2,3], f32[])");
  CHECK(shape("gte") == "f32[]");
  CHECK(shape("tok") == "token[]");
  CHECK(shape("call") == "f32[]");
  CHECK(shape("bc") == "f32[]");
  // XLA infers a broadcast like the client API: `dimensions` are new
  // leading sizes.
  CHECK(shape("bc2") == "f32[0,2,3]");
  CHECK(shape("tr") == "f32[3,2]");
  CHECK(shape("pid") == "u32[]");
  // Inferable in XLA but not by hlolint: the shape stays unknown.
  CHECK_FALSE(m.has_known_shape(p.Id("d")));
  CHECK(m.has_known_shape(p.Id("neg")));
}

TEST_CASE("instruction: custom-call computations, flags and layout constraints") {
  Parsed p = Parse(R"(HloModule m
c1 {
  ROOT x = f32[] parameter(0)
}
c2 {
  ROOT y = f32[] parameter(0)
}
ENTRY e {
  a = f32[2]{0} parameter(0)
  list = f32[] custom-call(a), custom_call_target="t", called_computations={c1, c2}
  both = f32[] custom-call(a), custom_call_target="t", called_computations={c1}, to_apply=c2
  constrained = f32[2]{0} custom-call(a), custom_call_target="t", operand_layout_constraints={f32[2]{0}}, to_apply=c1
  ROOT side = f32[] custom-call(), custom_call_target="s", custom_call_has_side_effect=true, literal=(s32[2]{0} {1, 2}, f32[] 3)
}
)");
  const Module& m = p.m();
  CHECK(CompNames(m, m.called(p.Id("list"))) == StringList{"c1", "c2"});
  // XLA keeps to_apply when both are written...
  CHECK(CompNames(m, m.called(p.Id("both"))) == StringList{"c2"});
  // ...and no computation at all with operand_layout_constraints.
  CHECK(m.called(p.Id("constrained")).empty());
  CHECK(m.instr(p.Id("side")).has(Instruction::kSideEffectAttr));
  CHECK_FALSE(m.instr(p.Id("list")).has(Instruction::kSideEffectAttr));
  CHECK(CustomCallTarget(m, p.Id("side")) == "s");
}

TEST_CASE("instruction: async chains with and without sugar") {
  Parsed p = Parse(R"(HloModule m
wrapped {
  x = f32[4] parameter(0)
  ROOT cc = f32[4] custom-call(x), custom_call_target="w"
}
ENTRY e {
  a = f32[4] parameter(0)
  start = ((f32[4]), f32[4], u32[]) custom-call-start(a), custom_call_target="w", async_execution_thread="t"
  update = ((f32[4]), f32[4], u32[]) custom-call-update(start)
  done = f32[4] custom-call-done(update)
  st2 = ((f32[4]), f32[4], u32[]) async-start(a), calls=wrapped, async_execution_thread="x"
  upd2 = ((f32[4]), f32[4], u32[]) async-update(st2), calls=wrapped, async_execution_thread="x"
  d2 = f32[4] async-done(upd2, a)
  fs = ((f32[4]), f32[4]) call-start(a), to_apply=wrapped
  ROOT fd = f32[4] call-done(fs)
}
)");
  const Module& m = p.m();
  const Instruction& start = m.instr(p.Id("start"));
  CHECK(start.opcode == Opcode::kAsyncStart);
  CHECK(m.async_wrapped_opcode(p.Id("start")) == Opcode::kCustomCall);
  CHECK(start.has(Instruction::kAsyncSugar));
  CHECK(m.opcode(p.Id("update")) == Opcode::kAsyncUpdate);
  CHECK(m.async_wrapped_opcode(p.Id("update")) == Opcode::kCustomCall);
  CHECK(m.opcode(p.Id("done")) == Opcode::kAsyncDone);
  CHECK(m.instr(p.Id("done")).has(Instruction::kAsyncSugar));
  CHECK(m.called(p.Id("start")).empty());
  const Instruction& st2 = m.instr(p.Id("st2"));
  CHECK_FALSE(st2.has(Instruction::kAsyncSugar));
  CHECK(m.async_wrapped_opcode(p.Id("st2")) == Opcode::kCustomCall);  // the root of `wrapped`
  CHECK(CompNames(m, m.called(p.Id("d2"))) == StringList{"wrapped"});
  CHECK(Names(m, m.operands(p.Id("d2"))) == StringList{"upd2", "a"});  // late binding
  CHECK(m.async_wrapped_opcode(p.Id("fd")) == Opcode::kCall);
  CHECK(CompNames(m, m.called(p.Id("fs"))) == StringList{"wrapped"});
}

TEST_CASE("instruction: async errors") {
  const std::string head = "HloModule m\nw {\n  x = f32[4] parameter(0)\n  ROOT n = f32[4] negate(x)\n}\n"
                           "ENTRY e {\n  a = f32[4] parameter(0)\n";
  // Line 8 holds the instruction under test.
  CHECK_PARSE_ERROR(head + "  ROOT s = f32[4] async-start(a), calls=w\n}", "8:12",
                    "AsyncStart and AsyncUpdate expect the shape to be in the form of");
  CHECK_PARSE_ERROR(head + "  ROOT d = f32[4] async-done(a)\n}", "8:30",
                    "AsyncUpdate and AsyncDone expect an asynchronous operation as their first "
                    "operand, but a is parameter");
  CHECK_PARSE_ERROR(head + "  ROOT d = f32[4] async-done()\n}", "8:29",
                    "No operand found for AsyncUpdate and AsyncDone");
  CHECK_PARSE_ERROR(head + "  ROOT d = f32[4] all-reduce-update(a)\n}", "8:19",
                    "expects opcode but sees: all-reduce-update, error: Unknown opcode: "
                    "all-reduce-update");
  CHECK_PARSE_ERROR(head + "  ROOT d = f32[4] frobnicate-start(a)\n}", "8:19",
                    "expects async wrapped opcode but sees: frobnicate-start, error: Unknown "
                    "opcode: frobnicate");
  CHECK_PARSE_ERROR(head + "  s = ((f32[4]), f32[4]) negate-start(a)\n  ROOT d = f32[4] add-done(s)\n}",
                    "9:19", "Expect async wrapped opcode to be negate, but got add");
  CHECK_PARSE_ERROR(head + "  s = ((f32[4]), f32[4]) async-start(a), calls=w, async_execution_thread=\"t\"\n"
                           "  ROOT d = f32[4] async-done(s), async_execution_thread=\"u\"\n}",
                    "9:19", "Expect async_execution_thread to be t, but got u");
  CHECK_PARSE_ERROR(head + "  s = ((f32[4]), f32[4]) async-start(a), calls=w\n"
                           "  t2 = ((f32[4]), f32[4]) async-start(a), calls=w\n"
                           "  ROOT d = f32[4] async-done(s)\n}",
                    "9:3", "Computation w is called by more than one async op.");
  CHECK_PARSE_ERROR(head + "  ROOT s = async-start(a), calls=w\n}", "8:12",
                    "cannot infer shape for opcode: async-start");
  // Sugar: the wrapped op's own checks run on parameters shaped by shape[0].
  CHECK_PARSE_ERROR(head + "  ROOT s = ((f32[4,4], s32[]), f32[2,2]) dynamic-slice-start(a), "
                           "dynamic_slice_sizes={2,2}\n}",
                    "8:61", "Wrong number of operands");
  CHECK_PARSE_ERROR(head + "  ROOT s = ((f32[4]), f32[4]) broadcast-start(a)\n}", "8:31",
                    "attribute dimensions is expected but not seen");
  Parse(head + "  ROOT s = ((f32[]), f32[4]) broadcast-start(a)\n}");
}

TEST_CASE("instruction: errors with their locations") {
  const std::string head = "HloModule m\nENTRY e {\n  a = f32[4] parameter(0)\n";
  // Line 4 holds the instruction under test.
  CHECK_PARSE_ERROR(head + "  ROOT b = f32[4] negative(a)\n}", "4:19",
                    "expects opcode but sees: negative, error: Unknown opcode: negative");
  CHECK_PARSE_ERROR(head + "  ROOT b = convert(a)\n}", "4:12",
                    "cannot infer shape for opcode: convert");
  CHECK_PARSE_ERROR(head + "  ROOT b = f32[4] add(a)\n}", "4:22",
                    "expects 2 operands, but has 1 operands");
  CHECK_PARSE_ERROR(head + "  ROOT b = f32[4] add(a, c)\n}", "4:26", "instruction does not exist: c");
  CHECK_PARSE_ERROR(head + "  ROOT b = f32[4] add(a, )\n}", "4:26",
                    "expects an operand (a name or a nested instruction), but sees ')'");
  CHECK_PARSE_ERROR(head + "  ROOT b = f32[4] add(a a)\n}", "4:25",
                    "expects ',' or ')' after an operand, but sees identifier");
  CHECK_PARSE_ERROR(head + "  ROOT b = f32[4] add(a, negate(c))\n}", "4:33",
                    "instruction does not exist: c");
  CHECK_PARSE_ERROR(head + "  ROOT b = f32[4] add(a, f32[5] a)\n}", "4:26",
                    "The declared operand shape f32[5]{0} is not compatible with the shape of "
                    "the operand instruction f32[4]{0}.");
  CHECK_PARSE_ERROR(head + "  ROOT %f32 = f32[4] negate(a)\n}", "4:9",
                    "illegal instruction name: f32; suggest renaming to: f32_");
  CHECK_PARSE_ERROR(head + "  ROOT __x = f32[4] negate(a)\n}", "4:8",
                    "illegal instruction name: __x; suggest renaming to: a_x");
  Parse(head + "  ROOT __xla_x = f32[4] negate(a)\n}");
  Parse(head + "  ROOT tuple = (f32[4]) tuple(a)\n}");
  CHECK_PARSE_ERROR(head + "  ROOT b f32[4] negate(a)\n}", "4:10", "expects '=' in instruction");
  CHECK_PARSE_ERROR(head + "  ROOT b=f32[4] negate(a)\n}", "4:8", "expects name after ROOT");
  CHECK_PARSE_ERROR(head + "  ROOT = f32[4] negate(a)\n}", "4:8", "expects name after ROOT");
  Failure dup = ParseFailure(head + "  a = f32[4] negate(a)\n}");
  CHECK(dup.at == "4:3");
  CHECK(dup.message == "instruction already exists: a");
  CHECK(dup.note_at == "3:3");
  CHECK(dup.note == "instruction previously defined here");
  Failure roots = ParseFailure(head + "  ROOT b = f32[4] negate(a)\n  ROOT c = f32[4] negate(b)\n}");
  CHECK(roots.at == "5:3");
  CHECK(roots.message == "one computation should have only one ROOT");
  CHECK(roots.note_at == "4:3");
  // Names are scoped per computation: a name of another computation is unknown.
  CHECK_PARSE_ERROR("HloModule m\nother {\n  q = f32[] parameter(0)\n  ROOT n = f32[] negate(q)\n}\n"
                    "ENTRY e {\n  ROOT b = f32[] negate(q)\n}",
                    "7:25", "instruction does not exist: q");
}

TEST_CASE("instruction: compact get-tuple-element errors") {
  const std::string head = "HloModule m\nENTRY e {\n  t = (f32[2], s32[]) parameter(0)\n";
  CHECK_PARSE_ERROR(head + "  f = f32[2] get-tuple-element(t), index=0\n  ROOT b = f32[2] negate(f#0)\n}",
                    "5:27", "GTE operand must be tuple, but has shape: f32[2]");
  CHECK_PARSE_ERROR(head + "  ROOT b = f32[2] negate(t#2)\n}", "4:28",
                    "GTE index 2 out of bounds for shape: (f32[2], s32[])");
  CHECK_PARSE_ERROR(head + "  ROOT b = f32[2] negate(t#-1)\n}", "4:28",
                    "GTE index -1 out of bounds");
  CHECK_PARSE_ERROR(head + "  ROOT b = f32[2] negate(t#a)\n}", "4:28", "expects integer");
  CHECK_PARSE_ERROR(head + "  ROOT b = f32[2] negate(f32[3] t#0)\n}", "4:26",
                    "operand shape f32[3] does not match instruction shape f32[2]");
}

TEST_CASE("instruction: per-opcode operand and attribute checks") {
  const std::string head = "HloModule m\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
                           "  ROOT s = f32[] add(x, y)\n}\nENTRY e {\n  a = f32[4] parameter(0)\n"
                           "  i = s32[] parameter(1)\n";
  // Line 10 holds the instruction under test.
  CHECK_PARSE_ERROR(head + "  ROOT c = f32[4] conditional(a, a), branch_computations={add}\n}",
                    "10:31", "The first operand must be a scalar, but has shape f32[4]");
  CHECK_PARSE_ERROR(head + "  f = f32[] parameter(2)\n  ROOT c = f32[4] conditional(f, a), branch_computations={add}\n}",
                    "11:31", "The first operand must be a scalar of PRED or S32");
  CHECK_PARSE_ERROR(head + "  ROOT c = f32[4] conditional()\n}", "10:30",
                    "conditional requires at least one operand");
  CHECK_PARSE_ERROR(head + "  ROOT c = f32[4] conditional(i, a), branch_computations={add, add}\n}",
                    "10:30", "conditional has 2 operands and 2 branch computations");
  CHECK_PARSE_ERROR(head + "  ROOT c = f32[4] conditional(i, a), true_computation=add\n}", "10:38",
                    "unexpected attribute \"true_computation\"");
  CHECK_PARSE_ERROR(head + "  ROOT d = f32[2] dynamic-slice(a, i, i), dynamic_slice_sizes={2}\n}",
                    "10:32", "Wrong number of operands");
  CHECK_PARSE_ERROR(head + "  ROOT d = f32[2] dynamic-slice(), dynamic_slice_sizes={2}\n}",
                    "10:32", "Expected at least one operand.");
  CHECK_PARSE_ERROR(head + "  ROOT r = f32[] reduce(a, i, a), dimensions={0}, to_apply=add\n}",
                    "10:24", "expects an even number of operands, but has 3 operands");
  CHECK_PARSE_ERROR(head + "  ROOT r = f32[] reduce-window(), to_apply=add\n}", "10:31",
                    "reduce-window expects at least one input and init operand");
  CHECK_PARSE_ERROR(head + "  ROOT r = f32[4] sort(a), dimensions={}, to_apply=add\n}", "10:39",
                    "expects exactly one dimension in 'dimensions', but sees 0");
  CHECK_PARSE_ERROR(head + "  ROOT r = f32[4] infeed(a)\n}", "10:12",
                    "infeed must have a non-empty tuple shape");
  CHECK_PARSE_ERROR(head + "  ROOT r = f32[4] recv(a)\n}", "10:12",
                    "recv must have a non-empty tuple shape");
  CHECK_PARSE_ERROR(head + "  ROOT r = (f32[4]) tuple(a, a)\n}", "10:26",
                    "expects 1 operands, but has 2 operands");
  CHECK_PARSE_ERROR(head + "  ROOT r = f32[4] all-reduce(a), to_apply=add, use_global_device_ids=true\n}",
                    "10:29", "Cannot have use_global_device_ids=true without channel_id");
  CHECK_PARSE_ERROR(head + "  ROOT r = f32[4] collective-permute(a), source_target_pairs={{0,1,2}}\n}",
                    "10:42", "expects 'source_target_pairs=' to be a list of pairs");
  CHECK_PARSE_ERROR(head + "  ROOT r = f32[4] collective-permute(a), source_target_pairs={{0,1}}, slice_sizes={{1}}\n}",
                    "10:37", "must have exactly four operands");
  CHECK_PARSE_ERROR(head + "  ROOT r = f32[4] custom-call(a), custom_call_target=\"x\", operand_layout_constraints={f32[4]{0}, f32[4]{0}}\n}",
                    "10:59", "Expected 1 operand layout constraints, 2 given");
  CHECK_PARSE_ERROR(head + "  ROOT r = f32[4] custom-call(a), custom_call_target=\"x\", operand_layout_constraints={f32[5]{0}}\n}",
                    "10:59", "Operand layout constraint shape f32[5]{0} for operand 0 is not compatible with operand shape f32[4]{0}");
  CHECK_PARSE_ERROR(head + "  ROOT r = f32[4] custom-call(a), custom_call_target=\"x\", api_version=API_VERSION_NEW\n}",
                    "10:71", "expects custom-call API version but sees: API_VERSION_NEW");
  CHECK_PARSE_ERROR(head + "  ROOT r = f32[4] negate(a), parameter_replication={true,false}\n}", "10:30",
                    "parameter has 1 leaf buffers, but parameter_replication has 2 elements.");
  CHECK_PARSE_ERROR(head + "  s = (f32[4], u32[], token[]) send(a, a), channel_id=1\n  ROOT d = token[] send-done(s), channel_id=2\n}",
                    "11:20", "channel_id 2 does not match channel_id 1 of operand s");
  CHECK_PARSE_ERROR(head + "  ROOT b = f32[4,4] broadcast(a)\n}", "10:21",
                    "attribute dimensions is expected but not seen");
  // A scalar operand makes `dimensions` optional.
  Parse(head + "  z = f32[] constant(0)\n  ROOT b = f32[4] broadcast(z)\n}");
  CHECK_PARSE_ERROR(head + "  ROOT m = map(a, a), to_apply=add\n}", "10:12",
                    "map without a result shape needs 'dimensions'");
  CHECK_PARSE_ERROR(head + "  ROOT d = f32[4] dot(a), lhs_contracting_dims={0}\n}", "10:22",
                    "expects 2 operands, but has 1 operands");
  // dot ignores extra operands, as XLA does.
  Parse(head + "  ROOT d = f32[] dot(a, a, a), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n}");
}

}  // namespace
}  // namespace hlolint::parse_testing
