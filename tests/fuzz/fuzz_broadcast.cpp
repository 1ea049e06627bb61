// libFuzzer target: broadcasting. Two (or three) operands of decoded shapes,
// contiguous or as transposed views, through the elementwise ops, where,
// masked_fill, broadcast_to and matmul (whose batch axes broadcast), and the
// gradients back through sum_to. The oracle computes numpy's broadcast rule,
// the cap, every output value and every gradient value on its own.
#include <algorithm>

#include "fuzz_common.h"

namespace {

using namespace fuzz;

// An operand and its values in row-major order (as its dtype stores them).
struct Operand {
  Tensor t;
  Shape shape;
  std::vector<double> v;
  Tensor leaf;            // what requires grad: t, or the reversed tensor t views
  bool reversed = false;
};

// A shape near `base`: sizes set to 1 or dropped from the front, so that it
// broadcasts with base; sometimes a size changed, or a shape of its own.
Shape related(Input& in, const Shape& base) {
  const uint8_t how = in.byte();
  if (how % 8 == 0) return in.shape();
  Shape s = base;
  const std::size_t drop = s.empty() ? 0 : in.byte() % (s.size() + 1);
  s.erase(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(drop));
  for (int64_t& v : s) {
    const uint8_t b = in.byte();
    if (b % 3 == 0) v = 1;
    else if (b % 11 == 1) v = in.size();
  }
  if (how % 8 == 1) s.insert(s.begin(), in.size());  // one more leading axis
  return s;
}

// Makes an operand of `shape`, or checks that the shape is refused.
std::optional<Operand> make(Input& in, const Shape& shape, DType dtype, bool grad) {
  if (!allowed(shape)) {
    run("Tensor::from_vector", true, [&] { return Tensor::from_vector(std::vector<double>{}, shape, dtype); }, text(shape));
    return std::nullopt;
  }
  Operand op{Tensor(), shape, std::vector<double>(static_cast<std::size_t>(count_of(shape))), Tensor(), false};
  for (double& x : op.v) x = stored(in.value(), dtype);
  if (shape.size() >= 2 && in.byte() % 2) {
    // stored reversed, then viewed back: the operand is a strided, non-contiguous view
    const Shape rs(shape.rbegin(), shape.rend());
    std::vector<double> p(op.v.size());
    for (std::size_t i = 0; i < op.v.size(); ++i) {
      std::vector<int64_t> idx = unravel(static_cast<int64_t>(i), shape);
      std::reverse(idx.begin(), idx.end());
      p[ravel(idx, rs)] = op.v[i];
    }
    std::vector<int> axes(shape.size());
    for (std::size_t d = 0; d < axes.size(); ++d) axes[d] = static_cast<int>(axes.size() - 1 - d);
    op.leaf = Tensor::from_vector(p, rs, dtype);
    if (grad) op.leaf.set_requires_grad();
    op.reversed = true;
    op.t = glass::permute(op.leaf, axes);
    FUZZ_REQUIRE(op.t.shape() == shape, "the reversed view");
  } else {
    op.t = Tensor::from_vector(op.v, shape, dtype);
    if (grad) op.t.set_requires_grad();
    op.leaf = op.t;
  }
  return op;
}

// The gradient a leaf received, in the operand's logical row-major order.
std::vector<double> grad_of(const Operand& op) {
  const Tensor g = op.leaf.grad();
  if (!g.defined()) return std::vector<double>(op.v.size(), 0.0);
  FUZZ_REQUIRE(g.shape() == op.leaf.shape(), "a gradient of shape " + text(g.shape()) + " for " + text(op.leaf.shape()));
  const std::vector<double> phys = g.to_vector();
  if (!op.reversed) return phys;
  std::vector<double> out(op.v.size());
  const Shape rs(op.shape.rbegin(), op.shape.rend());
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::vector<int64_t> idx = unravel(static_cast<int64_t>(i), op.shape);
    std::reverse(idx.begin(), idx.end());
    out[i] = phys[ravel(idx, rs)];
  }
  return out;
}

double apply(int kind, double x, double y, DType dtype) {
  if (dtype == DType::f32) {
    const float a = static_cast<float>(x), b = static_cast<float>(y);
    switch (kind) {
      case 0: return a + b;
      case 1: return a - b;
      case 2: return a * b;
      default: return a / b;
    }
  }
  switch (kind) {
    case 0: return x + y;
    case 1: return x - y;
    case 2: return x * y;
    default: return x / y;
  }
}

