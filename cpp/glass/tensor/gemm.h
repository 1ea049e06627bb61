#pragma once
// The one hot loop of the model: C (m, n) = A (m, k) @ B (k, n), for any
// strides of A and B (so transposed views cost nothing) and a contiguous C.
//
// Both operands are packed into small contiguous panels, then a register tile
// of kRows x kCols outputs is accumulated over k with vector arithmetic
// (GCC/Clang vector extensions: AVX-512, AVX2 or SSE/NEON natively, simd128 in
// wasm; the tile's shape is chosen per instruction set, see gemm.cpp). Large
// products are shared between threads by rows of C (thread_pool.h), with the
// same result for every thread count.
#include <cstdint>
#include <vector>

namespace glass::kernels {

// What this build's kernel was compiled for, so a benchmark says what produced it.
struct GemmTile {
  const char* isa;  // "AVX-512", "AVX2+FMA", "SSE2", "NEON", "wasm simd128", ...
  int rows;         // rows of the register tile
  int cols_f32;     // its columns for float32 (and float64)
  int cols_f64;
};
GemmTile gemm_tile();

// A(i, j) = a[i * a_row + j * a_col]; likewise B. C is row-major with row
// stride c_row. If accumulate, C += A @ B; else C = A @ B.
template <class T>
void gemm(int64_t m, int64_t n, int64_t k, const T* a, int64_t a_row, int64_t a_col, const T* b, int64_t b_row,
          int64_t b_col, T* c, int64_t c_row, bool accumulate);

// B (k, n) packed once for many products: a weight between updates is packed
// at its first use, not in every forward (packing W^T was 6% of the model's
// forward in wasm). The panels are those gemm packs, so results are equal.
template <class T> struct PackedB {
  int64_t k = 0, n = 0;
  std::vector<T> data;  // every k block's panels, in order
};
template <class T> void pack_weight(int64_t k, int64_t n, const T* b, int64_t b_row, int64_t b_col, PackedB<T>& out);
// C (m, b.n) = A (m, b.k) @ B, or C += A @ B if accumulate.
template <class T>
void gemm_packed(int64_t m, const T* a, int64_t a_row, int64_t a_col, const PackedB<T>& b, T* c, int64_t c_row,
                 bool accumulate);
// C (m, n) = A (m, b.k) @ the first n <= b.n columns of B (or C += ...):
// causal attention's row blocks read a growing prefix of one packed K^T.
// Needs b.k <= kPackedDepth: with one block of k the first columns' panels
// lead the packing (with more, each block's panels start at its own offset).
inline constexpr int64_t kPackedDepth = 256;
template <class T>
void gemm_packed_prefix(int64_t m, int64_t n, const T* a, int64_t a_row, int64_t a_col, const PackedB<T>& b, T* c,
                        int64_t c_row, bool accumulate);

}  // namespace glass::kernels
