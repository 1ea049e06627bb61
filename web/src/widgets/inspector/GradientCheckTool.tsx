// The gradient check on the real model: pick one number of any snapshot or
// parameter, nudge it by ±δ, and compare the change in the loss the gradient
// predicts (g·δ) with the change the model shows (the central difference), in
// float32 and in float64. The core runs both on copies of the model
// (worker/interp.ts: interpGradCheck); the page only lays them out.
import { useEffect, useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import { DEFAULT_DELTAS } from '../../app/interpSettings';
import { parseNumber } from '../../app/labSettings';
import { ScrollBox } from '../../app/ScrollBox';
import { paramName, withCode } from '../../app/tensorNames';
import type { GradientCheckSide } from '../../core';
import { useLessonOp } from '../../viewmodels/lessonOp';
import type { ToolContext } from './interpContext';
import { PositionPicker } from './PositionPicker';
import { ReproduceLine } from './ReproduceLine';

const num = (v: number | null, digits = 6) => (v === null ? '—' : fmt(v, digits));

/** A text field for a number that keeps what was typed and says what is wrong with it. */
function NumberField(props: { label: string; value: number; check: (v: number) => string | null; onValue: (v: number) => void; testId: string }) {
  const [text, setText] = useState(String(props.value));
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    setText(String(props.value));
    setProblem(null);
  }, [props.value]);
  const commit = (t: string) => {
    setText(t);
    const r = parseNumber(t, props.label);
    const why = r.ok ? props.check(r.value) : r.message;
    setProblem(why);
    if (r.ok && why === null && r.value !== props.value) props.onValue(r.value);
  };
  return (
    <label class="interp-field">
      {props.label}{' '}
      <input type="text" inputMode="decimal" size={8} value={text}
        onInput={(e) => setText(e.currentTarget.value)}
        onChange={(e) => commit(e.currentTarget.value)}
        onKeyDown={(e) => e.key === 'Enter' && commit(e.currentTarget.value)}
        aria-invalid={problem !== null} data-testid={props.testId} />
      {problem !== null && (
        <span class="interp-field-problem" role="alert" data-testid={`${props.testId}-problem`}>
          {problem}
        </span>
      )}
    </label>
  );
}

const wholeIn = (max: number, what: string) => (v: number) =>
  Number.isInteger(v) && v >= 0 && v <= max ? null : `${what} must be a whole number from 0 to ${max}`;
const deltaOk = (v: number) => (v > 0 && v <= 1 ? null : 'δ must be above 0 and at most 1');

function Row({ side }: { side: GradientCheckSide }) {
  return (
    <tr data-testid={`gc-${side.dtype}`}>
      <th scope="row">{side.dtype}</th>
      <td class="num">{fmt(side.delta, 3)}</td>
      <td class="num">{num(side.value)}</td>
      <td class="num">{num(side.grad)}</td>
      <td class="num" data-testid={`gc-${side.dtype}-predicted`}>
        {num(side.predicted, 9)}
      </td>
      <td class="num" data-testid={`gc-${side.dtype}-actual`}>
        {num(side.actual, 9)}
      </td>
    </tr>
  );
}

