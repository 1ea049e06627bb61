// One run's settings: the model (blocks, width, heads, context, norms,
// residuals, eps, init, number format) and the training (steps, batch,
// learning rate, warmup, clipping, seed, …). Typed text stays in its box; a
// value out of range shows a message under its field naming the field and the
// range, and the run keeps its last valid value.
import { useState } from 'preact/hooks';
import type { RunSpec } from '../../protocol/train';
import type { RunState } from '../../viewmodels/train';
import { MODEL_FIELDS, TRAIN_FIELDS, applyDrafts, fieldText, rangeText, type FieldId, type ModelField, type NumberField } from '../../app/trainSettings';
import './SettingsForm.css';

interface Props {
  run: RunState;
  locked: boolean;
  onChange: (patch: Pick<RunSpec, 'config' | 'train'>) => void;
  /** Starting from a loaded file: the file's model wins over these model settings. */
  fromFile: string | null;
}

export function SettingsForm({ run, locked, onChange, fromFile }: Props) {
  const [drafts, setDrafts] = useState<Partial<Record<FieldId, string>>>({});
  const spec: RunSpec = { run: run.id, config: run.config, train: run.train, data: { kind: 'kjv' }, init: { kind: run.init } };
  const { problems } = applyDrafts(spec, drafts);
  const prefix = `run-${run.id}`;

  const type = (id: FieldId, text: string) => {
    const next = { ...drafts, [id]: text };
    const applied = applyDrafts(spec, next);
    // a draft that now reads as the value in use needs no keeping
    const kept: Partial<Record<FieldId, string>> = {};
    for (const [k, v] of Object.entries(next) as [FieldId, string][]) if (applied.problems[k] !== undefined) kept[k] = v;
    setDrafts(kept);
    onChange({ config: applied.spec.config, train: applied.spec.train });
  };

  const numberInput = (group: 'config' | 'train', f: NumberField<string>) => {
    const id = `${group}.${f.key}` as FieldId;
    const inputId = `${prefix}-${f.key}`;
    const problem = problems[id];
    return (
      <div class={`sf-field${problem ? ' is-bad' : ''}`} key={id}>
        <label for={inputId}>
          {f.label} <code>{f.name}</code>
        </label>
        <input
          id={inputId}
          type="text"
          inputMode="decimal"
          value={drafts[id] ?? fieldText(spec, group, f.key)}
          disabled={locked}
          aria-invalid={problem ? 'true' : undefined}
          aria-describedby={`${inputId}-help`}
          onInput={(e) => type(id, e.currentTarget.value)}
          data-testid={`${prefix}-field-${f.key}`}
        />
        <span id={`${inputId}-help`} class={problem ? 'sf-problem' : 'sf-help'} role={problem ? 'alert' : undefined}>
          {problem ?? `${f.help ? `${f.help}; ` : ''}${rangeText(f)}`}
        </span>
      </div>
    );
  };

  const modelInput = (f: ModelField) => {
    if (f.kind === 'number') return numberInput('config', f);
    const inputId = `${prefix}-${f.key}`;
    const set = (v: unknown) => onChange({ config: { ...run.config, [f.key]: v }, train: run.train });
    if (f.kind === 'switch')
      return (
        <div class="sf-field sf-switch" key={f.key}>
          <label for={inputId}>
            <input id={inputId} type="checkbox" checked={Boolean(run.config[f.key])} disabled={locked} onChange={(e) => set(e.currentTarget.checked)} /> {f.label}{' '}
            <code>{f.name}</code>
          </label>
          {f.help && <span class="sf-help">{f.help}</span>}
        </div>
      );
    return (
      <div class="sf-field" key={f.key}>
        <label for={inputId}>
          {f.label} <code>{f.name}</code>
        </label>
        <select id={inputId} value={String(run.config[f.key])} disabled={locked} onChange={(e) => set(e.currentTarget.value)}>
          {f.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
    );
  };

  return (
    <div class="settings-form" data-testid={`${prefix}-settings`}>
      <h3>
        Run {run.id}: {run.label}
      </h3>
      {locked && <p class="sf-note">These settings are locked while the run trains; stop or reset it to change them.</p>}
      <fieldset disabled={locked}>
        <legend>The model</legend>
        {fromFile !== null && <p class="sf-note">Starting from “{fromFile}”: the model’s shape comes from that file, so these model settings are not used.</p>}
        <div class="sf-grid">{MODEL_FIELDS.map(modelInput)}</div>
      </fieldset>
      <fieldset disabled={locked}>
        <legend>The training</legend>
        <div class="sf-grid">{TRAIN_FIELDS.map((f) => numberInput('train', f))}</div>
      </fieldset>
    </div>
  );
}
