#include "glass/nn/attention_summary.h"

#include <algorithm>
#include <cmath>

#include "glass/tensor/error.h"

namespace glass::nn {

AttentionSummary attention_summary(const Model& model, const Model::Output& run) {
  AttentionSummary out;
  for (std::size_t b = 0; b < model.blocks.size(); ++b) {
    const std::string name = "blocks." + std::to_string(b) + ".attn.pattern";
    if (!run.snapshots.has(name))
      throw Error("attention summary: the run did not record \"" + name + "\" (run with patterns on)");
    const Tensor& p = run.snapshots.get(name);  // (B, h, n, n)
    const int64_t heads = p.size(1), n = p.size(2);
    const std::vector<double> v = p.to_vector();  // batch row 0 comes first
    for (int64_t h = 0; h < heads; ++h) {
      auto at = [&](int64_t t, int64_t j) { return v[static_cast<std::size_t>((h * n + t) * n + j)]; };
      HeadSummary s;
      s.block = static_cast<int64_t>(b);
      s.head = h;
      for (int64_t t = 0; t < n; ++t) {
        double row = 0;
        for (int64_t j = 0; j < n; ++j) {
          if (j <= t) row += at(t, j);
          else out.above_diagonal_max = std::max(out.above_diagonal_max, std::fabs(at(t, j)));
        }
        out.row_sum_max_error = std::max(out.row_sum_max_error, std::fabs(row - 1.0));
        if (t == 0) continue;
        s.previous += at(t, t - 1);
        s.same += at(t, t);
        s.first += at(t, 0);
        double dist = 0;
        for (int64_t j = 0; j <= t; ++j) dist += at(t, j) * static_cast<double>(t - j);
        s.mean_distance += dist;
      }
      const double count = static_cast<double>(n - 1);
      for (double* x : {&s.previous, &s.same, &s.first, &s.mean_distance}) *x = n > 1 ? *x / count : NAN;
      out.heads.push_back(s);
    }
  }
  return out;
}

}  // namespace glass::nn
