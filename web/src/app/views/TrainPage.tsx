// The Train view: two runs of the model, A and B, trained side by side on the
// same text and seed, each in a worker of its own (trainer worker, one core
// each), so this tab stays responsive. Every number here is a step report from
// the core; this file lays the widgets out and wires their buttons.
import { useEffect, useState } from 'preact/hooks';
import { RUN_IDS, isActive, type RunId, type RunState, type TrainSession } from '../../viewmodels/train';
import { lessonsBytes, sizeText } from '../../viewmodels/trainData';
import { discardSaved, forgetSaved, lookForSavedRuns, resumeSaved, savedRuns, trainSession } from '../../viewmodels/trainSession';
import { DataPicker } from '../../widgets/train/DataPicker';
import { LossPlot } from '../../widgets/train/LossPlot';
import { PresetPicker } from '../../widgets/train/PresetPicker';
import { ResumeOffer } from '../../widgets/train/ResumeOffer';
import { RunPanel } from '../../widgets/train/RunPanel';
import { SampleText } from '../../widgets/train/SampleText';
import { SettingsForm } from '../../widgets/train/SettingsForm';
import { StepHeatmap } from '../../widgets/train/StepHeatmap';
import { GradHeatmaps, sharedScale } from '../../widgets/train/GradHeatmaps';
import { WeightsLoader } from '../../widgets/train/WeightsLoader';
import { loadOwnWeights } from '../inspectorState';
import { view } from '../state';
import { PRESETS } from '../trainPresets';

