// "Look inside": the current run's attention patterns, one head at a time with
// the prompt's bytes along both edges and every head's summary, the logit
// lens as a depth × position table, and (one file each) the residual ledger,
// interventions and the gradient check. One tool is open at a time; which one,
// the head, the position and the rest are in the address (app/interpSettings.ts).
// Every number comes from the core (worker/interp.ts) for the inspector's own run.
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import { TOOLS, TOOL_TITLES, type Tool } from '../../app/interpSettings';
import { ScrollBox } from '../../app/ScrollBox';
import { normWord, tensorName, withCode } from '../../app/tensorNames';
import { hasFinalNorm, type ModelShape } from '../../protocol/modelNames';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { AttentionHeatmap } from '../lessons/AttentionHeatmap';
import { HeadPicker, headRows } from '../HeadPicker';
import { HeadSummaryTable } from '../HeadSummaryTable';
import { ToNotice } from '../ToNotice';
import { GradientCheckTool } from './GradientCheckTool';
import type { ToolContext } from './interpContext';
import { InterventionsTool } from './InterventionsTool';
import { PositionPicker } from './PositionPicker';
import { ReproduceLine } from './ReproduceLine';
import { ResidualLedgerTool } from './ResidualLedgerTool';
import './LookInside.css';
import './InterpTools.css';

interface Props {
  ctx: ToolContext;
}

const pct = (p: number | null) => (p === null ? '—' : `${(p * 100).toFixed(1)}%`);

/** "the embedding", "block 2, after attention +": where the lens reads. */
function depthLabel(code: string, m: ModelShape): string {
  const t = tensorName(code, m);
  return t.block === null ? t.name : `block ${t.block}, ${t.short}`;
}

