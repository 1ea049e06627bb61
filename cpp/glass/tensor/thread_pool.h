#pragma once
// The core's threads: one pool of workers that the heavy kernels share (the
// matrix product, attention's products, softmax, the large elementwise ops and
// reductions, and their backward rules, which are the same kernels).
//
// Results are bit-identical for every thread count. A kernel cuts its work
// into chunks fixed by the problem alone (so many rows, so many elements),
// never by the number of threads, and each chunk writes only its own outputs,
// computing each one in the same order whichever thread runs it: no sum is
// split between threads, except in the order of the sum itself (a product
// over k in parts, each adding its blocks after the part before it:
// gemm.cpp, wait_turn below). Threads only decide who runs which chunk.
//
// The plain wasm build has no threads (it is compiled without -pthread): there
// every parallel_for runs its chunks in order on the calling thread. The
// threaded wasm build (-pthread, the wasm-threads preset) runs the pool on
// Web Workers started with the module.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace glass {

// Threads the kernels use, the calling thread included (1: no pool at all).
// The default is the machine's cores (std::thread::hardware_concurrency()), and
// max_threads() in the threaded wasm build.
// Throws glass::Error unless 1 <= n <= max_threads(). Set it between
// computations, not while another thread runs one.
void set_threads(int n);
int threads();
// The most set_threads accepts: 256 natively, 1 in a build without threads,
// and in the threaded wasm build the Web Workers the module started with, plus one.
int max_threads();
// The machine's cores as the standard library reports them (at least 1).
int hardware_threads();

// What the kernels handed to the pool, for benchmarks: while counting is on,
// every parallel_for is counted by its number of chunks (so by the kernel's
// size: 2 chunks is a 128 x 128 elementwise op), with the wall time it took on
// the calling thread, chunks run serially included. The rest of a run's time
// is the serial part that no thread count speeds up. Off, counting costs one
// relaxed load per parallel_for.
struct JobCount {
  int64_t chunks = 0;  // by kernel: the most chunks one of its jobs had
  int64_t jobs = 0;
  double seconds = 0;
  // of all these jobs' chunks, those the calling thread ran, and of those the
  // ones from another thread's range (Pool::run_chunks): a worker that comes
  // late loses its chunks to the caller, and with them the rows it computes
  // op after op
  int64_t caller_chunks = 0;
  int64_t caller_took = 0;
  // the calling thread's time outside the pool just before each of these jobs
  // (since the counted job before it ended, or counting began): serial work,
  // which reads what the workers wrote as well
  double serial_before = 0;
  // by kernel: the mangled name of the parallel_for's body type, which names
  // the function it was written in (kernel_name.h makes it readable)
  const char* kernel = nullptr;

  // These jobs and o's as one count (the pool adds each job this way; a
  // reader may add up kernels of one name)
  void add(const JobCount& o) {
    chunks = std::max(chunks, o.chunks);
    jobs += o.jobs;
    seconds += o.seconds;
    caller_chunks += o.caller_chunks;
    caller_took += o.caller_took;
    serial_before += o.serial_before;
    if (kernel == nullptr) kernel = o.kernel;
  }
};
void count_jobs(bool on);  // on: start again from nothing; off: stop (what was counted stays)
std::vector<JobCount> counted_jobs();     // by chunks, ascending
std::vector<JobCount> counted_kernels();  // by kernel (each parallel_for in the source), most time first

}  // namespace glass

namespace glass::detail {

// When threads share a kernel, in one place for every kernel. Work smaller
// than this stays on the calling thread: handing a chunk to a waiting worker
// costs about a microsecond (a few thousand elements' worth of work), waking
// a sleeping one tens. The sizes change only who computes what, never a result.
// Elementwise work from 2^14 elements, so a 128 x 128 op (the page's run on
// 128 bytes) is shared too. Which is faster depends on how far apart the cores
// are. On a 2-core AMD EPYC (Zen 4) whose cores pass a cache line in about
// 170 ns (a laptop's cores share one cache, so likely no farther): in
// Chromium, forward + backward on 128 bytes alternating 1 and 2 threads in
// one page gained 1.78-1.87x per pair (median) with 2^14 in three runs,
// 1.50-1.53x with 2^15 in two; the
// training step is the same either way, and the native figures moved only
// with the host. On a Zen 5 machine whose vCPUs were far apart (600 ns),
// 2^15 had been faster (threaded wasm under Node 17.1 -> 15.7 ms, natively
// 6.30 -> 5.82 ms). (docs/threads.md, "Where a run's time goes")
inline constexpr int64_t kParallelElements = int64_t{1} << 14;  // elementwise maps, softmax, reductions, copies
inline constexpr int64_t kGrainElements = int64_t{1} << 13;     // elements per chunk of those
inline constexpr int64_t kParallelMacs = int64_t{1} << 18;      // matrix products (multiply-adds)

// Rows of `len` elements per chunk: about kGrainElements, at least one row.
inline int64_t grain_rows(int64_t len) { return std::max<int64_t>(1, kGrainElements / std::max<int64_t>(len, 1)); }

// body(ctx, i) for every chunk i in [0, chunks), spread over the pool; returns
// when every chunk is done, rethrowing the first exception a chunk threw.
// Runs the chunks in order on the calling thread when threads() is 1, when
// there are fewer than 2 chunks, inside another parallel_for's chunk (a
// kernel that calls a kernel), or while another thread's parallel_for holds
// the pool.
using ChunkFn = void (*)(void* ctx, int64_t chunk);
// `kernel`: what counted_kernels() files the job under (a type's mangled name).
void parallel_for_chunks(int64_t chunks, ChunkFn body, void* ctx, const char* kernel);

// This thread is running a chunk that the pool handed out (a worker's, or the
// caller's own while it shares a job): false where chunks run serially. For
// tests: no chunk may allocate in steady state, since the threaded wasm
// build's malloc takes one lock for every thread (tests/cpp/test_chunk_allocations.cpp).
bool in_shared_chunk();

template <class F> void parallel_for(int64_t chunks, F&& body) {
  using Body = std::remove_reference_t<F>;
  parallel_for_chunks(
      chunks, [](void* ctx, int64_t i) { (*static_cast<Body*>(ctx))(i); },
      const_cast<void*>(static_cast<const void*>(&body)), typeid(Body).name());
}

// Returns once `done` holds `turn` (another chunk of the same job stores it):
// for a chunk that must follow the one before it, as a product summed over k
// in parts does (gemm.cpp). Looks busily at first, then gives the core away
// between looks. Only a chunk whose predecessors have all been claimed may
// wait: the calling thread claims the chunks in ascending order, after the
// ones of its own range (Pool::run_chunks).
void wait_turn(const std::atomic<int64_t>& done, int64_t turn);

// [0, n) in pieces of `grain` (the last one shorter), body(begin, end) each.
template <class F> void parallel_ranges(int64_t n, int64_t grain, F&& body) {
  if (n <= 0) return;
  const int64_t pieces = (n + grain - 1) / grain;
  if (pieces == 1) {
    body(int64_t{0}, n);
    return;
  }
  parallel_for(pieces, [&](int64_t i) { body(i * grain, std::min(n, (i + 1) * grain)); });
}

// body(begin, end) over the n elements of an elementwise map: one call below
// kParallelElements, else pieces of kGrainElements shared by the pool.
template <class F> void over_elements(int64_t n, F&& body) {
  if (n < kParallelElements)
    body(int64_t{0}, n);
  else
    parallel_ranges(n, kGrainElements, body);
}

}  // namespace glass::detail
