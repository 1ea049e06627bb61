// What the scale plot shows, in words that hold for every setting: where ε
// takes over (c*), where the curve levels off on the right and why (ε's own
// effect at c = 1, or the dtype's rounding), overflow of c·x, and exact zeros.
// Every number here was computed by the core in the worker (worker/lab.ts).
import { fmt, fmtScale } from '../../app/format';
import type { LabResult } from '../../protocol/lab';

const C_MIN = 1e-8;
const C_MAX = 1e8;
const LEVEL = '‖γ ⊙ x / rms(x) − RMSNorm(x)‖';

/** Where ε takes over, or why there is no such place. */
export function CrossoverText({ result }: { result: LabResult }) {
  const { crossoverC: star, energy, x, dtype } = result;
  if (energy === Infinity || (energy === 0 && x.some((v) => v !== 0)))
    return (
      <>
        mean(x²) {energy === 0 ? 'underflows to 0' : 'overflows to Infinity'} here (see the note above), so no crossover c* can be computed and
        no level on the right either.
      </>
    );
  if (energy === 0) return <>x = 0 (as {dtype} stores it): every c·x is 0 too, so there is nothing to compare across scales.</>;
  if (Number.isNaN(energy)) return <>mean(x²) is NaN here, so there is nothing to compare across scales.</>;
  if (star === null) return <>With ε = 0 there is no crossover: ε never takes over, at any c.</>;
  const s = <span class="num">{fmtScale(star)}</span>;
  if (star < C_MIN) return <>c* = √(ε / mean(x²)) = {s} lies left of the plotted range: ε would take over only below it.</>;
  if (star > C_MAX)
    return <>c* = √(ε / mean(x²)) = {s} lies right of the plotted range: ε/c² exceeds mean(x²) at every c shown, so ε dominates the whole plot.</>;
  return <>In the shaded part, c &lt; c* = √(ε / mean(x²)) = {s}: ε/c² exceeds mean(x²) and ε takes over (the output shrinks towards 0).</>;
}

/** Where the curve levels off on the right, and what that level is. */
export function PlateauText({ result }: { result: LabResult }) {
  const { plateau: p, dtype } = result;
  if (p.epsEffect === null) return null;
  const e = (
    <span class="num" data-testid="plot-plateau" data-value={String(p.epsEffect)}>
      {fmt(p.epsEffect, 3)}
    </span>
  );
  const r = <span class="num">{fmt(p.rounding, 2)}</span>;
  const limit = 'As c grows, ε/c² vanishes and RMSNorm(c·x) tends to γ ⊙ x / rms(x), the output without ε';
  switch (p.kind) {
    case 'eps':
      return (
        <>
          {limit}, so right of c = 1 the distance levels off at {LEVEL} = {e}: ε’s own effect at c = 1.
        </>
      );
    case 'mixed':
      return (
        <>
          {limit}, so right of c = 1 the distance levels off near {LEVEL} = {e}, ε’s own effect at c = 1. That is less than
          100 times {dtype}’s rounding of these numbers (about {r}), so the points wobble around it.
        </>
      );
    case 'rounding':
      return (
        <>
          {limit}, so the distance would level off at ε’s own effect at c = 1, {LEVEL} = {e}
          {p.epsEffect === 0 && ' (ε is so small next to mean(x²) that even float64 computes 0)'}. That is below {dtype}’s
          rounding of these numbers (about {r}): right of c = 1 the curve shows rounding, not ε.
        </>
      );
    case 'exact':
      return (
        <>
          With ε = 0, RMSNorm(c·x) = RMSNorm(x) exactly in real arithmetic: every distance above 0 here is {dtype}’s
          rounding (about {r}).
        </>
      );
    case 'not-levelled':
      return (
        <>
          Even at c = 1e8, ε/c² still counts next to mean(x²): the curve is still rising towards {LEVEL} = {e}, ε’s own
          effect at c = 1, which it reaches only at larger c.
        </>
      );
    case 'none':
      return null;
  }
}

/** c·x overflowing at large c, and points that are exactly 0. */
export function CurveNotes({ result }: { result: LabResult }) {
  const { plateau: p, curve, dtype } = result;
  const zeros = curve.distance.filter((v) => v === 0).length;
  // x = 0 is 0 at every scale: no reason to give beyond the sentence about x.
  const atOne = result.energy !== 0 && curve.c.some((c, i) => c === 1 && curve.distance[i] === 0);
  return (
    <>
      {p.overflowFrom !== null && (
        <>
          {' '}
          From c = {fmtScale(p.overflowFrom)} on, the squares of c·x overflow to Infinity in {dtype}: r becomes Infinity,
          RMSNorm(c·x) becomes 0, and the distance jumps to ‖RMSNorm(x)‖.
        </>
      )}
      {zeros > 0 && (
        <span data-testid="plot-zeros" data-count={zeros}>
          {' '}
          {zeros === 1 && atOne
            ? 'At c = 1 the distance is exactly 0 (RMSNorm(x) against itself): a log axis has no 0, so that point is marked ◇ on the bottom line.'
            : `${zeros} of ${curve.c.length} points are exactly 0, marked ◇ on the bottom line (a log axis has no 0)${
                atOne ? `: c = 1, where RMSNorm(x) meets itself, and c where RMSNorm(c·x) comes out exactly equal to RMSNorm(x) in ${dtype}` : ''
              }.`}
        </span>
      )}
    </>
  );
}