function Heads({ ctx }: Props) {
  const { run, settings, model } = ctx;
  // the model is a dependency too: another model loaded (the Train view's) has other patterns for the same text
  const answer = useLessonOp('interpHeads', { run }, [run.text, run.eps, run.dtype, model], { channel: 'look-inside-heads', model: 'shown' });
  const r = answer.result;
  if (r === null) return <p class="look-status">{answer.error ?? 'Asking the core for the attention patterns…'}</p>;
  const blocks = r.patterns.length;
  const b = Math.min(settings.head.block, blocks - 1);
  const p = r.patterns[b];
  const [heads, n] = p.shape;
  const h = Math.min(settings.head.head, heads - 1);
  const asked = settings.head;
  const outside = asked.block !== b || asked.head !== h;
  const row = Math.min(settings.pos, n - 1);
  const setBlock = (block: number) => ctx.onChange({ head: { block, head: h } });
  const setHead = (head: number) => ctx.onChange({ head: { block: b, head } });
  const setRow = (pos: number) => ctx.onChange({ pos });
  const weights = headRows(p, h);
  const rows = r.summary.heads.filter((s) => s.block === b);
  const sharpest = rows.reduce((best, s) => ((s.previous ?? 0) > (best.previous ?? 0) ? s : best), rows[0]);
  return (
    <div class="look-heads" data-testid="look-heads">
      <HeadPicker class="look-pick" blocks={blocks} heads={heads} block={b} head={h} onBlock={setBlock} onHead={setHead} blockTestId="look-block" />
      {outside && (
        <p class="notice notice-warn" role="alert" data-testid="look-head-outside">
          The address asks for head {asked.head} of block {asked.block}; this model has blocks 0 to {blocks - 1} with heads 0 to {heads - 1}, so
          head {h} of block {b} is shown.
        </p>
      )}
      <p class="look-caption">
        Attention weights of head {h} in block {b} (<code>blocks.{b}.attn.pattern</code>): row t is what position t reads from
        positions 0 … t; each row adds up to 1.
      </p>
      <ScrollBox label={`Attention weights of head ${h} in block ${b}`}>
        <AttentionHeatmap weights={weights} labels={r.labels} row={row} onRow={setRow} />
      </ScrollBox>
      <ScrollBox label={`The heads of block ${b}`}>
        <HeadSummaryTable class="look-table" testId="look-head-summary" caption={`The heads of block ${b}, averaged over positions 1 … ${n - 1}`} rows={rows} block={b} head={h} />
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

function Lens({ ctx }: Props) {
  const { run, model } = ctx;
  const answer = useLessonOp('interpLens', { run }, [run.text, run.eps, run.dtype, model], { channel: 'look-inside-lens', model: 'shown' });
  const r = answer.result;
  if (r === null) return <p class="look-status">{answer.error ?? 'Asking the core for the logit lens…'}</p>;
  const { lens, labels } = r;
  const n = labels.length;
  const last = lens.depths.length - 1;
  // the chosen entry: the open tensor if it is a depth of the stream (else the last depth), at the address's position
  const depth = lens.depths.includes(ctx.tensor) ? lens.depths.indexOf(ctx.tensor) : last;
  const pos = Math.min(ctx.settings.pos, n - 1);
  const pick = (k: number, t: number) => {
    ctx.onChange({ pos: t });
    ctx.onTensor(lens.depths[k]);
  };
  const entryTop = lens.top[depth][pos];
  const entryLoss = lens.loss[depth][pos];
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
                      onClick={() => pick(k, t)}
                      class={`num look-cell${hit ? ' is-hit' : ''}${k === depth && t === pos ? ' is-picked' : ''}`}
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
      <div class="interp-controls">
        <label class="interp-field">
          depth{' '}
          <select value={depth} onChange={(e) => pick(Number(e.currentTarget.value), pos)} data-testid="look-lens-depth">
            {lens.depths.map((d, k) => (
              <option key={d} value={k}>
                {depthLabel(d, model)}
              </option>
            ))}
          </select>
        </label>
        <PositionPicker labels={labels} pos={pos} onPos={(t) => pick(depth, t)} testId="look-lens-pos" />
      </div>
      <p class="interp-note" data-testid="look-lens-entry">
        Read at {withCode(lens.depths[depth], model)} after position {pos} “{labels[pos]}”:{' '}
        {entryTop.map((p, j) => (
          <span key={p.byte}>
            {j > 0 ? ', ' : ''}
            <span class="interp-byte">{p.label}</span> {pct(p.prob)}
          </span>
        ))}
        {entryLoss !== undefined && entryLoss !== null && (
          <>
            {' '}
            · loss of the true next byte “{labels[pos + 1]}”: <span class="num">{fmt(entryLoss, 6)}</span> nats
          </>
        )}
      </p>
      <ReproduceLine
        input={{ weights: ctx.weightsFile, text: run.text, dtype: run.dtype, eps: run.eps, interventions: [], what: { kind: 'lens', depth: lens.depths[depth], pos } }}
        prints={`the same top 5${entryLoss === undefined || entryLoss === null ? '' : ` and the loss of the next byte, ${fmt(entryLoss, 9)}`}`}
        ownWeights={ctx.ownWeights}
        onDownloadWeights={ctx.onDownloadWeights}
        testId="look-lens-reproduce"
      />
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

const TOOL_VIEWS: Record<Tool, (p: Props) => preact.JSX.Element> = {
  heads: Heads,
  lens: Lens,
  ledger: ResidualLedgerTool,
  intervene: InterventionsTool,
  gradcheck: GradientCheckTool,
};

/**
 * Closed until asked for: while open, every new prompt costs the core a second
 * run (with the patterns recorded), so the inspector does not pay for it unasked.
 * The address's `tool` opens it (and names the tool shown).
 */
export function LookInside({ ctx }: Props) {
  const tool = ctx.settings.tool;
  const [last, setLast] = useState<Tool>(tool ?? 'heads');
  const choose = (t: Tool) => {
    setLast(t);
    ctx.onChange({ tool: t });
  };
  const View = tool === null ? null : TOOL_VIEWS[tool];
  return (
    <details
      class="look-inside-box"
      open={tool !== null}
      onToggle={(e) => {
        const open = (e.currentTarget as HTMLDetailsElement).open;
        if (open !== (tool !== null)) ctx.onChange({ tool: open ? last : null });
      }}
      data-testid="look-inside"
    >
      <summary>Show each attention head and what the model would predict at every depth; the residual ledger, interventions and a gradient check</summary>
      {tool !== null && View !== null && (
        <div class="look-inside">
          <div class="look-pick interp-tabs" role="tablist" aria-label="Tools">
            {TOOLS.map((t) => (
              <button type="button" role="tab" key={t} class={t === tool ? 'is-on' : ''} aria-selected={t === tool} onClick={() => choose(t)} data-testid={`tool-${t}`}>
                {TOOL_TITLES[t]}
              </button>
            ))}
          </div>
          <section aria-label={TOOL_TITLES[tool]} role="tabpanel">
            <h3>{TOOL_TITLES[tool]}</h3>
            <View ctx={ctx} />
          </section>
        </div>
      )}
    </details>
  );
}
