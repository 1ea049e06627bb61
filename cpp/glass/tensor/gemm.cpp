#include "glass/tensor/gemm.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "glass/tensor/thread_pool.h"

namespace glass::kernels {

namespace {

// The tile's shape depends on the vector unit, chosen at compile time (the
// preset's -march). Each was measured with a 128x128 @ 128x384 float32 product,
// best of 200-300, on a 2-core AMD EPYC (Zen 4):
//   AVX-512, 32 zmm registers, 64-byte vectors: 8 rows x 2 vectors 152 GFLOP/s
//     (4 x 1: 107). Under load, in one run: 8 x 2 111, 8 x 3 111, 6 x 4 108,
//     12 x 2 102, 14 x 2 98; so 8 x 2 stays.
//   AVX2 + FMA, 16 ymm registers, 32-byte vectors (built -mno-avx512f), under
//     load, in one run: 6 x 2 102 GFLOP/s (12 accumulators, 2 of B, 1 of A:
//     15 registers), 8 x 1 87, 4 x 2 52, 4 x 3 50, 4 x 1 37 (the wasm tile this
//     build used before), 3 x 4 18.
//   wasm simd128, 32-byte vectors (two v128 each): 4 rows x 1 vector 41 GFLOP/s
//     (4 x 2: 30; 8 x 2: 15 — V8 spills beyond 16 vector registers). Again
//     on Zen 5 under Node 20 (glass_wasm_bench, 2026-12-02): 4 x 1 47.5,
//     2 x 2 43.8, 5 x 1 29.1, 3 x 2 27.7, 6 x 1 25.0.
//   Plain SSE2 (no -march), 16-byte vectors, 16 xmm registers: 4 x 2 37.5
//     GFLOP/s, 4 x 3 37.9, 6 x 2 35.6, 8 x 1 28.1, 4 x 1 27.6 (32-byte vectors
//     split in two, as before: 17.7). NEON (AArch64) takes the same tile,
//     not measured.
// (g++ ignores vector_size on a dependent type, hence the explicit typedefs.)
#if defined(__AVX512F__)
constexpr int kVecBytes = 64;
constexpr int kRows = 8;  // rows of the register tile
constexpr int kVecs = 2;  // vectors across the tile: kCols = kVecs * lanes
constexpr const char* kIsa = "AVX-512";
#elif defined(__AVX2__) && defined(__FMA__)
constexpr int kVecBytes = 32;
constexpr int kRows = 6;
constexpr int kVecs = 2;
constexpr const char* kIsa = "AVX2+FMA";
#elif defined(__wasm__)
constexpr int kVecBytes = 32;
constexpr int kRows = 4;
constexpr int kVecs = 1;
#ifdef __wasm_relaxed_simd__
constexpr const char* kIsa = "wasm simd128 + relaxed madd";
#else
constexpr const char* kIsa = "wasm simd128";
#endif
#else
constexpr int kVecBytes = 16;
constexpr int kRows = 4;
constexpr int kVecs = 2;
#if defined(__ARM_NEON)
constexpr const char* kIsa = "NEON";
#elif defined(__SSE2__)
constexpr const char* kIsa = "SSE2";
#else
constexpr const char* kIsa = "no vector unit (16-byte vectors emulated)";
#endif
#endif
typedef float VecF32 __attribute__((vector_size(kVecBytes)));
typedef double VecF64 __attribute__((vector_size(kVecBytes)));
template <class T> struct VecOf { using type = VecF32; };
template <> struct VecOf<double> { using type = VecF64; };
template <class T> using Vec = typename VecOf<T>::type;
template <class T> constexpr int kLanes = kVecBytes / sizeof(T);

constexpr int64_t kDepth = kPackedDepth;  // k per packed block: an A strip and B panel stay in L1/L2

template <class T> constexpr int kCols = kVecs * kLanes<T>;

// By reference, not by value: returning a 32-byte vector changes the ABI
// when AVX is off (g++ -Wpsabi), as in the sanitizer build.
template <class T> inline void load(Vec<T>& v, const T* p) { std::memcpy(&v, p, sizeof v); }

// B block (kc, n) -> panels of kCols columns, each (kc, kCols) row-major,
// zero-padded on the right edge.
template <class T>
void pack_b(int64_t kc, int64_t n, const T* b, int64_t b_row, int64_t b_col, T* out) {
  constexpr int NR = kCols<T>;
  for (int64_t j0 = 0; j0 < n; j0 += NR) {
    const int64_t w = std::min<int64_t>(NR, n - j0);
    for (int64_t p = 0; p < kc; ++p) {
      const T* src = b + p * b_row + j0 * b_col;
      for (int64_t j = 0; j < w; ++j) out[j] = src[j * b_col];
      for (int64_t j = w; j < NR; ++j) out[j] = T(0);
      out += NR;
    }
  }
}

// A strip (rows i0.., kc) -> (kc, kRows) so the tile reads kRows scalars per k
// (the strip's rows of each group of kRows when it has fewer).
// A full strip copies a fixed kRows per k, contiguous when A is a transposed
// view (a_row 1: the weight gradient's dY^T), which
// the compiler turns into vector moves instead of a loop of runtime length.
template <class T>
void pack_a(int64_t rows, int64_t kc, const T* a, int64_t a_row, int64_t a_col, T* out) {
  if (rows == kRows && a_row == 1) {
    for (int64_t p = 0; p < kc; ++p, out += kRows) std::memcpy(out, a + p * a_col, kRows * sizeof(T));
    return;
  }
  if (rows == kRows) {
    for (int64_t p = 0; p < kc; ++p, out += kRows)
      for (int r = 0; r < kRows; ++r) out[r] = a[r * a_row + p * a_col];
    return;
  }
  // a ragged strip: the tile computes only its rows (tile<T, rows>), so the
  // rest of each group of kRows is never read and is left as it is
  for (int64_t p = 0; p < kc; ++p, out += kRows)
    for (int64_t r = 0; r < rows; ++r) out[r] = a[r * a_row + p * a_col];
}

// The register tile: R x kCols outputs held in R * kVecs vectors, R = kRows
// but at a ragged bottom edge, where the strip's own row count is computed
// instead of kRows with zero rows: attention's 32-row blocks end in a 2-row
// strip on the 6-row AVX2 tile, which cost as much as a full one. With this
// and pack_a's fixed-width copies (AVX2 build, 1 thread pinned, interleaved,
// 2026-12-03): BM_CausalAttention 6.3 -> 5.4 ms, BM_WeightGradient 2-3%
// faster, training step 16 x 128 161 -> 157 ms; the AVX-512 build's step
// unchanged. Each output is the same sequence of multiply-adds whatever R is,
// so the bits do not depend on it (test_ops_forward checks).
// A(r, p) = a[r * a_rs + p * a_cs]; B's row p starts at b + p * b_rs. Packed
// operands have small fixed strides; row-major ones are read in place.
// P panels side by side (panel q's row p at b + q * b_ps + p * b_rs): a strip
// of few rows takes two, so that it still has enough independent sums to keep
// both FMA units busy (see tile_pair).
template <class T, int R, int P = 1>
inline void accumulate_tile(int64_t kc, const T* a, int64_t a_rs, int64_t a_cs, const T* b, int64_t b_rs,
                            int64_t b_ps, Vec<T> (&acc)[R][P * kVecs]) {
  constexpr int L = kLanes<T>;
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < P * kVecs; ++v) acc[r][v] = Vec<T>{};
  for (int64_t p = 0; p < kc; ++p) {
    Vec<T> bv[P * kVecs];
    for (int q = 0; q < P; ++q)
      for (int v = 0; v < kVecs; ++v) load(bv[q * kVecs + v], b + q * b_ps + v * L);
    for (int r = 0; r < R; ++r) {
      const T s = a[r * a_rs];
      for (int v = 0; v < P * kVecs; ++v) acc[r][v] += s * bv[v];
    }
    a += a_cs;
    b += b_rs;
  }
}

#ifdef __wasm_relaxed_simd__
// The build for engines with relaxed SIMD (glass_core_fma, chosen by the page
// when the browser validates relaxed_madd): one fused multiply-add per vector
// instead of a multiply and an add, in 16-byte halves of each 32-byte vector.
// clang 14 spells it __builtin_wasm_fma_f32x4(a, b, c) = a * b + c and emits
// the proposal's old opcode; scripts/wasm_relaxed_opcodes.py rewrites it to
// the standard f32x4.relaxed_madd after linking.
typedef float F32x4 __attribute__((vector_size(16)));
template <int R>
inline void accumulate_tile_relaxed(int64_t kc, const float* a, int64_t a_rs, int64_t a_cs, const float* b,
                                    int64_t b_rs, Vec<float> (&acc)[R][kVecs]) {
  static_assert(kVecs == 1 && kVecBytes == 32, "the tile is R rows of two 16-byte halves");
  F32x4 lo[R] = {}, hi[R] = {};
  for (int64_t p = 0; p < kc; ++p) {
    F32x4 b0, b1;
    std::memcpy(&b0, b, 16);
    std::memcpy(&b1, b + 4, 16);
    for (int r = 0; r < R; ++r) {
      const float s = a[r * a_rs];
      const F32x4 sv = {s, s, s, s};
      lo[r] = __builtin_wasm_fma_f32x4(sv, b0, lo[r]);
      hi[r] = __builtin_wasm_fma_f32x4(sv, b1, hi[r]);
    }
    a += a_cs;
    b += b_rs;
  }
  for (int r = 0; r < R; ++r) {
    std::memcpy(&acc[r][0], &lo[r], 16);
    std::memcpy(reinterpret_cast<char*>(&acc[r][0]) + 16, &hi[r], 16);
  }
}
#endif

// Full-width tiles of P panels into (or added to) C.
template <class T, int R, int P>
inline void store_tile(const Vec<T> (&acc)[R][P * kVecs], T* c, int64_t c_row, bool accumulate) {
  constexpr int L = kLanes<T>;
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < P * kVecs; ++v) {
      T* dst = c + r * c_row + v * L;
      Vec<T> out = acc[r][v];
      if (accumulate) {
        Vec<T> old;
        load(old, dst);
        out += old;
      }
      std::memcpy(dst, &out, sizeof out);
    }
}

