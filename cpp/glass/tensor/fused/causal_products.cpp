// The two products of causal attention, computing only what the mask keeps
// (fused.h gives each as primitives, with `above` nonzero where column > row):
//   causal_scores(q, k) = q @ k^T on and below the diagonal, 0 above
//                       = masked_fill(matmul(q, transpose(k)), above, 0)
//   causal_mix(w, v)    = w @ v with w's entries above the diagonal taken as 0
//                       = matmul(masked_fill(w, above, 0), v)
// Row i of a causal score matrix sees columns 0..i, so the full products
// spend almost half their arithmetic on entries the softmax never reads
// (scores) or on exact zeros (weights). Here the rows go in blocks of kBlock:
// block r multiplies only columns 0 .. its last row, and the block on the
// diagonal is masked exactly. The backward rules are the same two products
// and a third (tril(w)^T @ g), so the backward skips the masked half too.
#include <algorithm>
#include <string>
#include <vector>

#include "glass/tensor/autograd.h"
#include "glass/tensor/checked.h"
#include "glass/tensor/error.h"
#include "glass/tensor/fused/causal_kernels.h"
#include "glass/tensor/fused/fused.h"
#include "glass/tensor/gemm.h"
#include "glass/tensor/strided.h"
#include "glass/tensor/thread_pool.h"

