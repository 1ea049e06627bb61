#include "glass/train/trainer.h"

#include <chrono>
#include <cmath>
#include <map>

#include "glass/io/config_json.h"
#include "glass/io/model_weights.h"
#include "glass/io/safetensors.h"
#include "glass/tensor/autograd.h"
#include "glass/tensor/error.h"

namespace glass::train {

namespace {
// Batch sampling draws from its own stream, so changing how the model is
// initialised never changes which windows are seen.
constexpr uint64_t kSamplerStream = 0x5EED0F5A3B1E5ull;
}  // namespace

Trainer::Trainer(nn::Model& model, const Corpus& corpus, TrainOptions options)
    : model_(model),
      corpus_(corpus),
      opt_(options),
      adamw_(model.named_parameters(), AdamWOptions{.weight_decay = options.weight_decay}),
      schedule_{options.lr, options.warmup, options.steps, 0.1},
      sampler_(options.seed ^ kSamplerStream) {
  if (opt_.steps <= 0 || opt_.batch <= 0) throw Error("train: steps and batch must be positive");
  if (!(opt_.lr > 0) || !std::isfinite(opt_.lr)) throw Error("train: learning rate must be positive and finite");
  if (corpus.ctx() > model.config().context)
    throw Error("train: context " + std::to_string(corpus.ctx()) + " exceeds the model's " +
                std::to_string(model.config().context));
}

double Trainer::validation_loss() const {
  NoGradGuard no_grad;
  auto windows = corpus_.validation_windows();
  if (opt_.eval_windows > 0 && static_cast<int64_t>(windows.size()) > opt_.eval_windows)
    windows.resize(static_cast<std::size_t>(opt_.eval_windows));
  double total = 0;
  std::size_t done = 0;
  constexpr std::size_t kChunk = 16;  // windows per forward pass
  while (done < windows.size()) {
    const std::size_t count = std::min(kChunk, windows.size() - done);
    std::vector<int32_t> ids;
    for (std::size_t i = 0; i < count; ++i) ids.insert(ids.end(), windows[done + i].begin(), windows[done + i].end());
    // every window has the same length, so the mean of chunk means weighted by count is the overall mean
    total += model_.forward(ids, static_cast<int64_t>(count)).loss.item() * static_cast<double>(count);
    done += count;
  }
  return total / static_cast<double>(windows.size());
}

namespace {
std::string number_word(double x) {
  if (std::isnan(x)) return "NaN";
  return x > 0 ? "infinity" : "-infinity";
}
}  // namespace

Progress Trainer::train_step() {
  using clock = std::chrono::steady_clock;
  if (step_ >= opt_.steps)
    throw Error("train: the run is finished (" + std::to_string(opt_.steps) + " steps); start a new one to train more");
  const auto t0 = clock::now();
  const uint64_t sampler_before = sampler_.state();
  const int64_t failing = step_ + 1;
  // a refused step leaves the run as it was: the sampler rewinds, no gradient survives
  auto diverged = [&](const std::string& what, const std::string& message) {
    sampler_.set_state(sampler_before);
    model_.zero_grad();
    return Diverged(failing, what, "step " + std::to_string(failing) + ": " + message + "; the update was not applied");
  };
  const std::vector<int32_t> ids = corpus_.sample_batch(sampler_, opt_.batch);
  model_.zero_grad();
  Progress p;
  {
    const nn::Model::Output out = model_.forward(ids, opt_.batch, nn::Model::Record::stream);
    p.loss = out.loss.item();
    if (!std::isfinite(p.loss)) throw diverged("loss", "the loss is " + number_word(p.loss));
    {
      NoGradGuard no_grad;
      const auto& items = out.snapshots.items();
      const std::size_t blocks = model_.blocks.size();
      // the stream holds the embedding, then two entries per block: its last is the block's output
      for (std::size_t depth = 0; depth <= blocks; ++depth) p.resid_rms.push_back(rms(items[depth == 0 ? 0 : 2 * depth].second));
    }
    out.loss.backward();
  }
  p.block_grad_norms = block_grad_norms(model_);
  p.grad_norm = clip_grad_norm(model_.named_parameters(), opt_.clip);
  if (!std::isfinite(p.grad_norm)) {
    const std::optional<std::string> where = non_finite_gradient(model_);
    if (where) throw diverged(*where, "the gradient of " + *where + " is not finite (NaN or infinity)");
    throw diverged("gradient", "the gradient's norm overflows (" + number_word(p.grad_norm) + ")");
  }
  p.lr = schedule_.at(step_);
  adamw_.step(p.lr);
  ++step_;

  p.step = step_;
  p.total = opt_.steps;
  p.seconds = std::chrono::duration<double>(clock::now() - t0).count();
  p.tokens_per_second = static_cast<double>(opt_.batch * corpus_.ctx()) / p.seconds;
  p.eta_seconds = p.seconds * static_cast<double>(opt_.steps - step_);
  const bool eval = step_ == opt_.steps || (opt_.eval_every > 0 && step_ % opt_.eval_every == 0);
  if (eval) p.val_loss = validation_loss();
  return p;
}

void Trainer::run(const std::function<void(const Progress&)>& on_step,
                  const std::function<void(const Progress&)>& on_checkpoint) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  const int64_t first = step_;
  const double tokens_per_step = static_cast<double>(opt_.batch * corpus_.ctx());
  while (step_ < opt_.steps) {
    Progress p = train_step();
    const double elapsed = std::chrono::duration<double>(clock::now() - t0).count();
    const double per_step = elapsed / static_cast<double>(step_ - first);
    p.tokens_per_second = tokens_per_step / per_step;
    p.eta_seconds = per_step * static_cast<double>(opt_.steps - step_);
    if (on_step) on_step(p);
    if (p.val_loss && on_checkpoint) on_checkpoint(p);
  }
}

