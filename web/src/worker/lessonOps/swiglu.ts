// The SwiGLU lesson's widget computations:
//   siluGate    silu, its autograd derivative and the formula's, silu(z)·u, a curve, silu's minimum
//               (core Tensor ops)
//   modelSwiglu the shipped model's ffn(x) = w_down(silu(w_gate x) ⊙ w_up x) at one block and
//               position: the model's own SwiGLU (SwiGLU::parts in cpp/glass/nn/attention.cpp, the
//               function its forward pass runs), with its gate, up and hidden values
// Shapes: G grid points, n bytes, d = 128, H = hidden = 384.
import { GlassError, type Glass, type Tensor } from '../../core';
import type { HiddenUnit, ModelSwigluInput, ModelSwigluResult, SiluGateInput, SiluGateResult } from '../../protocol/lessons/swiglu';
import { computeModel, needModel, type WorkerState } from '../state';

const Z_LIMIT = 50; // beyond this silu is z or 0 to every printed digit
const U_LIMIT = 1000;
const TOP_UNITS = 8;
/** |silu(gate)| below this counts as a blocked unit. */
export const BLOCKED_BAND = 0.05;

const finite = (v: number, limit: number) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= limit;

/** d silu/dz at each entry of z (float64), by autograd: silu acts elementwise, so the gradient of the sum is the derivative. */
export function siluSlope(glass: Glass, z: Tensor): Tensor {
  const leaf = z.detach().requireGrad(); // same shape as z
  leaf.silu().sum().backward();
  return leaf.grad!;
}

/**
 * The z where silu is smallest: silu' is negative at −3 and positive at 0 and
 * changes sign once between, so halve the bracket on the sign of autograd's slope.
 */
export function siluMinimum(glass: Glass): { z: number; value: number } {
  return glass.scope(() => {
    let lo = -3;
    let hi = 0;
    for (let i = 0; i < 60 && hi - lo > 1e-13; i++) {
      const mid = (lo + hi) / 2;
      const slope = siluSlope(glass, glass.scalar(mid, 'float64')).item();
      if (slope < 0) lo = mid;
      else hi = mid;
    }
    const z = (lo + hi) / 2;
    return { z, value: glass.scalar(z, 'float64').silu().item() };
  });
}

export function siluGate(glass: Glass, { z, u, lo, hi, points }: SiluGateInput): SiluGateResult {
  if (!finite(z, Z_LIMIT)) throw new GlassError(`z must be a number from −${Z_LIMIT} to ${Z_LIMIT}`);
  if (!finite(u, U_LIMIT)) throw new GlassError(`u must be a number from −${U_LIMIT} to ${U_LIMIT}`);
  if (!finite(lo, Z_LIMIT) || !finite(hi, Z_LIMIT) || !(lo < hi)) throw new GlassError('the plotted range needs lo < hi, both within ±50');
  if (!Number.isInteger(points) || points < 2 || points > 1001) throw new GlassError('the curve has 2 to 1001 points');
  return glass.scope(() => {
    const zt = glass.scalar(z, 'float64'); // ()
    const s = zt.sigmoid(); // ()
    const silu = zt.silu(); // ()
    const formula = s.mul(zt.mul(s.neg().add(1)).add(1)); // σ(z)(1 + z(1 − σ(z)))   ()
    const step = (hi - lo) / (points - 1);
    const grid = glass.tensor(Array.from({ length: points }, (_, i) => i), { dtype: 'float64' }).mul(step).add(lo); // (G,)
    return {
      sigmoid: s.item(),
      silu: silu.item(),
      gated: silu.mul(u).item(),
      grad: siluSlope(glass, zt).item(),
      gradFormula: formula.item(),
      curve: { z: Array.from(grid.data()), silu: Array.from(grid.silu().data()), grad: Array.from(siluSlope(glass, grid).data()) },
      minimum: siluMinimum(glass),
    };
  });
}

/** How many entries of `mask` are nonzero (a core count: ones where the mask is set, summed). */
const countWhere = (glass: Glass, mask: Tensor): Tensor => glass.zeros(mask.shape, mask.dtype).maskedFill(mask, 1).sum(); // ()

export function modelSwiglu(s: WorkerState, { text, block, position }: ModelSwigluInput): ModelSwigluResult {
  const glass = s.glass;
  const { model, info } = needModel(s);
  const bytes = new TextEncoder().encode(typeof text === 'string' ? text : '');
  if (bytes.length === 0) throw new GlassError('type at least one character: the model needs a byte to look at');
  if (bytes.length > info.context) throw new GlassError(`the text is ${bytes.length} bytes; the model reads at most ${info.context}`);
  if (!Number.isInteger(block) || block < 0 || block >= info.blocks) throw new GlassError(`block must be 0 to ${info.blocks - 1}`);
  if (!Number.isInteger(position) || position < 0) throw new GlassError('position must be a whole number from 0');
  const p = Math.min(position, bytes.length - 1);

  computeModel(s, { text, eps: info.eps, dtype: 'float32' }, false);
  const parts = model.swigluParts(block); // the model's own SwiGLU on blocks.i.norm.ffn
  return glass.scope(() => {
    // row p of a part, (1, H) or (1, d)
    const row = (t: { shape: number[]; data: Float32Array | Float64Array }) => glass.tensor(t.data, { shape: t.shape, dtype: 'float32' }).slice(0, p, p + 1);
    const gate = row(parts.gate); // (1, H)
    const up = row(parts.up); // (1, H)
    const act = row(parts.act); // (1, H) silu(gate)
    const h = row(parts.hidden); // (1, H) silu(gate) ⊙ up
    const y = row(parts.out); // (1, d)

    const negative = gate.neg().relu(); // (1, H) nonzero exactly where gate < 0
    const flipped = act.neg().sub(BLOCKED_BAND).relu(); // (1, H) silu ≤ −band: h has u's opposite sign
    const passed = act.sub(BLOCKED_BAND).relu(); // (1, H)
    const blocked = act.square().sqrt().neg().add(BLOCKED_BAND).relu(); // (1, H) |silu| < band
    const hidden = h.shape[1];

    const hv = h.data();
    const gv = gate.data();
    const sv = act.data();
    const uv = up.data();
    // ranking is selection, not arithmetic: order the core's values by magnitude
    const order = Array.from(hv, (_, j) => j).sort((a, b) => Math.abs(hv[b]) - Math.abs(hv[a]));
    const top: HiddenUnit[] = order.slice(0, TOP_UNITS).map((j) => ({ unit: j, gate: gv[j], silu: sv[j], up: uv[j], h: hv[j] }));

    return {
      n: bytes.length,
      position: p,
      label: model.displayByte(bytes[p]),
      hidden,
      h: Array.from(hv),
      gateNegative: Array.from(glass.zeros(negative.shape).maskedFill(negative, 1).data()),
      counts: {
        negative: countWhere(glass, negative).item(),
        flipped: countWhere(glass, flipped).item(),
        blocked: countWhere(glass, blocked).item(),
        passed: countWhere(glass, passed).item(),
      },
      threshold: BLOCKED_BAND,
      negativeFraction: countWhere(glass, negative).div(hidden).item(),
      top,
      outNorm: y.square().sum().sqrt().item(),
    };
  });
}

export const swigluHandlers = {
  siluGate: (s: WorkerState, input: SiluGateInput): SiluGateResult => siluGate(s.glass, input),
  modelSwiglu,
};
