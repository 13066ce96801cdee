// Writes large, realistic HLO text for benchmarks, deterministically.
//
//   generate_hlo --size 200M [--seed N] [--style after|before|model] [-o FILE]
//
// "after" (default) resembles an after-optimizations GPU/TPU dump: a
// scheduled module with entry_computation_layout and input_output_alias,
// fused computations, tiled layouts, metadata with source locations, JSON
// backend configs, custom calls with output_to_operand_aliasing, while
// loops and big tuples. "before" resembles a before-optimizations dump: no
// layouts, no fusions, plain ops with metadata. "model" resembles a JAX
// train step after SPMD partitioning and before fusion (XLA's CPU and
// tools benchmark modules): short lines with untyped operands, dots,
// reshapes, transposes, converts, collectives on a few alternating replica
// groups, shardings, a small reduction computation per reduce, a sort and
// a scan-like while loop. The module is valid HLO and
// every layer repeats the same structure with varied names and shapes, so
// time per byte is comparable across sizes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "fmt/format.h"

namespace {

enum class Style { kAfter, kBefore, kModel };

struct Options {
  uint64_t size = 16 << 20;
  uint64_t seed = 1;
  Style style = Style::kAfter;
  std::string output;
};

uint64_t ParseSize(const char* text) {
  char* end = nullptr;
  double value = std::strtod(text, &end);
  switch (end && *end ? (*end | 0x20) : 0) {
    case 'k': value *= 1e3; break;
    case 'm': value *= 1e6; break;
    case 'g': value *= 1e9; break;
    default: break;
  }
  return static_cast<uint64_t>(value);
}

// Writes in large pieces at 2 MB-aligned offsets, as XLA writes a dump (one
// call for the whole text): where the file system keeps large folios, the
// page cache then holds the file in 2 MB folios, as it does a real dump.
class Writer {
 public:
  explicit Writer(std::FILE* out) : out_(out) {
    std::setvbuf(out_, nullptr, _IONBF, 0);
    buffer_.reserve(kPiece + (1 << 20));
  }
  ~Writer() { Flush(buffer_.size()); }
  template <typename... Args>
  void Line(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(buffer_), format, std::forward<Args>(args)...);
    buffer_.push_back('\n');
    if (buffer_.size() >= kPiece) Flush(kPiece);
  }
  uint64_t written() const { return written_ + buffer_.size(); }

 private:
  static constexpr size_t kPiece = size_t{8} << 20;  // a multiple of 2 MB

  void Flush(size_t bytes) {
    std::fwrite(buffer_.data(), 1, bytes, out_);
    written_ += bytes;
    buffer_.erase(0, bytes);
  }
  std::FILE* out_;
  std::string buffer_;
  uint64_t written_ = 0;
};

// Shapes used by one layer: activations [batch, hidden] and weights
// [hidden, hidden], picked from small sets so shape texts repeat as in real
// models.
struct LayerShape {
  int batch;
  int hidden;
};

constexpr int kBatches[] = {8, 16, 32, 64, 128, 256};
constexpr int kHiddens[] = {128, 256, 512, 1024, 2048, 4096};
constexpr const char* kFiles[] = {"model/attention.py", "model/mlp.py", "model/layers.py",
                                  "train/step.py", "optim/adam.py"};

std::string Layout2(bool after) { return after ? "{1,0:T(8,128)(2,1)}" : ""; }
std::string Layout1(bool after) { return after ? "{0:T(256)}" : ""; }

