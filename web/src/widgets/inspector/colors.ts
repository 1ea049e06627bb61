// The diverging colour scale of the heatmaps: blue (negative) - white (0) - red
// (positive), symmetric about 0 with |v| = scale at the ends. Colour mapping
// only; the values come from the core.
const NEG = [33, 102, 172];
const MID = [247, 247, 247];
const POS = [178, 24, 43];
export const NON_FINITE = [255, 0, 255]; // NaN / Infinity stand out in magenta

export function divergingRgb(v: number, scale: number): readonly number[] {
  if (!Number.isFinite(v)) return NON_FINITE;
  const t = scale > 0 ? Math.max(-1, Math.min(1, v / scale)) : 0;
  const end = t < 0 ? NEG : POS;
  const a = Math.abs(t);
  const mix = (i: number) => Math.round(MID[i] + (end[i] - MID[i]) * a);
  return [mix(0), mix(1), mix(2)];
}

export const legendGradient = `linear-gradient(to right, rgb(${NEG}), rgb(${MID}), rgb(${POS}))`;

/** The colour scale's end: the largest finite |value| (colour mapping, not analysis). */
export function colourScale(data: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < data.length; i++) {
    const a = Math.abs(data[i]);
    if (a > m && a !== Infinity) m = a;
  }
  return m;
}
