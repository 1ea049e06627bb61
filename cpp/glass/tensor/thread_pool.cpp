#include "glass/tensor/thread_pool.h"

#include <exception>
#include <string>

#include "glass/tensor/error.h"

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define GLASS_SERIAL_ONLY 1  // wasm without -pthread: std::thread cannot start
#else
#if defined(__EMSCRIPTEN__)
#define GLASS_WASM_THREADS 1  // wasm with -pthread: each thread is a Web Worker
#include <emscripten/emscripten.h>
#endif
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>
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

// Chunks run in order on the calling thread: the pool's fallback, and all of
// the wasm build.
void run_serially(int64_t chunks, detail::ChunkFn body, void* ctx) {
  for (int64_t i = 0; i < chunks; ++i) body(ctx, i);
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

namespace detail {
void parallel_for_chunks(int64_t chunks, ChunkFn body, void* ctx) { run_serially(chunks, body, ctx); }
}  // namespace detail

#else

int hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

namespace {

// One parallel_for: its chunks are claimed through `next`, so a thread that
// wakes late finds nothing left and the others never wait for it.
struct Job {
  Job(detail::ChunkFn b, void* c, int64_t n, int max_users) : body(b), ctx(c), chunks(n), limit(max_users) {}
  detail::ChunkFn body;
  void* ctx;
  int64_t chunks;
  int limit;  // threads that may run its chunks, the caller included (threads())
  std::atomic<int64_t> next{0};
  std::exception_ptr error;  // the first a chunk threw (under Pool::mutex_)
  int users = 0;             // threads running this job's chunks (under Pool::mutex_)
};

// Workers sleep on a condition variable between jobs; the caller of a job
// runs chunks too, so n threads means n - 1 workers.
class Pool {
 public:
  explicit Pool(int workers) {
    for (int i = 0; i < workers; ++i) workers_.emplace_back([this] { work(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  void run(Job& job) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &job;
      ++job_id_;
      job.users = 1;  // the caller
    }
    wake_.notify_all();
    run_chunks(job);
    std::unique_lock<std::mutex> lock(mutex_);
    job_ = nullptr;  // every chunk is claimed: no one else may pick it up
    --job.users;
    done_.wait(lock, [&] { return job.users == 0; });  // and those running one have finished it
  }

 private:
  static thread_local bool inside_;  // this thread is running a chunk (nested calls run serially)

  void run_chunks(Job& job) {
    inside_ = true;
    for (int64_t i; (i = job.next.fetch_add(1, std::memory_order_relaxed)) < job.chunks;) {
      try {
        job.body(job.ctx, i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!job.error) job.error = std::current_exception();
      }
    }
    inside_ = false;
  }

  void work() {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      wake_.wait(lock, [&] { return stop_ || (job_ != nullptr && job_id_ != seen); });
      if (stop_) return;
      seen = job_id_;
      Job& job = *job_;
      if (job.users >= job.limit) continue;  // a pool larger than threads(): enough have joined
      ++job.users;
      lock.unlock();
      run_chunks(job);
      lock.lock();
      if (--job.users == 0) done_.notify_all();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  Job* job_ = nullptr;  // the job being handed out, if any
  uint64_t job_id_ = 0;
  bool stop_ = false;

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

namespace detail {

void parallel_for_chunks(int64_t chunks, ChunkFn body, void* ctx) {
  State& s = state();
  if (chunks < 2 || Pool::inside() || s.wanted.load(std::memory_order_relaxed) == 1) {
    run_serially(chunks, body, ctx);
    return;
  }
  std::unique_lock<std::mutex> lock(s.busy, std::try_to_lock);
  if (!lock.owns_lock()) {
    run_serially(chunks, body, ctx);
    return;
  }
  const int n = s.wanted.load(std::memory_order_relaxed);
  if (!s.pool || s.pool->size() != pool_workers(n) + 1) {
    s.pool.reset();
    s.pool = std::make_unique<Pool>(pool_workers(n));
  }
  Job job(body, ctx, chunks, n);
  s.pool->run(job);
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace detail

#endif

}  // namespace glass
