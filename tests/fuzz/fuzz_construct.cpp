// libFuzzer target: tensors made from flat data + a shape, and the
// constructors that make a shape from sizes (zeros, ones, full, randn,
// uniform, one_hot, embedding). The oracle: a glass::Error named after the
// constructor exactly when the shape has a negative size, is past the cap,
// or does not match the data; otherwise the shape, row-major strides and
// every value it should have.
#include "fuzz_common.h"

namespace {

using namespace fuzz;

std::vector<double> decode_values(Input& in, const Shape& shape) {
  // usually exactly as many as the shape holds, sometimes a wrong count
  const bool exact = allowed(shape) && in.byte() % 8 != 0;
  const std::size_t n = exact ? static_cast<std::size_t>(count_of(shape)) : in.byte() % 16;
  std::vector<double> v(n);
  for (double& x : v) x = in.value();
  return v;
}

void check_layout(const Tensor& t, const std::string& context) {
  glass::Strides want(t.shape().size());
  int64_t acc = 1;
  for (int d = static_cast<int>(t.shape().size()) - 1; d >= 0; --d) {
    want[d] = acc;
    acc *= t.shape()[d];
  }
  FUZZ_REQUIRE(t.strides() == want, context + ": strides are not row-major");
  FUZZ_REQUIRE(t.is_contiguous(), context + ": not contiguous");
  FUZZ_REQUIRE(t.offset() == 0, context + ": nonzero offset");
}

void from_data(Input& in) {
  const Shape shape = in.shape();
  const DType dtype = in.dtype();
  const std::vector<double> v = decode_values(in, shape);
  const bool fits = allowed(shape) && static_cast<int64_t>(v.size()) == count_of(shape);
  const std::string ctx = "from_vector(" + std::to_string(v.size()) + " values, " + text(shape) + ")";
  std::vector<double> want(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) want[i] = stored(v[i], dtype);
  if (in.byte() % 4 == 0) {  // the float32 entry point
    const std::vector<float> f(v.begin(), v.end());
    for (std::size_t i = 0; i < v.size(); ++i) want[i] = stored(v[i], DType::f32);
    auto t = run("Tensor::from_f32", !fits, [&] { return Tensor::from_f32(f, shape); }, ctx);
    if (t) {
      require_values(*t, shape, want, ctx);
      check_layout(*t, ctx);
    }
    return;
  }
  auto t = run("Tensor::from_vector", !fits, [&] { return Tensor::from_vector(v, shape, dtype); }, ctx);
  if (!t) return;
  require_values(*t, shape, want, ctx);
  check_layout(*t, ctx);
  FUZZ_REQUIRE(t->dtype() == dtype, ctx + ": dtype");
}

void filled(Input& in) {
  const Shape shape = in.shape();
  const DType dtype = in.dtype();
  const bool ok = allowed(shape);
  const std::string ctx = text(shape);
  const int64_t n = ok ? count_of(shape) : 0;
  glass::Generator gen(in.byte());
  switch (in.byte() % 5) {
    case 0:
      if (auto t = run("zeros", !ok, [&] { return Tensor::zeros(shape, dtype); }, ctx))
        require_values(*t, shape, std::vector<double>(n, 0.0), "zeros " + ctx);
      break;
    case 1:
      if (auto t = run("ones", !ok, [&] { return Tensor::ones(shape, dtype); }, ctx))
        require_values(*t, shape, std::vector<double>(n, 1.0), "ones " + ctx);
      break;
    case 2: {
      const double value = in.value();
      if (auto t = run("full", !ok, [&] { return Tensor::full(shape, value, dtype); }, ctx))
        require_values(*t, shape, std::vector<double>(n, stored(value, dtype)), "full " + ctx);
      break;
    }
    case 3:
      if (auto t = run("Tensor::randn", !ok, [&] { return Tensor::randn(shape, gen, dtype); }, ctx)) {
        FUZZ_REQUIRE(t->shape() == shape && t->numel() == n, "randn " + ctx);
        for (double x : t->to_vector()) FUZZ_REQUIRE(std::isfinite(x), "randn gave a non-finite value");
      }
      break;
    default: {
      const double low = in.value(), high = in.value();
      const bool bounds = low <= high && std::isfinite(low) && std::isfinite(high);
      if (auto t = run("Tensor::uniform", !ok || !bounds, [&] { return Tensor::uniform(shape, low, high, gen, dtype); }, ctx)) {
        FUZZ_REQUIRE(t->shape() == shape && t->numel() == n, "uniform " + ctx);
        // in [low, high] once rounded to the dtype
        for (double x : t->to_vector())
          FUZZ_REQUIRE(x >= stored(low, dtype) && x <= stored(high, dtype), "uniform out of its bounds");
      }
    }
  }
}

std::vector<int32_t> decode_ids(Input& in, const Shape& ids_shape, int64_t limit) {
  const bool exact = allowed(ids_shape) && in.byte() % 8 != 0;
  const std::size_t n = exact ? static_cast<std::size_t>(count_of(ids_shape)) : in.byte() % 8;
  std::vector<int32_t> ids(n);
  for (int32_t& id : ids) {
    const uint8_t b = in.byte();
    if (b < 240 && limit > 0 && limit <= std::numeric_limits<int32_t>::max()) id = static_cast<int32_t>(b % limit);
    else id = static_cast<int32_t>(static_cast<uint32_t>(in.raw64()));  // anything, in range or not
  }
  return ids;
}

bool ids_fit(const std::vector<int32_t>& ids, const Shape& ids_shape, int64_t limit) {
  if (!allowed(ids_shape) || static_cast<int64_t>(ids.size()) != count_of(ids_shape)) return false;
  for (int32_t id : ids)
    if (id < 0 || id >= limit) return false;
  return true;
}

void one_hot(Input& in) {
  const Shape ids_shape = in.shape(3);
  const int64_t classes = in.size();
  const std::vector<int32_t> ids = decode_ids(in, ids_shape, classes);
  Shape out_shape = ids_shape;
  out_shape.push_back(classes);
  const bool ok = classes > 0 && ids_fit(ids, ids_shape, classes) && allowed(out_shape);
  const DType dtype = in.dtype();
  const std::string ctx = "one_hot(" + std::to_string(ids.size()) + " ids, " + text(ids_shape) + ", " + std::to_string(classes) + ")";
  auto t = run("one_hot", !ok, [&] { return glass::one_hot(ids, ids_shape, classes, dtype); }, ctx);
  if (!t) return;
  std::vector<double> want(static_cast<std::size_t>(count_of(out_shape)), 0.0);
  for (std::size_t i = 0; i < ids.size(); ++i) want[i * classes + ids[i]] = 1.0;
  require_values(*t, out_shape, want, ctx);
}

void embedding(Input& in) {
  const int64_t vocab = in.size(), width = in.size();
  const Shape wshape{vocab, width};
  if (!allowed(wshape)) {  // the weight itself cannot exist
    run("zeros", true, [&] { return Tensor::zeros(wshape); }, text(wshape));
    return;
  }
  std::vector<double> w(static_cast<std::size_t>(count_of(wshape)));
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<double>(i);
  const Tensor weight = Tensor::from_vector(w, wshape, DType::f64);
  const Shape ids_shape = in.shape(3);
  const std::vector<int32_t> ids = decode_ids(in, ids_shape, vocab);
  Shape out_shape = ids_shape;
  out_shape.push_back(width);
  const bool ok = ids_fit(ids, ids_shape, vocab) && allowed(out_shape);
  const std::string ctx = "embedding(" + text(wshape) + ", " + std::to_string(ids.size()) + " ids, " + text(ids_shape) + ")";
  auto t = run("embedding", !ok, [&] { return glass::embedding(weight, ids, ids_shape); }, ctx);
  if (!t) return;
  std::vector<double> want;
  for (int32_t id : ids)
    for (int64_t j = 0; j < width; ++j) want.push_back(w[id * width + j]);
  require_values(*t, out_shape, want, ctx);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  const Session session(in);  // first: outlives every tensor of this input
  for (int step = 0; step < 4 && !in.empty(); ++step) {
    switch (in.byte() % 4) {
      case 0: from_data(in); break;
      case 1: filled(in); break;
      case 2: one_hot(in); break;
      default: embedding(in); break;
    }
  }
  return 0;
}
