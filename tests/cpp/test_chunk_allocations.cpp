// No chunk of a shared job allocates once the run is warm. The threaded wasm
// build's malloc (dlmalloc) takes one lock for every thread: a chunk that
// allocates (a std::vector of the row index, a copied Strides) makes the
// worker and the caller queue on that lock and pass its cache line between
// their cores every time, and the caller's own serial allocations wait too. In
// Node, 2 threads, vCPUs far apart, forward + backward on 128 bytes went from
// 13.8 to 13.4 ms (median of 5 interleaved pairs) once the chunks stopped
// allocating (docs/threads.md, "Nineteenth and twentieth sessions").
//
// Counted with a replacement of the global operator new (this file only; it
// calls malloc as the default one does): every call made while the thread is
// inside a shared chunk. Thread-local scratch that a kernel keeps and grows
// (the matrix product's packing buffers) allocates on its first runs only:
// passes repeat until one allocates nothing.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "glass/nn/model.h"
#include "glass/tensor/ops.h"
#include "glass/tensor/random.h"
#include "glass/tensor/thread_pool.h"
#include "glass/train/adamw.h"

namespace {
std::atomic<int64_t> chunk_allocations{0};

void* allocate(std::size_t n) {
  if (glass::detail::in_shared_chunk()) chunk_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
}  // namespace

// Every unaligned form, nothrow ones included: a sanitizer's own new paired
// with this delete would be a mismatch (std::stable_sort's buffer is nothrow).
// The aligned forms stay the library's, a pair of their own.
void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return allocate(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

using namespace glass;

constexpr int kPasses = 8;

// The page's run (forward + backward on 128 bytes, one sequence) and a
// training step with AdamW, at the default width on two blocks.
void model_runs() {
  nn::Config cfg;
  cfg.blocks = 2;
  nn::Model model(cfg, 3);
  train::AdamW adamw(model.named_parameters());
  for (const int64_t batch : {1, 2}) {
    std::vector<int32_t> ids;
    for (int64_t i = 0; i < batch * cfg.context; ++i) ids.push_back(static_cast<int32_t>((i * 31 + 7) % 256));
    model.zero_grad();
    model.forward(ids, batch).loss.backward();
    adamw.step(1e-3);
  }
}

// Strided and broadcast operands, the kernels that walk rows by index: a
// permuted copy (attention's heads), a broadcast product and quotient.
void strided_runs() {
  Generator g(5);
  const Tensor x = Tensor::randn({4, 128, 2, 64}, g, DType::f32);
  const Tensor heads = permute(x, {0, 2, 1, 3}).contiguous();  // (4, 2, 128, 64)
  const Tensor gamma = Tensor::randn({64}, g, DType::f32);
  const Tensor rms = Tensor::randn({4, 2, 128, 1}, g, DType::f32);
  (void)div(mul(heads, gamma), rms);
}

TEST(Threads, NoSharedChunkAllocatesOnceWarm) {
  if (max_threads() < 2) GTEST_SKIP() << "this build has no threads: every chunk runs serially on the caller";
  const int before = threads();
  set_threads(2);
  // A pass that allocates nothing, within a few: a chunk that allocates does
  // so in every pass, while a worker's kept scratch grows in its first passes
  // only (in the threaded wasm build any of its started workers may be the
  // one that joins, a fresh one now and then).
  std::vector<int64_t> counts;
  for (int pass = 0; pass < kPasses && (counts.empty() || counts.back() != 0); ++pass) {
    chunk_allocations = 0;
    model_runs();
    strided_runs();
    counts.push_back(chunk_allocations.load());
  }
  set_threads(before);
  std::string seen;
  for (const int64_t c : counts) seen += " " + std::to_string(c);
  EXPECT_EQ(counts.back(), 0) << "allocations made inside shared chunks (each takes the wasm malloc's one lock), pass by pass:" << seen;
}

}  // namespace
