// Every error path: a glass::Error (never a crash, abort or other exception)
// whose message names the op and the shapes involved.
#include <cmath>
#include <limits>
#include <vector>

#include "gradcheck.h"

namespace {

using namespace glass;

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

TEST(Errors, BroadcastMismatch) {
  Tensor a = Tensor::zeros({2, 3}), b = Tensor::zeros({3, 2});
  EXPECT_GLASS_ERROR([&] { add(a, b); }, {"add", "(2, 3)", "(3, 2)"});
  EXPECT_GLASS_ERROR([&] { sub(a, b); }, {"sub", "(2, 3)", "(3, 2)"});
  EXPECT_GLASS_ERROR([&] { mul(a, b); }, {"mul", "(2, 3)", "(3, 2)"});
  EXPECT_GLASS_ERROR([&] { div(a, b); }, {"div", "(2, 3)", "(3, 2)"});
  EXPECT_GLASS_ERROR([&] { a + Tensor::zeros({4}); }, {"add", "(2, 3)", "(4,)"});
  EXPECT_GLASS_ERROR([&] { broadcast_shapes("myop", {2, 3}, {3, 2}); }, {"myop", "(2, 3)", "(3, 2)"});
  EXPECT_GLASS_ERROR([&] { broadcast_to(a, {4, 3}); }, {"broadcast_to", "(2, 3)", "(4, 3)"});
  EXPECT_GLASS_ERROR([&] { sum_to(a, {4}); }, {"sum_to", "(2, 3)", "(4,)"});
}

TEST(Errors, MatmulInnerMismatch) {
  EXPECT_GLASS_ERROR([&] { matmul(Tensor::zeros({2, 3}), Tensor::zeros({4, 5})); }, {"matmul", "(2, 3)", "(4, 5)"});
  EXPECT_GLASS_ERROR([&] { matmul(Tensor::zeros({3}), Tensor::zeros({4})); }, {"matmul", "(3,)", "(4,)"});
  // batch axes that do not broadcast
  EXPECT_GLASS_ERROR([&] { matmul(Tensor::zeros({2, 2, 3}), Tensor::zeros({3, 3, 2})); },
                     {"matmul", "(2, 2, 3)", "(3, 3, 2)"});
  EXPECT_GLASS_ERROR([&] { matmul(Tensor::scalar(1), Tensor::zeros({2, 2})); }, {"matmul", "()"});
}

TEST(Errors, MixedDTypes) {
  Tensor a = Tensor::zeros({2}, DType::f32), b = Tensor::zeros({2}, DType::f64);
  EXPECT_GLASS_ERROR([&] { add(a, b); }, {"add", "float32", "float64"});
  EXPECT_GLASS_ERROR([&] { mul(b, a); }, {"mul", "float64", "float32"});
  EXPECT_GLASS_ERROR([&] { matmul(Tensor::zeros({2, 2}), Tensor::zeros({2, 2}, DType::f64)); },
                     {"matmul", "float32", "float64"});
  EXPECT_GLASS_ERROR([&] { concat({a, b}, 0); }, {"concat", "float32", "float64"});
  EXPECT_GLASS_ERROR([&] { where(a, a, b); }, {"where", "float32", "float64"});
  nn::RMSNorm norm(2);  // float32
  EXPECT_GLASS_ERROR([&] { norm(Tensor::zeros({1, 2}, DType::f64)); }, {"float32", "float64"});
  // the fix the message suggests works
  EXPECT_NO_THROW(add(a.to(DType::f64), b));
}

TEST(Errors, BadAxis) {
  Tensor x = Tensor::zeros({2, 3});
  EXPECT_GLASS_ERROR([&] { sum(x, 2); }, {"sum", "2", "(2, 3)"});
  EXPECT_GLASS_ERROR([&] { mean(x, -3); }, {"mean", "-3", "(2, 3)"});
  EXPECT_GLASS_ERROR([&] { max(x, 5, true); }, {"max", "5", "(2, 3)"});
  // composed ops name themselves, not the primitive that failed inside them
  EXPECT_GLASS_ERROR([&] { softmax(x, 2); }, {"softmax", "2", "(2, 3)"});
  EXPECT_GLASS_ERROR([&] { log_softmax(x, -3); }, {"log_softmax", "-3", "(2, 3)"});
  EXPECT_GLASS_ERROR([&] { causal_softmax(x); }, {"causal_softmax", "n, n)", "(2, 3)"});
  EXPECT_GLASS_ERROR([&] { causal_softmax(Tensor::zeros({4})); }, {"causal_softmax", "(4"});
  EXPECT_GLASS_ERROR([&] { transpose(x, 0, 2); }, {"transpose", "(2, 3)"});
  EXPECT_GLASS_ERROR([&] { slice(x, 2, 0, 1); }, {"slice", "(2, 3)"});
  EXPECT_GLASS_ERROR([&] { concat({x, x}, 2); }, {"concat", "(2, 3)"});
  EXPECT_GLASS_ERROR([&] { x.size(2); }, {"size", "2", "(2, 3)"});
  EXPECT_GLASS_ERROR([&] { normalize_axis("myop", 3, Shape{2, 3}); }, {"myop", "3", "(2, 3)"});
  EXPECT_GLASS_ERROR([&] { sum(Tensor::scalar(1), 0); }, {"sum", "()"});
}

TEST(Errors, CausalProducts) {
  // shapes that do not pair, mixed dtypes
  EXPECT_GLASS_ERROR([&] { causal_scores(Tensor::zeros({2, 5, 3}), Tensor::zeros({2, 4, 3})); },
                     {"causal_scores", "(2, 5, 3)", "(2, 4, 3)"});
  EXPECT_GLASS_ERROR([&] { causal_scores(Tensor::zeros({5, 3}), Tensor::zeros({5, 2})); }, {"causal_scores", "q (..., n, d)"});
  EXPECT_GLASS_ERROR([&] { causal_scores(Tensor::zeros({5}), Tensor::zeros({5})); }, {"causal_scores", "(5,)"});
  EXPECT_GLASS_ERROR([&] { causal_mix(Tensor::zeros({4, 5}), Tensor::zeros({4, 3})); }, {"causal_mix", "w (..., n, n)", "(4, 5)"});
  EXPECT_GLASS_ERROR([&] { causal_mix(Tensor::zeros({3, 4, 4}), Tensor::zeros({2, 4, 3})); }, {"causal_mix", "same leading axes"});
  EXPECT_GLASS_ERROR([&] { causal_mix(Tensor::zeros({4, 4}), Tensor::zeros({4, 3}, DType::f64)); }, {"causal_mix", "dtypes differ"});
}

TEST(Errors, BadReshape) {
  Tensor x = Tensor::zeros({2, 3});
  EXPECT_GLASS_ERROR([&] { reshape(x, {4, 2}); }, {"reshape", "(2, 3)", "(4, 2)"});
  EXPECT_GLASS_ERROR([&] { reshape(x, {-1, -1}); }, {"reshape", "(2, 3)", "(-1, -1)"});
  EXPECT_GLASS_ERROR([&] { reshape(x, {-1, 4}); }, {"reshape", "(2, 3)", "(-1, 4)"});
  EXPECT_GLASS_ERROR([&] { reshape(x, {2, -3}); }, {"reshape", "(2, 3)", "(2, -3)"});
}

TEST(Errors, BadPermute) {
  Tensor x = Tensor::zeros({2, 3, 4});
  EXPECT_GLASS_ERROR([&] { permute(x, {0, 0, 1}); }, {"permute", "(2, 3, 4)"});
  EXPECT_GLASS_ERROR([&] { permute(x, {0, 1}); }, {"permute", "(2, 3, 4)"});
  EXPECT_GLASS_ERROR([&] { permute(x, {0, 1, 3}); }, {"permute", "(2, 3, 4)"});
  EXPECT_GLASS_ERROR([&] { permute(x, {0, 1, 2, 3}); }, {"permute", "(2, 3, 4)"});
}

TEST(Errors, SliceOutOfRange) {
  Tensor x = Tensor::zeros({2, 5});
  EXPECT_GLASS_ERROR([&] { slice(x, 1, 2, 7); }, {"slice", "(2, 5)", "7"});
  EXPECT_GLASS_ERROR([&] { slice(x, 1, 3, 2); }, {"slice", "(2, 5)"});
  EXPECT_GLASS_ERROR([&] { slice(x, 0, -3, 1); }, {"slice", "(2, 5)", "-3"});
}

TEST(Errors, ConcatMismatch) {
  Tensor a = Tensor::zeros({2, 3}), b = Tensor::zeros({2, 4});
  EXPECT_GLASS_ERROR([&] { concat({a, b}, 0); }, {"concat", "(2, 3)", "(2, 4)"});
  EXPECT_NO_THROW(concat({a, b}, 1));  // sizes may differ only along the axis
  EXPECT_GLASS_ERROR([&] { concat({a, Tensor::zeros({2, 3, 1})}, 0); }, {"concat", "(2, 3)", "(2, 3, 1)"});
  EXPECT_GLASS_ERROR([&] { concat({}, 0); }, {"concat"});
}

TEST(Errors, WhereAndMaskedFillShapes) {
  Tensor x = Tensor::zeros({2, 3});
  EXPECT_GLASS_ERROR([&] { where(Tensor::zeros({3, 2}), x, x); }, {"where", "(3, 2)", "(2, 3)"});
  EXPECT_GLASS_ERROR([&] { masked_fill(x, Tensor::zeros({4}), 0); }, {"masked_fill", "(2, 3)", "(4,)"});
  // the mask broadcasts to x, never the other way
  EXPECT_GLASS_ERROR([&] { masked_fill(Tensor::zeros({3}), Tensor::zeros({2, 3}), 0); },
                     {"masked_fill", "(3,)", "(2, 3)"});
}

TEST(Errors, EmbeddingIdOutOfRange) {
  Tensor w = Tensor::zeros({4, 2});
  const std::vector<int32_t> too_big = {0, 4}, negative = {-1}, three = {0, 1, 2};
  // names the bad id and the valid range of rows
  EXPECT_GLASS_ERROR([&] { embedding(w, too_big, {2}); }, {"embedding", "4", "0 to 3"});
  EXPECT_GLASS_ERROR([&] { embedding(w, negative, {1}); }, {"embedding", "-1", "0 to 3"});
  EXPECT_GLASS_ERROR([&] { embedding(w, three, {2, 2}); }, {"embedding", "3", "(2, 2)"});
  EXPECT_GLASS_ERROR([&] { embedding(Tensor::zeros({4}), three, {3}); }, {"embedding", "(4,)"});
  EXPECT_GLASS_ERROR([&] { one_hot(too_big, {2}, 4); }, {"one_hot", "4"});
}

TEST(Errors, CrossEntropyTargets) {
  Tensor logits = Tensor::zeros({3, 4});
  const std::vector<int32_t> out_of_range = {0, 4, 1}, negative = {0, -1, 1}, two = {0, 1};
  EXPECT_GLASS_ERROR([&] { cross_entropy(logits, out_of_range); }, {"cross_entropy", "4", "(3, 4)"});
  EXPECT_GLASS_ERROR([&] { cross_entropy(logits, negative); }, {"cross_entropy", "-1", "(3, 4)"});
  EXPECT_GLASS_ERROR([&] { cross_entropy(logits, two); }, {"cross_entropy", "2", "(3, 4)"});
  EXPECT_GLASS_ERROR([&] { cross_entropy(Tensor::zeros({0, 4}), {}); }, {"cross_entropy", "(0, 4)"});
}

TEST(Errors, EpsilonChecks) {
  // the refused value must be readable: a tiny negative eps must not print as "-0.000000"
  EXPECT_GLASS_ERROR([&] { nn::RMSNorm(2, -1e-6); }, {"RMSNorm", "eps"});
  EXPECT_GLASS_ERROR([&] { nn::RMSNorm(2, -1e-9); }, {"RMSNorm", "eps", "1e-09"});
  EXPECT_GLASS_ERROR([&] { nn::RMSNorm(2, kNaN); }, {"eps", "NaN"});
  EXPECT_GLASS_ERROR([&] { nn::RMSNorm(2, kInf); }, {"eps", "Infinity"});
  EXPECT_GLASS_ERROR([&] { nn::RMSNorm(2, -kInf); }, {"eps"});
  EXPECT_GLASS_ERROR([&] { nn::check_eps("somewhere", -1); }, {"somewhere", "eps"});
  nn::RMSNorm norm(2, 1e-6);
  EXPECT_GLASS_ERROR([&] { norm.set_eps(-0.5); }, {"eps", "-0.5"});
  EXPECT_GLASS_ERROR([&] { norm.set_eps(kNaN); }, {"eps"});
  EXPECT_EQ(norm.eps(), 1e-6);  // a refused value leaves the old one
  EXPECT_NO_THROW(norm.set_eps(0));
  EXPECT_GLASS_ERROR([&] { nn::RMSNorm(0); }, {"RMSNorm", "0"});
  EXPECT_GLASS_ERROR([&] { nn::RMSNorm(-3); }, {"RMSNorm", "-3"});
}

TEST(Errors, RMSNormShapes) {
  nn::RMSNorm norm(2, 1e-6, DType::f64);
  EXPECT_GLASS_ERROR([&] { norm.set_gamma(Tensor::ones({3}, DType::f64)); }, {"gamma", "(3,)", "(2,)"});
  EXPECT_GLASS_ERROR([&] { norm.set_gamma(Tensor::ones({1, 2}, DType::f64)); }, {"gamma", "(1, 2)", "(2,)"});
  EXPECT_GLASS_ERROR([&] { norm.set_gamma(Tensor::ones({2}, DType::f32)); }, {"gamma", "float32", "float64"});
  EXPECT_EQ(norm.gamma().to_vector(), (std::vector<double>{1, 1}));  // unchanged after refusals
  EXPECT_GLASS_ERROR([&] { norm(Tensor::zeros({1, 3}, DType::f64)); }, {"RMSNorm", "(1, 3)", "2"});
  EXPECT_GLASS_ERROR([&] { norm(Tensor::scalar(1, DType::f64)); }, {"RMSNorm", "()"});
}

TEST(Errors, ElementAccess) {
  Tensor x = Tensor::zeros({2, 2});
  EXPECT_GLASS_ERROR([&] { x.item(); }, {"item", "(2, 2)"});
  EXPECT_GLASS_ERROR([&] { Tensor::zeros({0}).item(); }, {"item", "(0,)"});
  EXPECT_GLASS_ERROR([&] { x.at({2, 0}); }, {"at", "(2, 2)", "2"});
  EXPECT_GLASS_ERROR([&] { x.at({0, -1}); }, {"at", "(2, 2)", "-1"});
  EXPECT_GLASS_ERROR([&] { x.at({0}); }, {"at", "(2, 2)"});
  EXPECT_GLASS_ERROR([&] { x.data<double>(); }, {"float32"});
  EXPECT_GLASS_ERROR([&] { transpose(Tensor::zeros({2, 3})).data<float>(); }, {"contiguous"});
  EXPECT_GLASS_ERROR([&] { Tensor().shape(); }, {"undefined"});
}

TEST(Errors, BackwardMisuse) {
  Tensor x = Tensor::ones({2, 2}, DType::f64).set_requires_grad();
  Tensor y = x * 2.0;
  EXPECT_GLASS_ERROR([&] { y.backward(); }, {"backward", "(2, 2)"});
  EXPECT_GLASS_ERROR([&] { y.backward(Tensor::ones({3}, DType::f64)); }, {"backward", "(2, 2)", "(3,)"});
  EXPECT_GLASS_ERROR([&] { y.backward(Tensor::ones({2, 2}, DType::f32)); }, {"backward", "float32", "float64"});
  EXPECT_FALSE(x.grad().defined());  // refused calls changed nothing
  y.backward(Tensor::ones({2, 2}, DType::f64));  // and the graph is still usable
  EXPECT_TENSOR(x.grad(), (Shape{2, 2}), {2, 2, 2, 2});
  // backward from a tensor with no history
  EXPECT_GLASS_ERROR([&] { Tensor::ones({1}).backward(); }, {"backward"});
}

TEST(Errors, SetRequiresGradOnNonLeaf) {
  Tensor x = Tensor::ones({2}).set_requires_grad();
  Tensor y = x * 3.0;
  EXPECT_GLASS_ERROR([&] { y.set_requires_grad(false); }, {"set_requires_grad", "leaf"});
  EXPECT_TRUE(y.requires_grad());
}

TEST(Errors, Construction) {
  EXPECT_GLASS_ERROR([&] { Tensor::of({{1, 2}, {3}}); }, {"ragged"});
  EXPECT_GLASS_ERROR([&] { Tensor::of({{1, 2}, 3}); }, {"ragged"});
  EXPECT_GLASS_ERROR([&] { Tensor::of({{{1}, {2}}, {3, 4}}); }, {"ragged"});
  const std::vector<double> five(5, 1.0);
  EXPECT_GLASS_ERROR([&] { Tensor::from_vector(five, {2, 3}); }, {"from_vector", "5", "(2, 3)"});
  const std::vector<float> f5(5, 1.0f);
  EXPECT_GLASS_ERROR([&] { Tensor::from_f32(f5, {2, 3}); }, {"5", "(2, 3)"});
  EXPECT_GLASS_ERROR([&] { Tensor::from_f64(five, {6}); }, {"5", "(6,)"});
  EXPECT_GLASS_ERROR([&] { parse_dtype("float16"); }, {"float16"});
  EXPECT_GLASS_ERROR([&] { parse_dtype(""); }, {"dtype"});
  EXPECT_GLASS_ERROR([&] { Tensor::zeros({2, -1}); }, {"(2, -1)"});
  EXPECT_GLASS_ERROR([&] { Tensor::full({-3}, 1.0); }, {"(-3,)"});
  Generator g(1);
  EXPECT_GLASS_ERROR([&] { Tensor::randn({-1, 2}, g); }, {"(-1, 2)"});
  EXPECT_GLASS_ERROR([&] { check_shape("myop", {1, -2}); }, {"myop", "(1, -2)"});
  EXPECT_GLASS_ERROR([&] { Tensor::uniform({2}, 1.0, 0.0, g); }, {"uniform"});
}

TEST(Errors, EmptyWhereNotAllowed) {
  // max of no elements has no value; sum of none is 0 and allowed.
  EXPECT_GLASS_ERROR([&] { max(Tensor::zeros({0})); }, {"max", "(0,)"});
  EXPECT_GLASS_ERROR([&] { max(Tensor::zeros({2, 0}), 1); }, {"max", "(2, 0)"});
  EXPECT_EQ(sum(Tensor::zeros({0})).item(), 0.0);
}

TEST(Errors, PickIds) {
  const Tensor x = Tensor::zeros({2, 3});
  const std::vector<int32_t> bad = {0, 3}, few = {1};
  EXPECT_GLASS_ERROR([&] { pick(x, bad); }, {"pick", "3", "(2, 3)"});
  EXPECT_GLASS_ERROR([&] { pick(x, few); }, {"pick", "1 ids"});
  EXPECT_GLASS_ERROR([&] { pick(Tensor::scalar(1.0), few); }, {"pick", "()"});
}

}  // namespace
