// The thread pool (glass/tensor/thread_pool.h): every thread count gives the
// same bits. Each kernel the threads share (matrix products, linear, attention's
// products, softmax, the elementwise maps and reductions), forward and
// backward, at sizes above the kernels' thresholds so the pool really runs,
// and the model's forward + backward and AdamW steps, with 1, 2, 3, 7 and 8
// threads (8 is more threads than this machine's cores and than some kernels'
// chunks). Also the setting's bounds, errors thrown inside a chunk, nested
// and concurrent callers, and the benchmarks' count of jobs. The tsan preset
// runs these tests under ThreadSanitizer (scripts/test.sh, stage tsan).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "glass/nn/model.h"
#include "glass/tensor/error.h"
#include "glass/tensor/fused/fused.h"
#include "glass/tensor/kernel_name.h"
#include "glass/tensor/ops.h"
#include "glass/tensor/random.h"
#include "glass/tensor/thread_pool.h"
#include "glass/train/adamw.h"

namespace {

using namespace glass;

using Results = std::vector<std::vector<double>>;

// set_threads(n) for one scope; the previous count comes back after it.
class Threads {
 public:
  explicit Threads(int n) : before_(threads()) { set_threads(n); }
  ~Threads() { set_threads(before_); }
  Threads(const Threads&) = delete;
  Threads& operator=(const Threads&) = delete;

