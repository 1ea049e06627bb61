// The RMSNorm lesson's questions to the model itself: how the residual stream's
// RMS grows block after block on a text (and what the branches read instead),
// what training did to the nine γ vectors, and the stream of a freshly
// initialised model with and without the smaller start of the output
// projections (built and run inside the core, nothing of it kept).
import { GlassError, type Glass, type Model } from '../../core';
import { streamNames } from '../../protocol/modelNames';
import type { GammaSummary, InitGrowthInput, InitGrowthResult, InitGrowthRun, StreamRmsInput, StreamRmsResult, StreamRmsRow } from '../../protocol/lessons/rmsnorm';
import { answerCache, computeModel, needModel, type WorkerState } from '../state';

/**
 * Answers already computed for the loaded weights, by op and input: one step's
 * checks ask the same question many times in one request (with the lesson's
 * time limit), and a fresh model pair takes a good part of a second. New weights
 * are a new LoadedModel, so nothing stale survives them.
 */
const remember = answerCache(32);

/** RMS over every position and coordinate of a snapshot of the model's last run (only that one is copied out: a whole run's copy costs more than the forward pass). */
function rmsOf(glass: Glass, model: Model, name: string): StreamRmsRow {
  const t = model.snapshot(name);
  return { name, rms: glass.scope(() => glass.tensor(t.data, { shape: t.shape, dtype: 'float64' }).square().mean().sqrt().item()) };
}

/** The last row's RMS over the first's. */
const growthOf = (glass: Glass, rows: StreamRmsRow[]) => glass.scope(() => glass.scalar(rows[rows.length - 1].rms, 'float64').div(rows[0].rms).item());

const rangeOf = (glass: Glass, rows: StreamRmsRow[]): [number, number] =>
  glass.scope(() => {
    const t = glass.tensor(rows.map((r) => r.rms), { dtype: 'float64' });
    return [t.neg().max().neg().item(), t.max().item()];
  });

const branchInputNames = (blocks: number) => Array.from({ length: blocks }, (_, i) => [`blocks.${i}.norm.attn`, `blocks.${i}.norm.ffn`]).flat();

export const streamRms = (s: WorkerState, { text }: StreamRmsInput): StreamRmsResult => remember(s, `stream|${text}`, () => computeStreamRms(s, text));

function computeStreamRms(s: WorkerState, text: string): StreamRmsResult {
  const { info } = needModel(s);
  if (info.norm !== 'pre') throw new GlassError('this lesson reads a pre-norm model');
  const { model } = needModel(s);
  computeModel(s, { text, eps: info.eps, dtype: 'float32' }, false);
  const stream = streamNames(info).map((name) => rmsOf(s.glass, model, name));
  const branchInputs = branchInputNames(info.blocks).map((name) => rmsOf(s.glass, model, name));
  return { n: model.snapshot('embed').shape[0], stream, branchInputs, growth: growthOf(s.glass, stream), branchRange: rangeOf(s.glass, branchInputs) };
}

export const trainedGammas = (s: WorkerState): GammaSummary[] => remember(s, 'gammas', () => computeTrainedGammas(s));

function computeTrainedGammas(s: WorkerState): GammaSummary[] {
  const { model, info } = needModel(s);
  const norms = [...branchInputNames(info.blocks), 'norm.final'];
  return norms.map((snapshot) => {
    const name = snapshot === 'norm.final' ? 'norm_final.gamma' : snapshot.replace(/\.norm\.(attn|ffn)$/, '.norm_$1') + '.gamma';
    const p = model.param(name);
    return s.glass.scope(() => {
      const g = s.glass.tensor(p.data, { shape: p.shape, dtype: 'float64' });
      const v = Array.from(g.data());
      const min = g.neg().max().neg().item();
      const max = g.max().item();
      return {
        name,
        snapshot,
        values: v,
        mean: g.mean().item(),
        min,
        argmin: v.indexOf(min),
        max,
        argmax: v.indexOf(max),
        moved: g.sub(1).square().mean().sqrt().item(),
        // counted over the core's values (the facade has no comparison ops)
        amplified: v.filter((x) => x > 1).length,
        damped: v.filter((x) => Math.abs(x) < 1).length,
      };
    });
  });
}

export const initGrowth = (s: WorkerState, input: InitGrowthInput): InitGrowthResult =>
  remember(s, `init|${input.seed}|${input.text}`, () => computeInitGrowth(s, input));

function computeInitGrowth(s: WorkerState, { text, seed }: InitGrowthInput): InitGrowthResult {
  const { model, info } = needModel(s);
  const glass = s.glass;
  const one = (initScale: 'depth' | 'flat'): InitGrowthRun => {
    // the core builds the model, runs it and sums in float64 without copying weights out (fast enough for a step's checks)
    const { stream, outStd } = model.freshStream(initScale, seed, text);
    return { initScale, outStd, stream, growth: growthOf(glass, stream) };
  };
  return {
    blocks: info.blocks,
    factor: glass.scope(() => glass.scalar(1, 'float64').div(glass.scalar(2 * info.blocks, 'float64').sqrt()).item()),
    depth: one('depth'),
    flat: one('flat'),
  };
}

export const rmsnormModelHandlers = {
  streamRms,
  trainedGammas: (s: WorkerState, _: null): GammaSummary[] => trainedGammas(s),
  initGrowth,
};
