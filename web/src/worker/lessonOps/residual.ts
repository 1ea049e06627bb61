// The "Reading the residual stream" lesson's computations (and the RMSNorm
// lesson's I + J_F step on the real model): the residual ledger, the logit lens,
// the attention heads' summaries and ablations, all on the learner's prompt with
// the loaded model at its own eps. The tools themselves are the core's
// (cpp/glass/nn: residual_ledger, logit_lens, attention_summary, interventions);
// this file picks what a lesson step shows and adds the few figures a check
// asks about (which block's ablation costs the most, at which depths the lens
// has the right next byte in its top 5).
//
// A step's checks ask about the same prompt several times: each result is kept
// for the loaded weights (a new file forgets them) and the last few prompts.
import { GlassError, type LogitLens } from '../../core';
import type {
  Ablation,
  AblationsResult,
  HeadsResult,
  LedgerInput,
  LedgerResult,
  LensDepth,
  LensInput,
  LensResult,
  PromptInput,
} from '../../protocol/lessons/residual';
import { answerCache, computeModelWith, needModel, type WorkerState } from '../state';

const MAX_PROMPTS = 4;
/** f(text) for the loaded weights, kept for the last few prompts. */
const cached = answerCache(MAX_PROMPTS * 5);

/** The prompt's bytes and labels, refused (in words) when it cannot give a loss or does not fit. */
function promptOf(s: WorkerState, text: string): { ids: number[]; labels: string[] } {
  const { model, info } = needModel(s);
  if (typeof text !== 'string') throw new GlassError('the prompt must be text');
  const ids = Array.from(new TextEncoder().encode(text));
  if (ids.length < 2) throw new GlassError('type a prompt of at least two bytes: with one there is no next byte to predict, so no loss');
  if (ids.length > info.context) throw new GlassError(`the prompt is ${ids.length} bytes; the model reads at most ${info.context} (its context)`);
  return { ids, labels: ids.map((b) => model.displayByte(b)) };
}

/** "block 0 attention", "block 3 SwiGLU" for a branch's snapshot name. */
function branchLabel(name: string): string {
  const m = /^blocks\.(\d+)\.(attn|ffn)$/.exec(name);
  return m === null ? name : `block ${m[1]} ${m[2] === 'attn' ? 'attention' : 'SwiGLU'}`;
}

const argmax = (xs: readonly number[]) => xs.reduce((best, v, i) => (v > xs[best] ? i : best), 0);

export function residualLedger(s: WorkerState, { text, dtype = 'float32' }: LedgerInput): LedgerResult {
  if (dtype !== 'float32' && dtype !== 'float64') throw new GlassError('dtype must be float32 or float64');
  return cached(s, `ledger|${dtype}|${text}`, () => {
    const { labels } = promptOf(s, text);
    const { model, info } = needModel(s);
    const loss = computeModelWith(s, { text, eps: info.eps, dtype }, true, { patterns: false, interventions: [] });
    const ledger = model.residualLedger();
    if ('refused' in ledger) throw new GlassError(ledger.refused);
    if (loss === null || ledger.grad === null) throw new GlassError('the run has no gradient (the prompt needs at least two bytes)');
    const grad = ledger.grad;
    const gradNorm = Math.hypot(...grad.totalNorm.map((v) => v ?? NaN));
    const branchNorms = ledger.terms.slice(1).map((t) => t.totalNorm ?? -1);
    const largestBranch = 1 + argmax(branchNorms);
    const gradBranchNorms = grad.terms.slice(1).map((t) => t.totalNorm ?? -1);
    return {
      dtype,
      loss,
      labels,
      ledger: { ...ledger, grad },
      gradNorm,
      largestBranch,
      largestBranchLabel: branchLabel(ledger.terms[largestBranch].name),
      largestGradBranch: 1 + argmax(gradBranchNorms),
      largestGradBranchLabel: branchLabel(grad.terms[1 + argmax(gradBranchNorms)].name),
    };
  });
}