void WriteAfter(Writer& w, const Options& o) {
  std::mt19937_64 rng(o.seed);
  const int layers_estimate = static_cast<int>(o.size / 3400) + 1;
  const LayerShape base{kBatches[rng() % 6], kHiddens[rng() % 6]};
  const std::string act = fmt::format("f32[{},{}]", base.batch, base.hidden);
  const std::string actl = act + Layout2(true);
  const std::string wgt = fmt::format("bf16[{},{}]", base.hidden, base.hidden);
  const std::string wgtl = wgt + Layout2(true);
  const int params = 4;
  std::string entry_layout = "{(";
  for (int i = 0; i < params; ++i) entry_layout += wgtl + ", ";
  entry_layout += actl + ")->(" + actl + ", " + actl + ", " + wgtl + ")}";
  w.Line("HloModule jit_train_step, is_scheduled=true, entry_computation_layout={}, "
         "input_output_alias={{ {{2}}: (0, {{}}, may-alias) }}, num_partitions=1",
         entry_layout);
  w.Line("");
  w.Line("%add.reducer (x: f32[], y: f32[]) -> f32[] {{");
  w.Line("  %x = f32[] parameter(0)");
  w.Line("  %y = f32[] parameter(1)");
  w.Line("  ROOT %sum = f32[] add(f32[] %x, f32[] %y)");
  w.Line("}}");
  w.Line("");
  w.Line("%loop.cond (state: (s32[], {})) -> pred[] {{", actl);
  w.Line("  %state = (s32[], {}) parameter(0)", actl);
  w.Line("  %i = s32[] get-tuple-element((s32[], {}) %state), index=0", actl);
  w.Line("  %limit = s32[] constant(4)");
  w.Line("  ROOT %less = pred[] compare(s32[] %i, s32[] %limit), direction=LT");
  w.Line("}}");
  w.Line("");
  w.Line("%loop.body (state.1: (s32[], {})) -> (s32[], {}) {{", actl, actl);
  w.Line("  %state.1 = (s32[], {}) parameter(0)", actl);
  w.Line("  %i.1 = s32[] get-tuple-element((s32[], {}) %state.1), index=0", actl);
  w.Line("  %v.1 = {} get-tuple-element((s32[], {}) %state.1), index=1", actl, actl);
  w.Line("  %one = s32[] constant(1)");
  w.Line("  %next = s32[] add(s32[] %i.1, s32[] %one)");
  w.Line("  %scaled = {} multiply({} %v.1, {} %v.1)", actl, actl, actl);
  w.Line("  ROOT %out = (s32[], {}) tuple(s32[] %next, {} %scaled)", actl, actl);
  w.Line("}}");
  w.Line("");

  // Fused computations first (callees precede callers), then the entry.
  std::vector<std::string> entry;
  entry.reserve(static_cast<size_t>(layers_estimate) * 12);
  std::string prev = "%Arg_0.1";
  entry.push_back(fmt::format("  %Arg_0.1 = {} parameter(0), metadata={{op_name=\"params[0]\"}}", wgtl));
  for (int i = 1; i < params; ++i) {
    entry.push_back(fmt::format("  %Arg_{0}.{1} = {2} parameter({0}), metadata={{op_name=\"params[{0}]\"}}",
                                i, i + 1, wgtl));
  }
  entry.push_back(fmt::format("  %input = {} parameter({})", actl, params));
  std::string x = "%input";
  int layer = 0;
  uint64_t entry_bytes = 0;
  auto push = [&](std::string line) {
    entry_bytes += line.size() + 1;
    entry.push_back(std::move(line));
  };
  while (w.written() + entry_bytes < o.size) {
    const char* file = kFiles[rng() % 5];
    const int line = static_cast<int>(rng() % 900) + 10;
    const std::string meta = fmt::format(
        "metadata={{op_type=\"{}\" op_name=\"jit(train_step)/jvp(transformer)/layer_{}/{}\" "
        "source_file=\"{}\" source_line={}}}",
        layer % 2 ? "mul" : "add", layer, layer % 2 ? "mul" : "add", file, line);
    // Elementwise fusion: tanh(x * w_diag + b).
    w.Line("%fused_computation.{} (param_0.{}: {}, param_1.{}: {}) -> {} {{", layer, layer, act,
           layer, act, act);
    w.Line("  %param_0.{} = {} parameter(0)", layer, actl);
    w.Line("  %param_1.{} = {} parameter(1)", layer, actl);
    w.Line("  %multiply.{0} = {1} multiply({1} %param_0.{0}, {1} %param_1.{0}), {2}", layer, actl, meta);
    w.Line("  %constant.{} = f32[] constant(0.5)", layer);
    w.Line("  %broadcast.{0} = {1} broadcast(f32[] %constant.{0}), dimensions={{}}", layer, actl);
    w.Line("  %add.{0} = {1} add({1} %multiply.{0}, {1} %broadcast.{0}), {2}", layer, actl, meta);
    w.Line("  ROOT %tanh.{0} = {1} tanh({1} %add.{0}), {2}", layer, actl, meta);
    w.Line("}}");
    w.Line("");
    // Reduction fusion.
    w.Line("%fused_reduce.{} (param_0.r{}: {}) -> f32[{}] {{", layer, layer, act, base.batch);
    w.Line("  %param_0.r{} = {} parameter(0)", layer, actl);
    w.Line("  %zero.{} = f32[] constant(0)", layer);
    w.Line("  ROOT %reduce.{0} = f32[{1}]{2} reduce({3} %param_0.r{0}, f32[] %zero.{0}), "
           "dimensions={{1}}, to_apply=%add.reducer, {4}",
           layer, base.batch, Layout1(true), actl, meta);
    w.Line("}}");
    w.Line("");
    // In-place update fusion (dynamic-update-slice on parameter 0).
    w.Line("%fused_update.{} (param_0.u{}: {}, param_1.u{}: f32[1,{}], param_2.u{}: s32[]) -> {} {{",
           layer, layer, act, layer, base.hidden, layer, act);
    w.Line("  %param_0.u{} = {} parameter(0)", layer, actl);
    w.Line("  %param_1.u{} = f32[1,{}]{} parameter(1)", layer, base.hidden, Layout2(true));
    w.Line("  %param_2.u{} = s32[] parameter(2)", layer);
    w.Line("  %zero_idx.{} = s32[] constant(0)", layer);
    w.Line("  ROOT %dus.{0} = {1} dynamic-update-slice({1} %param_0.u{0}, f32[1,{2}]{3} %param_1.u{0}, "
           "s32[] %param_2.u{0}, s32[] %zero_idx.{0}), {4}",
           layer, actl, base.hidden, Layout2(true), meta);
    w.Line("}}");
    w.Line("");

    const std::string bias = fmt::format("%bias.{}", layer);
    push(fmt::format("  {} = {} broadcast(f32[] %scale), dimensions={{}}", bias, actl));
    push(fmt::format(
        "  %fusion.{0} = {1} fusion({1} {2}, {1} {3}), kind=kLoop, calls=%fused_computation.{0}, {4}, "
        "backend_config={{\"operation_queue_id\":\"0\",\"wait_on_operation_queues\":[],"
        "\"fusion_backend_config\":{{\"kind\":\"__loop\"}}}}",
        layer, actl, x, bias, meta));
    push(fmt::format(
        "  %reduce_fusion.{0} = f32[{1}]{2} fusion({3} %fusion.{0}), kind=kInput, "
        "calls=%fused_reduce.{0}, {4}",
        layer, base.batch, Layout1(true), actl, meta));
    push(fmt::format(
        "  %cublas.{0} = ({1}, s8[4194304]{{0}}) custom-call({1} %fusion.{0}, {1} %fusion.{0}), "
        "custom_call_target=\"__cublas$gemm\", {2}, backend_config={{\"gemm_backend_config\":"
        "{{\"alpha_real\":1,\"beta\":0,\"dot_dimension_numbers\":{{\"lhs_contracting_dimensions\":[\"1\"],"
        "\"rhs_contracting_dimensions\":[\"1\"]}},\"epilogue\":\"DEFAULT\"}}}}",
        layer, actl, meta));
    push(fmt::format("  %gemm.{0} = {1} get-tuple-element(({1}, s8[4194304]{{0}}) %cublas.{0}), index=0",
                                layer, actl));
    push(fmt::format("  %row.{0} = f32[1,{1}]{2} slice({3} %gemm.{0}), slice={{[0:1], [0:{1}]}}",
                                layer, base.hidden, Layout2(true), actl));
    push(fmt::format("  %idx.{} = s32[] constant({})", layer, layer % base.batch));
    push(fmt::format(
        "  %update.{0} = {1} fusion({1} %gemm.{0}, f32[1,{2}]{3} %row.{0}, s32[] %idx.{0}), kind=kLoop, "
        "calls=%fused_update.{0}, output_to_operand_aliasing={{{{}}: (0, {{}})}}",
        layer, actl, base.hidden, Layout2(true)));
    x = fmt::format("%update.{}", layer);
    if (layer % 16 == 15) {
      push(fmt::format("  %init.{} = s32[] constant(0)", layer));
      push(fmt::format("  %loop_in.{0} = (s32[], {1}) tuple(s32[] %init.{0}, {1} {2})", layer, actl, x));
      push(fmt::format(
          "  %while.{0} = (s32[], {1}) while((s32[], {1}) %loop_in.{0}), condition=%loop.cond, "
          "body=%loop.body, backend_config={{\"known_trip_count\":{{\"n\":\"4\"}}}}",
          layer, actl));
      push(fmt::format("  %loop_out.{0} = {1} get-tuple-element((s32[], {1}) %while.{0}), index=1", layer, actl));
      x = fmt::format("%loop_out.{}", layer);
    }
    ++layer;
  }
  w.Line("ENTRY %main.{} ({}) -> ({}, {}, {}) {{", layer,
         [&] {
           std::string s;
           for (int i = 0; i < params; ++i) s += fmt::format("Arg_{}.{}: {}, ", i, i + 1, wgt);
           return s + "input: " + act;
         }(),
         act, act, wgt);
  entry.insert(entry.begin() + params + 1, "  %scale = f32[] constant(1)");
  for (const std::string& line : entry) w.Line("{}", line);
  w.Line("  ROOT %result = ({0}, {0}, {1}) tuple({0} {2}, {0} %fusion.0, {1} %Arg_0.1)", actl,
         wgtl, x);
  w.Line("}}");
}