export function GradientCheckTool({ ctx }: { ctx: ToolContext }) {
  const { run, settings, labels } = ctx;
  const snapshots = ctx.snapshots.filter((n) => !n.endsWith('.pattern'));
  const target = settings.param ?? (snapshots.includes(ctx.tensor) ? ctx.tensor : snapshots[0]);
  const isParam = settings.param !== null;
  const delta = settings.delta;
  const at = { pos: settings.pos, coord: settings.coord };
  const answer = useLessonOp(
    'interpGradCheck',
    { run, target, index: 0, at, delta },
    [run.text, run.eps, run.dtype, target, at.pos, at.coord, delta.float32, delta.float64, ctx.model],
    { channel: 'look-inside-gradcheck', model: 'shown' },
  );
  const r = answer.result;
  const shape = r !== null && r.target === target ? r.shape : null;
  // until the core has said the target's shape, only the core bounds the row (it refuses one out of range by name)
  const rows = shape !== null && shape.length === 2 ? shape[0] : isParam ? 100_000 : labels.length;
  const cols = shape !== null ? shape[shape.length - 1] : 100_000;
  const current = r === null ? null : run.dtype === 'float64' ? r.float64 : r.float32;
  const where = r === null ? '' : r.coords.length === 2 ? `(${r.coords[0]}, ${r.coords[1]})` : `${r.coords[0]}`;

  return (
    <div class="interp-tool" data-testid="gradcheck">
      <p class="look-caption">
        Pick one number of any tensor, nudge it up and down by δ and run the model each time. The gradient predicts the loss changes by
        g·δ; the model's own change is (loss(+δ) − loss(−δ)) / 2, the central difference.
      </p>
      <div class="interp-controls">
        <label class="interp-field">
          tensor{' '}
          <select
            value={isParam ? `param:${target}` : `snap:${target}`}
            onChange={(e) => {
              const v = e.currentTarget.value;
              if (v.startsWith('param:')) ctx.onChange({ param: v.slice('param:'.length) });
              else {
                ctx.onChange({ param: null });
                ctx.onTensor(v.slice('snap:'.length));
              }
            }}
            data-testid="gc-target"
          >
            <optgroup label="snapshots (what the model computed)">
              {snapshots.map((n) => (
                <option key={n} value={`snap:${n}`}>
                  {withCode(n, ctx.model)}
                </option>
              ))}
            </optgroup>
            <optgroup label="parameters (the weights)">
              {ctx.params.map((n) => {
                const p = paramName(n, ctx.model);
                return (
                  <option key={n} value={`param:${n}`}>
                    {p.layer}: {p.part} ({n})
                  </option>
                );
              })}
            </optgroup>
          </select>
        </label>
        {(shape === null || shape.length === 2) &&
          (isParam ? (
            <NumberField label="row" value={settings.pos} check={wholeIn(rows - 1, 'the row')} onValue={(v) => ctx.onChange({ pos: v })} testId="gc-row" />
          ) : (
            <PositionPicker labels={labels} pos={Math.min(settings.pos, labels.length - 1)} onPos={(p) => ctx.onChange({ pos: p })} testId="gc-pos" />
          ))}
        <NumberField
          label={isParam && shape !== null && shape.length === 2 ? 'column' : 'coordinate'}
          value={settings.coord}
          check={wholeIn(cols - 1, 'the coordinate')}
          onValue={(v) => ctx.onChange({ coord: v })}
          testId="gc-coord"
        />
        <NumberField label="δ in float32" value={delta.float32} check={deltaOk} onValue={(v) => ctx.onChange({ delta: { ...delta, float32: v } })} testId="gc-d32" />
        <NumberField label="δ in float64" value={delta.float64} check={deltaOk} onValue={(v) => ctx.onChange({ delta: { ...delta, float64: v } })} testId="gc-d64" />
        {(delta.float32 !== DEFAULT_DELTAS.float32 || delta.float64 !== DEFAULT_DELTAS.float64) && (
          <button type="button" onClick={() => ctx.onChange({ delta: { ...DEFAULT_DELTAS } })}>
            Default δ ({DEFAULT_DELTAS.float32} and {DEFAULT_DELTAS.float64})
          </button>
        )}
      </div>
      {answer.error !== null && (
        <p class="notice notice-bad" role="alert" data-testid="gc-error">
          The core could not check this: {answer.error}
        </p>
      )}
      {r === null && answer.error === null && <p class="look-status">Asking the core to nudge it…</p>}
      {r !== null && answer.error === null && (
        <>
          <ScrollBox label="The gradient check">
            <table class="look-table" data-testid="gc-table">
              <caption>
                {isParam ? `${paramName(target, ctx.model).layer}: ${paramName(target, ctx.model).part} (${target})` : withCode(target, ctx.model)}, element {where} of shape (
                {r.shape.join(', ')})
              </caption>
              <thead>
                <tr>
                  <th scope="col">dtype</th>
                  <th scope="col">δ</th>
                  <th scope="col">the number</th>
                  <th scope="col">its gradient g</th>
                  <th scope="col">predicted change g·δ</th>
                  <th scope="col">actual change (central difference)</th>
                </tr>
              </thead>
              <tbody>
                <Row side={r.float32} />
                <Row side={r.float64} />
              </tbody>
            </table>
          </ScrollBox>
          <p class="interp-note" data-testid="gc-why">
            Why float32 can disagree for a tiny δ: float32 keeps only about 7 significant digits of the loss, so when δ is tiny,
            loss(+δ) and loss(−δ) differ only in their last digits and their difference is mostly rounding; float64 keeps about 16.
          </p>
          {current !== null && (
            <>
              <ReproduceLine
                input={{ weights: ctx.weightsFile, text: run.text, dtype: run.dtype, eps: run.eps, interventions: [], what: { kind: isParam ? 'param' : 'snapshot', name: target, coords: r.coords } }}
                prints={`this number in ${run.dtype}, ${num(current.value, 9)}`}
                ownWeights={ctx.ownWeights}
                onDownloadWeights={ctx.onDownloadWeights}
                testId="gc-reproduce-value"
                title="Reproduce this number in PyTorch"
              />
              <ReproduceLine
                input={{ weights: ctx.weightsFile, text: run.text, dtype: run.dtype, eps: run.eps, interventions: [], what: { kind: 'grad', name: target, coords: r.coords } }}
                prints={`its gradient g in ${run.dtype}, ${num(current.grad, 9)}`}
                ownWeights={ctx.ownWeights}
                onDownloadWeights={ctx.onDownloadWeights}
                testId="gc-reproduce-grad"
                title="Reproduce its gradient in PyTorch"
              />
            </>
          )}
        </>
      )}
    </div>
  );
}