 private:
  int before_;
};

constexpr int kCounts[] = {1, 2, 3, 7, 8};

// Bit for bit (memcmp, so -0 and 0 differ too), naming the first difference.
void expect_same_bits(const Results& want, const Results& got, int threads) {
  ASSERT_EQ(want.size(), got.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(want[i].size(), got[i].size()) << "result " << i;
    if (std::memcmp(want[i].data(), got[i].data(), want[i].size() * sizeof(double)) == 0) continue;
    std::size_t j = 0;
    while (std::memcmp(&want[i][j], &got[i][j], sizeof(double)) == 0) ++j;
    ADD_FAILURE() << "result " << i << " differs at element " << j << " with " << threads << " threads: " << got[i][j]
                  << " vs " << want[i][j] << " with 1";
    return;
  }
}

// `run` at 1 thread, then at each other count: the same bits each time.
template <class F> void expect_same_for_every_count(F run) {
  if (max_threads() == 1) GTEST_SKIP() << "this build has no threads";
  Results one;
  {
    Threads t(1);
    one = run();
  }
  for (int n : kCounts) {
    if (n == 1) continue;
    Threads t(n);
    expect_same_bits(one, run(), n);
  }
}

// Values and input gradients of f over inputs drawn from `seed`, with the
// output weighted by random numbers before the sum (so every gradient entry differs).
template <class F>
Results forward_backward(const std::vector<Shape>& shapes, DType dtype, uint64_t seed, F f) {
  Generator gen(seed);
  std::vector<Tensor> in;
  for (const Shape& s : shapes) in.push_back(Tensor::randn(s, gen, dtype).set_requires_grad());
  const Tensor out = f(in);
  const Tensor weights = Tensor::randn(out.shape(), gen, dtype);
  sum(out * weights).backward();
  Results r{out.to_vector()};
  for (const Tensor& t : in) r.push_back(t.grad().to_vector());
  return r;
}

TEST(Threads, MatrixProductsGiveTheSameBits) {
  expect_same_for_every_count([] {
    Results r;
    for (DType dtype : {DType::f32, DType::f64}) {
      // ragged rows (300 is no multiple of any tile), B read in place
      for (auto& v : forward_backward({{300, 200}, {200, 70}}, dtype, 1, [](auto& x) { return matmul(x[0], x[1]); }))
        r.push_back(v);
      // B transposed (packed once for all chunks), A transposed
      for (auto& v : forward_backward({{200, 300}, {90, 200}}, dtype, 2,
                                      [](auto& x) { return matmul(transpose(x[0]), transpose(x[1])); }))
        r.push_back(v);
      // batched, broadcast over the batch
      for (auto& v : forward_backward({{3, 160, 64}, {64, 150}}, dtype, 3, [](auto& x) { return matmul(x[0], x[1]); }))
        r.push_back(v);
      // long and thin (k every token, as a weight's gradient): shared over k in
      // parts, not by rows (gemm.cpp, gemm_over_depth); A transposed, ragged
      // last k block and panel
      for (auto& v : forward_backward({{1100, 70}, {1100, 90}}, dtype, 5,
                                      [](auto& x) { return matmul(transpose(x[0]), x[1]); }))
        r.push_back(v);
      // and the weight's gradient of a linear over 1200 rows
      for (auto& v : forward_backward({{2, 600, 128}, {96, 128}}, dtype, 6, [](auto& x) { return linear(x[0], x[1]); }))
        r.push_back(v);
      // linear: float32 takes the weight packed once
      for (auto& v : forward_backward({{2, 150, 128}, {384, 128}}, dtype, 4, [](auto& x) { return linear(x[0], x[1]); }))
        r.push_back(v);
    }
    return r;
  });
}

TEST(Threads, AttentionGivesTheSameBits) {
  expect_same_for_every_count([] {
    Results r;
    for (DType dtype : {DType::f32, DType::f64})
      for (auto& v : forward_backward({{2, 4, 128, 32}, {2, 4, 128, 32}, {2, 4, 128, 32}}, dtype, 5, [](auto& x) {
             return causal_mix(causal_softmax(causal_scores(x[0], x[1])), x[2]);
           }))
        r.push_back(v);
    for (DType dtype : {DType::f32, DType::f64})
      for (auto& v : forward_backward({{2, 4, 128, 32}, {2, 4, 128, 32}, {2, 4, 128, 32}}, dtype, 15,
                                      [](auto& x) { return causal_attention(x[0], x[1], x[2]); }))
        r.push_back(v);
    return r;
  });
}

TEST(Threads, SoftmaxElementwiseAndReductionsGiveTheSameBits) {
  expect_same_for_every_count([] {
    Results r;
    auto add = [&](const Results& part) { r.insert(r.end(), part.begin(), part.end()); };
    for (DType dtype : {DType::f32, DType::f64}) {
      add(forward_backward({{64, 40, 50}}, dtype, 6, [](auto& x) { return softmax(x[0], -1) + log_softmax(x[0], 1); }));
      add(forward_backward({{300, 300}, {300, 300}}, dtype, 7, [](auto& x) { return x[0] * x[1] - x[0] / (x[1] * x[1] + 1.0); }));
      add(forward_backward({{300, 300}, {300}}, dtype, 8, [](auto& x) { return x[0] * x[1] + x[1]; }));      // a row broadcast
      add(forward_backward({{300, 300}, {300, 1}}, dtype, 9, [](auto& x) { return x[0] / exp(x[1]); }));   // a column broadcast
      add(forward_backward({{300, 300}}, dtype, 10, [](auto& x) { return silu(x[0]) + exp(x[0] * 0.1) + square(x[0]); }));
      add(forward_backward({{300, 300}}, dtype, 11, [](auto& x) { return sum(x[0], 0) + mean(x[0], 1); }));
      add(forward_backward({{300, 300}}, dtype, 12, [](auto& x) { return transpose(x[0]) * 2.0 + sqrt(abs(x[0])); }));
      // the fused RoPE on the model's strided head view (tables with gradients too), and SwiGLU's gate
      add(forward_backward({{4, 128, 4, 32}, {128, 32}, {128, 32}}, dtype, 13,
                           [](auto& x) { return rope(permute(x[0], {0, 2, 1, 3}), x[1], x[2]); }));
      add(forward_backward({{300, 300}, {300, 300}}, dtype, 14, [](auto& x) { return swiglu(x[0], x[1]); }));
    }
    return r;
  });
}

// The default model's width, one block, on a short batch (large enough that
// every threaded kernel goes parallel; small enough for ThreadSanitizer):
// forward + backward, then three AdamW steps.
TEST(Threads, ModelForwardBackwardAndTrainingStepsGiveTheSameBits) {
  expect_same_for_every_count([] {
    nn::Config cfg;
    cfg.blocks = 1;
    cfg.context = 64;
    nn::Model model(cfg, 7);
    const int64_t batch = 4;
    std::vector<int32_t> ids;
    for (int64_t i = 0; i < batch * cfg.context; ++i) ids.push_back(static_cast<int32_t>((i * 37 + i / 5) % 256));
    Results r;
    train::AdamW adamw(model.named_parameters());
    for (int step = 0; step < 3; ++step) {
      model.zero_grad();
      const Tensor loss = model.forward(ids, batch).loss;
      loss.backward();
      r.push_back(loss.to_vector());
      if (step == 0)
        for (auto& [name, p] : model.named_parameters()) r.push_back(p.grad().to_vector());
      adamw.step(1e-3);
    }
    for (auto& [name, p] : model.named_parameters()) r.push_back(p.to_vector());
    return r;
  });
}

TEST(Threads, TheSettingHasBounds) {
  EXPECT_GE(threads(), 1);
  EXPECT_GE(hardware_threads(), 1);
  EXPECT_THROW(set_threads(0), Error);
  EXPECT_THROW(set_threads(max_threads() + 1), Error);
  const int before = threads();
  set_threads(1);
  EXPECT_EQ(threads(), 1);
  if (max_threads() > 1) {
    set_threads(3);
    EXPECT_EQ(threads(), 3);
  }
  set_threads(before);
}

TEST(Threads, EveryChunkRunsOnceAndAnErrorReachesTheCaller) {
  for (int n : kCounts) {
    if (n > max_threads()) continue;
    Threads t(n);
    std::vector<int> runs(1000, 0);  // each chunk writes only its own entry
    detail::parallel_for(1000, [&](int64_t i) { runs[i] += 1; });
    EXPECT_EQ(runs, std::vector<int>(1000, 1)) << n << " threads";
    // a chunk that throws: the caller gets the error, and the pool still works afterwards
    EXPECT_THROW(detail::parallel_for(100, [](int64_t i) { if (i == 37) throw Error("chunk 37"); }), Error);
    std::atomic<int64_t> total{0};
    // nested: a chunk that calls a parallel kernel runs it on its own thread
    detail::parallel_for(8, [&](int64_t i) {
      detail::parallel_for(10, [&](int64_t j) { total += i * 10 + j; });
    });
    EXPECT_EQ(total.load(), 79 * 80 / 2) << n << " threads";
  }
}

// The benchmarks' count of jobs (count_jobs): each top-level parallel_for once,
// by its chunks, whatever the thread count; a kernel inside a chunk is part of
// its job; nothing is counted while counting is off, and turning it on starts afresh.
TEST(Threads, JobsAreCountedByTheirChunks) {
  for (int n : kCounts) {
    if (n > max_threads()) continue;
    Threads t(n);
    count_jobs(true);
    for (int i = 0; i < 3; ++i) detail::parallel_for(5, [](int64_t) {});
    detail::parallel_for(2, [](int64_t) { detail::parallel_for(4, [](int64_t) {}); });
    detail::parallel_ranges(100, 10, [](int64_t, int64_t) {});  // 10 chunks
    detail::parallel_ranges(7, 10, [](int64_t, int64_t) {});    // 1 piece: no job at all
    count_jobs(false);
    detail::parallel_for(5, [](int64_t) {});
    const std::vector<JobCount> jobs = counted_jobs();
    ASSERT_EQ(jobs.size(), 3u) << n << " threads";
    const int64_t want[3][2] = {{2, 1}, {5, 3}, {10, 1}};
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(jobs[k].chunks, want[k][0]) << n << " threads";
      EXPECT_EQ(jobs[k].jobs, want[k][1]) << n << " threads, " << want[k][0] << " chunks";
      EXPECT_GE(jobs[k].seconds, 0.0);
      // the caller runs every chunk on 1 thread, and never more than all of them
      const int64_t all = want[k][0] * want[k][1];
      EXPECT_LE(jobs[k].caller_chunks, all) << n << " threads, " << want[k][0] << " chunks";
      EXPECT_LE(jobs[k].caller_took, jobs[k].caller_chunks) << n << " threads, " << want[k][0] << " chunks";
      if (n == 1) {
        EXPECT_EQ(jobs[k].caller_chunks, all) << want[k][0] << " chunks";
        EXPECT_EQ(jobs[k].caller_took, 0) << want[k][0] << " chunks";
      }
    }
    count_jobs(true);
    EXPECT_TRUE(counted_jobs().empty()) << n << " threads";
    count_jobs(false);
  }
}

