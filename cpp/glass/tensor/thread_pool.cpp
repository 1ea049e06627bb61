#include "glass/tensor/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "glass/tensor/error.h"

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define GLASS_SERIAL_ONLY 1  // wasm without -pthread: std::thread cannot start
#else
#if defined(__EMSCRIPTEN__)
#define GLASS_WASM_THREADS 1  // wasm with -pthread: each thread is a Web Worker
#include <emscripten/emscripten.h>
#endif
#include <condition_variable>
#include <memory>
#include <thread>
#endif

#ifdef GLASS_WASM_THREADS
// The Web Workers Emscripten has made so far (on the thread that loaded the module).
EM_JS(int, glass_started_workers, (), { return PThread.unusedWorkers.length + PThread.runningWorkers.length; });
#endif

namespace glass {

namespace {

#ifdef GLASS_SERIAL_ONLY
int max_threads_of_build() { return 1; }
#elif defined(GLASS_WASM_THREADS)
// A thread can start at once only on a Web Worker that the module started
// with it (Emscripten's PTHREAD_POOL_SIZE, sized by the loader: cpp/wasm/threads_pre.js);
// a worker made later would load only once the calling thread returns to its
// event loop, which a kernel waiting for its chunks never does. So the limit
// is those workers plus the calling thread, counted before any thread starts.
int max_threads_of_build() {
  static const int n = std::clamp(glass_started_workers() + 1, 1, 256);
  return n;
}
#else
int max_threads_of_build() { return 256; }
#endif

// The chunks one thread ran of a job, and of those the ones from another
// thread's range (JobCount).
struct Ran {
  int64_t chunks = 0;
  int64_t taken = 0;
};

// Chunks run in order on the calling thread: the pool's fallback, and all of
// the wasm build.
Ran run_serially(int64_t chunks, detail::ChunkFn body, void* ctx) {
  for (int64_t i = 0; i < chunks; ++i) body(ctx, i);
  return {std::max<int64_t>(chunks, 0), 0};
}

}  // namespace

int max_threads() { return max_threads_of_build(); }

#ifdef GLASS_SERIAL_ONLY

int hardware_threads() { return 1; }
int threads() { return 1; }
void set_threads(int n) {
  if (n != 1)
    throw Error("set_threads: this build of the core has no threads (WebAssembly without threads); got " +
                std::to_string(n) + ", only 1 is possible");
}

namespace {
Ran run_job(int64_t chunks, detail::ChunkFn body, void* ctx) { return run_serially(chunks, body, ctx); }
bool in_a_chunk() { return false; }  // (a nested call runs on the same thread: job_depth sees it)
}  // namespace

#else

// Counted once: glibc reads /sys for it, and every job asks (Pool::run).
int hardware_threads() {
  static const int n = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return n;
}

namespace {

// A short wait for the next job or for the last chunk. A worker asleep on the
// condition variable takes tens of microseconds to wake (a futex natively, an
// Atomics.wait in a Web Worker): as long as a whole small matrix product, and
// the model's products come one after another with little serial work between
// them. So a worker looks for the next job for a while before it sleeps.
// glassllm bench --batch 1, inspect_1x128 (forward + backward on 128 bytes,
// every snapshot kept; the page's run), AMD EPYC 2 cores, AVX-512 build:
// workers that always slept (and sharing only above 2^16 elements, 2^20
// multiply-adds): 1 thread 11.1 ms, 2 threads 11.3 ms; with this wait and the
// sizes in thread_pool.h: 10.7 ms and 6.4 ms. In Chromium, forward + backward
// on 128 bytes went from 1.33x to 1.53-1.65x faster on 2 threads, varying with
// the host (docs/threads.md, "Every run of the browser benchmark, session by
// session").
class Spin {
 public:
  static constexpr int kMicros = 1000;

