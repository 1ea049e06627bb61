#pragma once
// Internal: causal attention's kernels for one batch element (one head of one
// sequence), with no threads of their own. The ops causal_scores, causal_mix
// and causal_softmax run them over every element; causal_attention runs all
// of them on one element before the next, so an element's scores never leave
// the cache. Each output is the same sequence of operations in either, so the
// fused op gives the three ops' bits.
#include <cstdint>
#include <vector>

#include "glass/tensor/tensor.h"
#include "glass/tensor/thread_pool.h"

namespace glass::detail {

// A matrix operand: element (i, j) at p[i * row + j * col].
template <class T> struct Mat {
  const T* p;
  int64_t row, col;
  const T* at(int64_t i, int64_t j) const { return p + i * row + j * col; }
};

// Where each batch element's last two axes start in each operand (storage
// offsets, any strides), in the order of the batch axes: starts[o][e].
std::vector<std::vector<int64_t>> element_starts(const Shape& batch, const std::vector<Tensor>& operands);
// Operand t's matrix (last two axes) that starts at `start`.
template <class T> Mat<T> element_matrix(const Tensor& t, int64_t start) {
  const int nd = t.ndim();
  return {t.impl()->storage->data<T>() + start, t.strides()[nd - 2], t.strides()[nd - 1]};
}
// body(e) for every batch element, shared between threads (one element each,
// written to its own slice of the output) when the work is large enough
// (about macs_each multiply-adds an element); the thread count changes nothing.
template <class F> void for_each_element(int64_t elements, int64_t macs_each, F&& body) {
  if (elements * macs_each < kParallelMacs) {
    for (int64_t e = 0; e < elements; ++e) body(e);
  } else {
    parallel_for(elements, body);
  }
}

// C (n, n) = tril(A B^T) for A, B (n, d); C row-major, zeros above the diagonal.
template <class T> void causal_scores_into(int64_t n, int64_t d, Mat<T> a, Mat<T> b, T* c);
// C (n, d) = tril(W) @ V for W (n, n), V (n, d); C row-major.
template <class T> void causal_mix_into(int64_t n, int64_t d, Mat<T> w, Mat<T> v, T* c);
// C (n, d) = tril(W)^T @ G for W (n, n), G (n, d); C row-major.
template <class T> void causal_mix_transposed_into(int64_t n, int64_t d, Mat<T> w, Mat<T> g, T* c);

// Softmax of one row-major (n, n) matrix whose row i sees columns 0..i (the
// rest of y is 0): causal_softmax's pass (ops_softmax.cpp) on one element.
template <class T> void causal_softmax_rows(const T* scores, T* y, int64_t n);
// Its backward: dx = y * (g - sum over the visible columns of g * y), 0 above
// the diagonal. dx may be g (each row reads g before writing it).
template <class T> void causal_softmax_backward_rows(const T* y, const T* g, T* dx, int64_t n);

}  // namespace glass::detail