void WriteBefore(Writer& w, const Options& o) {
  std::mt19937_64 rng(o.seed);
  const LayerShape base{kBatches[rng() % 6], kHiddens[rng() % 6]};
  const std::string act = fmt::format("f32[{},{}]", base.batch, base.hidden);
  w.Line("HloModule jit_forward, entry_computation_layout={{({})->{}}}", act, act);
  w.Line("");
  w.Line("%region_add (a: f32[], b: f32[]) -> f32[] {{");
  w.Line("  %a = f32[] parameter(0)");
  w.Line("  %b = f32[] parameter(1)");
  w.Line("  ROOT %s = f32[] add(f32[] %a, f32[] %b)");
  w.Line("}}");
  w.Line("");
  w.Line("ENTRY %main (x: {}) -> {} {{", act, act);
  w.Line("  %x = {} parameter(0)", act);
  w.Line("  %half = f32[] constant(0.5)");
  w.Line("  %zero = f32[] constant(0)");
  std::string x = "%x";
  int layer = 0;
  while (w.written() + 800 < o.size) {
    const char* file = kFiles[rng() % 5];
    const int line = static_cast<int>(rng() % 900) + 10;
    const std::string meta = fmt::format(
        "metadata={{op_type=\"op\" op_name=\"jit(forward)/layer_{}\" source_file=\"{}\" source_line={}}}",
        layer, file, line);
    w.Line("  %b.{0} = {1} broadcast(f32[] %half), dimensions={{}}, {2}", layer, act, meta);
    w.Line("  %m.{0} = {1} multiply({1} {2}, {1} %b.{0}), {3}", layer, act, x, meta);
    w.Line("  %t.{0} = {1} tanh({1} %m.{0}), {2}", layer, act, meta);
    w.Line("  %r.{0} = f32[{1}] reduce({2} %t.{0}, f32[] %zero), dimensions={{1}}, to_apply=%region_add, {3}",
           layer, base.batch, act, meta);
    w.Line("  %rb.{0} = {1} broadcast(f32[{2}] %r.{0}), dimensions={{0}}, {3}", layer, act, base.batch, meta);
    w.Line("  %a.{0} = {1} add({1} %t.{0}, {1} %rb.{0}), {2}", layer, act, meta);
    x = fmt::format("%a.{}", layer);
    ++layer;
  }
  w.Line("  ROOT %out = {0} copy({0} {1})", act, x);
  w.Line("}}");
}