// One register tile of C with R rows: the sums above, stored into (or added
// to) C, only the valid columns at the right edge.
template <class T, int R>
void tile_rows(int64_t kc, const T* a, int64_t a_rs, int64_t a_cs, const T* b, int64_t b_rs, T* c, int64_t c_row,
               int64_t cols, bool accumulate) {
  // zeroed inside accumulate_tile, in registers: "= {}" here made g++ 12 write
  // the whole array to memory first (a dead 1 KB memset per AVX-512 tile, 3.5%
  // of a training step)
  Vec<T> acc[R][kVecs];
#ifdef __wasm_relaxed_simd__
  if constexpr (std::is_same_v<T, float>)
    accumulate_tile_relaxed<R>(kc, a, a_rs, a_cs, b, b_rs, acc);
  else
#endif
    accumulate_tile<T, R>(kc, a, a_rs, a_cs, b, b_rs, 0, acc);
  if (cols == kCols<T>) {
    store_tile<T, R, 1>(acc, c, c_row, accumulate);
    return;
  }
  // right edge: only the valid columns
  for (int r = 0; r < R; ++r) {
    T lanes[kCols<T>];
    std::memcpy(lanes, acc[r], sizeof lanes);
    for (int64_t j = 0; j < cols; ++j) c[r * c_row + j] = accumulate ? c[r * c_row + j] + lanes[j] : lanes[j];
  }
}

