#pragma once
// The one hot loop of the model: C (m, n) = A (m, k) @ B (k, n), for any
// strides of A and B (so transposed views cost nothing) and a contiguous C.
//
// Both operands are packed into small contiguous panels, then a register tile
// of kRows x kCols outputs is accumulated over k with vector arithmetic
// (GCC/Clang vector extensions: AVX natively, simd128 in wasm).
#include <cstdint>

namespace glass::kernels {

// A(i, j) = a[i * a_row + j * a_col]; likewise B. C is row-major with row
// stride c_row. If accumulate, C += A @ B; else C = A @ B.
template <class T>
void gemm(int64_t m, int64_t n, int64_t k, const T* a, int64_t a_row, int64_t a_col, const T* b, int64_t b_row,
          int64_t b_col, T* c, int64_t c_row, bool accumulate);

}  // namespace glass::kernels