// A helper whose parallel_for body names it, for the counts by kernel below.
void named_helper_kernel(int64_t chunks) { detail::parallel_for(chunks, [](int64_t) {}); }

// The same jobs by kernel (counted_kernels): each parallel_for in the source
// once however often it runs, named by the function it was written in, with
// the serial time before its jobs; the op's own name, not the pool's helpers.
TEST(Threads, JobsAreCountedByKernel) {
  Generator gen(5);
  const Tensor a = Tensor::randn({128, 128}, gen).set_requires_grad();  // 2 chunks of 2^13 elements
  const Tensor b = Tensor::randn({128, 128}, gen);
  for (int n : kCounts) {
    if (n > max_threads()) continue;
    Threads t(n);
    count_jobs(true);
    for (int i = 0; i < 3; ++i) named_helper_kernel(5);
    named_helper_kernel(4);
    sum(square(a) * b).backward();
    count_jobs(false);
    const std::vector<JobCount> kernels = counted_kernels();
    auto find = [&](const std::string& name) -> const JobCount* {  // by the name, or its start ending in "("
      for (const JobCount& c : kernels) {
        const std::string k = kernel_name(c.kernel);
        if (k == name || (name.back() == '(' && k.rfind(name, 0) == 0)) return &c;
      }
      return nullptr;
    };
    const JobCount* helper = find("named_helper_kernel(");  // (long), or (long long) in wasm
    ASSERT_NE(helper, nullptr) << n << " threads";
    EXPECT_EQ(helper->jobs, 4) << n << " threads";
    EXPECT_EQ(helper->chunks, 5) << n << " threads: the most chunks of one job";
    EXPECT_GE(helper->serial_before, 0.0);
    const JobCount* mul = find("mul(Tensor, Tensor)");
    ASSERT_NE(mul, nullptr) << n << " threads";
    EXPECT_EQ(mul->chunks, 2) << n << " threads";
    EXPECT_NE(find("square(Tensor)"), nullptr) << n << " threads";
    EXPECT_NE(find("square(Tensor) backward"), nullptr) << n << " threads";
    for (const JobCount& c : kernels) {
      EXPECT_NE(c.kernel, nullptr);
      for (const char* helper_name : {"parallel_for", "parallel_ranges", "over_elements", "binary_map"})
        EXPECT_EQ(kernel_name(c.kernel).find(helper_name), std::string::npos) << kernel_name(c.kernel);
    }
    // most time first, and the same jobs as counted_jobs()
    for (std::size_t i = 1; i < kernels.size(); ++i) EXPECT_GE(kernels[i - 1].seconds, kernels[i].seconds);
    int64_t by_kernel = 0, by_chunks = 0;
    for (const JobCount& c : kernels) by_kernel += c.jobs;
    for (const JobCount& c : counted_jobs()) by_chunks += c.jobs;
    EXPECT_EQ(by_kernel, by_chunks) << n << " threads";
    count_jobs(true);
    EXPECT_TRUE(counted_kernels().empty()) << n << " threads";
    count_jobs(false);
  }
}

