#pragma once
// A readable name for a kernel that counted_kernels() (thread_pool.h) filed
// under its parallel_for body's mangled type name: the first function in that
// name that is not one of the pool's own helpers, its arguments shortened
// ("mul(Tensor, double)", "gemm_parallel", "rotate_rows"), and " backward"
// when the body sits inside a backward rule (a lambda taking the gradients).
// For benchmarks: it demangles, so only they link it.
#include <string>

namespace glass {

std::string kernel_name(const char* mangled);

}  // namespace glass