// The tile for a strip of 1 <= rows <= kRows rows: R = rows, found at compile
// time by counting down from kRows.
template <class T, int R = kRows>
void tile(int64_t kc, const T* a, int64_t a_rs, int64_t a_cs, const T* b, int64_t b_rs, T* c, int64_t c_row,
          int64_t rows, int64_t cols, bool accumulate) {
  if constexpr (R > 1) {
    if (rows < R) {
      tile<T, R - 1>(kc, a, a_rs, a_cs, b, b_rs, c, c_row, rows, cols, accumulate);
      return;
    }
  }
  tile_rows<T, R>(kc, a, a_rs, a_cs, b, b_rs, c, c_row, cols, accumulate);
}

// Two full-width panels at once for a strip of R <= kRows / 2 rows: the
// ragged strip at the bottom of a product (the AVX2 tile's 6 rows leave 2 of
// attention's 32-row blocks and of every 128-row weight gradient) has R *
// kVecs sums, too few to cover the FMA's latency; with two panels it has twice
// as many. The same multiply-adds in the same order for every output. AVX2
// build, 1 thread pinned, 3 interleaved rounds (2026-12-03): BM_CausalAttention
// 5.68 -> 5.43 ms, BM_WeightGradient/out:128 698 -> 678 us, the rest unchanged.
template <class T, int R = kRows / 2>
void tile_pair(int64_t kc, const T* a, int64_t a_rs, int64_t a_cs, const T* b, int64_t b_rs, int64_t b_ps, T* c,
               int64_t c_row, int64_t rows, bool accumulate) {
  if constexpr (R > 1) {
    if (rows < R) {
      tile_pair<T, R - 1>(kc, a, a_rs, a_cs, b, b_rs, b_ps, c, c_row, rows, accumulate);
      return;
    }
  }
  Vec<T> acc[R][2 * kVecs];
  accumulate_tile<T, R, 2>(kc, a, a_rs, a_cs, b, b_rs, b_ps, acc);
  store_tile<T, R, 2>(acc, c, c_row, accumulate);
}

