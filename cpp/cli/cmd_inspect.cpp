// glassllm inspect --weights W --text T [--eps E] [--dtype f32|f64] [--json OUT]
// One forward and backward of the next-byte loss on T; prints a summary and
// optionally writes every snapshot and gradient as JSON:
//   { "loss": x, "snapshots": { name: { "shape": [...], "data": [...] } },
//     "grads": { snapshot or parameter name: { ... } } }
// with the batch axis removed.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/load_model.h"
#include "cli/tensor_json.h"
#include "cli/threads_flag.h"
#include "glass/io/bytes.h"
#include "glass/io/safetensors.h"
#include "glass/tensor/error.h"

namespace glass::cli {

namespace {

template <class Real>
std::string inspect_json(nn::Model& model, const nn::Model::Output& out) {
  Json<Real> snapshots = Json<Real>::object(), grads = Json<Real>::object();
  for (const auto& [name, t] : out.snapshots.items()) {
    snapshots[name] = tensor_json<Real>(t, true);
    if (t.grad().defined()) grads[name] = tensor_json<Real>(t.grad(), true);
  }
  for (const auto& [name, p] : model.named_parameters()) grads[name] = tensor_json<Real>(p.grad(), false);
  const Json<Real> doc = {{"loss", static_cast<Real>(out.loss.item())},
                          {"snapshots", std::move(snapshots)},
                          {"grads", std::move(grads)}};
  return doc.dump() + "\n";
}

double rms(const Tensor& t) {
  double s = 0;
  const auto v = t.to_vector();
  for (double x : v) s += x * x;
  return v.empty() ? 0 : std::sqrt(s / static_cast<double>(v.size()));
}

}  // namespace

int run_inspect(const Argv& argv) {
  const Args args(argv, with_threads_flag({"weights", "text", "eps", "dtype", "json"}));
  apply_threads_flag(args);
  const DType dtype = args.dtype("dtype", DType::f32);
  if (auto path = args.text_or("json")) io::check_writable(*path, "--json");
  auto model = load_model(args.text("weights"), dtype);
  if (auto eps = args.text_or("eps")) model->set_eps(args.number("eps", 0, 0, 1e6));
  const std::vector<int32_t> ids = io::encode_bytes(args.text("text"));
  if (ids.size() < 2) throw UsageError{"--text needs at least 2 bytes (the loss predicts each next byte)"};
  if (static_cast<int64_t>(ids.size()) > model->config().context)
    throw UsageError{"--text is " + std::to_string(ids.size()) + " bytes; the model's context is " +
                     std::to_string(model->config().context)};

  auto out = model->forward(ids, 1, /*record_snapshots=*/true);
  out.loss.backward();
  std::printf("loss %.6f nats/byte over %zu predictions (%s, eps %g)\n", out.loss.item(), ids.size() - 1,
              std::string(dtype_name(dtype)).c_str(), model->eps());
  std::printf("%-24s %-12s %12s %12s\n", "snapshot", "shape", "rms", "grad rms");
  for (const auto& [name, t] : out.snapshots.items()) {
    Shape s = t.shape();
    s.erase(s.begin());
    std::printf("%-24s %-12s %12.5g %12.5g\n", name.c_str(), to_string(s).c_str(), rms(t),
                t.grad().defined() ? rms(t.grad()) : 0.0);
  }

  if (auto path = args.text_or("json")) {
    const std::string json = dtype == DType::f32 ? inspect_json<float>(*model, out) : inspect_json<double>(*model, out);
    io::write_file(*path, std::span(reinterpret_cast<const uint8_t*>(json.data()), json.size()));
    std::printf("wrote %s (%zu bytes)\n", path->c_str(), json.size());
  }
  return 0;
}

}  // namespace glass::cli
