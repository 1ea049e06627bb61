// A part of the page whose code loads only when it is first shown (the lessons
// and their texts, KaTeX). While it loads it says so; if the load fails (offline,
// a new deployment) it says why and offers Retry instead of "Loading…" forever.
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export function LazyPart({ load, what }: { load: () => Promise<ComponentType>; what: string }) {
  const [Part, setPart] = useState<ComponentType | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (c) => live && setPart(() => c),
      // the browser's message names a file: keep it for the console, tell the learner what it means
      (e: unknown) => {
        console.warn(`${what} could not be loaded:`, e);
        if (live) setFailed(navigator.onLine === false ? 'you are offline, and this part was not saved for offline use yet' : 'the download failed (the connection dropped, or a new version of the site was deployed)');
      },
    );
    return () => {
      live = false;
    };
  }, [attempt]);
  if (failed !== null)
    return (
      <p role="alert" class="lazy-failed">
        {what} could not be loaded: {failed}.{' '}
        <button
          type="button"
          onClick={() => {
            setFailed(null);
            setAttempt(attempt + 1);
          }}
        >
          Retry
        </button>
      </p>
    );
  if (Part === null) return <p class="lazy-loading">Loading {what.toLowerCase()}…</p>;
  return <Part />;
}
