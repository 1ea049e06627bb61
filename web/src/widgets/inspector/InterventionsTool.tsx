// Interventions: change one part of the model for one run (zero or scale a
// branch, ablate a head, set a norm's eps, replace a norm by the identity, set
// its γ to ones) and see the loss, the next-byte top 5 and every snapshot
// before and after. The list lives in the address (iv); the core checks every
// name against the loaded model and runs both (worker/interp.ts: interpIntervene).
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import { interventionProblem } from '../../app/interpSettings';
import { parseNumber } from '../../app/labSettings';
import { ScrollBox } from '../../app/ScrollBox';
import { withCode } from '../../app/tensorNames';
import type { Prediction } from '../../protocol/model';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import type { ToolContext } from './interpContext';
import { ReproduceLine } from './ReproduceLine';

type Kind = 'zero' | 'scale' | 'ablateHead' | 'eps' | 'identityNorm' | 'unitGamma';

const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'zero', label: 'zero a branch’s output' },
  { kind: 'scale', label: 'scale a branch’s output' },
  { kind: 'ablateHead', label: 'ablate one attention head' },
  { kind: 'eps', label: 'set one norm’s eps' },
  { kind: 'identityNorm', label: 'replace a norm by the identity' },
  { kind: 'unitGamma', label: 'set a norm’s γ to ones' },
];

/** "blocks.2.norm_ffn" -> "the second norm of block 2 (blocks.2.norm_ffn)". */
function normLabel(name: string): string {
  if (name === 'norm_final') return 'the final norm (norm_final)';
  const m = /^blocks\.(\d+)\.norm_(attn|ffn)$/.exec(name);
  return m === null ? name : `the ${m[2] === 'attn' ? 'attention' : 'SwiGLU'} norm of block ${m[1]} (${name})`;
}

/** A snapshot's plain name with its code name; the attention weights too. */
function snapshotLabel(name: string): string {
  const m = /^blocks\.(\d+)\.attn\.pattern$/.exec(name);
  return m === null ? withCode(name) : `attention weights of block ${m[1]} (${name})`;
}

/** One intervention in words, with its text form. */
export function describeIntervention(text: string): string {
  const f = text.split(':');
  switch (f[0]) {
    case 'zero':
      return `${withCode(f[1])} set to zero`;
    case 'scale':
      return `${withCode(f[1])} times ${f[2]}`;
    case 'ablateHead':
      return `head ${f[2]} of block ${f[1]} switched off (its output before W_o set to zero)`;
    case 'eps':
      return `${normLabel(f[1])} with eps ${f[2]}`;
    case 'identityNorm':
      return `${normLabel(f[1])} replaced by the identity`;
    case 'unitGamma':
      return `${normLabel(f[1])} with γ set to ones`;
    default:
      return text;
  }
}

function Top({ top, testId }: { top: Prediction[]; testId: string }) {
  return (
    <ol class="interp-top" data-testid={testId}>
      {top.map((p) => (
        <li key={p.byte}>
          <span class="interp-byte">{p.label}</span> <span class="num">{(p.prob * 100).toFixed(1)}%</span>
        </li>
      ))}
    </ol>
  );
}

function Editor({ ctx, norms }: { ctx: ToolContext; norms: string[] }) {
  const { model } = ctx;
  const branches = Array.from({ length: model.blocks }, (_, i) => [`blocks.${i}.attn`, `blocks.${i}.ffn`]).flat();
  const [kind, setKind] = useState<Kind>('zero');
  const [target, setTarget] = useState('');
  const [block, setBlock] = useState(0);
  const [head, setHead] = useState(0);
  const [value, setValue] = useState('0.5');
  const [problem, setProblem] = useState<string | null>(null);
  const isNorm = kind === 'eps' || kind === 'identityNorm' || kind === 'unitGamma';
  const choices = isNorm ? norms : branches;
  const chosen = choices.includes(target) ? target : (choices[0] ?? '');

  const add = () => {
    let text: string;
    if (kind === 'ablateHead') text = `ablateHead:${block}:${head}`;
    else if (kind === 'scale' || kind === 'eps') {
      const what = kind === 'scale' ? 'the factor' : 'eps';
      const r = parseNumber(value, what);
      if (!r.ok) return setProblem(r.message);
      if (kind === 'eps' && r.value < 0) return setProblem(`eps must be 0 or more, got ${value.trim()}`);
      text = `${kind}:${chosen}:${value.trim()}`;
    } else text = `${kind}:${chosen}`;
    const why = interventionProblem(text);
    if (why !== null) return setProblem(why);
    setProblem(null);
    ctx.onChange({ interventions: [...ctx.settings.interventions, text] });
  };

  return (
    <form
      class="interp-controls interp-editor"
      onSubmit={(e) => {
        e.preventDefault();
        add();
      }}
    >
      <label class="interp-field">
        change{' '}
        <select value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind)} data-testid="iv-kind">
          {KINDS.map((k) => (
            <option key={k.kind} value={k.kind} disabled={k.kind !== 'ablateHead' && (k.kind === 'zero' || k.kind === 'scale' ? false : norms.length === 0)}>
              {k.label}
            </option>
          ))}
        </select>
      </label>
      {kind === 'ablateHead' ? (
        <>
          <label class="interp-field">
            block{' '}
            <select value={block} onChange={(e) => setBlock(Number(e.currentTarget.value))} data-testid="iv-block">
              {Array.from({ length: model.blocks }, (_, i) => (
                <option key={i} value={i}>
                  {i}
                </option>
              ))}
            </select>
          </label>
          <label class="interp-field">
            head{' '}
            <select value={head} onChange={(e) => setHead(Number(e.currentTarget.value))} data-testid="iv-head">
              {Array.from({ length: model.heads }, (_, i) => (
                <option key={i} value={i}>
                  {i}
                </option>
              ))}
            </select>
          </label>
        </>
      ) : (
        <label class="interp-field">
          {isNorm ? 'norm' : 'branch'}{' '}
          <select value={chosen} onChange={(e) => setTarget(e.currentTarget.value)} data-testid="iv-target">
            {choices.map((n) => (
              <option key={n} value={n}>
                {isNorm ? normLabel(n) : withCode(n, model)}
              </option>
            ))}
          </select>
        </label>
      )}
      {(kind === 'scale' || kind === 'eps') && (
        <label class="interp-field">
          {kind === 'scale' ? 'by' : 'eps'}{' '}
          <input type="text" inputMode="decimal" size={8} value={value} onInput={(e) => setValue(e.currentTarget.value)} data-testid="iv-value" />
        </label>
      )}
      <button type="submit" data-testid="iv-add">
        Add
      </button>
      {problem !== null && (
        <p class="notice notice-bad interp-problem" role="alert" data-testid="iv-problem">
          {problem}
        </p>
      )}
    </form>
  );
}