// A kernel's name for what it is given: garbage comes back as it was, nothing as "(unnamed)".
TEST(Threads, KernelNamesOfAnything) {
  EXPECT_EQ(kernel_name(nullptr), "(unnamed)");
  EXPECT_EQ(kernel_name("not a mangled name"), "not a mangled name");
  EXPECT_EQ(kernel_name(""), "");
  EXPECT_EQ(kernel_name("_Z"), "_Z");
}

// Each thread of a job starts on a range of chunks of its own (so the same
// thread computes the same rows op after op): the caller on the first range,
// each worker on another, and no two on one. The threaded wasm build keeps
// more workers than a smaller setting uses and whichever are awake take a
// job; an even-numbered one used to start on the caller's range. Here every
// thread's first chunk waits until every worker has begun one (so none comes
// late and finds its range taken), and the jobs are a few milliseconds apart
// (the workers fall asleep between them, so different ones take them).
TEST(Threads, EachWorkerStartsOnARangeOfItsOwn) {
  constexpr int64_t kChunks = 12;
  for (int n : {2, 3, 4}) {
    if (n > max_threads()) continue;
    Threads t(n);
    std::vector<int64_t> starts;  // the first chunk of ranges 1 .. n - 1
    for (int p = 1; p < n; ++p) starts.push_back(kChunks * p / n);
    int checked = 0;
    for (int job = 0; job < 24; ++job) {
      const std::thread::id caller = std::this_thread::get_id();
      std::mutex m;
      std::vector<std::pair<std::thread::id, int64_t>> firsts;  // each worker's first chunk
      std::atomic<int> joined{0};
      std::atomic<bool> all_joined{true};
      bool caller_began = false;
      detail::parallel_for(kChunks, [&](int64_t i) {
        if (std::this_thread::get_id() == caller) {
          if (caller_began) return;
          caller_began = true;
        } else {
          std::lock_guard<std::mutex> lock(m);
          for (const auto& f : firsts)
            if (f.first == std::this_thread::get_id()) return;
          firsts.emplace_back(std::this_thread::get_id(), i);
          joined.fetch_add(1);
        }
        // every thread's first chunk waits for every worker's: no one reaches another's range first
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
        while (joined.load() < n - 1) {
          if (std::chrono::steady_clock::now() > give_up) {
            all_joined = false;  // a worker counted out of this job by a late one of the job before: legal
            break;
          }
          std::this_thread::yield();
        }
      });
      if (all_joined) {
        ++checked;
        std::vector<int64_t> got;
        for (const auto& f : firsts) got.push_back(f.second);
        std::sort(got.begin(), got.end());
        EXPECT_EQ(got, starts) << n << " threads, job " << job << ": the workers' first chunks";
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(3));
    }
    EXPECT_GT(checked, 0) << n << " threads: no job had every worker";
  }
}

// Two threads of the caller's own computing at once: one holds the pool, the
// other runs its chunks itself; both get the single-threaded answer.
TEST(Threads, ConcurrentCallersGetTheSameBits) {
  if (max_threads() == 1) GTEST_SKIP() << "this build has no threads";
#ifdef __EMSCRIPTEN__
  // A thread can start there only on a Web Worker started with the module, and
  // the kernels' pool holds every one of them (thread_pool.cpp).
  GTEST_SKIP() << "the threaded wasm build has no Web Worker to spare for a thread of the caller's own";
#endif
  auto run = [] {
    return forward_backward({{256, 128}, {128, 200}}, DType::f32, 13,
                            [](auto& x) { return silu(matmul(x[0], x[1])); });
  };
  Results one;
  {
    Threads t(1);
    one = run();
  }
  Threads t(2);
  Results a, b;
  for (int round = 0; round < 3; ++round) {
    std::thread other([&] { b = run(); });
    a = run();
    other.join();
    expect_same_bits(one, a, 2);
    expect_same_bits(one, b, 2);
  }
}

}  // namespace