std::vector<uint8_t> Trainer::checkpoint() const {
  io::NamedTensors tensors = model_.named_parameters();
  for (auto& [name, t] : tensors) t = t.detach();
  for (auto& [name, t] : adamw_.state()) tensors.emplace_back("adamw." + name, t);
  const std::map<std::string, std::string> meta{
      {"format", "glassllm-checkpoint"},
      {"step", std::to_string(step_)},
      {"steps", std::to_string(opt_.steps)},
      {"sampler", std::to_string(sampler_.state())},
      {"seed", std::to_string(opt_.seed)},
      {io::kConfigKey, io::config_to_json(model_.config())},
  };
  return io::serialize_safetensors(tensors, meta);
}

void Trainer::restore(std::span<const uint8_t> bytes) {
  const io::SafetensorsFile file = io::parse_safetensors(bytes);
  auto meta = [&](const char* key) {
    auto it = file.metadata.find(key);
    if (it == file.metadata.end()) throw Error(std::string("checkpoint: no \"") + key + "\" in its metadata (not a checkpoint?)");
    return it->second;
  };
  if (meta("format") != "glassllm-checkpoint") throw Error("checkpoint: not a glassllm checkpoint");
  // Checkpoints written before configs were recorded are of the default model,
  // in whatever dtype and sizes their shapes say.
  nn::Config written = model_.config();
  if (file.metadata.count(io::kConfigKey)) {
    try {
      written = io::config_from_json(meta(io::kConfigKey));
    } catch (const Error& e) {
      throw Error(std::string("checkpoint: ") + e.what());
    }
  } else {
    written.norm = nn::Config{}.norm;
    written.norm_kind = nn::Config{}.norm_kind;
    written.residual = nn::Config{}.residual;
  }
  if (const std::string diff = io::config_difference(written, model_.config(), io::ConfigFields::all); !diff.empty())
    throw Error("checkpoint: it was written for another model: " + diff + " (checkpoint vs this run)");
  std::map<std::string, Tensor> by_name, moments;
  for (const auto& [name, t] : file.tensors) {
    if (name.starts_with("adamw.")) moments.emplace(name.substr(6), t);
    else by_name.emplace(name, t);
  }
  int64_t step = 0;
  uint64_t sampler = 0;
  try {
    step = std::stoll(meta("step"));
    sampler = std::stoull(meta("sampler"));
  } catch (const std::logic_error&) {
    throw Error("checkpoint: step or sampler state in the metadata is not a number");
  }
  if (step < 0 || step > opt_.steps)
    throw Error("checkpoint: it is at step " + std::to_string(step) + ", beyond --steps " + std::to_string(opt_.steps));
  // check both parts before changing either: a refused checkpoint changes nothing
  const io::NamedTensors weights(by_name.begin(), by_name.end());
  io::check_weights(model_, weights);
  adamw_.load_state(moments, step);  // checks all moments, then assigns
  io::load_weights(model_, weights);  // checked above: cannot fail now
  sampler_.set_state(sampler);
  step_ = step;
}

std::vector<double> block_grad_norms(nn::Model& model) {
  std::vector<double> sums(model.blocks.size(), 0.0);
  for (std::size_t i = 0; i < sums.size(); ++i)
    model.blocks[i].visit("", [&](const std::string&, Tensor& p) {
      const Tensor g = p.grad();
      if (!g.defined()) return;
      dispatch(g.dtype(), [&](auto tag) {
        using T = decltype(tag);
        const Tensor c = g.contiguous();
        const T* x = c.template data<T>();
        double s = 0;
        for (int64_t j = 0, n = c.numel(); j < n; ++j) s += static_cast<double>(x[j]) * static_cast<double>(x[j]);
        sums[i] += s;
      });
    });
  for (double& s : sums) s = std::sqrt(s);
  return sums;
}

namespace {
bool all_finite(const Tensor& t) {
  bool ok = true;
  dispatch(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const Tensor c = t.contiguous();
    const T* x = c.template data<T>();
    for (int64_t j = 0, n = c.numel(); j < n && ok; ++j) ok = std::isfinite(x[j]);
  });
  return ok;
}
}  // namespace

std::optional<std::string> non_finite_gradient(nn::Model& model) {
  // parameter names are "<group>.<rest>", blocks "blocks.<i>.<rest>"
  auto group_of = [](const std::string& name) {
    const std::size_t dot = name.find('.');
    if (name.starts_with("blocks.")) return name.substr(0, name.find('.', dot + 1));
    return name.substr(0, dot);
  };
  const auto params = model.named_parameters();
  for (auto it = params.rbegin(); it != params.rend(); ++it) {
    const Tensor g = it->second.grad();
    if (g.defined() && !all_finite(g)) return group_of(it->first);
  }
  return std::nullopt;
}

double rms(const Tensor& t) {
  double s = 0;
  dispatch(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const Tensor c = t.contiguous();
    const T* x = c.template data<T>();
    for (int64_t j = 0, n = c.numel(); j < n; ++j) s += static_cast<double>(x[j]) * static_cast<double>(x[j]);
  });
  return t.numel() > 0 ? std::sqrt(s / static_cast<double>(t.numel())) : 0.0;
}

}  // namespace glass::train
