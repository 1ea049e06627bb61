// One small line at the foot of the page: which build of the core runs and on
// how many threads (as the core worker reported it when it loaded), opening to
// say why and to choose fewer threads (threadSetting.ts).
import { plural } from './format';
import { chooseThreads, chosen, coreThreads, machineCores } from './threadSetting';
import './ThreadsLine.css';

export function ThreadsLine() {
  const core = coreThreads.value;
  if (core === null) return null;
  const choice = chosen.value;
  const summary = core.threaded ? `Core: threaded, ${plural(core.threads, 'thread')}` : 'Core: single-threaded';
  return (
    <details class="threads-line" data-testid="threads-line">
      <summary>{summary}</summary>
      {core.threaded ? (
        <div class="threads-body">
          <p>
            This page is cross-origin isolated, so your browser lets it share memory between workers. The core splits its big
            matrix products, attention and the other large operations into fixed pieces and computes them on {plural(core.threads, 'thread')}{' '}
            (your device reports {plural(machineCores(), 'core')}). Any number of threads gives the same numbers, bit for bit: the pieces
            never depend on how many threads there are.
          </p>
          <ThreadChoice choice={choice} />
        </div>
      ) : (
        <div class="threads-body">
          <p>
            This page is not cross-origin isolated, so the browser does not allow shared memory, and the core computes on one
            thread. A site that sends the headers <code>Cross-Origin-Opener-Policy: same-origin</code> and{' '}
            <code>Cross-Origin-Embedder-Policy: require-corp</code> gets the threaded core. The copy of the site your browser keeps
            for offline use adds them itself, so reloading the page may be enough.
          </p>
          <button type="button" onClick={() => location.reload()}>
            Reload the page
          </button>
        </div>
      )}
    </details>
  );
}

function ThreadChoice({ choice }: { choice: number | null }) {
  const n = machineCores();
  const options = Array.from({ length: n }, (_, i) => i + 1);
  return (
    <p class="threads-choice">
      <label>
        Use{' '}
        <select
          data-testid="threads-choice"
          value={choice === null ? 'all' : String(Math.min(choice, n))}
          onChange={(e) => {
            const v = (e.currentTarget as HTMLSelectElement).value;
            chooseThreads(v === 'all' ? null : Number(v));
          }}
        >
          <option value="all">every core ({n})</option>
          {options.map((k) => (
            <option key={k} value={String(k)}>
              {plural(k, 'thread')}
            </option>
          ))}
        </select>
      </label>{' '}
      <span class="threads-note">
        Fewer threads leave cores free for other work. Each new training run in the Train view uses the choice at once (two
        runs training together share it, half each); the inspector, the lessons and the lab use it after you{' '}
        <button type="button" class="threads-reload" onClick={() => location.reload()}>
          reload the page
        </button>
        .
      </span>
    </p>
  );
}
