// causal_attention(q, k, v) = causal_mix(causal_softmax(causal_scores(q, k)), v)
// as one op, for the model's runs that neither record nor change the weights
// (training, generation, the inspector's run without attention patterns:
// nn::Attention's operator(); parts() keeps the three ops).
//
// The three ops each pass over every head of the batch in turn, so each
// (n, n) matrix a head makes (its scores, the weights, and in the backward
// their gradients) goes out to memory and comes back for the next op: at
// 16 x 128 tokens and 4 heads, 4 MB each a layer, far past what the cache
// keeps. Here one thread takes one head through all of its steps while its
// matrices are in the cache; only the weights, which the backward needs, are
// stored. AVX-512 build, Zen 4, 1 thread pinned (2026-12-05):
// BM_CausalAttention 6.5-7.1 ms, BM_CausalAttentionFused 5.4-5.6; in the
// training step 16 x 128 attention's jobs 26 -> 19 ms, the step 4.6 ms faster
// (median of 7 interleaved pairs), on 2 threads 79-82 against 85-86 ms.
//
// The per-head kernels are the three ops' own (causal_kernels.h), called on
// the same operands in the same order, so the output and every gradient have
// the composition's bits (test_fused.cpp, test_model.cpp).
#include <string>
#include <vector>

#include "glass/tensor/autograd.h"
#include "glass/tensor/checked.h"
#include "glass/tensor/error.h"
#include "glass/tensor/fused/causal_kernels.h"
#include "glass/tensor/fused/fused.h"
#include "glass/tensor/strided.h"
#include "glass/tensor/thread_pool.h"

namespace glass {

namespace {

using detail::element_matrix;
using detail::element_starts;
using detail::for_each_element;
using detail::Mat;

// A thread's (n, n) scratch matrix; it only grows.
template <class T> T* scratch(std::vector<T>& v, int64_t n) {
  if (v.size() < static_cast<std::size_t>(n * n)) v.resize(static_cast<std::size_t>(n * n));
  return v.data();
}

void check_operands(const Tensor& q, const Tensor& k, const Tensor& v) {
  if (q.dtype() != k.dtype() || q.dtype() != v.dtype())
    throw Error("causal_attention: dtypes differ: q " + describe(q) + ", k " + describe(k) + ", v " + describe(v) +
                " (cast explicitly with .to(...))");
  const Shape &sq = q.shape(), &sk = k.shape(), &sv = v.shape();
  const bool fits = sq.size() >= 2 && sq == sk && sv.size() == sq.size() &&
                    std::equal(sq.begin(), sq.end() - 1, sv.begin());
  if (!fits)
    throw Error("causal_attention: needs q and k (..., n, d) of one shape and v (..., n, dv) with the same "
                "leading axes, got " + to_string(sq) + ", " + to_string(sk) + " and " + to_string(sv));
}

}  // namespace

Tensor causal_attention(const Tensor& q, const Tensor& k, const Tensor& v) {
  check_operands(q, k, v);
  const int nd = q.ndim();
  const int64_t n = q.shape()[nd - 2], d = q.shape()[nd - 1], dv = v.shape()[nd - 1];
  const Shape batch(q.shape().begin(), q.shape().end() - 2);
  Shape weights_shape = batch, out_shape = batch;
  weights_shape.insert(weights_shape.end(), {n, n});
  out_shape.insert(out_shape.end(), {n, dv});
  checked_numel("causal_attention", weights_shape);
  Tensor weights = empty_like_shape(weights_shape, q.dtype());  // (..., n, n), kept for the backward
  Tensor out = empty_like_shape(out_shape, q.dtype());          // (..., n, dv)
  const auto starts = element_starts(batch, {q, k, v});
  const auto elements = static_cast<int64_t>(starts[0].size());
  dispatch(q.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* pw = weights.mutable_data<T>();
    T* po = out.mutable_data<T>();
    for_each_element(elements, n * n * (d + dv), [&](int64_t e) {
      thread_local std::vector<T> scores_buffer;
      T* scores = scratch(scores_buffer, n);  // (n, n): this head's scores, never stored
      T* w = pw + e * n * n;
      detail::causal_scores_into<T>(n, d, element_matrix<T>(q, starts[0][e]), element_matrix<T>(k, starts[1][e]), scores);
      detail::causal_softmax_rows<T>(scores, w, n);
      detail::causal_mix_into<T>(n, dv, Mat<T>{w, n, 1}, element_matrix<T>(v, starts[2][e]), po + e * n * dv);
    });
  });
  return record(out, "causal_attention", {q, k, v},
                [q = q.detach(), k = k.detach(), v = v.detach(), weights, n, d, dv, elements,
                 need_q = q.requires_grad(), need_k = k.requires_grad(),
                 need_v = v.requires_grad()](std::vector<Tensor>& grads, const Tensor& dout) {
                  const Shape& qs = q.shape();
                  const Shape& vs = v.shape();
                  const Shape lead(qs.begin(), qs.end() - 2);
                  const auto at = element_starts(lead, {q, k, v, dout});
                  Tensor dq, dk, dvt;
                  if (need_q) dq = empty_like_shape(qs, q.dtype());  // (..., n, d)
                  if (need_k) dk = empty_like_shape(qs, q.dtype());  // (..., n, d)
                  if (need_v) dvt = empty_like_shape(vs, q.dtype()); // (..., n, dv)
                  dispatch(q.dtype(), [&](auto tag) {
                    using T = decltype(tag);
                    const T* pw = weights.data<T>();
                    T* pdq = need_q ? dq.mutable_data<T>() : nullptr;
                    T* pdk = need_k ? dk.mutable_data<T>() : nullptr;
                    T* pdv = need_v ? dvt.mutable_data<T>() : nullptr;
                    for_each_element(elements, n * n * (2 * d + 2 * dv), [&](int64_t e) {
                      const Mat<T> w{pw + e * n * n, n, 1};
                      const Mat<T> g = element_matrix<T>(dout, at[3][e]);
                      // causal_mix's rule: dW = tril(g v^T), dV = tril(W)^T g
                      if (need_v) detail::causal_mix_transposed_into<T>(n, dv, w, g, pdv + e * n * dv);
                      if (!need_q && !need_k) return;
                      thread_local std::vector<T> grad_buffer;
                      T* ds = scratch(grad_buffer, n);  // (n, n): dW, then in place the scores' gradient
                      detail::causal_scores_into<T>(n, dv, g, element_matrix<T>(v, at[2][e]), ds);
                      detail::causal_softmax_backward_rows<T>(w.p, ds, ds, n);
                      // causal_scores' rule: dQ = tril(dS) k, dK = tril(dS)^T q
                      const Mat<T> s{ds, n, 1};
                      if (need_q) detail::causal_mix_into<T>(n, d, s, element_matrix<T>(k, at[1][e]), pdq + e * n * d);
                      if (need_k) detail::causal_mix_transposed_into<T>(n, d, s, element_matrix<T>(q, at[0][e]), pdk + e * n * d);
                    });
                  });
                  grads[0] = dq;
                  grads[1] = dk;
                  grads[2] = dvt;
                });
}

}  // namespace glass
