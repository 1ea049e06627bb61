// "Look inside": the current run's attention patterns, one head at a time with
// the prompt's bytes along both edges and every head's summary, and the logit
// lens as a depth × position table. Every number comes from the core
// (worker/interp.ts: interpHeads, interpLens) for the inspector's own run.
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import { ScrollBox } from '../../app/ScrollBox';
import { normWord, tensorName } from '../../app/tensorNames';
import { SHIPPED_SHAPE, hasFinalNorm, type ModelShape } from '../../protocol/modelNames';
import type { ModelRunSettings } from '../../protocol/model';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { AttentionHeatmap } from '../lessons/AttentionHeatmap';
import { ToNotice } from '../ToNotice';
import './LookInside.css';

interface Props {
  run: ModelRunSettings;
  /** The loaded model's config (its words: norms, stream names); the shipped model's by default. */
  model?: ModelShape;
}

const pct = (p: number | null) => (p === null ? '—' : `${(p * 100).toFixed(1)}%`);

/** "the embedding", "block 2, after attention +": where the lens reads. */
function depthLabel(code: string, m: ModelShape): string {
  const t = tensorName(code, m);
  return t.block === null ? t.name : `block ${t.block}, ${t.short}`;
}

function Heads({ run, model }: Props) {
  // the model is a dependency too: another model loaded (the Train view's) has other patterns for the same text
  const answer = useLessonOp('interpHeads', { run }, [run.text, run.eps, run.dtype, model], { channel: 'look-inside-heads' });
  const [block, setBlock] = useState(0);
  const [head, setHead] = useState(0);
  const [row, setRow] = useState<number | null>(null);
  const r = answer.result;
  if (r === null) return <p class="look-status">{answer.error ?? 'Asking the core for the attention patterns…'}</p>;
  const blocks = r.patterns.length;
  const b = Math.min(block, blocks - 1);
  const p = r.patterns[b];
  const [heads, n] = p.shape;
  const h = Math.min(head, heads - 1);
  const weights = Array.from({ length: n }, (_, t) => Array.from(p.data.subarray((h * n + t) * n, (h * n + t + 1) * n)));
  const rows = r.summary.heads.filter((s) => s.block === b);
  const sharpest = rows.reduce((best, s) => ((s.previous ?? 0) > (best.previous ?? 0) ? s : best), rows[0]);
  return (
    <div class="look-heads" data-testid="look-heads">
      <div class="look-pick" role="group" aria-label="Which head">
        <label>
          block{' '}
          <select value={b} onChange={(e) => setBlock(Number((e.target as HTMLSelectElement).value))} data-testid="look-block">
            {Array.from({ length: blocks }, (_, i) => (
              <option key={i} value={i}>
                {i}
              </option>
            ))}
          </select>
        </label>
        {Array.from({ length: heads }, (_, i) => (
          <button type="button" key={i} class={i === h ? 'is-on' : ''} aria-pressed={i === h} onClick={() => setHead(i)}>
            head {i}
          </button>
        ))}
      </div>
      <p class="look-caption">
        Attention weights of head {h} in block {b} (<code>blocks.{b}.attn.pattern</code>): row t is what position t reads from
        positions 0 … t; each row adds up to 1.
      </p>
      <ScrollBox label={`Attention weights of head ${h} in block ${b}`}>
        <AttentionHeatmap weights={weights} labels={r.labels} row={row} onRow={setRow} />
      </ScrollBox>
      <ScrollBox label={`The heads of block ${b}`}>
        <table class="look-table" data-testid="look-head-summary">
          <caption>The heads of block {b}, averaged over positions 1 … {n - 1}</caption>
          <thead>
            <tr>
              <th scope="col">head</th>
              <th scope="col">on the byte before</th>
              <th scope="col">on the byte itself</th>
              <th scope="col">on the first byte</th>
              <th scope="col">mean distance back</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <tr key={s.head} class={s.head === h ? 'is-on' : ''}>
                <th scope="row">{s.head}</th>
                <td class="num">{pct(s.previous)}</td>
                <td class="num">{pct(s.same)}</td>
                <td class="num">{pct(s.first)}</td>
                <td class="num">{s.meanDistance === null ? '—' : `${fmt(s.meanDistance, 3)} bytes`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
      {sharpest !== undefined && sharpest.previous !== null && (
        <ToNotice testId="look-heads-notice">
          {' '}
          In block {b}, head {sharpest.head} puts the most weight on the byte just before ({pct(sharpest.previous)} on average): a
          head can specialise in where it looks, and the weights here are the softmax the model itself used on your prompt.
        </ToNotice>
      )}
    </div>
  );
}

function Lens({ run, model = SHIPPED_SHAPE }: Props) {
  const answer = useLessonOp('interpLens', { run }, [run.text, run.eps, run.dtype, model], { channel: 'look-inside-lens' });
  const r = answer.result;
  if (r === null) return <p class="look-status">{answer.error ?? 'Asking the core for the logit lens…'}</p>;
  const { lens, labels } = r;
  const n = labels.length;
  const last = lens.depths.length - 1;
  const first = lens.meanLoss[0];
  const final = lens.meanLoss[last];
  return (
    <div class="look-lens" data-testid="look-lens">
      <p class="look-caption">
        {hasFinalNorm(model) ? `The final ${normWord(model)} and the head` : 'The head'} applied to the stream at every depth: the byte the model would predict next if it stopped
        there (hover a cell for the top 5). The last row is the model itself: it differs from the real logits by{' '}
        <span class="num" data-testid="look-lens-check">
          {lens.lastDepthMaxAbs === null ? 'an undefined amount' : fmt(lens.lastDepthMaxAbs, 3)}
        </span>
        .
      </p>
      <ScrollBox label="The logit lens">
        <table class="look-table look-lens-table" data-testid="look-lens-table">
          <thead>
            <tr>
              <th scope="col">depth</th>
              <th scope="col">mean loss</th>
              {labels.map((l, t) => (
                <th scope="col" key={t} title={`position ${t}`}>
                  {l}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {lens.depths.map((d, k) => (
              <tr key={d}>
                <th scope="row">{depthLabel(d, model)}</th>
                <td class="num">{lens.meanLoss[k] === null ? '—' : fmt(lens.meanLoss[k]!, 4)}</td>
                {lens.top[k].map((top, t) => {
                  const best = top[0];
                  const hit = t + 1 < n && best !== undefined && best.label === labels[t + 1];
                  const loss = lens.loss[k][t];
                  return (
                    <td
                      key={t}
                      class={`num look-cell${hit ? ' is-hit' : ''}`}
                      title={`${top.map((p) => `${p.label} ${pct(p.prob)}`).join(', ')}${loss === undefined || loss === null ? '' : ` · loss of “${labels[t + 1]}” ${fmt(loss, 4)} nats`}`}
                    >
                      {best?.label ?? ''}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
      {first !== null && final !== null && (
        <ToNotice testId="look-lens-notice">
          {' '}
          Read from the embedding alone the mean loss is {fmt(first, 4)} nats; after the last block it is {fmt(final, 4)}. Shaded
          cells are where the byte read at that depth is the byte that really comes next.
        </ToNotice>
      )}
    </div>
  );
}

/**
 * Closed until asked for: while open, every new prompt costs the core a second
 * run (with the patterns recorded), so the inspector does not pay for it unasked.
 */
export function LookInside({ run, model }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <details class="look-inside-box" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)} data-testid="look-inside">
      <summary>Show each attention head and what the model would predict at every depth</summary>
      {open && (
        <div class="look-inside">
          <section aria-labelledby="look-heads-title">
            <h3 id="look-heads-title">Attention heads</h3>
            <Heads run={run} model={model} />
          </section>
          <section aria-labelledby="look-lens-title">
            <h3 id="look-lens-title">The logit lens</h3>
            <Lens run={run} model={model} />
          </section>
        </div>
      )}
    </details>
  );
}