// The relaxed-SIMD tile has a path of its own (one panel); its 4-row tile
// divides every size the model uses.
#ifdef __wasm_relaxed_simd__
constexpr bool kPairPanels = false;
#else
constexpr bool kPairPanels = true;
#endif

// A thread's packing buffer, at least n long. It only grows: resize() after
// a shrink would fill the regrown tail with zeros again, and products of
// different sizes take turns (in wasm the model's run spent 0.3% of its time
// re-zeroing such buffers), while every element used is written by the packing.
template <class T> T* scratch(std::vector<T>& v, int64_t n) {
  if (v.size() < static_cast<std::size_t>(n)) v.resize(static_cast<std::size_t>(n));
  return v.data();
}

// The product loop. B is read from `prepacked` (all panels of every k block,
// as pack_weight lays them out) when given, else packed here or read in place.
template <class T>
void gemm_with(int64_t m, int64_t n, int64_t k, const T* a, int64_t a_row, int64_t a_col, const T* b, int64_t b_row,
               int64_t b_col, const T* prepacked, T* c, int64_t c_row, bool accumulate) {
  constexpr int NR = kCols<T>;
  if (k == 0) {
    if (!accumulate)
      for (int64_t i = 0; i < m; ++i) std::fill(c + i * c_row, c + i * c_row + n, T(0));
    return;
  }
  // reused across calls: packing buffers are the only allocation here
  thread_local std::vector<T> bpack, apack;
  const int64_t panels = (n + NR - 1) / NR;
  // Row-major operands are read in place (packing costs as much as the
  // arithmetic for attention's small per-head products); strided ones, and
  // the ragged edges, are packed. A transposed A (a_row 1: a strip's kRows
  // values of each k lie side by side, as packed) is read in place too when
  // there is one panel, so its strip would be read once: attention's
  // tril(W)^T products, whose width is a head's 32.
  const bool direct_a = a_col == 1 || (a_row == 1 && n <= NR);
  const bool direct_b = prepacked == nullptr && b_col == 1;
  const int64_t last_panel = (panels - 1) * NR;
  for (int64_t p0 = 0; p0 < k; p0 += kDepth) {
    const int64_t kc = std::min(kDepth, k - p0);
    const bool acc = accumulate || p0 > 0;
    T* const a_buf = scratch(apack, kc * kRows);
    const T* packed = bpack.data();
    if (prepacked != nullptr) {
      packed = prepacked + p0 * panels * NR;  // the blocks before hold p0 rows of every panel
    } else if (!direct_b) {
      T* const b_buf = scratch(bpack, panels * kc * NR);
      pack_b(kc, n, b + p0 * b_row, b_row, b_col, b_buf);
      packed = b_buf;
    } else if (n - last_panel < NR) {  // only the ragged last panel
      T* const b_buf = scratch(bpack, kc * NR);
      pack_b(kc, n - last_panel, b + p0 * b_row + last_panel, b_row, b_col, b_buf);
      packed = b_buf;
    }
    for (int64_t i0 = 0; i0 < m; i0 += kRows) {
      const int64_t rows = std::min<int64_t>(kRows, m - i0);
      const T* ap = a_buf;
      int64_t a_rs = 1, a_cs = kRows;
      if (direct_a) {  // a ragged strip too: its tile reads only its own rows
        ap = a + i0 * a_row + p0 * a_col;
        a_rs = a_row;
        a_cs = a_col;
      } else {
        pack_a(rows, kc, a + i0 * a_row + p0 * a_col, a_row, a_col, a_buf);
      }
      for (int64_t jp = 0; jp < panels; ++jp) {
        const int64_t cols = std::min<int64_t>(NR, n - jp * NR);
        const bool in_place = direct_b && cols == NR;
        const T* bp = in_place ? b + p0 * b_row + jp * NR : packed + (direct_b ? 0 : jp * kc * NR);
        if (kPairPanels && rows <= kRows / 2 && n - (jp + 1) * NR >= NR) {  // this panel and the next, both full
          tile_pair(kc, ap, a_rs, a_cs, bp, in_place ? b_row : NR, in_place ? NR : kc * NR, c + i0 * c_row + jp * NR,
                    c_row, rows, acc);
          ++jp;
          continue;
        }
        tile(kc, ap, a_rs, a_cs, bp, in_place ? b_row : NR, c + i0 * c_row + jp * NR, c_row, rows, cols, acc);
      }
    }
  }
}

