// After a reload: the runs the trainer saved before the page was left, each
// with "Resume run A from step N" and "Discard".
import type { SavedRun } from '../../viewmodels/trainSession';

interface Props {
  saved: readonly SavedRun[];
  /** Whether the run a saved run would continue in is busy (then it waits). */
  busy: (key: string) => boolean;
  onResume: (saved: SavedRun) => void;
  onDiscard: (saved: SavedRun) => void;
}

export function ResumeOffer({ saved, busy, onResume, onDiscard }: Props) {
  if (saved.length === 0) return null;
  return (
    <div class="notice notice-info train-resume" data-testid="train-resume">
      <div>
        <p>
          <strong>Unfinished {saved.length === 1 ? 'run' : 'runs'} from your last visit.</strong> Training stopped when the page was left; it can
          go on from the last saved step.
        </p>
        <ul>
          {saved.map((r) => (
            <li key={r.key}>
              <button type="button" disabled={busy(r.key)} onClick={() => onResume(r)}>
                Resume run {r.key} from step {r.step.toLocaleString('en')}
              </button>{' '}
              <span class="tr-what">
                {r.step.toLocaleString('en')} of {r.total.toLocaleString('en')} steps, kept {new Date(r.savedAt).toLocaleString('en')}
              </span>{' '}
              <button type="button" onClick={() => onDiscard(r)}>
                Discard
              </button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
