// A code cell: JavaScript against the core facade, run in the worker (never on
// the page), printing with print(). The learner can edit and re-run it.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { TIME_LIMIT_ERROR } from '../app/coreClient';
import type { ErrorData } from '../protocol/base';
import { askLesson, modelReadyFor } from '../viewmodels/lessonOp';

/** What the cell shows for an error; a time limit gets a hint instead of a name. */
export function cellError(e: ErrorData): string {
  return e.name === TIME_LIMIT_ERROR ? `${e.message} — did the code loop forever?` : `${e.name}: ${e.message}`;
}

export function CodeCell({ code, channel }: { code: string; channel: string }) {
  const [text, setText] = useState(code);
  const [out, setOut] = useState<{ output: string; error: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = (source: string) => {
    setBusy(true);
    void modelReadyFor([source]).then(() => askLesson('runCode', { code: source }, channel)).then((o) => {
      if (o.status === 'stale') return;
      setBusy(false);
      if (o.status === 'ok') setOut({ output: o.value.output, error: o.value.error && cellError(o.value.error) });
      else setOut({ output: '', error: cellError(o.error) });
    });
  };
  useEffect(() => run(code), [code]);
  const rows = Math.max(3, text.split('\n').length);
  // The box grows to its code, wrapped lines included (`rows` counts only line
  // breaks), so there is no inner scrollbar; again when a narrower screen re-wraps.
  const source = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const el = source.current!;
    const fit = () => {
      el.style.height = 'auto';
      el.style.height = `${el.scrollHeight + el.offsetHeight - el.clientHeight}px`;
    };
    fit();
    let width = el.clientWidth;
    const watch = new ResizeObserver(() => {
      if (el.clientWidth !== width) {
        width = el.clientWidth;
        fit();
      }
    });
    watch.observe(el);
    return () => watch.disconnect();
  }, [text]);
  return (
    <figure class="code-cell" data-testid="code-cell">
      <figcaption>
        Code cell · runs against the core in the worker ·{' '}
        <button type="button" onClick={() => run(text)} disabled={busy}>
          {busy ? 'Running…' : 'Run'}
        </button>
        {text !== code && (
          <button type="button" onClick={() => { setText(code); run(code); }}>
            Restore
          </button>
        )}
      </figcaption>
      <textarea
        ref={source}
        class="code-cell-source"
        spellcheck={false}
        rows={rows}
        value={text}
        aria-label="Code (JavaScript; glass is the core, print() writes below)"
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey || e.shiftKey)) {
            e.preventDefault();
            run(text);
          }
        }}
      />
      <pre class="code-cell-output" data-testid="code-output" aria-live="polite">
        {out === null ? 'Running…' : out.output}
        {out?.error && <span class="code-cell-error">{(out.output ? '\n' : '') + out.error}</span>}
      </pre>
    </figure>
  );
}