namespace glass {

namespace {

// Rows per block: smaller skips more of the masked half, larger makes fewer,
// longer products (32: 10 of 16 blocks of a 128 x 128 product are computed).
constexpr int64_t kBlock = 32;
using detail::Mat;

}  // namespace

namespace detail {

// C (n, n) = tril(A B^T) for A, B (n, d); C row-major, zeros above the diagonal.
// B^T (d, n) is packed once and each block of rows reads the prefix of it
// that it needs, instead of packing 32, 64, 96 then 128 columns of a
// 128-long sequence (2.5 times the columns) block by block. Same panels, same
// bits. 16 x 128 training step, 1 thread pinned, 6 interleaved pairs: 1.7%
// faster (median per pair); BM_CausalAttention 4 of 5 pairs faster.
template <class T> void causal_scores_into(int64_t n, int64_t d, Mat<T> a, Mat<T> b, T* c) {
  thread_local kernels::PackedB<T> bt;
  const bool packed = d <= kernels::kPackedDepth;
  if (packed) kernels::pack_weight<T>(d, n, b.p, b.col, b.row, bt);  // B^T(p, j) = B(j, p)
  for (int64_t r0 = 0; r0 < n; r0 += kBlock) {
    const int64_t rows = std::min(kBlock, n - r0), cols = r0 + rows;
    if (packed)
      kernels::gemm_packed_prefix<T>(rows, cols, a.at(r0, 0), a.row, a.col, bt, c + r0 * n, n, false);
    else
      kernels::gemm<T>(rows, cols, d, a.at(r0, 0), a.row, a.col, b.p, b.col, b.row, c + r0 * n, n, false);
    for (int64_t i = r0; i < r0 + rows; ++i) std::fill(c + i * n + i + 1, c + (i + 1) * n, T(0));
  }
}

// W's diagonal block (r0.., r0..) of size m, lower triangle kept, row-major in
// out (m, m).
namespace {
template <class T> void diagonal_block(Mat<T> w, int64_t r0, int64_t m, std::vector<T>& out) {
  out.assign(static_cast<std::size_t>(m * m), T(0));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j <= i; ++j) out[i * m + j] = *w.at(r0 + i, r0 + j);
}
}  // namespace

// The diagonal block's products go strip by strip of the register tile's
// rows, each over only the block's columns that its rows can see: a strip
// skips the masked zeros beyond its last row (in tril(W)^T, before its first),
// which a product over the whole block multiplies too (with 32-row blocks and
// the AVX-512 tile's 8-row strips: 3/8 of the diagonal blocks' multiply-adds,
// 15% of a whole mix product's). Every output's sum still starts at +0 and
// takes the same terms in the same order, less masked terms at its ends: a
// masked weight is +0, its term a zero, and a zero added to a sum that started
// at +0 leaves it as it was (a sum can only be -0 if a product underflows to
// -0 on the way: subnormal inputs). So the same bits (the cli stage's golden
// hashes). Only an inf or NaN in V meets fewer masked weights (0 * inf is
// NaN): none past the strip now, as none past the block before. With gemm
// reading tril(W)^T in place (gemm.cpp), AVX-512 build on the Zen 4 machine,
// 1 thread pinned, interleaved: BM_CausalAttention 2-9% faster in every one
// of 9 rounds (6.9-7.9 -> 6.1-7.2 ms on a busy host), the 16 x 128 training
// step about 2% (median of the differences over 6 pairs; the host moved the
// step by up to 10%).

// C (n, d) = tril(W) @ V for W (n, n), V (n, d); C row-major.
template <class T> void causal_mix_into(int64_t n, int64_t d, Mat<T> w, Mat<T> v, T* c) {
  thread_local std::vector<T> diag;  // per thread, kept: no malloc (one lock for all threads in wasm) per head
  const int64_t strip = kernels::gemm_tile().rows;
  for (int64_t r0 = 0; r0 < n; r0 += kBlock) {
    const int64_t rows = std::min(kBlock, n - r0);
    // the columns before the block, then the block's own lower triangle
    if (r0 > 0) kernels::gemm<T>(rows, d, r0, w.at(r0, 0), w.row, w.col, v.p, v.row, v.col, c + r0 * d, d, false);
    diagonal_block(w, r0, rows, diag);
    for (int64_t s0 = 0; s0 < rows; s0 += strip) {
      const int64_t h = std::min(strip, rows - s0);  // rows r0 + s0 .. see the block's first s0 + h columns
      kernels::gemm<T>(h, d, s0 + h, diag.data() + s0 * rows, rows, 1, v.at(r0, 0), v.row, v.col,
                       c + (r0 + s0) * d, d, r0 > 0);
    }
  }
}

// C (n, d) = tril(W)^T @ G for W (n, n), G (n, d): row j gathers rows i >= j.
template <class T> void causal_mix_transposed_into(int64_t n, int64_t d, Mat<T> w, Mat<T> g, T* c) {
  thread_local std::vector<T> diag;  // per thread, kept: no malloc (one lock for all threads in wasm) per head
  const int64_t strip = kernels::gemm_tile().rows;
  for (int64_t c0 = 0; c0 < n; c0 += kBlock) {
    const int64_t cols = std::min(kBlock, n - c0), below = c0 + cols;
    // the block's transpose as a view (gemm reads a transposed A in place)
    diagonal_block(w, c0, cols, diag);
    for (int64_t s0 = 0; s0 < cols; s0 += strip) {
      const int64_t h = std::min(strip, cols - s0);  // rows c0 + s0 .. gather the block's rows from s0 on
      kernels::gemm<T>(h, d, cols - s0, diag.data() + s0 * cols + s0, 1, cols, g.at(c0 + s0, 0), g.row, g.col,
                       c + (c0 + s0) * d, d, false);
    }
    // rows below the block: A(j, p) = W(below + p, c0 + j)
    if (below < n)
      kernels::gemm<T>(cols, d, n - below, w.at(below, c0), w.col, w.row, g.at(below, 0), g.row, g.col, c + c0 * d,
                       d, true);
  }
}

template void causal_scores_into<float>(int64_t, int64_t, Mat<float>, Mat<float>, float*);
template void causal_scores_into<double>(int64_t, int64_t, Mat<double>, Mat<double>, double*);
template void causal_mix_into<float>(int64_t, int64_t, Mat<float>, Mat<float>, float*);
template void causal_mix_into<double>(int64_t, int64_t, Mat<double>, Mat<double>, double*);
template void causal_mix_transposed_into<float>(int64_t, int64_t, Mat<float>, Mat<float>, float*);
template void causal_mix_transposed_into<double>(int64_t, int64_t, Mat<double>, Mat<double>, double*);

std::vector<std::vector<int64_t>> element_starts(const Shape& batch, const std::vector<Tensor>& operands) {
  std::vector<std::vector<int64_t>> starts(operands.size());
  for (std::size_t o = 0; o < operands.size(); ++o) {
    const Tensor& t = operands[o];
    const Strides lead(t.strides().begin(), t.strides().begin() + static_cast<std::ptrdiff_t>(batch.size()));
    starts[o].reserve(static_cast<std::size_t>(numel(batch)));
    for_each_row<1>(batch, {lead}, {t.offset()}, [&](auto off, int64_t len, auto st) {
      for (int64_t i = 0; i < len; ++i) starts[o].push_back(off[0] + i * st[0]);
    });
  }
  return starts;
}

}  // namespace detail

