// libFuzzer target: the shape logic of reshape (with -1), permute, transpose,
// slice, concat, broadcast_to and contiguous, as sequences of up to eight
// ops on one tensor. Every element's value is its own identity (leaf k's
// element i holds offset_k + i), so after each op the oracle knows exactly
// which element must sit where, from a plain model of each op on row-major
// arrays; after the sequence, sum(result).backward() must give every leaf
// element the number of times it appears in the result.
#include <algorithm>
#include <map>

#include "fuzz_common.h"

namespace {

using namespace fuzz;

// The model: a shape and its values, row-major.
struct Array {
  Shape shape;
  std::vector<double> v;
};

struct Leaf {
  Tensor t;
  double offset;
  int64_t n;
};

// [-ndim, ndim) -> [0, ndim), or -1 if out of range (normalize_axis's rule).
int axis_in(int axis, int ndim) {
  if (axis < -ndim || axis >= ndim) return -1;
  return axis < 0 ? axis + ndim : axis;
}

Array permuted(const Array& x, const std::vector<int>& ax) {
  Array out{Shape(ax.size()), std::vector<double>(x.v.size())};
  for (std::size_t i = 0; i < ax.size(); ++i) out.shape[i] = x.shape[ax[i]];
  for (std::size_t i = 0; i < out.v.size(); ++i) {
    const std::vector<int64_t> idx = unravel(static_cast<int64_t>(i), out.shape);
    std::vector<int64_t> src(idx.size());
    for (std::size_t d = 0; d < ax.size(); ++d) src[ax[d]] = idx[d];
    out.v[i] = x.v[ravel(src, x.shape)];
  }
  return out;
}

// ---- each op: the oracle's expectation, then the core, then the comparison ----

void reshape(Input& in, Tensor& cur, Array& model) {
  const int64_t n = static_cast<int64_t>(model.v.size());
  Shape target;
  switch (in.byte() % 4) {
    case 0: target = in.shape(); break;
    case 1: target = {-1}; break;
    case 2: {  // the current shape with one size as -1
      target = model.shape;
      if (!target.empty()) target[in.byte() % target.size()] = -1;
      break;
    }
    default: {  // split one size in two (by a decoded factor), maybe with -1
      target = model.shape;
      if (target.empty()) break;
      const std::size_t d = in.byte() % target.size();
      const int64_t f = in.size();
      target[d] = f != 0 && f > 0 && target[d] % f == 0 ? target[d] / f : in.size();
      target.insert(target.begin() + static_cast<std::ptrdiff_t>(d), in.byte() % 2 ? -1 : f);
    }
  }
  // numpy's rule, with the cap: at most one -1, no other negative size; the -1
  // is n / (product of the others), which must be nonzero, within the cap and divide n
  bool ok = std::count(target.begin(), target.end(), -1) <= 1;
  int infer = -1;
  __int128 known = 1;
  for (std::size_t i = 0; i < target.size(); ++i) {
    if (target[i] == -1) infer = static_cast<int>(i);
    else if (target[i] < 0) ok = false;
    else if (known <= (static_cast<__int128>(1) << 64)) known *= target[i];
  }
  Shape final_shape = target;
  if (ok && infer >= 0) {
    ok = known != 0 && known <= glass::max_elements() && n % static_cast<int64_t>(known) == 0;
    if (ok) final_shape[infer] = n / static_cast<int64_t>(known);
  }
  ok = ok && allowed(final_shape) && count_of(final_shape) == n;
  const std::string ctx = "reshape(" + text(model.shape) + ", " + text(target) + ")";
  auto t = run("reshape", !ok, [&] { return glass::reshape(cur, target); }, ctx);
  if (!t) return;
  model.shape = final_shape;
  require_values(*t, model.shape, model.v, ctx);
  cur = *t;
}

void permute(Input& in, Tensor& cur, Array& model) {
  const int nd = static_cast<int>(model.shape.size());
  std::vector<int> axes;
  if (in.byte() % 4 != 0) {  // a permutation, some axes spelled negative
    axes.resize(nd);
    for (int i = 0; i < nd; ++i) axes[i] = i;
    for (int i = nd - 1; i > 0; --i) std::swap(axes[i], axes[in.byte() % (i + 1)]);
    for (int& a : axes)
      if (in.byte() % 3 == 0) a -= nd;
  } else {
    const int len = in.byte() % 7;
    for (int i = 0; i < len; ++i) axes.push_back(in.axis(nd));
  }
  std::vector<int> ax;
  std::vector<bool> seen(nd, false);
  bool ok = static_cast<int>(axes.size()) == nd;
  for (int a : axes) {
    const int k = axis_in(a, nd);
    if (k < 0 || seen[k]) {
      ok = false;
      break;
    }
    seen[k] = true;
    ax.push_back(k);
  }
  std::string ctx = "permute(" + text(model.shape) + ", [";
  for (int a : axes) ctx += std::to_string(a) + " ";
  ctx += "])";
  auto t = run("permute", !ok, [&] { return glass::permute(cur, axes); }, ctx);
  if (!t) return;
  model = permuted(model, ax);
  require_values(*t, model.shape, model.v, ctx);
  cur = *t;
}

void transpose(Input& in, Tensor& cur, Array& model) {
  const int nd = static_cast<int>(model.shape.size());
  const int a0 = in.axis(nd), a1 = in.axis(nd);
  const int k0 = axis_in(a0, nd), k1 = axis_in(a1, nd);
  const bool ok = nd >= 2 && k0 >= 0 && k1 >= 0;
  const std::string ctx = "transpose(" + text(model.shape) + ", " + std::to_string(a0) + ", " + std::to_string(a1) + ")";
  auto t = run("transpose", !ok, [&] { return glass::transpose(cur, a0, a1); }, ctx);
  if (!t) return;
  std::vector<int> ax(nd);
  for (int i = 0; i < nd; ++i) ax[i] = i;
  std::swap(ax[k0], ax[k1]);
  model = permuted(model, ax);
  require_values(*t, model.shape, model.v, ctx);
  cur = *t;
}

int64_t bound_index(Input& in, int64_t n) {
  const uint8_t b = in.byte();
  if (b < 200) return static_cast<int64_t>(b % (2 * n + 3)) - n - 1;  // [-n-1, n+1]
  return in.size();  // anything: the limits, int64's ends, raw values
}

void slice(Input& in, Tensor& cur, Array& model) {
  const int nd = static_cast<int>(model.shape.size());
  const int axis = in.axis(nd);
  const int k = axis_in(axis, nd);
  const int64_t n = k >= 0 ? model.shape[k] : 0;
  const int64_t start = bound_index(in, n), stop = bound_index(in, n);
  // negative counts from the end; then 0 <= start <= stop <= n (no clamping)
  const __int128 s = start < 0 ? static_cast<__int128>(start) + n : start;
  const __int128 e = stop < 0 ? static_cast<__int128>(stop) + n : stop;
  const bool ok = k >= 0 && s >= 0 && e <= n && s <= e;
  const std::string ctx = "slice(" + text(model.shape) + ", axis " + std::to_string(axis) + ", " + std::to_string(start) +
                          ", " + std::to_string(stop) + ")";
  auto t = run("slice", !ok, [&] { return glass::slice(cur, axis, start, stop); }, ctx);
  if (!t) return;
  Array out{model.shape, {}};
  out.shape[k] = static_cast<int64_t>(e - s);
  out.v.resize(static_cast<std::size_t>(count_of(out.shape)));
  for (std::size_t i = 0; i < out.v.size(); ++i) {
    std::vector<int64_t> idx = unravel(static_cast<int64_t>(i), out.shape);
    idx[k] += static_cast<int64_t>(s);
    out.v[i] = model.v[ravel(idx, model.shape)];
  }
  model = out;
  require_values(*t, model.shape, model.v, ctx);
  cur = *t;
}

void concat(Input& in, Tensor& cur, Array& model, std::vector<Leaf>& leaves, double& next_offset) {
  const int nd = static_cast<int>(model.shape.size());
  const int axis = in.axis(nd);
  const int k = axis_in(axis, nd);
  // the other tensor: the current shape with another size along the axis, or a shape of its own
  Shape other = model.shape;
  if (in.byte() % 8 == 0) other = in.shape();
  else if (k >= 0) other[k] = in.size();
  if (!allowed(other)) {
    run("zeros", true, [&] { return Tensor::zeros(other); }, text(other));
    return;
  }
  Array o{other, std::vector<double>(static_cast<std::size_t>(count_of(other)))};
  for (std::size_t i = 0; i < o.v.size(); ++i) o.v[i] = next_offset + static_cast<double>(i);
  Tensor ot = Tensor::from_vector(o.v, other, DType::f64).set_requires_grad();
  leaves.push_back({ot, next_offset, static_cast<int64_t>(o.v.size())});
  next_offset += static_cast<double>(o.v.size());
  const uint8_t order = in.byte() % 3;  // cur first, other first, or cur twice
  const Array& first = order == 1 ? o : model;
  const Array& second = order == 0 ? o : model;
  const std::vector<Tensor> xs = order == 0 ? std::vector<Tensor>{cur, ot}
                               : order == 1 ? std::vector<Tensor>{ot, cur}
                                            : std::vector<Tensor>{cur, cur};
  const int ka = axis_in(axis, static_cast<int>(first.shape.size()));
  bool ok = ka >= 0 && first.shape.size() == second.shape.size();
  Shape out_shape = first.shape;
  if (ok) {
    for (std::size_t d = 0; d < first.shape.size(); ++d)
      if (static_cast<int>(d) != ka && first.shape[d] != second.shape[d]) ok = false;
    out_shape[ka] = first.shape[ka] + second.shape[ka];  // both within the cap: no overflow
    ok = ok && allowed(out_shape);
  }
  const std::string ctx = "concat(" + text(first.shape) + ", " + text(second.shape) + ", axis " + std::to_string(axis) + ")";
  auto t = run("concat", !ok, [&] { return glass::concat(xs, axis); }, ctx);
  if (!t) return;
  Array out{out_shape, std::vector<double>(static_cast<std::size_t>(count_of(out_shape)))};
  for (std::size_t i = 0; i < out.v.size(); ++i) {
    std::vector<int64_t> idx = unravel(static_cast<int64_t>(i), out_shape);
    if (idx[ka] < first.shape[ka]) {
      out.v[i] = first.v[ravel(idx, first.shape)];
    } else {
      idx[ka] -= first.shape[ka];
      out.v[i] = second.v[ravel(idx, second.shape)];
    }
  }
  model = out;
  require_values(*t, model.shape, model.v, ctx);
  cur = *t;
}

void broadcast_to(Input& in, Tensor& cur, Array& model) {
  Shape target = model.shape;
  if (in.byte() % 6 == 0) target = in.shape();
  for (int64_t& v : target)
    if (v == 1 && in.byte() % 2) v = in.size();
  const int lead = in.byte() % 3;
  for (int i = 0; i < lead; ++i) target.insert(target.begin(), in.size());
  bool ok = target == model.shape;
  if (!ok && model.shape.size() <= target.size()) {
    const std::optional<Shape> out = broadcast(model.shape, target);
    ok = out && allowed(*out) && *out == target;
  }
  const std::string ctx = "broadcast_to(" + text(model.shape) + ", " + text(target) + ")";
  auto t = run("broadcast_to", !ok, [&] { return glass::broadcast_to(cur, target); }, ctx);
  if (!t) return;
  Array out{target, std::vector<double>(static_cast<std::size_t>(count_of(target)))};
  for (std::size_t i = 0; i < out.v.size(); ++i) out.v[i] = model.v[broadcast_source(static_cast<int64_t>(i), model.shape, target)];
  model = out;
  require_values(*t, model.shape, model.v, ctx);
  cur = *t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  const Session session(in);  // first: outlives every tensor of this input
  // the starting tensor: a shape of small sizes (its own refusals are fuzz_construct's)
  Shape shape(in.byte() % 5);
  for (int64_t& v : shape) v = in.byte() % 6;
  if (!allowed(shape)) return 0;
  Array model{shape, std::vector<double>(static_cast<std::size_t>(count_of(shape)))};
  for (std::size_t i = 0; i < model.v.size(); ++i) model.v[i] = static_cast<double>(i);
  std::vector<Leaf> leaves{{Tensor::from_vector(model.v, shape, DType::f64).set_requires_grad(), 0.0,
                            static_cast<int64_t>(model.v.size())}};
  double next_offset = static_cast<double>(model.v.size());
  Tensor cur = leaves[0].t;
  for (int step = 0; step < 8 && !in.empty(); ++step) {
    switch (in.byte() % 7) {
      case 0: reshape(in, cur, model); break;
      case 1: permute(in, cur, model); break;
      case 2: transpose(in, cur, model); break;
      case 3: slice(in, cur, model); break;
      case 4: concat(in, cur, model, leaves, next_offset); break;
      case 5: broadcast_to(in, cur, model); break;
      default: {
        cur = in.byte() % 2 ? cur.contiguous() : cur.clone();
        require_values(cur, model.shape, model.v, "contiguous");
        FUZZ_REQUIRE(cur.is_contiguous(), "contiguous() is not contiguous");
      }
    }
  }
  // every leaf element's gradient is the number of times it appears in the result
  glass::sum(cur).backward();
  std::map<double, double> times;
  for (double v : model.v) times[v] += 1;
  for (const Leaf& leaf : leaves) {
    const Tensor g = leaf.t.grad();
    const std::vector<double> got = g.defined() ? g.to_vector() : std::vector<double>(leaf.n, 0.0);
    FUZZ_REQUIRE(static_cast<int64_t>(got.size()) == leaf.n, "gradient size");
    for (int64_t i = 0; i < leaf.n; ++i) {
      const auto it = times.find(leaf.offset + static_cast<double>(i));
      const double want = it == times.end() ? 0.0 : it->second;
      FUZZ_REQUIRE(got[i] == want, "leaf element " + std::to_string(leaf.offset + i) + " has gradient " +
                                       std::to_string(got[i]) + ", appears " + std::to_string(want) + " times");
    }
  }
  return 0;
}
