// The RMSNorm lesson's widgets on the real model: the residual stream's RMS
// block after block on the learner's prompt (and, with branches=yes, the RMS of
// what each branch reads), the stream of two freshly initialised models with and
// without the smaller start of the output projections, and the nine trained γ.
// Every number comes from the worker (rmsnormModel.ts); the page only draws.
import { fmt } from '../../app/format';
import { tensorName } from '../../app/tensorNames';
import type { GammaSummary, InitGrowthResult, StreamRmsResult, StreamRmsRow } from '../../protocol/lessons/rmsnorm';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { PromptField, usePrompt } from './PromptField';
import { WidgetShell } from './WidgetShell';
import './lessonWidgets.css';
import './NormLesson.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { 'stream-rms': StreamRms, 'init-growth': InitGrowth, 'trained-gamma': TrainedGamma };

/** "embedding", "block 0, after attention +", "block 2, RMSNorm₂". */
function label(name: string): string {
  const t = tensorName(name);
  return t.block === null ? t.short : `block ${t.block}, ${t.short}`;
}

function Bars({ rows, max, testId, kind = 'stream' }: { rows: StreamRmsRow[]; max: number; testId: string; kind?: 'stream' | 'branch' | 'flat' }) {
  return (
    <ul class="bars nl-bars" data-testid={testId}>
      {rows.map((r) => (
        <li key={r.name} data-name={r.name}>
          <span class="bar-name" title={r.name}>
            {label(r.name)}
          </span>
          <span class={`bar nl-bar-${kind}`} style={{ width: `${Math.max(1, (r.rms / max) * 100)}%` }} />
          <span class="num" data-value={String(r.rms)}>
            {fmt(r.rms, 4)}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function StreamRms({ args }: { args: Record<string, string> }) {
  const text = usePrompt();
  const branches = args.branches === 'yes';
  const answer = useLessonOp('streamRms', { text }, [text], { keepLast: true, channel: `stream-rms-${branches ? 'b' : 's'}` });
  return (
    <div class="lesson-widget" data-testid={branches ? 'widget-stream-rms-branches' : 'widget-stream-rms'}>
      <PromptField testId={branches ? 'stream-rms-branches-prompt' : 'stream-rms-prompt'} />
      <WidgetShell answer={answer} pendingText="Running the model on your prompt…" keepLast dim={false}>
        {(r: StreamRmsResult) => {
          const first = r.stream[0];
          const last = r.stream[r.stream.length - 1];
          const all = branches ? [...r.stream, ...r.branchInputs] : r.stream;
          const max = Math.max(...all.map((x) => x.rms));
          return (
            <>
              <p class="widget-lead">
                The root mean square of the residual stream over all {r.n} positions of your prompt, from the embedding up, after each of the model's
                residual additions:
              </p>
              <Bars rows={r.stream} max={max} testId="stream-rms-bars" />
              {branches && (
                <>
                  <p class="widget-lead">And what each branch reads — the output of its RMSNorm, γ included:</p>
                  <Bars rows={r.branchInputs} max={max} testId="branch-rms-bars" kind="branch" />
                </>
              )}
              <ToNotice testId="stream-rms-notice">
                {`the stream leaves the embedding with RMS ${fmt(first.rms, 3)} and the last block with ${fmt(last.rms, 3)}: ${fmt(r.growth, 3)} times larger. Every addition writes on top of what is there, and nothing in the stream takes it away.`}
                {branches && ` The branch inputs stay between ${fmt(r.branchRange[0], 3)} and ${fmt(r.branchRange[1], 3)}: each is a normalized copy, scaled by its own γ.`}
              </ToNotice>
            </>
          );
        }}
      </WidgetShell>
    </div>
  );
}

export function InitGrowth() {
  const text = usePrompt();
  const answer = useLessonOp('initGrowth', { text, seed: 1 }, [text], { keepLast: true });
  return (
    <div class="lesson-widget" data-testid="widget-init-growth">
      <PromptField testId="init-growth-prompt" />
      <WidgetShell answer={answer} pendingText="Initialising two fresh models and running them on your prompt…" keepLast dim={false}>
        {(r: InitGrowthResult) => {
          const max = Math.max(...r.depth.stream.map((x) => x.rms), ...r.flat.stream.map((x) => x.rms));
          return (
            <>
              <p class="widget-lead">
                Two models of the loaded model's shape ({r.blocks} blocks), made from the same seed before any training step, run forward on your
                prompt. Only the starting size of the {2 * r.blocks} output projections (attention's and SwiGLU's last matrices, the ones that write
                into the stream) differs.
              </p>
              <div class="nl-two">
                <div>
                  <h4>
                    Scaled by 1/√(2·{r.blocks}) = <span class="num" data-testid="init-factor">{fmt(r.factor, 4)}</span>
                  </h4>
                  <p class="widget-note">
                    std of the output projections: <span class="num" data-testid="init-depth-std">{fmt(r.depth.outStd, 4)}</span>
                  </p>
                  <Bars rows={r.depth.stream} max={max} testId="init-depth-bars" />
                </div>
                <div>
                  <h4>Not scaled (the same 0.02 as every other matrix)</h4>
                  <p class="widget-note">
                    std of the output projections: <span class="num" data-testid="init-flat-std">{fmt(r.flat.outStd, 4)}</span>
                  </p>
                  <Bars rows={r.flat.stream} max={max} testId="init-flat-bars" kind="flat" />
                </div>
              </div>
              <ToNotice testId="init-growth-notice">
                {`from the embedding to the last block the stream's RMS grows ${fmt(r.depth.growth, 3)} times with the scaled start and ${fmt(r.flat.growth, 3)} times without it. The embedding is the same in both; what the ${2 * r.blocks} branches add is smaller by the factor.`}
              </ToNotice>
            </>
          );
        }}
      </WidgetShell>
    </div>
  );
}

/** γ as a colour: 1 is white, above 1 orange, below 1 blue; 0 and 2 are the full colours. */
function gammaColor(g: number): string {
  const t = Math.max(-1, Math.min(1, g - 1));
  const a = Math.abs(t);
  const mix = (c: number) => Math.round(255 + (c - 255) * a);
  return t >= 0 ? `rgb(${mix(217)},${mix(130)},${mix(43)})` : `rgb(${mix(47)},${mix(95)},${mix(208)})`;
}

/** What to see in the table, read from its own values (the words follow the numbers, whichever weights are loaded). */
function gammaNotice(gs: GammaSummary[]): string {
  const still = gs.filter((g) => g.moved === 0).length;
  const first = gs[0];
  const last = gs[gs.length - 1];
  const lean = (g: GammaSummary) => (g.damped > g.amplified ? 'mostly damps' : g.amplified > g.damped ? 'mostly amplifies' : 'amplifies as many coordinates as it damps');
  const kept = still === 0 ? 'no norm kept its starting ones.' : `${still} of the ${gs.length} norms still have their starting ones.`;
  return `${kept} Row 1 ${lean(first)} (mean gain ${fmt(first.mean, 3)}); the final norm ${lean(last)} (mean gain ${fmt(last.mean, 3)}). Within a row single coordinates stand out: row 1 gives coordinate ${first.argmax} a gain of ${fmt(first.max, 3)} and coordinate ${first.argmin} only ${fmt(first.min, 3)}.`;
}

export function TrainedGamma() {
  const answer = useLessonOp('trainedGammas', null, []);
  return (
    <div class="lesson-widget" data-testid="widget-trained-gamma">
      <WidgetShell answer={answer} pendingText="Reading the nine γ vectors of the loaded model…">
        {(gs: GammaSummary[]) => {
          const d = gs[0].values.length;
          const cell = 4;
          return (
            <>
              <p class="widget-lead">
                Each row is one norm's γ, its {d} gains left to right. White is 1 (where training started), orange above 1 (the coordinate is
                amplified), blue below (damped). Hover a cell for its value.
              </p>
              <div class="nl-heat-wrap">
                <svg class="nl-heat" viewBox={`0 0 ${d * cell} ${gs.length * 12}`} preserveAspectRatio="none" role="img" aria-label="The nine trained γ vectors as a heat map" data-testid="gamma-heatmap">
                  {gs.map((g, row) =>
                    g.values.map((v, j) => (
                      <rect key={`${row}-${j}`} x={j * cell} y={row * 12} width={cell} height={11} fill={gammaColor(v)}>
                        <title>{`${label(g.snapshot)}, coordinate ${j}: γ = ${fmt(v, 4)}`}</title>
                      </rect>
                    )),
                  )}
                </svg>
                <ul class="nl-heat-names">
                  {gs.map((g) => (
                    <li key={g.name}>{label(g.snapshot)}</li>
                  ))}
                </ul>
              </div>
              <table data-testid="gamma-table">
                <thead>
                  <tr>
                    <th scope="col">norm</th>
                    <th scope="col">mean γ</th>
                    <th scope="col">smallest (coordinate)</th>
                    <th scope="col">largest (coordinate)</th>
                    <th scope="col">amplified / damped</th>
                    <th scope="col">moved from 1 (RMS of γ − 1)</th>
                  </tr>
                </thead>
                <tbody>
                  {gs.map((g, i) => (
                    <tr key={g.name} data-testid={`gamma-row-${i}`}>
                      <th scope="row" title={g.name}>
                        {label(g.snapshot)}
                      </th>
                      <td class="num">{fmt(g.mean, 3)}</td>
                      <td class="num">
                        {fmt(g.min, 3)} ({g.argmin})
                      </td>
                      <td class="num">
                        {fmt(g.max, 3)} ({g.argmax})
                      </td>
                      <td class="num">
                        {g.amplified} / {g.damped}
                      </td>
                      <td class="num" data-testid={`gamma-moved-${i}`}>
                        {fmt(g.moved, 3)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <ToNotice testId="gamma-notice-trained">{gammaNotice(gs)}</ToNotice>
            </>
          );
        }}
      </WidgetShell>
    </div>
  );
}