namespace {

enum class Product { scores, mix, mix_transposed };

// The product for every batch element of a (..., n, *) and b (..., n, d).
Tensor causal_product(Product kind, const Tensor& a, const Tensor& b) {
  const int nd = a.ndim();
  const int64_t n = a.shape()[nd - 2], d = b.shape().back();
  Shape batch(a.shape().begin(), a.shape().end() - 2);
  Shape out_shape = batch;
  out_shape.push_back(n);
  out_shape.push_back(kind == Product::scores ? n : d);
  Tensor out = empty_like_shape(out_shape, a.dtype());  // (..., n, n) or (..., n, d)
  const int64_t out_size = n * out_shape.back();
  dispatch(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* po = out.mutable_data<T>();
    // each batch element's operands; then the elements (batch x heads in attention) are shared
    // between threads, one product each, written to its own slice of out
    const auto starts = detail::element_starts(batch, {a, b});
    auto one = [&](int64_t e) {
      const Mat<T> ma = detail::element_matrix<T>(a, starts[0][e]);
      const Mat<T> mb = detail::element_matrix<T>(b, starts[1][e]);
      T* pe = po + e * out_size;
      switch (kind) {
        case Product::scores: detail::causal_scores_into<T>(n, a.shape().back(), ma, mb, pe); break;
        case Product::mix: detail::causal_mix_into<T>(n, d, ma, mb, pe); break;
        case Product::mix_transposed: detail::causal_mix_transposed_into<T>(n, d, ma, mb, pe); break;
      }
    };
    detail::for_each_element(static_cast<int64_t>(starts[0].size()), n * n * a.shape().back(), one);
  });
  return out;
}

void check_operands(const char* op, const Tensor& a, const Tensor& b, bool square_a) {
  if (a.dtype() != b.dtype())
    throw Error(std::string(op) + ": dtypes differ: " + describe(a) + " and " + describe(b) +
                " (cast one explicitly with .to(...))");
  const Shape& sa = a.shape();
  const Shape& sb = b.shape();
  const bool shapes_fit = sa.size() >= 2 && sa.size() == sb.size() && std::equal(sa.begin(), sa.end() - 2, sb.begin()) &&
                          sa[sa.size() - 2] == sb[sb.size() - 2] && (!square_a || sa.back() == sa[sa.size() - 2]) &&
                          (square_a || sa.back() == sb.back());
  if (!shapes_fit)
    throw Error(std::string(op) + ": needs " +
                (square_a ? "w (..., n, n) and v (..., n, d)" : "q (..., n, d) and k (..., n, d)") +
                " with the same leading axes, got " + to_string(sa) + " and " + to_string(sb));
}

}  // namespace

Tensor causal_scores(const Tensor& q, const Tensor& k) {
  check_operands("causal_scores", q, k, false);
  Shape out_shape = q.shape();  // (..., n, n): can outgrow q and k
  out_shape.back() = out_shape[out_shape.size() - 2];
  checked_numel("causal_scores", out_shape);
  Tensor out = causal_product(Product::scores, q, k);  // (..., n, n)
  return record(out, "causal_scores", {q, k},
                [q = q.detach(), k = k.detach(), need_q = q.requires_grad(), need_k = k.requires_grad()](
                    std::vector<Tensor>& d, const Tensor& dout) {
                  // only the lower triangle of dout depends on q and k
                  if (need_q) d[0] = causal_product(Product::mix, dout, k);             // tril(dS) @ k
                  if (need_k) d[1] = causal_product(Product::mix_transposed, dout, q);  // tril(dS)^T @ q
                });
}

Tensor causal_mix(const Tensor& w, const Tensor& v) {
  check_operands("causal_mix", w, v, true);
  Tensor out = causal_product(Product::mix, w, v);  // (..., n, d)
  return record(out, "causal_mix", {w, v},
                [w = w.detach(), v = v.detach(), need_w = w.requires_grad(), need_v = v.requires_grad()](
                    std::vector<Tensor>& d, const Tensor& dout) {
                  if (need_w) d[0] = causal_product(Product::scores, dout, v);          // tril(dout @ v^T): w's upper half is unused
                  if (need_v) d[1] = causal_product(Product::mix_transposed, w, dout);  // tril(w)^T @ dout
                });
}

}  // namespace glass
