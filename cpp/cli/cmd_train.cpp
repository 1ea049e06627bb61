// glassllm train --text FILE --out W [--steps N] [--batch B] [--ctx N] [--lr LR]
//                [--seed S] [--resume CKPT] [--warmup N] [--eval-every N] [--clip C]
// Writes W (weights only, float32, what the app loads) and W.ckpt (weights,
// optimizer moments, step and sampler state) after every evaluation, so an
// interrupted run resumes with --resume W.ckpt exactly where it stopped.
#include <cstdio>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "glass/io/model_weights.h"
#include "glass/io/safetensors.h"
#include "glass/train/trainer.h"

namespace glass::cli {

int run_train(const Argv& argv) {
  const Args args(argv, {"text", "out", "steps", "batch", "ctx", "lr", "seed", "resume", "warmup", "eval-every", "clip"});
  const std::string out_path = args.text("out");
  train::TrainOptions opt;
  opt.steps = args.integer("steps", 2000, 1, 10000000);
  opt.batch = args.integer("batch", 16, 1, 4096);
  const int64_t ctx = args.integer("ctx", 128, 2, 128);
  opt.lr = args.number("lr", 2e-3, 1e-8, 1.0);
  opt.seed = static_cast<uint64_t>(args.integer("seed", 0, 0, INT64_MAX));
  opt.warmup = args.integer("warmup", std::min<int64_t>(200, opt.steps / 10 + 1), 0, 10000000);
  opt.eval_every = args.integer("eval-every", 250, 0, 10000000);
  opt.clip = args.number("clip", 1.0, 0, 1e6);

  const std::vector<uint8_t> text = io::read_file(args.text("text"));
  const train::Corpus corpus(std::string(text.begin(), text.end()), 0.05, ctx);
  nn::Model model(nn::Config{}, opt.seed);
  train::Trainer trainer(model, corpus, opt);
  if (auto resume = args.text_or("resume")) {
    trainer.restore(io::read_file(*resume));
    std::fprintf(stderr, "resumed from %s at step %lld\n", resume->c_str(), static_cast<long long>(trainer.step()));
  }
  std::fprintf(stderr, "training on %lld bytes, validating on %lld (%zu windows of %lld), %lld parameters\n",
               static_cast<long long>(corpus.train_bytes()), static_cast<long long>(corpus.val_bytes()),
               corpus.validation_windows().size(), static_cast<long long>(ctx),
               static_cast<long long>(model.parameter_count()));

  ProgressBar bar(opt.steps);
  char status[160];
  trainer.run(
      [&](const train::Progress& p) {
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
      });
  bar.finish();
  std::printf("final validation loss %.4f nats/byte; wrote %s and %s.ckpt\n", trainer.validation_loss(),
              out_path.c_str(), out_path.c_str());
  return 0;
}

}  // namespace glass::cli