// B (k, n) packed whole: every k block's panels, in order (PackedB's layout).
// A weight is packed again after every optimizer step, so a large B is packed
// by the pool too, in chunks of whole panels of one k block: a copy, the same
// bits whoever makes it.
template <class T> void pack_all(int64_t k, int64_t n, const T* b, int64_t b_row, int64_t b_col, T* out) {
  constexpr int NR = kCols<T>;
  const int64_t panels = (n + NR - 1) / NR;
  const int64_t blocks = (k + kDepth - 1) / kDepth;
  const int64_t group = std::max<int64_t>(1, detail::kGrainElements / (kDepth * NR));  // panels per chunk
  const int64_t groups = (panels + group - 1) / group;
  auto pack_chunk = [&](int64_t i) {
    const int64_t p0 = i / groups * kDepth, g0 = i % groups * group * NR;
    const int64_t kc = std::min(kDepth, k - p0), cols = std::min(group * NR, n - g0);
    pack_b(kc, cols, b + p0 * b_row + g0 * b_col, b_row, b_col, out + p0 * panels * NR + g0 * kc);
  };
  if (k * n < detail::kParallelElements)
    for (int64_t i = 0; i < blocks * groups; ++i) pack_chunk(i);
  else
    detail::parallel_for(blocks * groups, pack_chunk);
}

// Threads share a product by rows of C, in chunks of kChunkRows: rows never
// depend on one another, so every output is the same sum in the same order
// whoever computes it. The chunk is fixed by the tile alone.
constexpr int64_t kChunkRows = 4 * kRows;
using detail::kParallelMacs;  // smaller products stay on the calling thread

