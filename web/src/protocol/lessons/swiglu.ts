// The SwiGLU lesson's requests (plain data): the silu/gate explorer and the
// shipped model's SwiGLU at one block and position. Worker side:
// web/src/worker/lessonOps/swiglu.ts.

/** silu-gate: one gate pre-activation z and one up value u; the curve over [lo, hi]. */
export interface SiluGateInput {
  z: number;
  u: number;
  lo: number;
  hi: number;
  /** Points of the plotted curve, 2 to 1001. */
  points: number;
}
export interface SiluGateResult {
  sigmoid: number; // σ(z)
  silu: number; // z·σ(z)
  gated: number; // silu(z)·u
  /** d silu/dz at z by the core's autograd, and by the formula σ(z)(1 + z(1 − σ(z))) with core ops. */
  grad: number;
  gradFormula: number;
  curve: { z: number[]; silu: number[]; grad: number[] }; // (points,) each
  /** Where autograd's derivative changes sign (bisection), and silu there. */
  minimum: { z: number; value: number };
}

/** model-swiglu: the model's feed-forward branch for one text, block and position (its own code's values). */
export interface ModelSwigluInput {
  text: string;
  block: number;
  /** Byte position; past the end means the last byte. */
  position: number;
}
export interface HiddenUnit {
  unit: number; // 0 .. hidden − 1
  gate: number; // (w_gate x)_j
  silu: number; // silu of it
  up: number; // (w_up x)_j
  h: number; // silu · up
}
export interface ModelSwigluResult {
  n: number; // bytes of the text
  position: number; // the position shown (clamped to n − 1)
  label: string; // that byte as the core labels it
  hidden: number; // 384
  h: number[]; // (hidden,) silu(gate) ⊙ up at the position
  gateNegative: number[]; // (hidden,) 1 where the gate pre-activation is negative, else 0
  counts: { negative: number; flipped: number; blocked: number; passed: number };
  /** The band that counts as "blocked": |silu(gate)| below it. */
  threshold: number;
  negativeFraction: number;
  top: HiddenUnit[]; // the largest |h|, largest first
  outNorm: number; // ‖ffn output‖ of the position
}
