// The autograd engine: accumulation, zero_grad, no-grad scopes, upstream
// gradients, freeing and retaining the graph, retained intermediate
// gradients, deep graphs, and the inspector's view of RMSNorm's graph.
#include <cmath>
#include <string>
#include <vector>

#include "gradcheck.h"

namespace {

using namespace glass;

TEST(Autograd, LeafFlagsAndRecording) {
  Tensor x = Tensor::of({1, 2}, DType::f64);
  EXPECT_FALSE(x.requires_grad());
  EXPECT_TRUE(x.is_leaf());
  Tensor y0 = x * 2.0;  // no input requires grad: nothing recorded
  EXPECT_FALSE(y0.requires_grad());
  EXPECT_EQ(y0.grad_fn(), nullptr);

  x.set_requires_grad();
  EXPECT_TRUE(x.requires_grad());
  EXPECT_TRUE(x.is_leaf());
  EXPECT_EQ(x.grad_fn(), nullptr);
  Tensor y = x * 2.0;
  EXPECT_TRUE(y.requires_grad());
  EXPECT_FALSE(y.is_leaf());
  ASSERT_NE(y.grad_fn(), nullptr);
  EXPECT_EQ(y.grad_fn()->inputs.size(), 1u);
  EXPECT_EQ(y.grad_fn()->inputs[0].impl(), x.impl());
  EXPECT_EQ(y.grad_fn()->out_shape, (Shape{2}));
  EXPECT_FALSE(x.grad().defined());  // nothing until backward

  x.set_requires_grad(false);
  EXPECT_FALSE((x * 2.0).requires_grad());

  Tensor d = y.detach();
  EXPECT_FALSE(d.requires_grad());
  EXPECT_TRUE(d.is_leaf());
  EXPECT_EQ(d.to_vector(), y.to_vector());
}

TEST(Autograd, SimpleChainRule) {
  Tensor x = Tensor::of({1, 2, 3}, DType::f64).set_requires_grad();
  Tensor y = sum(x * x * 3.0);  // dy/dx = 6x
  EXPECT_EQ(y.shape(), Shape{});
  y.backward();
  EXPECT_TENSOR(x.grad(), (Shape{3}), {6, 12, 18});
  EXPECT_EQ(x.grad().dtype(), DType::f64);
}

TEST(Autograd, GradientsAccumulateAcrossBackwardCalls) {
  Tensor x = Tensor::of({1, -2}, DType::f64).set_requires_grad();
  sum(x * 3.0).backward();
  EXPECT_TENSOR(x.grad(), (Shape{2}), {3, 3});
  sum(square(x)).backward();  // + 2x
  EXPECT_TENSOR(x.grad(), (Shape{2}), {5, -1});
}

TEST(Autograd, ZeroGradStartsOver) {
  Tensor x = Tensor::of({1, -2}, DType::f64).set_requires_grad();
  sum(x * 3.0).backward();
  ASSERT_TRUE(x.grad().defined());
  x.zero_grad();
  EXPECT_FALSE(x.grad().defined()) << "zero_grad drops the gradient";
  sum(x * 5.0).backward();
  EXPECT_TENSOR(x.grad(), (Shape{2}), {5, 5});
}

TEST(Autograd, NoGradGuardRecordsNothingAndNests) {
  Tensor x = Tensor::of({1, 2}, DType::f64).set_requires_grad();
  EXPECT_TRUE(grad_enabled());
  {
    NoGradGuard outer;
    EXPECT_FALSE(grad_enabled());
    Tensor y = exp(x * 2.0);
    EXPECT_FALSE(y.requires_grad());
    EXPECT_EQ(y.grad_fn(), nullptr);
    EXPECT_TENSOR(y, (Shape{2}), {std::exp(2.0), std::exp(4.0)}, 1e-12);  // values still computed
    {
      NoGradGuard inner;
      EXPECT_FALSE(grad_enabled());
    }
    EXPECT_FALSE(grad_enabled());  // inner guard restored "off", not "on"
  }
  EXPECT_TRUE(grad_enabled());
  Tensor z = x * 2.0;
  EXPECT_TRUE(z.requires_grad());
  EXPECT_NE(z.grad_fn(), nullptr);
}

TEST(Autograd, BackwardWithExplicitUpstream) {
  Tensor x = Tensor::of({{1, 2}, {3, 4}}, DType::f64).set_requires_grad();
  Tensor y = x * x;  // (2, 2), dy/dx = 2x elementwise
  Tensor g = Tensor::of({{1, 10}, {100, 1000}}, DType::f64);
  y.backward(g);
  EXPECT_TENSOR(x.grad(), (Shape{2, 2}), {2, 40, 600, 8000});
}

TEST(Autograd, ScalarRootMayHaveShapeOne) {
  Tensor x = Tensor::of({2, 3}, DType::f64).set_requires_grad();
  Tensor y = sum(x, 0, true);  // shape (1): one element, so backward() is allowed
  y.backward();
  EXPECT_TENSOR(x.grad(), (Shape{2}), {1, 1});
}

TEST(Autograd, GraphFreedAfterBackward) {
  Tensor x = Tensor::of({1, 2}, DType::f64).set_requires_grad();
  Tensor y = sum(x * x);
  y.backward();
  EXPECT_THROW(y.backward(), Error);
  EXPECT_GLASS_ERROR([&] { y.backward(); }, {"retain_graph"});
  EXPECT_THROW(trace_graph(y), Error);
  EXPECT_TENSOR(x.grad(), (Shape{2}), {2, 4});  // the failed call added nothing
}

TEST(Autograd, RetainGraphAllowsASecondBackward) {
  Tensor x = Tensor::of({1, 2}, DType::f64).set_requires_grad();
  Tensor y = sum(x * x);
  y.backward({.retain_graph = true});
  EXPECT_TENSOR(x.grad(), (Shape{2}), {2, 4});
  y.backward({.retain_graph = true});
  EXPECT_TENSOR(x.grad(), (Shape{2}), {4, 8});
  y.backward();  // a last one frees it
  EXPECT_TENSOR(x.grad(), (Shape{2}), {6, 12});
  EXPECT_THROW(y.backward(), Error);
}

TEST(Autograd, RetainGradsStoresIntermediates) {
  Tensor x = Tensor::of({1, 2}, DType::f64).set_requires_grad();
  Tensor h = x * 2.0;       // h = 2x
  Tensor y = sum(h * h);    // dy/dh = 2h = 4x
  y.backward({.retain_grads = true});
  EXPECT_TENSOR(h.grad(), (Shape{2}), {4, 8});
  EXPECT_TENSOR(x.grad(), (Shape{2}), {8, 16});
  ASSERT_TRUE(y.grad().defined());
  EXPECT_EQ(y.grad().item(), 1.0);
}

// Every stored gradient is contiguous in storage of its own, whether backward
// copied it (a gradient some other tensor holds too: add hands the same one
// to both inputs and to its own output) or kept a rule's fresh result as it
// is: writing into one never changes another, nor the caller's upstream.
TEST(Autograd, StoredGradientsOwnTheirStorage) {
  Tensor a = Tensor::of({{1, 2, 3}, {4, 5, 6}}, DType::f64).set_requires_grad();
  Tensor b = Tensor::of({{1, 1, 1}, {1, 1, 1}}, DType::f64).set_requires_grad();
  Tensor bias = Tensor::of({{1, 2, 3}}, DType::f64).set_requires_grad();  // (1, 3): broadcast over rows
  Tensor c = a + b;                   // add: one gradient for a, b and c
  Tensor d = c * 2.0 + bias;          // the bias's gradient is reduced over rows: a fresh tensor
  Tensor y = sum(d * d);
  y.backward({.retain_grads = true});
  const std::vector<Tensor> grads = {a.grad(), b.grad(), c.grad(), d.grad(), bias.grad()};
  std::vector<std::vector<double>> before;
  for (const Tensor& g : grads) {
    ASSERT_TRUE(g.defined());
    EXPECT_TRUE(g.is_contiguous());
    before.push_back(g.to_vector());
  }
  for (std::size_t i = 0; i < grads.size(); ++i) {
    Tensor g = grads[i];
    g.mutable_data<double>()[0] = -1000.0;
    for (std::size_t j = 0; j < grads.size(); ++j)
      if (j != i) {
        EXPECT_EQ(grads[j].to_vector(), before[j]) << "writing gradient " << i << " changed gradient " << j;
      }
    g.mutable_data<double>()[0] = before[i][0];
  }
  EXPECT_EQ(before[0], before[2]);  // a's, b's and c's are equal values, in three storages
  EXPECT_EQ(before[1], before[2]);

  // a leaf's gradient from the caller's upstream is a copy of it
  Tensor x = Tensor::of({1, 2}, DType::f64).set_requires_grad();
  Tensor up = Tensor::of({5, 7}, DType::f64);
  x.backward(up);
  up.mutable_data<double>()[0] = 0.0;
  EXPECT_TENSOR(x.grad(), (Shape{2}), {5, 7});
}

// A tensor that several ops read gets a sum of gradients. The sum is made in
// place when its first term is a rule's fresh result that nothing else holds;
// a term some other tensor holds (add hands the same gradient to both inputs
// and it is also add's own, or the caller's upstream) is never written.
TEST(Autograd, GradientSumsInPlaceLeaveSharedTensorsAlone) {
  Tensor x = Tensor::of({{1, 2, 3}, {4, 5, 6}}, DType::f64).set_requires_grad();
  Tensor h = x * 2.0;                   // read by four ops below
  Tensor y = (h + h * h) + h * 3.0 + h;  // dy/dh = 1 + 2h + 3 + 1 = 2h + 5
  Tensor up = Tensor::of({{1, 2, 3}, {4, 5, 6}}, DType::f64);
  y.backward(up, {.retain_grads = true});
  EXPECT_TENSOR(up, (Shape{2, 3}), {1, 2, 3, 4, 5, 6});  // the caller's upstream, unchanged
  std::vector<double> want_h, want_x;
  const std::vector<double> xs = x.to_vector(), ups = up.to_vector();
  for (std::size_t i = 0; i < xs.size(); ++i) {
    want_h.push_back(ups[i] * (2 * (2 * xs[i]) + 5));
    want_x.push_back(2 * want_h.back());
  }
  EXPECT_TENSOR(h.grad(), (Shape{2, 3}), want_h);
  EXPECT_TENSOR(x.grad(), (Shape{2, 3}), want_x);
  EXPECT_TENSOR(y.grad(), (Shape{2, 3}), {1, 2, 3, 4, 5, 6});  // add's gradient, which it passed on twice
}

TEST(Autograd, IntermediateGradOnlyWhenAsked) {
  Tensor x = Tensor::of({1, 2}, DType::f64).set_requires_grad();
  Tensor h = x * 2.0;
  Tensor k = h + 1.0;
  h.retain_grad();
  sum(k * k).backward();
  EXPECT_TRUE(h.grad().defined());
  EXPECT_TENSOR(h.grad(), (Shape{2}), {6, 10});  // 2(2x+1)
  EXPECT_FALSE(k.grad().defined());              // not retained
}

TEST(Autograd, TensorUsedTwiceGetsBothContributions) {
  Tensor x = Tensor::of({3, -1}, DType::f64).set_requires_grad();
  sum(x * x).backward();  // 2x
  EXPECT_TENSOR(x.grad(), (Shape{2}), {6, -2});
  x.zero_grad();
  sum(x + x).backward();  // 2
  EXPECT_TENSOR(x.grad(), (Shape{2}), {2, 2});
  x.zero_grad();
  // diamond: a = 2x feeds both b = a^2 and c = exp(a); y = sum(b + c)
  Tensor a = x * 2.0;
  sum(square(a) + exp(a)).backward();
  EXPECT_TENSOR(x.grad(), (Shape{2}), {2 * (2 * 6 + std::exp(6.0)), 2 * (2 * -2 + std::exp(-2.0))}, 1e-9);
}

TEST(Autograd, BroadcastGradientsReduceToInputShapes) {
  Tensor a = Tensor::of({{1}, {2}, {3}}, DType::f64).set_requires_grad();  // (3, 1)
  Tensor b = Tensor::of({{1, 2, 3, 4}}, DType::f64).set_requires_grad();   // (1, 4)
  sum(a * b).backward();
  EXPECT_TENSOR(a.grad(), (Shape{3, 1}), {10, 10, 10});
  EXPECT_TENSOR(b.grad(), (Shape{1, 4}), {6, 6, 6, 6});
}

TEST(Autograd, Float32GradientsAreFloat32) {
  Tensor x = Tensor::of({1, 2}).set_requires_grad();
  sum(x * x).backward();
  EXPECT_EQ(x.grad().dtype(), DType::f32);
  EXPECT_TENSOR(x.grad(), (Shape{2}), {2, 4});
}

TEST(Autograd, CastIsDifferentiable) {
  Tensor x = Tensor::of({1, 2}, DType::f64).set_requires_grad();
  Tensor c = Tensor::of({3, 5});  // float32
  sum(x.to(DType::f32) * c).backward();
  ASSERT_TRUE(x.grad().defined());
  EXPECT_EQ(x.grad().dtype(), DType::f64);  // the gradient comes back in x's dtype
  EXPECT_TENSOR(x.grad(), (Shape{2}), {3, 5});
}

TEST(Autograd, GradThroughViewsReachesTheBase) {
  Tensor x = Tensor::of({{1, 2, 3}, {4, 5, 6}}, DType::f64).set_requires_grad();
  Tensor t = transpose(x);                                   // view
  Tensor s = slice(t, 0, 1, 3);                              // rows 1..2 of t = columns 1..2 of x
  sum(s * Tensor::of({{1, 10}}, DType::f64)).backward();     // weight x[0][*] by 1, x[1][*] by 10
  EXPECT_TENSOR(x.grad(), (Shape{2, 3}), {0, 1, 1, 0, 10, 10});
}

TEST(Autograd, DeepChainBackwardDoesNotOverflow) {
  // 20000 recorded ops in a line: a recursive topological sort (or a
  // recursive graph destructor) would overflow the stack, above all in wasm.
  Tensor x = Tensor::of({1.5}, DType::f64).set_requires_grad();
  Tensor y = x;
  for (int i = 0; i < 10000; ++i) {
    y = y * 1.0;
    y = y + 0.0;
  }
  y.backward();
  EXPECT_TENSOR(x.grad(), (Shape{1}), {1});
  EXPECT_TENSOR(y, (Shape{1}), {1.5});
}

TEST(Autograd, DeepChainIsFreedWithoutBackward) {
  // Dropping the last handle of a deep graph that never ran backward must not
  // overflow the stack through nested destructors either.
  Tensor x = Tensor::of({1.0}, DType::f64).set_requires_grad();
  {
    Tensor y = x;
    for (int i = 0; i < 20000; ++i) y = y * 1.0;
  }
  SUCCEED();
}

TEST(Autograd, DeepChainWithRetainGraphAndTrace) {
  Tensor x = Tensor::of({2.0}, DType::f64).set_requires_grad();
  Tensor y = x;
  for (int i = 0; i < 20000; ++i) y = y + 0.0;
  y.backward({.retain_graph = true});
  const auto nodes = trace_graph(y);  // the inspector walks it without recursion too
  EXPECT_EQ(nodes.size(), 20001u);
  EXPECT_TENSOR(x.grad(), (Shape{1}), {1});
}

// ---- inspection ----

const GraphNode* find_op(const std::vector<GraphNode>& nodes, const std::string& op) {
  for (const auto& n : nodes)
    if (n.op == op) return &n;
  return nullptr;
}

TEST(Autograd, TraceGraphOfRMSNorm) {
  nn::RMSNorm norm(2, 1e-6, DType::f64);
  Tensor x = Tensor::of({{3, 4}}, DType::f64).set_requires_grad();
  x.set_name("x");
  Tensor y = norm(x);
  Tensor loss = sum(y * Tensor::of({{1, 2}}, DType::f64));
  loss.backward({.retain_graph = true, .retain_grads = true});
  const std::vector<GraphNode> nodes = trace_graph(y);

  // inputs before users, root last, ids are indices
  for (size_t i = 0; i < nodes.size(); ++i) {
    EXPECT_EQ(nodes[i].id, static_cast<int>(i));
    for (int in : nodes[i].inputs) EXPECT_LT(in, static_cast<int>(i)) << nodes[i].op;
  }
  ASSERT_FALSE(nodes.empty());
  EXPECT_EQ(nodes.back().shape, (Shape{1, 2}));

  // The op nodes, in the order RMSNorm computes them: exactly six, no fused rule.
  std::vector<std::string> ops;
  for (const auto& n : nodes)
    if (n.op != "leaf") ops.push_back(n.op);
  EXPECT_EQ(ops, (std::vector<std::string>{"square", "mean", "add_scalar", "sqrt", "div", "mul"}));
  // two leaves: x and gamma
  int leaves = 0;
  for (const auto& n : nodes) leaves += n.op == "leaf";
  EXPECT_EQ(leaves, 2);

  const double eps = 1e-6, ms = 12.5, r = std::sqrt(ms + eps);
  const GraphNode* sq = find_op(nodes, "square");
  const GraphNode* mn = find_op(nodes, "mean");
  const GraphNode* ad = find_op(nodes, "add_scalar");
  const GraphNode* rt = find_op(nodes, "sqrt");
  const GraphNode* dv = find_op(nodes, "div");
  const GraphNode* ml = find_op(nodes, "mul");
  ASSERT_TRUE(sq && mn && ad && rt && dv && ml);

  // wiring: square(x) -> mean -> add eps -> sqrt; div(x, sqrt) -> mul(., gamma)
  ASSERT_EQ(sq->inputs.size(), 1u);
  EXPECT_EQ(nodes[static_cast<size_t>(sq->inputs[0])].name, "x");
  EXPECT_EQ(mn->inputs, std::vector<int>{sq->id});
  EXPECT_EQ(ad->inputs, std::vector<int>{mn->id});
  EXPECT_EQ(rt->inputs, std::vector<int>{ad->id});
  ASSERT_EQ(dv->inputs.size(), 2u);
  EXPECT_EQ(dv->inputs[0], sq->inputs[0]);
  EXPECT_EQ(dv->inputs[1], rt->id);
  ASSERT_EQ(ml->inputs.size(), 2u);
  EXPECT_EQ(ml->inputs[0], dv->id);
  EXPECT_EQ(nodes[static_cast<size_t>(ml->inputs[1])].shape, (Shape{2}));  // gamma
  EXPECT_NE(ad->detail.find("1e-06"), std::string::npos) << ad->detail;  // shows eps
  EXPECT_NE(mn->detail.find("-1"), std::string::npos) << mn->detail;     // last axis

  // shapes and values
  EXPECT_TENSOR(sq->value, (Shape{1, 2}), {9, 16});
  EXPECT_TENSOR(mn->value, (Shape{1, 1}), {ms});
  EXPECT_TENSOR(ad->value, (Shape{1, 1}), {ms + eps});
  EXPECT_TENSOR(rt->value, (Shape{1, 1}), {r}, 1e-15);
  EXPECT_TENSOR(dv->value, (Shape{1, 2}), {3 / r, 4 / r}, 1e-15);
  EXPECT_TENSOR(ml->value, (Shape{1, 2}), {3 / r, 4 / r}, 1e-15);
  for (const auto& n : nodes) EXPECT_EQ(n.dtype, DType::f64);

  // gradients: loss = 1*y0 + 2*y1; every node has one after retain_grads
  for (const auto& n : nodes) {
    ASSERT_TRUE(n.grad.defined()) << n.op;
    EXPECT_EQ(n.grad.shape(), n.shape) << n.op;
  }
  EXPECT_TENSOR(ml->grad, (Shape{1, 2}), {1, 2});
  EXPECT_TENSOR(dv->grad, (Shape{1, 2}), {1, 2});  // gamma = 1
  // d loss / d r = -(3*1 + 4*2) / r^2
  const double dr = -(3.0 + 8.0) / (r * r);
  EXPECT_TENSOR(rt->grad, (Shape{1, 1}), {dr}, 1e-15);
  EXPECT_TENSOR(ad->grad, (Shape{1, 1}), {dr / (2 * r)}, 1e-15);
  EXPECT_TENSOR(mn->grad, (Shape{1, 1}), {dr / (2 * r)}, 1e-15);
  EXPECT_TENSOR(sq->grad, (Shape{1, 2}), {dr / (2 * r) / 2, dr / (2 * r) / 2}, 1e-15);
  // x: direct path through div plus the path through square
  const double dx0 = 1 / r + dr / (2 * r) / 2 * 2 * 3, dx1 = 2 / r + dr / (2 * r) / 2 * 2 * 4;
  EXPECT_TENSOR(x.grad(), (Shape{1, 2}), {dx0, dx1}, 1e-14);
  EXPECT_TENSOR(nodes[static_cast<size_t>(sq->inputs[0])].grad, (Shape{1, 2}), {dx0, dx1}, 1e-14);
  EXPECT_TENSOR(norm.gamma().grad(), (Shape{2}), {3 / r, 8 / r}, 1e-14);
}

TEST(Autograd, TraceGraphNamesAndLeaves) {
  Tensor a = Tensor::of({1, 2}, DType::f64).set_requires_grad();
  a.set_name("a");
  Tensor b = Tensor::of({3, 4}, DType::f64);  // constant: still shown as an input
  Tensor c = (a * b).set_name("c");
  const auto nodes = trace_graph(c);
  ASSERT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodes.back().op, "mul");
  EXPECT_EQ(nodes.back().name, "c");
  EXPECT_EQ(nodes.back().inputs.size(), 2u);
  EXPECT_EQ(nodes[static_cast<size_t>(nodes.back().inputs[0])].name, "a");
  EXPECT_TRUE(nodes[static_cast<size_t>(nodes.back().inputs[0])].requires_grad);
  EXPECT_FALSE(nodes[static_cast<size_t>(nodes.back().inputs[1])].requires_grad);
  EXPECT_EQ(nodes[0].op, "leaf");
  // before backward: values present, no gradients on non-leaves
  EXPECT_TENSOR(nodes.back().value, (Shape{2}), {3, 8});
  EXPECT_FALSE(nodes.back().grad.defined());
}

}  // namespace
