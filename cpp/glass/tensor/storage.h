#pragma once
// Storage: one allocation of tensor elements. Ops allocate a fresh Storage
// for every result, so allocation is on the hot path of every forward and
// backward: freed blocks are kept in a small per-size cache and handed out
// again, uninitialised (every op writes all of its output; zeros() clears).
#include <cstddef>
#include <cstdint>

#include "glass/tensor/dtype.h"

namespace glass {

class Storage {
 public:
  enum class Init { zeros, uninitialized };
  Storage(DType dtype, int64_t n, Init init);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  DType dtype() const { return dtype_; }
  int64_t size() const { return size_; }  // elements
  template <class T> T* data() { return static_cast<T*>(ptr_); }
  // Counts hand-outs of writable pointers (Tensor::mutable_data): a copy
  // derived from the elements (a packed weight) is stale once it moved.
  uint64_t version() const { return version_; }
  void bump_version() { ++version_; }

 private:
  DType dtype_;
  int64_t size_;
  std::size_t bytes_;
  void* ptr_;
  uint64_t version_ = 0;
};

// Drops every cached block (tests use it to check nothing leaks).
void release_cached_storage();

}  // namespace glass
