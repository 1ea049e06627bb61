#include "glass/tensor/storage.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <unordered_map>
#include <vector>

#include "glass/tensor/checked.h"
#include "glass/tensor/error.h"

namespace glass {

namespace {

constexpr std::size_t kAlign = 64;                  // a cache line; also fits any vector width
#ifdef __EMSCRIPTEN__
constexpr std::size_t kCacheLimit = 96u << 20;      // bytes kept for reuse at most: the page's heap stays small
#else
constexpr std::size_t kCacheLimit = std::size_t{2} << 30;  // a 16 x 128 training step keeps ~1 GB live
#endif
constexpr std::size_t kLargestCached = 64u << 20;   // bigger blocks go straight back

// Freed blocks by exact byte size. The training loop allocates the same
// sizes every step, so exact matches are the common case.
struct BlockCache {
  std::unordered_map<std::size_t, std::vector<void*>> free;
  std::size_t cached = 0;

  void clear() {
    for (auto& [bytes, blocks] : free)
      for (void* p : blocks) ::operator delete(p, std::align_val_t(kAlign));
    free.clear();
    cached = 0;
  }
};

// Each thread's cache, given back when its thread ends (a thread of the
// caller's that computed, or the main thread at exit). Plain pointer and flag:
// they stay readable after the thread's destructors ran, so a tensor freed
// later (during static destruction) finds no cache and goes straight back to
// the allocator.
thread_local BlockCache* t_cache = nullptr;
thread_local bool t_cache_gone = false;

struct CacheReaper {
  ~CacheReaper() {
    if (t_cache != nullptr) {
      t_cache->clear();
      delete t_cache;
      t_cache = nullptr;
    }
    t_cache_gone = true;
  }
};

BlockCache* cache() {
  if (t_cache == nullptr && !t_cache_gone) {
    thread_local CacheReaper reaper;  // registered with the thread's exit
    (void)reaper;
    t_cache = new BlockCache;
  }
  return t_cache;
}

void* allocate(std::size_t bytes) {
  BlockCache* c = cache();
  if (c != nullptr)
    if (auto it = c->free.find(bytes); it != c->free.end() && !it->second.empty()) {
      void* p = it->second.back();
      it->second.pop_back();
      c->cached -= bytes;
      return p;
    }
  try {
    return ::operator new(bytes, std::align_val_t(kAlign));
  } catch (const std::bad_alloc&) {
    if (c != nullptr) c->clear();  // give the cache back and try once more before giving up
    try {
      return ::operator new(bytes, std::align_val_t(kAlign));
    } catch (const std::bad_alloc&) {
      throw Error("out of memory allocating " + std::to_string(bytes) + " bytes for a tensor");
    }
  }
}

void release(void* p, std::size_t bytes) {
  BlockCache* c = cache();
  if (c != nullptr && bytes <= kLargestCached && c->cached + bytes <= kCacheLimit) {
    c->free[bytes].push_back(p);
    c->cached += bytes;
  } else {
    ::operator delete(p, std::align_val_t(kAlign));
  }
}

}  // namespace

Storage::Storage(DType dtype, int64_t n, Init init)
    : dtype_(dtype), size_(n), bytes_(checked_bytes("storage", n, dtype)) {
  // a zero-element tensor still gets a valid pointer: data() may be asked for
  ptr_ = allocate(bytes_ == 0 ? kAlign : bytes_);
  if (init == Init::zeros) std::memset(ptr_, 0, bytes_);
}

Storage::~Storage() { release(ptr_, bytes_ == 0 ? kAlign : bytes_); }

void release_cached_storage() {
  if (BlockCache* c = cache()) c->clear();
}

}  // namespace glass