  bool again() {
    ++turns_;
    // in wasm the clock is a call out to JS: look at it seldom, and not at
    // all in the short waits (most joins end within the first turns)
    if (turns_ % 256 == 0) {
      const auto now = std::chrono::steady_clock::now();
      if (turns_ == 256) until_ = now + std::chrono::microseconds(kMicros);
      if (now >= until_) return false;
    }
#ifdef __EMSCRIPTEN__
    // A Web Worker cannot give its core away (sched_yield only runs the
    // thread's queued calls, which made the wait slower): it keeps looking.
    (void)kPauses;
#else
    if (turns_ >= kPauses) {
      // After the first tens of microseconds, give the core to any other
      // thread that wants it (another process, or more threads than cores:
      // ctest -j2 runs two suites with two threads each on 2 cores) while
      // still looking often.
      std::this_thread::yield();
      return true;
    }
#endif
    relax();
    return true;
  }

 private:
  static constexpr uint32_t kPauses = 2048;  // about 40 us of pause on Zen 4, 100 on recent Intel
  static void relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  std::chrono::steady_clock::time_point until_;  // set at the first look at the clock
  uint32_t turns_ = 0;
};

// The pool's one job slot and n - 1 workers (the caller of a job runs chunks
// too, so n threads). A job's chunks are split into one contiguous range per
// thread: the caller takes the first, worker k the (k+1)-th (range_of), each claiming
// chunks of its range in order, then of the others' ranges (stealing); so a
// thread that comes late finds nothing left and the others never wait for it.
//
// Why ranges and not one shared counter: the same thread then computes the
// same part of every tensor, op after op (row r of a product's output, and of
// the elementwise ops on it), so what one op wrote is in the cache of the core
// that reads it next. With one counter, who took chunk i was chance, and about
// half of every op's input came from the other core's cache. On this project's
// 2-core virtual machine that cost most of the gain at times: the host moves
// its two vCPUs apart (a round trip of one cache line between two threads
// takes 330-350 ns then, against 55-110), and forward + backward on 128 bytes
// (every snapshot kept, the page's run) took 10.0-10.2 ms on 2 threads against
// 11.5 on 1, with the worker running 49% of the chunks, while two 1-thread
// processes side by side each kept their 11.5 ms. With ranges, 8.9-9.3 ms in
// that state; when the vCPUs are near, 6.0-6.3 ms either way, and the 16 x 128
// training step 89-92 ms against 93-95 (interleaved runs, 2026-12-02).
//
// Joining takes no lock: in wasm a contended mutex is a futex wait, and the
// caller may well be closing the job just as a worker arrives. A worker counts
// itself in (users_), then checks the job it saw is still open; the caller
// closes the job (open_ = 0), then waits for users_ to reach zero. Both pairs
// are sequentially consistent, so either the worker sees the job closed and
// leaves without touching it, or the caller sees the worker and waits for it.
// Epochs only grow, so a job is never mistaken for the one before it.
class Pool {
 public:
  explicit Pool(int workers) : ranges_(static_cast<std::size_t>(workers) + 1) {
    for (int i = 0; i < workers; ++i) workers_.emplace_back([this, i] { work(i + 1); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_.store(true);
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Runs body(ctx, i) for i in [0, chunks) on up to `limit` threads, the
  // caller included; rethrows the first exception a chunk threw. Up to limit
  // - 1 workers wait busily between jobs (Spin), and so does the caller for
  // the last chunks, only when every thread has a core of its own: or the
  // spinning would take the cores the others need.
  Ran run(detail::ChunkFn body, void* ctx, int64_t chunks, int limit) {
    const bool spin = limit <= hardware_threads();
    users_.fetch_add(1);  // the caller (a late worker may still be counted in: it leaves at once)
    joined_.store(1, std::memory_order_relaxed);
    body_ = body;
    ctx_ = ctx;
    limit_ = limit;
    error_ = nullptr;
    for (int p = 0; p < limit; ++p) {
      ranges_[p].next.store(chunks * p / limit, std::memory_order_relaxed);
      ranges_[p].end = chunks * (p + 1) / limit;
    }
    spinners_.store(spin ? limit - 1 : 0, std::memory_order_relaxed);
    open_.store(++epoch_);  // publishes the fields above
    // the workers awake find the job themselves; wake only as many sleepers
    // as are still missing (waking the whole pool for every job costs each of
    // them a futex round trip)
    const int sleeping = sleepers_.load();
    const int missing = std::min(sleeping, limit - 1 - (static_cast<int>(workers_.size()) - sleeping));
    if (missing > 0) {
      std::lock_guard<std::mutex> lock(mutex_);  // a worker between its last look and its wait holds it
      for (int i = 0; i < missing; ++i) wake_.notify_one();
    }
    const Ran ran = run_chunks(0);
    open_.store(0);  // every chunk is claimed: no one else may join
    users_.fetch_sub(1);
    // those still running a chunk finish it: wait for them, busily at first
    // (the rest of a chunk is short), then giving the core away
    Spin waiting;
    while (users_.load() != 0)
      if (!spin || !waiting.again()) std::this_thread::yield();
    if (error_) std::rethrow_exception(error_);
    return ran;
  }

 private:
  static thread_local bool inside_;  // this thread is running a chunk (nested calls run serially)

  // Range `own` first (the caller's is 0; a worker's: range_of), then
  // whatever is left of the others'.
  Ran run_chunks(int own) {
    inside_ = true;
    Ran ran;
    for (int k = 0; k < limit_; ++k) {
      Range& r = ranges_[(own + k) % limit_];
      for (int64_t i; (i = r.next.fetch_add(1, std::memory_order_relaxed)) < r.end;) {
        ++ran.chunks;
        if (k > 0) ++ran.taken;
        try {
          body_(ctx_, i);
        } catch (...) {
          std::lock_guard<std::mutex> lock(mutex_);
          if (!error_) error_ = std::current_exception();
        }
      }
    }
    inside_ = false;
    return ran;
  }

  // The range a worker starts on in the open job. With a worker for every
  // range (natively, and the wasm build at its full count) each keeps its own
  // slot's, op after op. The wasm build keeps every worker it started, more
  // than a smaller setting uses, and whichever are awake take a job: those
  // start on ranges 1 .. limit_ - 1 in the order they joined, so none starts on
  // the caller's range or on another's. (The slot modulo the job's threads,
  // used before, put a worker whose slot was a multiple of them on the
  // caller's: on 2 threads of 8, the caller and an even-numbered worker then
  // claimed one cursor's chunks in turn, and a quarter of each product's rows
  // moved between the cores from job to job: `glass_wasm_bench.js --jobs`
  // counts them.) Counted on joined_, not by users_: a late worker of the job
  // before may still be counted in there, and two would get one number.
  int range_of(int slot) {
    if (static_cast<int>(workers_.size()) + 1 == limit_) return slot;
    return joined_.fetch_add(1, std::memory_order_relaxed);
  }

  // A job this worker has not looked at yet: its epoch, or 0.
  uint64_t fresh(uint64_t seen) const {
    const uint64_t e = open_.load();
    return e != seen ? e : 0;
  }

  // A place among the workers that wait busily: at most spinners_ at once,
  // whichever are awake. Not the first ones by number: with more workers than
  // the setting uses (the wasm build keeps every started one), the one woken
  // for a job must take the place of a spinner that fell asleep, or after the
  // first long pause every job would wait for a wake-up.
  bool claim_spin() {
    int n = spinning_.load(std::memory_order_relaxed);
    while (n < spinners_.load(std::memory_order_relaxed))
      if (spinning_.compare_exchange_weak(n, n + 1, std::memory_order_relaxed)) return true;
    return false;
  }

  void work(int slot) {
    uint64_t seen = 0;
    while (!stop_.load()) {
      uint64_t e = fresh(seen);
      if (e == 0 && claim_spin()) {
        Spin spin;
        while ((e = fresh(seen)) == 0 && !stop_.load() && spin.again()) {
        }
        spinning_.fetch_sub(1, std::memory_order_relaxed);
      }
      if (e == 0) {
        // One wait, then back to looking busily, whatever woke it: a worker
        // woken for a job the caller has already finished alone must not go
        // straight back to sleep, or it would never catch a short job again
        // (each wake-up outlasting the job it was for).
        std::unique_lock<std::mutex> lock(mutex_);
        sleepers_.fetch_add(1);
        if (!stop_.load() && (e = fresh(seen)) == 0) wake_.wait(lock);
        sleepers_.fetch_sub(1);
        if (e == 0) continue;
      }
      seen = e;
      // count in first, then make sure the job is still the one seen (only
      // then are its fields this job's) and has room
      const int before = users_.fetch_add(1);
      if (open_.load() == e && before < limit_) (void)run_chunks(range_of(slot));
      users_.fetch_sub(1);  // the job may be gone after this
    }
  }

  std::vector<std::thread> workers_;
  // the job (written by the caller before open_ publishes it)
  detail::ChunkFn body_ = nullptr;
  void* ctx_ = nullptr;
  int limit_ = 1;
  std::exception_ptr error_;  // the first a chunk threw (under mutex_)
  uint64_t epoch_ = 0;                // the caller's count of jobs
  std::atomic<int> spinners_{0};      // workers that may wait busily (run() sets it)
  std::atomic<int> spinning_{0};      // workers waiting busily now
  std::atomic<int> sleepers_{0};      // workers asleep on wake_
  std::atomic<bool> stop_{false};
  // Each on a cache line of its own: waiting workers read open_ all the time,
  // and every claim of a chunk writes its range's cursor; sharing a line, each
  // claim would first take the line back from the readers.
  struct alignas(64) Range {
    std::atomic<int64_t> next{0};  // the range's next unclaimed chunk
    int64_t end = 0;               // one past its last
  };
  std::vector<Range> ranges_;  // one per thread: [0] the caller's, the others the workers' (range_of)
  alignas(64) std::atomic<uint64_t> open_{0};  // the open job's epoch, 0 when none
  alignas(64) std::atomic<int> users_{0};      // threads counted in on the job, the caller included
  std::atomic<int> joined_{1};  // on users_'s line, which a joining worker has just taken: range_of
  alignas(64) std::mutex mutex_;               // guards error_, and the sleep/wake handshake
  std::condition_variable wake_;

 public:
  static bool inside() { return inside_; }
};

thread_local bool Pool::inside_ = false;

#ifdef GLASS_WASM_THREADS
// Every started worker, made once and never replaced (see max_threads_of_build):
// a smaller setting lets fewer of them join each job.
int default_threads() { return max_threads_of_build(); }
int pool_workers(int) { return max_threads_of_build() - 1; }
#else
int default_threads() { return hardware_threads(); }
int pool_workers(int wanted) { return wanted - 1; }
#endif

// The setting and the pool it made. `busy` is held while a job runs (or the
// pool is replaced); a second thread's parallel_for finds it held and runs
// its own chunks serially instead of waiting.
struct State {
  std::mutex busy;
  std::atomic<int> wanted{default_threads()};
  std::unique_ptr<Pool> pool;  // made at first use
};

State& state() {
  static State s;
  return s;
}

}  // namespace

int threads() { return state().wanted.load(std::memory_order_relaxed); }

void set_threads(int n) {
  if (n < 1 || n > max_threads())
    throw Error("set_threads: the thread count must be between 1 and " + std::to_string(max_threads()) + ", got " +
                std::to_string(n));
  State& s = state();
  std::lock_guard<std::mutex> lock(s.busy);
  s.wanted.store(n, std::memory_order_relaxed);
  // joins its workers; the next job makes a new one
  if (s.pool && s.pool->size() != pool_workers(n) + 1) s.pool.reset();
}

namespace {

bool in_a_chunk() { return Pool::inside(); }  // on any thread, a worker's included

Ran run_job(int64_t chunks, detail::ChunkFn body, void* ctx) {
  State& s = state();
  if (chunks < 2 || Pool::inside() || s.wanted.load(std::memory_order_relaxed) == 1)
    return run_serially(chunks, body, ctx);
  std::unique_lock<std::mutex> lock(s.busy, std::try_to_lock);
  if (!lock.owns_lock()) return run_serially(chunks, body, ctx);
  const int n = s.wanted.load(std::memory_order_relaxed);
  if (!s.pool || s.pool->size() != pool_workers(n) + 1) {
    s.pool.reset();
    s.pool = std::make_unique<Pool>(pool_workers(n));
  }
  return s.pool->run(body, ctx, chunks, n);
}

}  // namespace

#endif

// ------------------------------------------------------------- job counting
namespace {

std::atomic<bool> counting{false};
std::mutex count_mutex;                   // guards counts() and by_kernel() (a second thread may run jobs too)
std::map<int64_t, JobCount>& counts() {  // by chunks
  static std::map<int64_t, JobCount> m;
  return m;
}
// By kernel: keyed on the name's address, cheaper than comparing names; the
// linker keeps one copy of a type's name, and a reader that finds two entries
// of one name adds them up (bench_core.cpp).
std::map<const char*, JobCount>& by_kernel() {
  static std::map<const char*, JobCount> m;
  return m;
}
std::chrono::steady_clock::time_point last_job_end;  // of the counted jobs (under count_mutex)
thread_local int job_depth = 0;  // a kernel inside another's chunk is part of that job, not one of its own

}  // namespace

void count_jobs(bool on) {
  std::lock_guard<std::mutex> lock(count_mutex);
  if (on) {
    counts().clear();
    by_kernel().clear();
    last_job_end = std::chrono::steady_clock::now();
  }
  counting.store(on, std::memory_order_relaxed);
}

std::vector<JobCount> counted_jobs() {
  std::lock_guard<std::mutex> lock(count_mutex);
  std::vector<JobCount> out;
  for (const auto& [chunks, c] : counts()) out.push_back(c);
  return out;
}

std::vector<JobCount> counted_kernels() {
  std::lock_guard<std::mutex> lock(count_mutex);
  std::vector<JobCount> out;
  for (const auto& [name, c] : by_kernel()) out.push_back(c);
  std::stable_sort(out.begin(), out.end(), [](const JobCount& a, const JobCount& b) { return a.seconds > b.seconds; });
  return out;
}

namespace detail {

void wait_turn(const std::atomic<int64_t>& done, int64_t turn) {
#ifdef GLASS_SERIAL_ONLY
  // chunks run in order on one thread: the turn has always come
  if (done.load(std::memory_order_acquire) != turn) throw std::logic_error("wait_turn: a chunk ran out of order");
#else
  Spin spin;
  while (done.load(std::memory_order_acquire) != turn)
    if (!spin.again()) std::this_thread::yield();
#endif
}

bool in_shared_chunk() { return in_a_chunk(); }

void parallel_for_chunks(int64_t chunks, ChunkFn body, void* ctx, const char* kernel) {
  if (!counting.load(std::memory_order_relaxed) || job_depth > 0 || in_a_chunk()) {
    (void)run_job(chunks, body, ctx);
    return;
  }
  struct Depth {
    Depth() { ++job_depth; }
    ~Depth() { --job_depth; }
  } depth;
  const auto t0 = std::chrono::steady_clock::now();
  const Ran ran = run_job(chunks, body, ctx);  // a job that throws is not counted
  const auto t1 = std::chrono::steady_clock::now();
  const double seconds = std::chrono::duration<double>(t1 - t0).count();
  std::lock_guard<std::mutex> lock(count_mutex);
  const double before = std::max(0.0, std::chrono::duration<double>(t0 - last_job_end).count());
  last_job_end = t1;
  JobCount job{chunks, 1, seconds, ran.chunks, ran.taken, before, nullptr};
  counts()[chunks].add(job);  // by size: no one kernel's name
  job.kernel = kernel;
  by_kernel()[kernel].add(job);
}

}  // namespace detail

}  // namespace glass