// add, sub, mul, div; then sum(out).backward() and each operand's gradient.
void elementwise(Input& in, Operand& a, Operand& b, DType dtype) {
  static const char* const names[] = {"add", "sub", "mul", "div"};
  const int kind = in.byte() % 4;
  const std::optional<Shape> out = broadcast(a.shape, b.shape);
  const bool ok = a.t.dtype() == b.t.dtype() && out && allowed(*out);
  const std::string ctx = text(a.shape) + " " + names[kind] + " " + text(b.shape);
  using Binary = Tensor (*)(const Tensor&, const Tensor&);
  const Binary ops[] = {glass::add, glass::sub, glass::mul, glass::div};
  auto t = run(names[kind], !ok, [&] { return ops[kind](a.t, b.t); }, ctx);
  if (!t) return;
  const int64_t n = count_of(*out);
  std::vector<double> want(n);
  for (int64_t i = 0; i < n; ++i)
    want[i] = apply(kind, a.v[broadcast_source(i, a.shape, *out)], b.v[broadcast_source(i, b.shape, *out)], dtype);
  require_values(*t, *out, want, ctx);
  if (!t->requires_grad() || kind == 3) return;
  // d sum(out) / da[j]: the sum, over the outputs a[j] reaches, of 1 (add, sub), or of b (mul)
  glass::sum(*t).backward();
  std::vector<double> ga(a.v.size(), 0.0), gb(b.v.size(), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t ia = broadcast_source(i, a.shape, *out), ib = broadcast_source(i, b.shape, *out);
    ga[ia] += kind == 2 ? b.v[ib] : 1.0;
    gb[ib] += kind == 2 ? a.v[ia] : kind == 1 ? -1.0 : 1.0;
  }
  for (auto [op, want_grad] : {std::pair<Operand*, std::vector<double>*>{&a, &ga}, {&b, &gb}}) {
    if (!op->t.requires_grad()) continue;
    const std::vector<double> got = grad_of(*op);
    for (std::size_t j = 0; j < got.size(); ++j)
      FUZZ_REQUIRE(same(got[j], stored((*want_grad)[j], dtype)),
                   ctx + ": gradient element " + std::to_string(j) + " is " + std::to_string(got[j]) + ", want " +
                       std::to_string((*want_grad)[j]));
  }
}

void where(Input& in, const Operand& cond, const Operand& a, const Operand& b) {
  std::optional<Shape> out = broadcast(cond.shape, a.shape);
  if (out) out = broadcast(*out, b.shape);
  const bool ok = a.t.dtype() == b.t.dtype() && out && allowed(*out);
  const std::string ctx = "where(" + text(cond.shape) + ", " + text(a.shape) + ", " + text(b.shape) + ")";
  auto t = run("where", !ok, [&] { return glass::where(cond.t, a.t, b.t); }, ctx);
  (void)in;
  if (!t) return;
  std::vector<double> want(count_of(*out));
  for (std::size_t i = 0; i < want.size(); ++i) {
    const int64_t k = static_cast<int64_t>(i);
    want[i] = cond.v[broadcast_source(k, cond.shape, *out)] != 0 ? a.v[broadcast_source(k, a.shape, *out)]
                                                                 : b.v[broadcast_source(k, b.shape, *out)];
  }
  require_values(*t, *out, want, ctx);
}