export function residualLens(s: WorkerState, { text, position }: LensInput): LensResult {
  const { ids, labels } = promptOf(s, text);
  const n = ids.length;
  const t = position ?? n - 2;
  if (!(Number.isInteger(t) && t >= 0 && t < n - 1)) throw new GlassError(`the position must be a whole number from 0 to ${n - 2} (the last byte has no next byte in the prompt)`);
  const lens = cached(s, `lens|${text}`, (): LogitLens => {
    const { model, info } = needModel(s);
    computeModelWith(s, { text, eps: info.eps, dtype: 'float32' }, false, { patterns: false, interventions: [] });
    return model.logitLens(5);
  });
  const target = ids[t + 1];
  const depths = lens.depths.map((name, d): LensDepth => {
    const top = lens.top[d][t];
    const i = top.findIndex((p) => p.byte === target);
    return { name, top, rank: i < 0 ? null : i + 1, loss: lens.loss[d][t], meanLoss: lens.meanLoss[d] };
  });
  const hitAt = depths.map((d) => d.rank !== null);
  const first = hitAt.indexOf(true);
  return {
    labels,
    position: t,
    next: labels[t + 1],
    depths,
    lastDepthMaxAbs: lens.lastDepthMaxAbs,
    hits: hitAt.filter(Boolean).length,
    firstHit: first < 0 ? null : first,
    bestDepth: argmax(depths.map((d) => -(d.meanLoss ?? Infinity))),
  };
}

export function residualHeads(s: WorkerState, { text }: PromptInput): HeadsResult {
  return cached(s, `heads|${text}`, () => {
    const { labels } = promptOf(s, text);
    const { model, info } = needModel(s);
    computeModelWith(s, { text, eps: info.eps, dtype: 'float32' }, false, { patterns: true, interventions: [] });
    const patterns = Array.from({ length: info.blocks }, (_, i) => model.pattern(i));
    const summary = model.attentionSummary();
    const previousHead = Array.from({ length: info.blocks }, (_, b) =>
      argmax(summary.heads.filter((h) => h.block === b).map((h) => h.previous ?? -1)),
    );
    return { labels, patterns, summary, previousHead };
  });
}

export function residualAblations(s: WorkerState, { text }: PromptInput): AblationsResult {
  return cached(s, `ablations|${text}`, () => {
    promptOf(s, text);
    const { info } = needModel(s);
    const run = { text, eps: info.eps, dtype: 'float32' as const };
    const lossWith = (interventions: string[]) => {
      const l = computeModelWith(s, run, false, { patterns: false, interventions });
      if (l === null) throw new GlassError('the prompt needs at least two bytes for a loss');
      return l;
    };
    const loss = lossWith([]);
    const make = (interventions: string[], block: number, part: string): Ablation => {
      const l = lossWith(interventions);
      const label = part === 'block' ? `block ${block}` : part === 'attn' || part === 'ffn' ? branchLabel(`blocks.${block}.${part}`) : `block ${block} head ${part}`;
      return { what: interventions.join(' + '), block, part, label, loss: l, cost: l - loss };
    };
    const range = (k: number) => Array.from({ length: k }, (_, i) => i);
    const blocks = range(info.blocks).map((b) => make([`zero:blocks.${b}.attn`, `zero:blocks.${b}.ffn`], b, 'block'));
    const branches = range(info.blocks).flatMap((b) => (['attn', 'ffn'] as const).map((p) => make([`zero:blocks.${b}.${p}`], b, p)));
    const heads = range(info.blocks).flatMap((b) => range(info.heads).map((h) => make([`ablateHead:${b}:${h}`], b, String(h))));
    const worst = (xs: Ablation[]) => argmax(xs.map((a) => a.cost));
    return {
      loss,
      blocks,
      branches,
      heads,
      worstBlock: worst(blocks),
      worstBranch: worst(branches),
      worstHead: worst(heads),
      helpful: [...branches, ...heads].filter((a) => a.cost < 0).length,
    };
  });
}

export const residualHandlers = {
  residualLedger,
  residualLens,
  residualHeads,
  residualAblations,
};