// One transformer layer per iteration (RMS norm, attention with a causal
// mask, an MLP), on 8 partitions: weights arrive sharded and are gathered,
// partial sums are all-reduced. Names carry one module-wide counter, as
// JAX's do.
void WriteModel(Writer& w, const Options& o) {
  std::mt19937_64 rng(o.seed);
  constexpr int kSeqs[] = {128, 256, 512};
  constexpr int kModelHiddens[] = {512, 1024, 2048};
  const int S = kSeqs[rng() % 3];
  const int H = kModelHiddens[rng() % 3];
  const int N = 8, D = H / N, F = H / 2;  // F: the MLP width per partition (4H / 8)
  constexpr int kWeightSets = 16;         // layers cycle through these weights
  const std::string x_shape = fmt::format("bf16[{},{}]{{1,0}}", S, H);
  const std::string wq = fmt::format("bf16[{},{}]", H / 8, H);
  const std::string wu = fmt::format("bf16[{},{}]", H, F);
  const std::string wd = fmt::format("bf16[{},{}]", F, H);
  const std::string input = fmt::format("bf16[{},{}]", S, H);
  std::vector<std::string> param_shapes{input};
  for (int k = 0; k < kWeightSets; ++k) {
    param_shapes.push_back(wq);
    param_shapes.push_back(wu);
    param_shapes.push_back(wd);
  }
  const auto with_layout = [](const std::string& shape) { return shape + "{1,0}"; };
  // entry_computation_layout and the ROOT tuple print /*index=N*/ every five.
  const auto listed = [&](bool layouts) {
    std::string list;
    for (size_t i = 0; i < param_shapes.size(); ++i) {
      if (i != 0) list += ", ";
      if (i != 0 && i % 5 == 0) list += fmt::format("/*index={}*/", i);
      list += layouts ? with_layout(param_shapes[i]) : param_shapes[i];
    }
    return list;
  };
  std::string aliases;
  for (size_t i = 1; i < param_shapes.size(); ++i) {
    aliases += fmt::format("{}{{{}}}: ({}, {{}}, may-alias)", i == 1 ? "" : ", ", i, i);
  }
  w.Line("HloModule jit_train_step, input_output_alias={{ {} }}, entry_computation_layout={{({})->({})}}, "
         "allow_spmd_sharding_propagation_to_output={{true}}, num_partitions=8",
         aliases, listed(true), listed(true));
  w.Line("");
  int counter = 1;
  const auto next = [&](const char* prefix) { return fmt::format("%{}.{}", prefix, counter++); };
  const auto bare = [](const std::string& name) { return name.substr(1); };

  // The scan: row i of the carried activations scaled in place.
  const std::string cond = next("region_cond"), body = next("region_body");
  const std::string carry = fmt::format("(s32[], {})", x_shape);
  {
    const std::string p = next("arg_tuple"), i = next("get-tuple-element"), n = next("constant"),
                      lt = next("lt");
    w.Line("{} ({}: {}) -> pred[] {{", cond, bare(p), carry);
    w.Line("  {} = {} parameter(0)", p, carry);
    w.Line("  {} = s32[] get-tuple-element({}), index=0", i, p);
    w.Line("  {} = s32[] constant({})", n, S);
    w.Line("  ROOT {} = pred[] compare({}, {}), direction=LT", lt, i, n);
    w.Line("}}");
    w.Line("");
    const std::string q = next("arg_tuple"), j = next("get-tuple-element"),
                      v = next("get-tuple-element"), zero = next("constant"),
                      row = next("dynamic-slice"), twice = next("add"),
                      put = next("dynamic-update-slice"), one = next("constant"), inc = next("add"),
                      out = next("tuple");
    w.Line("{} ({}: {}) -> {} {{", body, bare(q), carry, carry);
    w.Line("  {} = {} parameter(0)", q, carry);
    w.Line("  {} = s32[] get-tuple-element({}), index=0", j, q);
    w.Line("  {} = {} get-tuple-element({}), index=1", v, x_shape, q);
    w.Line("  {} = s32[] constant(0)", zero);
    w.Line("  {} = bf16[1,{}]{{1,0}} dynamic-slice({}, {}, {}), dynamic_slice_sizes={{1,{}}}", row, H,
           v, j, zero, H);
    w.Line("  {} = bf16[1,{}]{{1,0}} add({}, {})", twice, H, row, row);
    w.Line("  {} = {} dynamic-update-slice({}, {}, {}, {})", put, x_shape, v, twice, j, zero);
    w.Line("  {} = s32[] constant(1)", one);
    w.Line("  {} = s32[] add({}, {})", inc, j, one);
    w.Line("  ROOT {} = {} tuple({}, {})", out, carry, inc, put);
    w.Line("}}");
    w.Line("");
  }
  // A reduction computation of its own for each use, as JAX emits them.
  const auto region = [&](const char* type, const char* op, const char* arg) {
    const std::string name = next("region"), a = next(arg), b = next(arg), r = next(arg);
    w.Line("{} ({}: {}[], {}: {}[]) -> {}[] {{", name, bare(a), type, bare(b), type, type);
    w.Line("  {} = {}[] parameter(0)", a, type);
    w.Line("  {} = {}[] parameter(1)", b, type);
    w.Line("  ROOT {} = {}[] {}({}, {})", r, type, op, a, b);
    w.Line("}}");
    w.Line("");
    return name;
  };
  const auto comparator = [&] {
    const std::string name = next("compare-greater-than"), a = next("Arg_0"), b = next("Arg_1"),
                      c = next("Arg_2"), d = next("Arg_3"), gt = next("gt");
    w.Line("{} ({}: f32[], {}: f32[], {}: s32[], {}: s32[]) -> pred[] {{", name, bare(a), bare(b),
           bare(c), bare(d));
    w.Line("  {} = f32[] parameter(0)", a);
    w.Line("  {} = f32[] parameter(1)", b);
    w.Line("  {} = s32[] parameter(2)", c);
    w.Line("  {} = s32[] parameter(3)", d);
    w.Line("  ROOT {} = pred[] compare({}, {}), direction=GT", gt, a, b);
    w.Line("}}");
    w.Line("");
    return name;
  };

  std::vector<std::string> entry;
  uint64_t entry_bytes = 0;
  const auto push = [&](std::string line) {
    entry_bytes += line.size() + 1;
    entry.push_back(std::move(line));
  };
  std::vector<std::string> params;
  params.push_back(next("param"));
  push(fmt::format("  {} = {} parameter(0), sharding={{replicated}}", params[0], x_shape));
  for (int k = 0; k < kWeightSets; ++k) {
    const char* shardings[] = {"{devices=[8,1]<=[8]}", "{devices=[1,8]<=[8]}", "{devices=[8,1]<=[8]}"};
    for (int j = 0; j < 3; ++j) {
      params.push_back(next("param"));
      push(fmt::format("  {} = {} parameter({}), sharding={}", params.back(),
                       with_layout(param_shapes[params.size() - 1]), params.size() - 1,
                       shardings[j]));
    }
  }
  const std::string zero = next("constant"), ninf = next("constant"), inv_h = next("constant"),
                    eps = next("constant"), zero_s = next("constant");
  push(fmt::format("  {} = f32[] constant(0)", zero));
  push(fmt::format("  {} = f32[] constant(-inf)", ninf));
  push(fmt::format("  {} = f32[] constant(0.000976562)", inv_h));
  push(fmt::format("  {} = f32[] constant(1e-06)", eps));
  push(fmt::format("  {} = s32[] constant(0)", zero_s));
  const std::string b_inv = next("broadcast"), b_eps = next("broadcast"), b_zero = next("broadcast"),
                    iota_rows = next("iota"), iota_cols = next("iota"), causal = next("ge"),
                    mask = next("broadcast"), iota_s = next("iota");
  const std::string nss = fmt::format("[{},{},{}]{{2,1,0}}", N, S, S);
  const std::string sd = fmt::format("[{}]{{0}}", S);
  push(fmt::format("  {} = f32{} broadcast({}), dimensions={{}}", b_inv, sd, inv_h));
  push(fmt::format("  {} = f32{} broadcast({}), dimensions={{}}", b_eps, sd, eps));
  push(fmt::format("  {} = f32{} broadcast({}), dimensions={{}}", b_zero, nss, zero));
  push(fmt::format("  {} = s32[{},{}]{{1,0}} iota(), iota_dimension=0", iota_rows, S, S));
  push(fmt::format("  {} = s32[{},{}]{{1,0}} iota(), iota_dimension=1", iota_cols, S, S));
  push(fmt::format("  {} = pred[{},{}]{{1,0}} compare({}, {}), direction=GE", causal, S, S, iota_rows,
                   iota_cols));
  push(fmt::format("  {} = pred{} broadcast({}), dimensions={{1,2}}", mask, nss, causal));
  push(fmt::format("  {} = s32{} iota(), iota_dimension=0", iota_s, sd));

  constexpr const char* kGroups[] = {"[1,8]<=[8]", "[2,4]<=[8]", "[4,2]<=[2,4]T(1,0)"};
  int channel = 1;
  std::string x = params[0];
  int layer = 0;
  while (w.written() + entry_bytes < o.size) {
    const int set = layer % kWeightSets;
    const std::string& w_qkv = params[1 + 3 * set];
    const std::string& w_up = params[2 + 3 * set];
    const std::string& w_down = params[3 + 3 * set];
    const std::string meta = fmt::format(
        "metadata={{op_name=\"jit(train_step)/jvp(transformer)/layer_{}/dot_general\" "
        "source_file=\"{}\" source_line={}}}",
        layer, kFiles[rng() % 5], rng() % 900 + 10);
    const std::string sum_norm = region("f32", "add", "reduce_sum"),
                      max_scores = region("f32", "maximum", "reduce_max"),
                      sum_scores = region("f32", "add", "reduce_sum"),
                      sum_attn = region("bf16", "add", "add"),
                      sum_mlp = region("bf16", "add", "add"), greater = comparator();
    const std::string sh = fmt::format("[{},{}]{{1,0}}", S, H);
    const std::string snd = fmt::format("[{},{},{}]{{2,1,0}}", S, N, D);
    const std::string nsd = fmt::format("[{},{},{}]{{2,1,0}}", N, S, D);
    const std::string ns = fmt::format("[{},{}]{{1,0}}", N, S);
    const std::string sf = fmt::format("[{},{}]{{1,0}}", S, F);
    // RMS norm.
    const std::string gathered = next("all-gather"), wide = next("convert_element_type"),
                      square = next("square"), sum = next("reduce"), mean = next("div"),
                      shifted = next("add"), rsqrt = next("rsqrt"), spread = next("mul"),
                      normed = next("mul"), narrow = next("convert_element_type"),
                      pinned = next("sharding_constraint");
    push(fmt::format("  {} = bf16[{},{}]{{1,0}} all-gather({}), channel_id={}, replica_groups=[1,8]<=[8], "
                     "dimensions={{0}}, use_global_device_ids=true",
                     gathered, H, H, w_qkv, channel++));
    push(fmt::format("  {} = f32{} convert({})", wide, sh, x));
    push(fmt::format("  {} = f32{} multiply({}, {})", square, sh, wide, wide));
    push(fmt::format("  {} = f32{} reduce({}, {}), dimensions={{1}}, to_apply={}", sum, sd, square, zero,
                     sum_norm));
    push(fmt::format("  {} = f32{} multiply({}, {})", mean, sd, sum, b_inv));
    push(fmt::format("  {} = f32{} add({}, {})", shifted, sd, mean, b_eps));
    push(fmt::format("  {} = f32{} rsqrt({})", rsqrt, sd, shifted));
    push(fmt::format("  {} = f32{} broadcast({}), dimensions={{0}}", spread, sh, rsqrt));
    push(fmt::format("  {} = f32{} multiply({}, {})", normed, sh, wide, spread));
    push(fmt::format("  {} = bf16{} convert({})", narrow, sh, normed));
    push(fmt::format("  {} = bf16{} copy({})", pinned, sh, narrow));
    // Attention.
    const std::string qkv = next("dot"), heads = next("reshape"), by_head = next("transpose"),
                      scores = next("dot"), scores32 = next("convert_element_type"),
                      top = next("reduce"), top_b = next("broadcast"), centered = next("sub"),
                      expd = next("exp"), total = next("reduce"), total_b = next("broadcast"),
                      probs = next("div"), masked = next("select_n"),
                      probs16 = next("convert_element_type"), mixed = next("dot"),
                      back = next("transpose"), flat = next("reshape"), reduced = next("all-reduce"),
                      residual = next("add");
    push(fmt::format("  {} = bf16{} dot({}, {}), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}, {}",
                     qkv, sh, pinned, gathered, meta));
    push(fmt::format("  {} = bf16{} reshape({})", heads, snd, qkv));
    push(fmt::format("  {} = bf16{} transpose({}), dimensions={{1,0,2}}", by_head, nsd, heads));
    push(fmt::format("  {} = bf16{} dot({}, {}), lhs_batch_dims={{0}}, lhs_contracting_dims={{2}}, "
                     "rhs_batch_dims={{0}}, rhs_contracting_dims={{2}}",
                     scores, nss, by_head, by_head));
    push(fmt::format("  {} = f32{} convert({})", scores32, nss, scores));
    push(fmt::format("  {} = f32{} reduce({}, {}), dimensions={{2}}, to_apply={}", top, ns, scores32, ninf,
                     max_scores));
    push(fmt::format("  {} = f32{} broadcast({}), dimensions={{0,1}}", top_b, nss, top));
    push(fmt::format("  {} = f32{} subtract({}, {})", centered, nss, scores32, top_b));
    push(fmt::format("  {} = f32{} exponential({})", expd, nss, centered));
    push(fmt::format("  {} = f32{} reduce({}, {}), dimensions={{2}}, to_apply={}", total, ns, expd, zero,
                     sum_scores));
    push(fmt::format("  {} = f32{} broadcast({}), dimensions={{0,1}}", total_b, nss, total));
    push(fmt::format("  {} = f32{} divide({}, {})", probs, nss, expd, total_b));
    push(fmt::format("  {} = f32{} select({}, {}, {})", masked, nss, mask, probs, b_zero));
    push(fmt::format("  {} = bf16{} convert({})", probs16, nss, masked));
    push(fmt::format("  {} = bf16{} dot({}, {}), lhs_batch_dims={{0}}, lhs_contracting_dims={{2}}, "
                     "rhs_batch_dims={{0}}, rhs_contracting_dims={{1}}",
                     mixed, nsd, probs16, by_head));
    push(fmt::format("  {} = bf16{} transpose({}), dimensions={{1,0,2}}", back, snd, mixed));
    push(fmt::format("  {} = bf16{} reshape({})", flat, sh, back));
    push(fmt::format("  {} = bf16{} all-reduce({}), channel_id={}, replica_groups={}, "
                     "use_global_device_ids=true, to_apply={}",
                     reduced, sh, flat, channel++, kGroups[layer % 3], sum_attn));
    push(fmt::format("  {} = bf16{} add({}, {})", residual, sh, x, reduced));
    // Which rows score highest: a sort of (value, index) pairs.
    const std::string sorted = next("sort"), best = next("get-tuple-element"),
                      best_at = next("get-tuple-element");
    push(fmt::format("  {} = (f32{}, s32{}) sort({}, {}), dimensions={{0}}, is_stable=true, to_apply={}",
                     sorted, sd, sd, sum, iota_s, greater));
    push(fmt::format("  {} = f32{} get-tuple-element({}), index=0", best, sd, sorted));
    push(fmt::format("  {} = s32{} get-tuple-element({}), index=1", best_at, sd, sorted));
    // MLP, its halves swapped through slices and a concatenate.
    const std::string up = next("dot"), gate = next("logistic"), act = next("mul"), down = next("dot"),
                      summed = next("all-reduce"), first = next("slice"), second = next("slice"),
                      swapped = next("concatenate"), out = next("add");
    push(fmt::format("  {} = bf16{} dot({}, {}), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}, {}",
                     up, sf, residual, w_up, meta));
    push(fmt::format("  {} = bf16{} logistic({})", gate, sf, up));
    push(fmt::format("  {} = bf16{} multiply({}, {})", act, sf, up, gate));
    push(fmt::format("  {} = bf16{} dot({}, {}), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}",
                     down, sh, act, w_down));
    push(fmt::format("  {} = bf16{} all-reduce({}), channel_id={}, replica_groups={}, "
                     "use_global_device_ids=true, to_apply={}",
                     summed, sh, down, channel++, kGroups[(layer + 1) % 3], sum_mlp));
    push(fmt::format("  {} = bf16[{},{}]{{1,0}} slice({}), slice={{[0:{}], [0:{}]}}", first, S / 2, H,
                     summed, S / 2, H));
    push(fmt::format("  {} = bf16[{},{}]{{1,0}} slice({}), slice={{[{}:{}], [0:{}]}}", second, S / 2, H,
                     summed, S / 2, S, H));
    push(fmt::format("  {} = bf16{} concatenate({}, {}), dimensions={{0}}", swapped, sh, second, first));
    push(fmt::format("  {} = bf16{} add({}, {})", out, sh, residual, swapped));
    x = out;
    if (layer % 8 == 7) {
      const std::string init = next("tuple"), loop = next("while"), result = next("get-tuple-element");
      push(fmt::format("  {} = {} tuple({}, {})", init, carry, zero_s, x));
      push(fmt::format("  {} = {} while({}), condition={}, body={}", loop, carry, init, cond, body));
      push(fmt::format("  {} = {} get-tuple-element({}), index=1", result, x_shape, loop));
      x = result;
    }
    ++layer;
  }
  std::string signature;
  for (size_t i = 0; i < params.size(); ++i) {
    signature += fmt::format("{}{}: {}", i == 0 ? "" : ", ", bare(params[i]), param_shapes[i]);
  }
  w.Line("ENTRY %main.{}_spmd ({}) -> ({}) {{", counter++, signature, listed(false));
  for (const std::string& line : entry) w.Line("{}", line);
  std::string results = x;
  for (size_t i = 1; i < params.size(); ++i) {
    results += fmt::format(", {}{}", i % 5 == 0 ? fmt::format("/*index={}*/", i) : "", params[i]);
  }
  w.Line("  ROOT {} = ({}) tuple({})", next("tuple"), listed(true), results);
  w.Line("}}");
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "generate_hlo: %s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--size") {
      o.size = ParseSize(value());
    } else if (arg == "--seed") {
      o.seed = std::strtoull(value(), nullptr, 10);
    } else if (arg == "--style") {
      const std::string style = value();
      if (style == "after") {
        o.style = Style::kAfter;
      } else if (style == "before") {
        o.style = Style::kBefore;
      } else if (style == "model") {
        o.style = Style::kModel;
      } else {
        std::fprintf(stderr, "generate_hlo: --style is after, before or model, not '%s'\n", style.c_str());
        return 2;
      }
    } else if (arg == "-o") {
      o.output = value();
    } else {
      std::fprintf(stderr, "usage: generate_hlo --size N[K|M|G] [--seed N] [--style after|before|model] [-o FILE]\n");
      return 2;
    }
  }
  std::FILE* out = o.output.empty() ? stdout : std::fopen(o.output.c_str(), "wb");
  if (out == nullptr) {
    std::perror(o.output.c_str());
    return 2;
  }
  {
    Writer w(out);
    switch (o.style) {
      case Style::kAfter: WriteAfter(w, o); break;
      case Style::kBefore: WriteBefore(w, o); break;
      case Style::kModel: WriteModel(w, o); break;
    }
  }
  if (out != stdout) std::fclose(out);
  return 0;
}
