// Axes and colours for the Train view's plots: where the ticks go and which
// colour a value gets. Drawing only: every plotted number comes from the core
// (the trainer worker's step reports).

/** A linear axis: domain -> pixels, with round-number ticks. */
export interface Axis {
  lo: number;
  hi: number;
  ticks: number[];
  at: (v: number) => number;
}

/** About `count` round ticks (1, 2 or 5 times a power of ten) covering [lo, hi]; the domain is widened to them. */
export function niceTicks(lo: number, hi: number, count = 5): { lo: number; hi: number; ticks: number[] } {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return { lo: 0, hi: 1, ticks: [0, 0.5, 1] };
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const raw = (hi - lo) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const first = Math.floor(lo / unit + 1e-9) * unit;
  const last = Math.ceil(hi / unit - 1e-9) * unit;
  const ticks: number[] = [];
  for (let k = 0; first + k * unit <= last + unit * 1e-9; k++) ticks.push(Number((first + k * unit).toPrecision(12)));
  return { lo: first, hi: last, ticks };
}

/** A linear axis from `lo..hi` to pixels `p0..p1` (p1 < p0 for a y axis drawn downwards). */
export function linearAxis(lo: number, hi: number, p0: number, p1: number, count = 5): Axis {
  const n = niceTicks(lo, hi, count);
  const span = n.hi - n.lo || 1;
  return { lo: n.lo, hi: n.hi, ticks: n.ticks, at: (v) => p0 + ((v - n.lo) / span) * (p1 - p0) };
}

/** The step axis: starts at 0 (or 1), ticks at whole steps only. */
export function stepAxis(total: number, p0: number, p1: number): Axis {
  const a = linearAxis(0, Math.max(1, total), p0, p1, 5);
  return { ...a, ticks: a.ticks.filter((t) => Number.isInteger(t)) };
}

/** The finite range of every value in `series` (losses may hold NaN or Infinity after a divergence). */
export function finiteRange(series: readonly (readonly number[])[]): { lo: number; hi: number } | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series)
    for (const v of s)
      if (Number.isFinite(v)) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
  return lo === Infinity ? null : { lo, hi };
}

// ---- the heatmaps' colours: a sequential scale on log10 of the value ----

/** Light (small) to dark (large), so the order reads without telling hues apart. */
const STOPS: readonly (readonly [number, number, number])[] = [
  [255, 247, 188],
  [254, 196, 79],
  [236, 112, 20],
  [153, 52, 4],
  [40, 10, 60],
];
export const NON_FINITE_RGB: readonly number[] = [0, 190, 255]; // NaN or Infinity: cyan, off the scale
export const ZERO_RGB: readonly number[] = [235, 235, 235]; // exactly 0 (log of it does not exist)

/** The decades a log scale spans: every finite positive value of `values` fits in [10^lo, 10^hi]. */
export function logDecades(values: ArrayLike<number>): { lo: number; hi: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v > 0 && Number.isFinite(v)) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  if (min === Infinity) return null;
  const lo = Math.floor(Math.log10(min));
  const hi = Math.max(Math.ceil(Math.log10(max)) + 0, lo + 1); // + 0: no -0 (ceil of -0.7)
  return { lo, hi };
}

/** The colour of `v` on a log scale from 10^lo (lightest) to 10^hi (darkest). */
export function logRgb(v: number, lo: number, hi: number): readonly number[] {
  if (!Number.isFinite(v)) return NON_FINITE_RGB;
  if (v <= 0) return ZERO_RGB;
  const t = Math.min(1, Math.max(0, (Math.log10(v) - lo) / (hi - lo)));
  const x = t * (STOPS.length - 1);
  const k = Math.min(STOPS.length - 2, Math.floor(x));
  const f = x - k;
  return [0, 1, 2].map((i) => Math.round(STOPS[k][i] + (STOPS[k + 1][i] - STOPS[k][i]) * f));
}

/** CSS for the legend bar, lightest on the left. */
export const logLegendGradient = `linear-gradient(to right, ${STOPS.map((c) => `rgb(${c.join(', ')})`).join(', ')})`;

/** "1e-3" style labels for the legend's decades. */
export function decadeLabel(power: number): string {
  if (power >= -2 && power <= 3) return String(10 ** power);
  return `1e${power}`;
}

/** Evenly thinned indices 0..n-1, at most `max` of them, always keeping the last. */
export function thin(n: number, max: number): number[] {
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  const out: number[] = [];
  const stride = (n - 1) / (max - 1);
  for (let k = 0; k < max; k++) out.push(Math.round(k * stride));
  return out;
}
