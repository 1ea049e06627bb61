// The tour lesson: one forward pass of the loaded model on the learner's text,
// read stage by stage (bytes, embedding, each block's norm, attention, add, norm,
// SwiGLU, add, the final norm, the head, the loss), with the parameters each
// stage holds counted from the model's own tensors. The counts must add up to the
// core's total: a stage the tour forgot would show up as a refusal, not as a
// smaller budget.
import { GlassError } from '../../core';
import type { TourBudgetRow, TourInput, TourResult, TourStage } from '../../protocol/lessons/tour';
import { needModel, runModel, type LoadedModel, type WorkerState } from '../state';

/**
 * The last answer, for the loaded weights and one text: a lesson step asks for the
 * same prompt's tour in many of its expressions, and each would otherwise run the
 * model again. Loading weights makes a new LoadedModel, so an old answer is never reused.
 */
let last: { loaded: LoadedModel; text: string; result: TourResult } | null = null;

export function tourModel(s: WorkerState, { text }: TourInput): TourResult {
  const m = needModel(s);
  if (last === null || last.loaded !== m || last.text !== text) last = { loaded: m, text, result: computeTour(s, text) };
  return structuredClone(last.result); // an expression may change what it is given; the next one gets the answer intact
}

function computeTour(s: WorkerState, text: string): TourResult {
  const glass = s.glass;
  const m = needModel(s);
  const info = m.info;
  if (text.length === 0) throw new GlassError('type a prompt of at least one byte: the model reads bytes, and an empty text has none');
  if (info.norm !== 'pre' || !info.residual)
    throw new GlassError(`the tour follows a pre-norm model with residual additions; the loaded model is ${info.norm}-norm${info.residual ? '' : ' without residuals'}`);
  const run = runModel(s, { text, eps: info.eps, dtype: 'float32' }, false);
  const count = (names: string[]) => names.reduce((sum, name) => sum + m.model.param(name).shape.reduce((a, b) => a * b, 1), 0);
  const rmsOf = (name: string) =>
    glass.scope(() => {
      const t = run.snapshots[name];
      return glass.tensor(t.data, { shape: t.shape, dtype: 'float64' }).square().mean().sqrt().item();
    });
  const stage = (kind: TourStage['kind'], block: number | null, snapshot: string, paramNames: string[]): TourStage => ({
    kind,
    block,
    snapshot,
    shape: run.snapshots[snapshot].shape,
    params: count(paramNames),
    paramNames,
    rms: rmsOf(snapshot),
  });
  const stages: TourStage[] = [{ kind: 'bytes', block: null, snapshot: '', shape: [run.ids.length], params: 0, paramNames: [], rms: null }];
  stages.push(stage('embedding', null, 'embed', ['tok_emb.weight']));
  for (let b = 0; b < info.blocks; b++) {
    const p = `blocks.${b}`;
    stages.push(stage('norm', b, `${p}.norm.attn`, [`${p}.norm_attn.gamma`]));
    stages.push(stage('attention', b, `${p}.attn`, ['wq', 'wk', 'wv', 'wo'].map((w) => `${p}.attn.${w}.weight`)));
    stages.push(stage('add', b, `${p}.resid.attn`, []));
    stages.push(stage('norm', b, `${p}.norm.ffn`, [`${p}.norm_ffn.gamma`]));
    stages.push(stage('ffn', b, `${p}.ffn`, ['w_gate', 'w_up', 'w_down'].map((w) => `${p}.ffn.${w}.weight`)));
    stages.push(stage('add', b, `${p}.resid.ffn`, []));
  }
  stages.push(stage('final-norm', null, 'norm.final', ['norm_final.gamma']));
  stages.push(stage('head', null, 'logits', ['head.weight']));
  stages.push({ kind: 'loss', block: null, snapshot: '', shape: [], params: 0, paramNames: [], rms: null });

  const total = stages.reduce((sum, st) => sum + st.params, 0);
  if (total !== info.parameters)
    throw new GlassError(`the tour counts ${total} parameters but the model holds ${info.parameters}: some part of this model is not on the tour`);
  const sumOf = (pick: (st: TourStage) => boolean) => stages.filter(pick).reduce((sum, st) => sum + st.params, 0);
  const parts: TourBudgetRow['part'][] = ['embedding', 'attention', 'ffn', 'norm', 'head'];
  const partOf = (st: TourStage): TourBudgetRow['part'] | null =>
    st.kind === 'final-norm' ? 'norm' : st.kind === 'embedding' || st.kind === 'attention' || st.kind === 'ffn' || st.kind === 'norm' || st.kind === 'head' ? st.kind : null;
  const budget = parts.map((part) => {
    const params = sumOf((st) => partOf(st) === part);
    return { part, params, share: params / total };
  });
  const inBlock0 = (kind: TourStage['kind']) => sumOf((st) => st.block === 0 && st.kind === kind);
  const normRms = stages.filter((st) => st.kind === 'norm').map((st) => st.rms!);
  const growth = { embed: stages[1].rms!, last: stages.filter((st) => st.kind === 'add').at(-1)!.rms!, normMin: Math.min(...normRms), normMax: Math.max(...normRms) };
  const largest = budget.reduce((a, b) => (b.params > a.params ? b : a)).part;
  const uniform = glass.scope(() => glass.scalar(info.vocab, 'float64').log().item());
  return {
    labels: run.ids.map((byte) => m.model.displayByte(byte)),
    blocks: info.blocks,
    stages,
    budget,
    total,
    largest,
    growth,
    perBlock: { attention: inBlock0('attention'), ffn: inBlock0('ffn'), norm: inBlock0('norm'), all: sumOf((st) => st.block === 0) },
    loss: run.loss,
    uniform,
  };
}

export const tourHandlers = { tourModel };
