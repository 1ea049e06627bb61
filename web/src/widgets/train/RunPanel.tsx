// One run's status and controls: where it is (a progress bar with the time
// left), how fast it trains, its latest losses, pause/resume/stop/reset, and
// save/load/open its weights. A diverged run says at which step and what blew
// up, and keeps its plots and its last good weights.
import { fmt, plural } from '../../app/format';
import { canPause, canResume, canSave, canStart, canStop, isActive, type RunState } from '../../viewmodels/train';
import { sizeText } from '../../viewmodels/trainData';
import './RunPanel.css';

interface Props {
  run: RunState;
  onStart: () => void;
  onPause: () => void;
  onResume: () => void;
  onStop: () => void;
  onReset: () => void;
  onSave: () => void;
  /** Shows this run's weights in the inspector (any config). */
  onOpenInInspector: () => void;
  /** A message about the weights (saved, being prepared, refused). */
  weightsNote: string | null;
}

const PHASE_TEXT: Record<RunState['phase'], string> = {
  idle: 'not started',
  starting: 'starting: loading the core and the text…',
  running: 'training',
  pausing: 'pausing after this step…',
  paused: 'paused',
  stopping: 'stopping after this step…',
  stopped: 'stopped',
  finished: 'finished',
  diverged: 'diverged',
  failed: 'could not run',
};

/** "1 min 5 s", "12 s": a duration for learners (display only). */
export function durationText(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** What blew up, in words: 'loss', 'gradient', or a block's name. */
export function divergedText(step: number, what: string): string {
  const thing = what === 'loss' ? 'the loss' : what === 'gradient' ? 'the gradient' : `the gradient of ${what.replace(/^blocks\.(\d+)$/, 'block $1')}`;
  return `Run diverged at step ${step.toLocaleString('en')}: ${thing} became NaN or infinite.`;
}

export function RunPanel({ run, onStart, onPause, onResume, onStop, onReset, onSave, onOpenInInspector, weightsNote }: Props) {
  const last = run.reports.at(-1) ?? null;
  const total = last?.total ?? run.train.steps;
  const lastVal = run.val.at(-1) ?? null;
  const active = isActive(run);
  return (
    <section class={`run-panel run-${run.id}`} aria-labelledby={`run-${run.id}-title`} data-testid={`run-${run.id}`}>
      <h2 id={`run-${run.id}-title`}>
        <span class="run-badge" aria-hidden="true">
          {run.id === 'A' ? '● ' : '■ '}
        </span>
        Run {run.id}: {run.label}
      </h2>
      <p class="run-status" data-testid={`run-${run.id}-status`} data-phase={run.phase}>
        {PHASE_TEXT[run.phase]}
        {run.info !== null && (
          <span class="run-facts">
            {' '}
            · {run.info.parameters.toLocaleString('en')} parameters · trains on {sizeText(run.info.trainBytes)} of {run.info.dataLabel}, checks on{' '}
            {sizeText(run.info.valBytes)} held out
          </span>
        )}
      </p>
      <div class="run-progress">
        <progress max={total} value={last?.step ?? 0} aria-label={`Run ${run.id} progress`} />
        <span class="num" data-testid={`run-${run.id}-steps`}>
          step {(last?.step ?? 0).toLocaleString('en')} of {total.toLocaleString('en')}
        </span>
      </div>
      {last !== null && (
        <dl class="run-numbers">
          <div>
            <dt>speed (a token is one byte)</dt>
            <dd class="num" data-testid={`run-${run.id}-speed`}>
              {Math.round(last.tokensPerSecond).toLocaleString('en')} tokens/s
              {/* two runs at once share the threads (app/threadShare.ts): the reason a run slows when the other starts */}
              {last.threads !== undefined && (
                <>
                  {' '}
                  <span class="run-threads">on {plural(last.threads, 'thread')}</span>
                </>
              )}
            </dd>
          </div>
          <div>
            <dt>time left</dt>
            <dd class="num" data-testid={`run-${run.id}-eta`}>
              {run.phase === 'running' ? durationText(last.etaSeconds) : '—'}
            </dd>
          </div>
          <div>
            <dt>training loss</dt>
            <dd class="num" data-testid={`run-${run.id}-loss`}>
              {fmt(last.loss, 5)}
            </dd>
          </div>
          <div>
            <dt>validation loss</dt>
            <dd class="num" data-testid={`run-${run.id}-val`}>
              {lastVal === null ? 'not measured yet' : `${fmt(lastVal.loss, 5)} (step ${lastVal.step.toLocaleString('en')})`}
            </dd>
          </div>
        </dl>
      )}
      {run.diverged !== null && (
        <div class="notice notice-bad run-diverged" role="alert" data-testid={`run-${run.id}-diverged`}>
          <p>
            <strong>{divergedText(run.diverged.step, run.diverged.what)}</strong> ({run.diverged.message.replace(/\.$/, '')}.) The plots stay, and the run keeps
            its weights from {run.heldStep === 0 ? 'before the first step' : `step ${run.heldStep.toLocaleString('en')}`}
            {run.heldStep > 0 ? ': you can still save them.' : '.'}
          </p>
        </div>
      )}
      {run.error !== null && (
        <p class="notice notice-bad" role="alert" data-testid={`run-${run.id}-error`}>
          Run {run.id} {run.phase === 'failed' ? 'could not run' : 'reports a problem'}: {run.error}
        </p>
      )}
      <div class="run-buttons">
        {canStart(run) && (
          <button type="button" onClick={onStart}>
            {run.phase === 'idle' ? `Train run ${run.id}` : `Train run ${run.id} again`}
          </button>
        )}
        {canPause(run) && (
          <button type="button" onClick={onPause}>
            Pause
          </button>
        )}
        {canResume(run) && (
          <button type="button" onClick={onResume}>
            Resume
          </button>
        )}
        {canStop(run) && (
          <button type="button" onClick={onStop}>
            Stop
          </button>
        )}
        {run.phase !== 'idle' && (
          <button type="button" onClick={onReset}>
            Reset
          </button>
        )}
        <button type="button" onClick={onSave} disabled={!canSave(run)}>
          Save weights
        </button>
        <button type="button" onClick={onOpenInInspector} disabled={!canSave(run)}>
          Open in the inspector
        </button>
      </div>
      {run.keptStep !== null && isActive(run) && (
        <p class="run-note" data-testid={`run-${run.id}-kept`}>
          Kept in this browser at step {run.keptStep.toLocaleString('en')}: if the page is closed or reloaded, the run can go on from there.
        </p>
      )}
      {weightsNote !== null && (
        <p class="run-note" role="status" data-testid={`run-${run.id}-weights-note`}>
          {weightsNote}
        </p>
      )}
    </section>
  );
}