export function InterventionsTool({ ctx }: { ctx: ToolContext }) {
  const { run, settings } = ctx;
  const list = settings.interventions;
  const norms = ctx.params.filter((p) => p.endsWith('.gamma')).map((p) => p.slice(0, -'.gamma'.length));
  const answer = useLessonOp('interpIntervene', { run, interventions: list }, [run.text, run.eps, run.dtype, list.join(','), ctx.model], {
    channel: 'look-inside-intervene',
    model: 'shown',
    skip: list.length === 0,
  });
  const r = list.length === 0 ? null : answer.result;
  const before = r?.before.loss ?? null;
  const after = r?.after.loss ?? null;
  const changed = r === null ? [] : r.changes.filter((c) => c.changed);
  const same = r === null ? 0 : r.changes.length - changed.length;
  return (
    <div class="interp-tool" data-testid="interventions">
      <p class="look-caption">
        Change one part of the model for this prompt only (the weights stay as they are) and run it forward and backward again.
        Several changes apply together.
      </p>
      <Editor ctx={ctx} norms={norms} />
      {list.length === 0 ? (
        <p class="look-status">No change yet: pick one above and press Add.</p>
      ) : (
        <ul class="interp-list" data-testid="iv-list">
          {list.map((t, k) => (
            <li key={`${k}-${t}`}>
              {describeIntervention(t)} <code>{t}</code>{' '}
              <button type="button" onClick={() => ctx.onChange({ interventions: list.filter((_, j) => j !== k) })} aria-label={`Remove ${t}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {list.length > 0 && answer.error !== null && (
        <p class="notice notice-bad" role="alert" data-testid="iv-error">
          The core refused this list, so nothing was changed: {answer.error}
        </p>
      )}
      {r !== null && answer.error === null && (
        <>
          <div class="interp-before-after">
            <div>
              <h4 class="interp-subtitle">Before</h4>
              <p>
                loss <span class="num" data-testid="iv-loss-before">{before === null ? '—' : fmt(before, 6)}</span> nats
              </p>
              <Top top={r.before.top} testId="iv-top-before" />
            </div>
            <div>
              <h4 class="interp-subtitle">After</h4>
              <p>
                loss <span class="num" data-testid="iv-loss-after">{after === null ? '—' : fmt(after, 6)}</span> nats
              </p>
              <Top top={r.after.top} testId="iv-top-after" />
            </div>
          </div>
          <ScrollBox label="Snapshots that changed">
            <table class="look-table" data-testid="iv-changes">
              <caption>
                {changed.length} snapshot{changed.length === 1 ? '' : 's'} changed; {same} stayed exactly the same
              </caption>
              <thead>
                <tr>
                  <th scope="col">snapshot</th>
                  <th scope="col">largest change in one number</th>
                  <th scope="col">change relative to its size</th>
                </tr>
              </thead>
              <tbody>
                {changed.map((c) => (
                  <tr key={c.name}>
                    <th scope="row">{snapshotLabel(c.name)}</th>
                    <td class="num">{c.maxAbs === null ? 'NaN' : fmt(c.maxAbs, 4)}</td>
                    <td class="num">{c.relNorm === null ? 'NaN' : `${fmt(c.relNorm * 100, 3)}%`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollBox>
          {before !== null && after !== null && (
            <ToNotice testId="iv-notice">
              {' '}
              The loss went from {fmt(before, 4)} to {fmt(after, 4)} nats; the first snapshot that changed is {changed[0] === undefined ? 'none' : withCode(changed[0].name, ctx.model)}:
              everything the model computes before it is untouched.
            </ToNotice>
          )}
          <ReproduceLine
            input={{ weights: ctx.weightsFile, text: run.text, dtype: run.dtype, eps: run.eps, interventions: r.interventions, what: { kind: 'loss' } }}
            prints={`the loss with these changes, ${after === null ? '—' : fmt(after, 9)}, and without them, ${before === null ? '—' : fmt(before, 9)}`}
            ownWeights={ctx.ownWeights}
            onDownloadWeights={ctx.onDownloadWeights}
            testId="iv-reproduce"
          />
        </>
      )}
    </div>
  );
}
