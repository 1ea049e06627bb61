#include "glass/train/adamw.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "glass/tensor/error.h"
#include "glass/tensor/thread_pool.h"

namespace glass::train {

AdamW::AdamW(Params params, AdamWOptions options) : params_(std::move(params)), opt_(options) {
  for (const auto& [name, p] : params_) {
    m_.push_back(Tensor::zeros(p.shape(), p.dtype()));
    v_.push_back(Tensor::zeros(p.shape(), p.dtype()));
  }
}

void AdamW::step(double lr) {
  ++t_;
  const double bc1 = 1.0 - std::pow(opt_.beta1, static_cast<double>(t_));
  const double bc2 = 1.0 - std::pow(opt_.beta2, static_cast<double>(t_));
  // Every parameter in pieces of kPiece elements, all shared between threads
  // (each element's update is its own: the thread count changes nothing).
  // The pointers are taken first, on this thread: mutable_data() marks each
  // tensor changed (so a packed copy of a weight is remade), once.
  constexpr int64_t kPiece = detail::kGrainElements;
  struct Param {
    void *w, *m, *v;
    const void* g;
    DType dtype;
    double decay;
  };
  struct Piece {
    std::size_t param;
    int64_t begin, end;
  };
  std::vector<Param> live;
  std::vector<Piece> pieces;
  int64_t total = 0;
  for (std::size_t i = 0; i < params_.size(); ++i) {
    Tensor& p = params_[i].second;
    const Tensor g = p.grad();
    if (!g.defined()) continue;
    dispatch(p.dtype(), [&](auto tag) {
      using T = decltype(tag);
      live.push_back({p.mutable_data<T>(), m_[i].mutable_data<T>(), v_[i].mutable_data<T>(), g.data<T>(), p.dtype(),
                      p.ndim() >= 2 ? opt_.weight_decay : 0.0});
    });
    const int64_t n = p.numel();
    for (int64_t b = 0; b < n; b += kPiece) pieces.push_back({live.size() - 1, b, std::min(n, b + kPiece)});
    total += n;
  }
  auto update = [&](int64_t k) {
    const Piece& piece = pieces[static_cast<std::size_t>(k)];
    const Param& q = live[piece.param];
    dispatch(q.dtype, [&](auto tag) {
      using T = decltype(tag);
      T* w = static_cast<T*>(q.w);
      T* m = static_cast<T*>(q.m);
      T* v = static_cast<T*>(q.v);
      const T* gp = static_cast<const T*>(q.g);
      const T b1 = T(opt_.beta1), b2 = T(opt_.beta2);
      const T step = T(lr / bc1), denom_scale = T(1.0 / std::sqrt(bc2)), eps = T(opt_.eps);
      const T shrink = T(1.0 - lr * q.decay);
      for (int64_t j = piece.begin; j < piece.end; ++j) {
        m[j] = b1 * m[j] + (1 - b1) * gp[j];
        v[j] = b2 * v[j] + (1 - b2) * gp[j] * gp[j];
        w[j] = w[j] * shrink - step * m[j] / (std::sqrt(v[j]) * denom_scale + eps);
      }
    });
  };
  const auto count = static_cast<int64_t>(pieces.size());
  if (total < detail::kParallelElements) {
    for (int64_t k = 0; k < count; ++k) update(k);
  } else {
    detail::parallel_for(count, update);
  }
}

std::vector<std::pair<std::string, Tensor>> AdamW::state() const {
  std::vector<std::pair<std::string, Tensor>> out;
  for (std::size_t i = 0; i < params_.size(); ++i) {
    out.emplace_back("m." + params_[i].first, m_[i]);
    out.emplace_back("v." + params_[i].first, v_[i]);
  }
  return out;
}

void AdamW::load_state(const std::map<std::string, Tensor>& state, int64_t steps) {
  std::vector<Tensor> m, v;
  for (const auto& [name, p] : params_) {
    for (const char* which : {"m.", "v."}) {
      auto it = state.find(which + name);
      if (it == state.end()) throw Error("AdamW: checkpoint has no \"" + std::string(which) + name + "\"");
      if (it->second.shape() != p.shape())
        throw Error("AdamW: checkpoint \"" + std::string(which) + name + "\" has shape " +
                    to_string(it->second.shape()) + ", expected " + to_string(p.shape()));
      (which[0] == 'm' ? m : v).push_back(it->second.to(p.dtype()).contiguous());
    }
  }
  m_ = std::move(m);
  v_ = std::move(v);
  t_ = steps;
}

double clip_grad_norm(const AdamW::Params& params, double max_norm) {
  double total = 0;
  for (const auto& [name, p] : params) {
    const Tensor g = p.grad();
    if (!g.defined()) continue;
    for (double x : g.to_vector()) total += x * x;
  }
  const double norm = std::sqrt(total);
  if (max_norm > 0 && norm > max_norm) {
    const double scale = max_norm / (norm + 1e-12);
    for (const auto& [name, p] : params) {
      Tensor g = p.grad();
      if (!g.defined()) continue;
      // the gradient was written by backward and is owned by p: scale in place
      dispatch(g.dtype(), [&](auto tag) {
        using T = decltype(tag);
        T* d = g.mutable_data<T>();
        for (int64_t j = 0, n = g.numel(); j < n; ++j) d[j] = static_cast<T>(d[j] * scale);
      });
    }
  }
  return norm;
}

}  // namespace glass::train
