// glassllm train --text FILE --out W [--steps N] [--batch B] [--lr LR] [--seed S]
//                [--resume CKPT] [--warmup N] [--eval-every N] [--clip C] [--log-json LOG]
//                [model flags: --blocks --d --heads --ctx --norm --norm-kind --no-residual --eps --init-scale --dtype]
// Writes W (weights only, in the model's dtype, with its config: what the app
// loads) and W.ckpt (weights, optimizer moments, step and sampler state) after
// every evaluation, so an interrupted run resumes with --resume W.ckpt exactly
// where it stopped (given the same model flags). --ctx is the model's context
// and the length of every training window.
//
// --log-json LOG writes one JSON object per step and line:
//   {"step": 1, "loss": 5.54, "lr": 1e-05, "grad_norm": 0.81, "block_grad_norms": [0.3, ...], "resid_rms": [...]}
// with "val_loss" added on evaluation steps; gradient norms are global L2
// norms before clipping, one per block over that block's parameters;
// resid_rms is the residual stream's RMS over the batch by depth (the
// embedding, then after each block: docs/model.md). A
// resumed run appends to LOG.
//
// A step whose loss or gradient is not finite stops the run (exit 1) with a
// message naming the step and what blew up; W and W.ckpt keep the last
// evaluation's state.
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/model_flags.h"
#include "cli/progress.h"
#include "cli/threads_flag.h"
#include "glass/io/model_weights.h"
#include "glass/io/safetensors.h"
#include "glass/tensor/error.h"
#include "glass/train/trainer.h"

namespace glass::cli {

namespace {
std::string log_line(const train::Progress& p) {
  nlohmann::ordered_json line = {{"step", p.step},
                                 {"loss", p.loss},
                                 {"lr", p.lr},
                                 {"grad_norm", p.grad_norm},
                                 {"block_grad_norms", p.block_grad_norms},
                                 {"resid_rms", p.resid_rms}};
  if (p.val_loss) line["val_loss"] = *p.val_loss;
  return line.dump() + "\n";  // NaN and infinity as null
}
}  // namespace

int run_train(const Argv& argv) {
  const Args args(argv,
                  with_threads_flag(with_model_flags({"text", "out", "steps", "batch", "lr", "seed", "resume", "warmup",
                                                      "eval-every", "clip", "log-json"})),
                  kModelSwitches);
  apply_threads_flag(args);
  const std::string out_path = args.text("out");
  train::TrainOptions opt;
  opt.steps = args.integer("steps", 2000, 1, 10000000);
  opt.batch = args.integer("batch", 16, 1, 4096);
  const nn::Config cfg = config_from_flags(args);
  opt.lr = args.number("lr", 2e-3, 1e-8, 1.0);
  opt.seed = static_cast<uint64_t>(args.integer("seed", 0, 0, INT64_MAX));
  opt.warmup = args.integer("warmup", std::min<int64_t>(200, opt.steps / 10 + 1), 0, 10000000);
  opt.eval_every = args.integer("eval-every", 250, 0, 10000000);
  opt.clip = args.number("clip", 1.0, 0, 1e6);

  // every file this run writes, before the first step: not after an hour of training
  io::check_writable(out_path, "--out");
  io::check_writable(out_path + ".ckpt", "--out (its checkpoint)");
  if (auto path = args.text_or("log-json")) io::check_writable(*path, "--log-json");
  const std::vector<uint8_t> text = io::read_file(args.text("text"));
  const train::Corpus corpus(std::string(text.begin(), text.end()), 0.05, cfg.context);
  nn::Model model(cfg, opt.seed);
  train::Trainer trainer(model, corpus, opt);
  const auto resume = args.text_or("resume");
  if (resume) {
    trainer.restore(io::read_file(*resume));
    std::fprintf(stderr, "resumed from %s at step %lld\n", resume->c_str(), static_cast<long long>(trainer.step()));
  }
  std::ofstream log;
  if (auto path = args.text_or("log-json")) {
    log.open(*path, resume ? std::ios::app : std::ios::trunc);
    if (!log) throw Error("cannot open '" + *path + "' for writing");
  }
  std::fprintf(stderr, "training on %lld bytes, validating on %lld (%zu windows of %lld), %lld parameters\n",
               static_cast<long long>(corpus.train_bytes()), static_cast<long long>(corpus.val_bytes()),
               corpus.validation_windows().size(), static_cast<long long>(cfg.context),
               static_cast<long long>(model.parameter_count()));

  ProgressBar bar(opt.steps);
  char status[160];
  int64_t saved_step = resume ? trainer.step() : -1;  // the step of the checkpoint on disk, if any
  try {
    trainer.run(
        [&](const train::Progress& p) {
          if (log.is_open()) {
            log << log_line(p) << std::flush;
            if (!log) throw Error("writing the --log-json file failed (disk full?)");
          }
          std::snprintf(status, sizeof status, "loss %.4f  lr %.2e  |g| %.2f  %.0f tok/s", p.loss, p.lr, p.grad_norm,
                        p.tokens_per_second);
          if (p.val_loss) {
            char line[200];
            std::snprintf(line, sizeof line, "step %lld  train loss %.4f  val loss %.4f", static_cast<long long>(p.step),
                          p.loss, *p.val_loss);
            bar.message(line);
          }
          bar.update(p.step, p.eta_seconds, status);
        },
        [&](const train::Progress&) {
          io::write_file(out_path, io::save_weights(model, {{"trained_steps", std::to_string(trainer.step())}}));
          io::write_file(out_path + ".ckpt", trainer.checkpoint());
          saved_step = trainer.step();
        });
  } catch (const train::Diverged& d) {
    // the files on disk were written at the last evaluation and are not touched
    bar.finish();
    std::fprintf(stderr, "glassllm train: diverged: %s\n", d.what());
    if (saved_step >= 0)
      std::fprintf(stderr, "kept %s and %s.ckpt from step %lld (resume from it with --resume %s.ckpt and a lower --lr or a longer --warmup)\n",
                   out_path.c_str(), out_path.c_str(), static_cast<long long>(saved_step), out_path.c_str());
    else
      std::fprintf(stderr, "no checkpoint was written before it (the first is written at step %lld)\n",
                   static_cast<long long>(opt.eval_every > 0 ? std::min(opt.eval_every, opt.steps) : opt.steps));
    return 1;
  }
  bar.finish();
  std::printf("final validation loss %.4f nats/byte; wrote %s and %s.ckpt\n", trainer.validation_loss(),
              out_path.c_str(), out_path.c_str());
  return 0;
}

}  // namespace glass::cli
