#include "glass/tensor/thread_pool.h"

#include <exception>
#include <string>

#include "glass/tensor/error.h"

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define GLASS_SERIAL_ONLY 1  // wasm without -pthread: std::thread cannot start
#else
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>
#endif

namespace glass {

namespace {

#ifdef GLASS_SERIAL_ONLY
constexpr int kMaxThreads = 1;
#else
constexpr int kMaxThreads = 256;
#endif

// Chunks run in order on the calling thread: the pool's fallback, and all of
// the wasm build.
void run_serially(int64_t chunks, detail::ChunkFn body, void* ctx) {
  for (int64_t i = 0; i < chunks; ++i) body(ctx, i);
}

}  // namespace

int max_threads() { return kMaxThreads; }

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
  Job(detail::ChunkFn b, void* c, int64_t n) : body(b), ctx(c), chunks(n) {}
  detail::ChunkFn body;
  void* ctx;
  int64_t chunks;
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

// The setting and the pool it made. `busy` is held while a job runs (or the
// pool is replaced); a second thread's parallel_for finds it held and runs
// its own chunks serially instead of waiting.
struct State {
  std::mutex busy;
  std::atomic<int> wanted{hardware_threads()};
  std::unique_ptr<Pool> pool;  // of wanted threads, made at first use
};

State& state() {
  static State s;
  return s;
}

}  // namespace

int threads() { return state().wanted.load(std::memory_order_relaxed); }

void set_threads(int n) {
  if (n < 1 || n > kMaxThreads)
    throw Error("set_threads: the thread count must be between 1 and " + std::to_string(kMaxThreads) + ", got " +
                std::to_string(n));
  State& s = state();
  std::lock_guard<std::mutex> lock(s.busy);
  s.wanted.store(n, std::memory_order_relaxed);
  if (s.pool && s.pool->size() != n) s.pool.reset();  // joins its workers; the next job makes a new one
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
  if (!s.pool || s.pool->size() != n) {
    s.pool.reset();
    s.pool = std::make_unique<Pool>(n - 1);
  }
  Job job(body, ctx, chunks);
  s.pool->run(job);
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace detail

#endif

}  // namespace glass