function download(bytes: ArrayBuffer, fileName: string): void {
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A run whose settings the learner changed is no longer what the preset called it. */
function ownLabel(r: RunState, patch: Pick<RunState, 'config' | 'train'>): string {
  const same = JSON.stringify(patch.config) === JSON.stringify(r.config) && JSON.stringify(patch.train) === JSON.stringify(r.train);
  return same ? r.label : 'your settings';
}

/** The stream's depths in words: the trainer's snapshot names ('embed', 'blocks.0.resid.ffn', …) or, before a run, the config's. */
function depthNames(r: RunState): string[] {
  const names = r.info?.depthNames ?? ['embed', ...Array.from({ length: r.config.blocks }, (_, i) => `blocks.${i}`)];
  return names.map((n) => (n === 'embed' ? 'embedding' : n.replace(/^blocks\.(\d+)(\..*)?$/, 'after block $1')));
}

export function TrainPage() {
  const s: TrainSession = trainSession();
  useEffect(() => lookForSavedRuns(), []);
  const runs = RUN_IDS.map((id) => s.runs[id].state.value);
  const busy = runs.some(isActive);
  const preset = s.preset;
  const rmsScale = sharedScale(runs, (p) => p.residRms);
  const [notes, setNotes] = useState<Record<RunId, string | null>>({ A: null, B: null });
  const note = (id: RunId, text: string | null) => setNotes((n) => ({ ...n, [id]: text }));

  const save = (id: RunId) => {
    note(id, 'Preparing the weights…');
    const asked = s.runs[id].requestWeights((bytes, fileName) => {
      download(bytes, fileName);
      note(id, `Saved “${fileName}” (${sizeText(bytes.byteLength)}) to your downloads. Load it back below to train on from it.`);
    });
    if (!asked) note(id, null);
  };
  const openInInspector = (id: RunId) => {
    note(id, 'Preparing the weights for the inspector…');
    const r = s.runs[id].state.peek();
    s.runs[id].requestWeights((bytes) => {
      note(id, null);
      void loadOwnWeights(bytes, `trained here in run ${id} (${r.label}), step ${r.heldStep.toLocaleString('en')}`);
      view.value = 'inspector';
      scrollTo(0, 0);
    });
  };

  return (
    <section class="train" aria-labelledby="train-title">
      <header class="train-head">
        <h1 id="train-title">Train</h1>
        <p class="train-lede">
          Train two small language models side by side in this tab — the same code as the lessons’ model, computed by the same core —
          and see whether what the lessons claim about norms, residuals and warmup holds on your own screen.
        </p>
      </header>

      <ResumeOffer
        saved={savedRuns.value ?? []}
        busy={(id) => isActive(s.runs[id === 'B' ? 'B' : 'A'].state.value)}
        onResume={resumeSaved}
        onDiscard={(r) => void discardSaved(r.key)}
      />

      <div class="train-setup card">
        <PresetPicker presets={PRESETS} chosen={preset.id} locked={busy} onChoose={(id) => s.applyPreset(id)} />
        <DataPicker choice={s.data.value} locked={busy} onChoose={(c) => (s.data.value = c)} lessonsBytes={lessonsBytes()} />
      </div>

      <div class="train-actions">
        <button type="button" class="train-primary" onClick={() => s.start()} disabled={!runs.some((r) => !isActive(r))} data-testid="train-both">
          Train A and B
        </button>
        {runs.some((r) => r.phase === 'running') && (
          <button type="button" onClick={() => RUN_IDS.forEach((id) => s.runs[id].pause())}>
            Pause both
          </button>
        )}
        {runs.some((r) => r.phase === 'paused') && (
          <button type="button" onClick={() => RUN_IDS.forEach((id) => s.runs[id].resume())}>
            Resume both
          </button>
        )}
        {busy && (
          <button type="button" onClick={() => RUN_IDS.forEach((id) => s.runs[id].stop())}>
            Stop both
          </button>
        )}
        {runs.some((r) => r.phase !== 'idle') && (
          <button
            type="button"
            onClick={() =>
              RUN_IDS.forEach((id) => {
                s.runs[id].reset();
                void forgetSaved(id);
              })
            }
          >
            Reset both
          </button>
        )}
      </div>
      {s.notice.value !== null && (
        <p class="notice notice-bad" role="alert" data-testid="train-notice">
          {s.notice.value}
        </p>
      )}

      <div class="train-pair">
        {runs.map((r) => (
          <RunPanel
            key={r.id}
            run={r}
            onStart={() => s.start([r.id])}
            onPause={() => s.runs[r.id].pause()}
            onResume={() => s.runs[r.id].resume()}
            onStop={() => s.runs[r.id].stop()}
            onReset={() => {
              s.runs[r.id].reset();
              void forgetSaved(r.id);
              note(r.id, null);
            }}
            onSave={() => save(r.id)}
            onOpenInInspector={() => openInInspector(r.id)}
            weightsNote={notes[r.id]}
          />
        ))}
      </div>

      <div class="train-card card">
        <LossPlot runs={runs} />
      </div>

      <GradHeatmaps runs={runs} pairClass="train-pair" cardClass="train-card card" />

      <div class="train-pair">
        {runs.map((r) => (
          <div class="train-card card" key={r.id}>
            <StepHeatmap
              title={`Run ${r.id}: RMS of the residual stream by depth, by step`}
              quantity="RMS"
              reports={r.reports}
              total={r.reports.at(-1)?.total ?? r.train.steps}
              pick={(p) => p.residRms}
              scale={rmsScale}
              rowNames={depthNames(r)}
              testId={`resid-heatmap-${r.id}`}
            />
          </div>
        ))}
      </div>

      <div class="train-pair">
        {runs.map((r) => (
          <SampleText key={r.id} run={r} />
        ))}
      </div>

      <details class="train-settings card" open={preset.own} key={preset.id}>
        <summary>Settings of run A and run B</summary>
        <div class="train-pair">
          {runs.map((r) => (
            <div key={`${preset.id}-${r.id}`}>
              <SettingsForm
                run={r}
                locked={isActive(r)}
                fromFile={r.weightsFile?.name ?? null}
                onChange={(patch) => s.runs[r.id].setup({ ...patch, label: ownLabel(r, patch) })}
              />
              <WeightsLoader run={r} locked={isActive(r)} onLoad={(file) => s.runs[r.id].setup({ weightsFile: file })} />
            </div>
          ))}
        </div>
      </details>
    </section>
  );
}
