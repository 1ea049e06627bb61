#pragma once
// GlassLLM's core in one include. The seed lesson's example, in C++:
//
//   #include "glass/glass.h"
//   using namespace glass;
//
//   nn::RMSNorm norm(/*d=*/2, /*eps=*/1e-6, DType::f64);
//   Tensor a = norm(Tensor::of({{3, 4}}, DType::f64));  // [[0.848528, 1.131371]]
//   Tensor b = norm(Tensor::of({{6, 8}}, DType::f64));
//   Tensor diff = b - a;                               // [[2.54558422e-08, 3.39411230e-08]]
//
// mean([3, 4]^2) = 12.5, so a = [3, 4] / sqrt(12.5 + 1e-6). Doubling the input
// divides the effective eps by 4: RMSNorm(c x) = gamma x / sqrt(mean(x^2) + eps / c^2),
// which is why b is close to a but not equal.
//
// Gradients come from recording ops as they run:
//
//   Tensor x = Tensor::of({{3, 4}}, DType::f64).set_requires_grad();
//   Tensor y = sum(norm(x));
//   y.backward();            // x.grad() and norm.gamma().grad() are now set
//
// Shape letters used in comments across the core:
//   B batch, n positions (tokens), d model width, V vocabulary (256 bytes),
//   h heads, k head width, m/k/n also matmul's (m, k) @ (k, n).
#include "glass/nn/norm_checks.h"
#include "glass/nn/rmsnorm.h"
#include "glass/tensor/autograd.h"
#include "glass/tensor/dtype.h"
#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"
#include "glass/tensor/random.h"
#include "glass/tensor/shape.h"
#include "glass/tensor/tensor.h"