// A long, thin product (a weight's gradient, dW = dY^T X: m and n the
// weight's, k every token of the batch) is shared over k instead: `parts`
// runs of whole k blocks, one per thread. Shared by rows, every thread would
// read all of B (the layer's input X, 1-3 MB for the 16 x 128 training step),
// so each of its lines would sit in both cores' caches; once X is freed, the
// next tensor given its memory has to take every line back from the other
// core as it is written. When the host puts the two vCPUs far apart (a cache
// line's round trip 320-340 ns rather than 50-60), that write is slow: two
// threads write 3 MB in 25-34 us when each wrote its half last, 670-860 us
// far (117-160 near) when both had read all of it (`glassllm bench` on 2
// threads, "host shared_write_us"; docs/threads.md, "Eighteenth session").
// Over k, each thread reads only the rows of its own tokens, which it wrote
// itself. 16 x 128 training step, 2 threads, far: 79.8-87.0 ms, against
// 91.6-95.8 shared by rows.
//
// The bits are gemm_with's, whatever the number of parts: C = ((P0 + P1) +
// P2) + ..., P_j the product over k block j summed in registers from zero.
// Part 0 runs gemm_with over its blocks straight into C; every other part
// keeps each of its P_j apart, waits for the part before it to be done, then
// adds its P_j to C in order (an element's old + P_j, as store_tile adds).
// The wait cannot deadlock: the pool's caller takes part 0 first and then
// the others in ascending order (thread_pool.h), so every part waited for
// has a thread.
template <class T>
void gemm_over_depth(int64_t m, int64_t n, int64_t k, const T* a, int64_t a_row, int64_t a_col, const T* b,
                     int64_t b_row, int64_t b_col, T* c, int64_t c_row, bool accumulate, int64_t parts) {
  const int64_t blocks = (k + kDepth - 1) / kDepth;
  std::atomic<int64_t> done{0};  // parts whose blocks are in C
  detail::parallel_for(parts, [&](int64_t part) {
    const int64_t first = blocks * part / parts, last = blocks * (part + 1) / parts;
    if (part == 0) {
      gemm_with<T>(m, n, std::min(k, last * kDepth), a, a_row, a_col, b, b_row, b_col, nullptr, c, c_row, accumulate);
      done.store(1, std::memory_order_release);
      return;
    }
    thread_local std::vector<T> sums;
    T* const p = scratch(sums, (last - first) * m * n);  // (blocks of this part, m, n)
    for (int64_t j = first; j < last; ++j) {
      const int64_t p0 = j * kDepth;
      gemm_with<T>(m, n, std::min(kDepth, k - p0), a + p0 * a_col, a_row, a_col, b + p0 * b_row, b_row, b_col,
                   nullptr, p + (j - first) * m * n, n, false);
    }
    detail::wait_turn(done, part);
    for (int64_t j = first; j < last; ++j) {
      const T* pj = p + (j - first) * m * n;
      for (int64_t i = 0; i < m; ++i)
        for (int64_t col = 0; col < n; ++col) c[i * c_row + col] += pj[i * n + col];
    }
    done.store(part + 1, std::memory_order_release);
  });
}