void masked_fill(Input& in, const Operand& x, const Operand& mask) {
  const double value = in.value();
  const std::optional<Shape> out = broadcast(mask.shape, x.shape);
  const bool ok = out && allowed(*out) && *out == x.shape;
  const std::string ctx = "masked_fill(" + text(x.shape) + ", mask " + text(mask.shape) + ")";
  auto t = run("masked_fill", !ok, [&] { return glass::masked_fill(x.t, mask.t, value); }, ctx);
  if (!t) return;
  std::vector<double> want(x.v.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    want[i] = mask.v[broadcast_source(static_cast<int64_t>(i), mask.shape, x.shape)] != 0 ? stored(value, x.t.dtype())
                                                                                         : x.v[i];
  require_values(*t, x.shape, want, ctx);
}

void broadcast_to(Input& in, const Operand& a) {
  Shape target = in.byte() % 4 == 0 ? in.shape() : a.shape;
  if (target == a.shape) {  // grow it: leading axes, and sizes where a has 1
    for (int64_t& v : target)
      if (v == 1 && in.byte() % 2) v = in.size();
    const int lead = in.byte() % 3;
    for (int i = 0; i < lead; ++i) target.insert(target.begin(), in.size());
  }
  bool ok = target == a.shape;
  if (!ok && a.shape.size() <= target.size()) {
    const std::optional<Shape> out = broadcast(a.shape, target);
    ok = out && bound_of(*out) >= 0 && allowed(*out) && *out == target;
  }
  const std::string ctx = "broadcast_to(" + text(a.shape) + ", " + text(target) + ")";
  auto t = run("broadcast_to", !ok, [&] { return glass::broadcast_to(a.t, target); }, ctx);
  if (!t) return;
  std::vector<double> want(count_of(target));
  for (std::size_t i = 0; i < want.size(); ++i) want[i] = a.v[broadcast_source(static_cast<int64_t>(i), a.shape, target)];
  require_values(*t, target, want, ctx);
  // its gradient sums the copies back: sum_to
  if (t->requires_grad()) {
    glass::sum(*t).backward();
    std::vector<double> g(a.v.size(), 0.0);
    for (std::size_t i = 0; i < want.size(); ++i) g[broadcast_source(static_cast<int64_t>(i), a.shape, target)] += 1;
    const std::vector<double> got = grad_of(a);
    for (std::size_t j = 0; j < g.size(); ++j) FUZZ_REQUIRE(same(got[j], g[j]), ctx + ": gradient");
  }
}

// (..., m, k) @ (..., k, n), 1-d operands as a row or a column.
void matmul(Input& in, const Operand& a, const Operand& b, DType dtype) {
  (void)in;
  std::optional<Shape> out;
  Shape sa = a.shape, sb = b.shape;
  bool ok = a.t.dtype() == b.t.dtype() && !sa.empty() && !sb.empty();
  const bool row = sa.size() == 1, col = sb.size() == 1;
  if (ok) {
    if (row) sa.insert(sa.begin(), 1);
    if (col) sb.push_back(1);
    ok = sa.back() == sb[sb.size() - 2];
  }
  Shape batch;
  if (ok) {
    const std::optional<Shape> bb = broadcast(Shape(sa.begin(), sa.end() - 2), Shape(sb.begin(), sb.end() - 2));
    ok = bb.has_value() && allowed(*bb);
    if (ok) {
      batch = *bb;
      Shape full = batch;
      full.push_back(sa[sa.size() - 2]);
      full.push_back(sb.back());
      ok = allowed(full);
      if (ok) {
        out = full;
        if (col) out->pop_back();
        if (row) out->erase(out->end() - (col ? 1 : 2));
      }
    }
  }
  const std::string ctx = text(a.shape) + " @ " + text(b.shape);
  auto t = run("matmul", !ok, [&] { return glass::matmul(a.t, b.t); }, ctx);
  if (!t) return;
  const int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
  const Shape sa_batch(sa.begin(), sa.end() - 2), sb_batch(sb.begin(), sb.end() - 2);
  const int64_t nb = count_of(batch);
  std::vector<double> want;
  for (int64_t bi = 0; bi < nb; ++bi) {
    const int64_t ba = broadcast_source(bi, sa_batch, batch), bb = broadcast_source(bi, sb_batch, batch);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        // small whole numbers (and halves): every partial sum is exact in either dtype
        double acc = 0;
        for (int64_t p = 0; p < k; ++p) acc += a.v[(ba * m + i) * k + p] * b.v[(bb * k + p) * n + j];
        want.push_back(stored(acc, dtype));
      }
  }
  require_values(*t, *out, want, ctx);
  if (!t->requires_grad()) return;
  // The backward multiplies at the full batch before summing down to each
  // operand: dA is batch + (m, k), dB batch + (k, n) (or (k, n) when b is a
  // matrix and a has batch axes: then the batch folds into one product). Past
  // the cap, backward must refuse, naming the op it went through, and leave
  // every gradient unwritten; otherwise each gradient has its operand's size.
  Shape da = batch, db_shape = batch;
  da.insert(da.end(), {m, k});
  db_shape.insert(db_shape.end(), {k, n});
  const bool fold = sb.size() == 2 && sa.size() > 2;
  const bool too_big = (a.t.requires_grad() && !allowed(da)) || (b.t.requires_grad() && !fold && !allowed(db_shape));
  try {
    glass::sum(*t).backward();
    FUZZ_REQUIRE(!too_big, ctx + ": backward should have been refused: dA " + text(da) + ", dB " + text(db_shape));
    for (const Operand* op : {&a, &b})
      if (op->t.requires_grad()) FUZZ_REQUIRE(grad_of(*op).size() == op->v.size(), ctx + ": gradient size");
  } catch (const glass::Error& e) {
    const std::string msg = e.what();
    FUZZ_REQUIRE(too_big, ctx + ": backward refused: " + msg);
    FUZZ_REQUIRE(msg.rfind("backward through 'matmul'", 0) == 0, "the message: " + msg);
    FUZZ_REQUIRE(!a.leaf.grad().defined() && !b.leaf.grad().defined(), ctx + ": a refused backward wrote a gradient");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  const Session session(in);  // first: outlives every tensor of this input
  const DType dtype = in.dtype();
  const uint8_t flags = in.byte();
  const Shape sa = in.shape();
  const Shape sb = related(in, sa);
  std::optional<Operand> a = make(in, sa, dtype, flags & 1);
  // now and then the other operand has the other dtype: refused by every op
  const DType db = flags % 16 == 15 ? (dtype == DType::f32 ? DType::f64 : DType::f32) : dtype;
  std::optional<Operand> b = make(in, sb, db, flags & 2);
  if (!a || !b) return 0;
  switch (in.byte() % 5) {
    case 0: elementwise(in, *a, *b, dtype); break;
    case 1: {
      const Shape sc = related(in, sa);  // one read per statement: their order is fixed
      const DType dc = in.dtype();
      std::optional<Operand> c = make(in, sc, dc, false);
      if (c) where(in, *c, *a, *b);
      break;
    }
    case 2: masked_fill(in, *a, *b); break;
    case 3: broadcast_to(in, *a); break;
    default: {
      // matmul: usually b's second-to-last size set to a's last
      if (in.byte() % 4 != 0 && !sa.empty() && !b->shape.empty()) {
        Shape s = b->shape;
        s[s.size() >= 2 ? s.size() - 2 : 0] = sa.back();
        b = make(in, s, db, flags & 2);
        if (!b) return 0;
      }
      matmul(in, *a, *b, dtype);
    }
  }
  return 0;
}
