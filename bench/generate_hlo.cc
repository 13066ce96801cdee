// Writes large, realistic HLO text for benchmarks, deterministically.
//
//   generate_hlo --size 200M [--seed N] [--style after|before] [-o FILE]
//
// "after" (default) resembles an after-optimizations GPU/TPU dump: a
// scheduled module with entry_computation_layout and input_output_alias,
// fused computations, tiled layouts, metadata with source locations, JSON
// backend configs, custom calls with output_to_operand_aliasing, while
// loops and big tuples. "before" resembles a before-optimizations dump: no
// layouts, no fusions, plain ops with metadata. The module is valid HLO and
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

struct Options {
  uint64_t size = 16 << 20;
  uint64_t seed = 1;
  bool after = true;
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
      o.after = std::strcmp(value(), "before") != 0;
    } else if (arg == "-o") {
      o.output = value();
    } else {
      std::fprintf(stderr, "usage: generate_hlo --size N[K|M|G] [--seed N] [--style after|before] [-o FILE]\n");
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
    if (o.after) {
      WriteAfter(w, o);
    } else {
      WriteBefore(w, o);
    }
  }
  if (out != stdout) std::fclose(out);
  return 0;
}