template <class T>
void gemm_parallel(int64_t m, int64_t n, int64_t k, const T* a, int64_t a_row, int64_t a_col, const T* b,
                   int64_t b_row, int64_t b_col, const T* prepacked, T* c, int64_t c_row, bool accumulate) {
  const int64_t chunks = (m + kChunkRows - 1) / kChunkRows;
  if (max_threads() == 1 || m * n * k < kParallelMacs) {
    gemm_with<T>(m, n, k, a, a_row, a_col, b, b_row, b_col, prepacked, c, c_row, accumulate);
    return;
  }
  // long and thin: over k (above), in at most one part per k block
  const int64_t parts = std::min<int64_t>(threads(), (k + kDepth - 1) / kDepth);
  if (prepacked == nullptr && k >= 4 * m && parts >= 2) {
    gemm_over_depth<T>(m, n, k, a, a_row, a_col, b, b_row, b_col, c, c_row, accumulate, parts);
    return;
  }
  if (chunks < 2) {
    gemm_with<T>(m, n, k, a, a_row, a_col, b, b_row, b_col, prepacked, c, c_row, accumulate);
    return;
  }
  // a strided B is packed once here, not once per chunk (the same panels gemm_with would make)
  thread_local std::vector<T> whole_b;
  if (prepacked == nullptr && b_col != 1) {
    T* const buf = scratch(whole_b, (n + kCols<T> - 1) / kCols<T> * kCols<T> * k);
    pack_all(k, n, b, b_row, b_col, buf);
    prepacked = buf;
  }
  detail::parallel_for(chunks, [&](int64_t i) {
    const int64_t i0 = i * kChunkRows;
    gemm_with<T>(std::min(kChunkRows, m - i0), n, k, a + i0 * a_row, a_row, a_col, b, b_row, b_col, prepacked,
                 c + i0 * c_row, c_row, accumulate);
  });
}

}  // namespace

GemmTile gemm_tile() { return {kIsa, kRows, kCols<float>, kCols<double>}; }

template <class T>
void gemm(int64_t m, int64_t n, int64_t k, const T* a, int64_t a_row, int64_t a_col, const T* b, int64_t b_row,
          int64_t b_col, T* c, int64_t c_row, bool accumulate) {
  gemm_parallel<T>(m, n, k, a, a_row, a_col, b, b_row, b_col, nullptr, c, c_row, accumulate);
}

template <class T> void pack_weight(int64_t k, int64_t n, const T* b, int64_t b_row, int64_t b_col, PackedB<T>& out) {
  out.k = k;
  out.n = n;
  out.data.resize(static_cast<std::size_t>((n + kCols<T> - 1) / kCols<T> * kCols<T> * k));
  pack_all(k, n, b, b_row, b_col, out.data.data());
}

template <class T>
void gemm_packed(int64_t m, const T* a, int64_t a_row, int64_t a_col, const PackedB<T>& b, T* c, int64_t c_row,
                 bool accumulate) {
  gemm_parallel<T>(m, b.n, b.k, a, a_row, a_col, nullptr, 0, 0, b.data.data(), c, c_row, accumulate);
}

template <class T>
void gemm_packed_prefix(int64_t m, int64_t n, const T* a, int64_t a_row, int64_t a_col, const PackedB<T>& b, T* c,
                        int64_t c_row, bool accumulate) {
  if (n > b.n || (b.k > kDepth && n != b.n)) throw std::logic_error("gemm_packed_prefix: not a prefix of the packing");
  gemm_parallel<T>(m, n, b.k, a, a_row, a_col, nullptr, 0, 0, b.data.data(), c, c_row, accumulate);
}

template void pack_weight<float>(int64_t, int64_t, const float*, int64_t, int64_t, PackedB<float>&);
template void pack_weight<double>(int64_t, int64_t, const double*, int64_t, int64_t, PackedB<double>&);
template void gemm_packed<float>(int64_t, const float*, int64_t, int64_t, const PackedB<float>&, float*, int64_t, bool);
template void gemm_packed<double>(int64_t, const double*, int64_t, int64_t, const PackedB<double>&, double*, int64_t,
                                  bool);
template void gemm_packed_prefix<float>(int64_t, int64_t, const float*, int64_t, int64_t, const PackedB<float>&, float*,
                                        int64_t, bool);
template void gemm_packed_prefix<double>(int64_t, int64_t, const double*, int64_t, int64_t, const PackedB<double>&,
                                         double*, int64_t, bool);
template void gemm<float>(int64_t, int64_t, int64_t, const float*, int64_t, int64_t, const float*, int64_t, int64_t,
                          float*, int64_t, bool);
template void gemm<double>(int64_t, int64_t, int64_t, const double*, int64_t, int64_t, const double*, int64_t, int64_t,
                           double*, int64_t, bool);

}  // namespace glass::kernels
