// A code cell: JavaScript against the core facade, run in a sandbox worker of
// its own (never on the page, never in the core worker), printing with print().
// The learner can edit and re-run it; a run that loops, prints without end or
// breaks its worker ends with a message here, and the rest of the app is untouched.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { BAD_MESSAGE_ERROR, NO_ANSWER_ERROR, TIME_LIMIT_ERROR } from '../app/coreClient';
import type { ErrorData } from '../protocol/base';
import { runCell } from '../viewmodels/lessonOp';

/** What the cell shows for an error; a time limit gets a hint instead of a name. */
export function cellError(e: ErrorData): string {
  if (e.name === TIME_LIMIT_ERROR) return `${e.message} — did the code loop forever?`;
  if (e.name === NO_ANSWER_ERROR || e.name === BAD_MESSAGE_ERROR) return `${e.message.charAt(0).toUpperCase()}${e.message.slice(1)}. Only this cell was affected; press Run to try again.`;
  if (e.name === 'OutputLimit') return `Stopped: ${e.message}.`; // the note above says what was kept
  return `${e.name}: ${e.message}`;
}

interface CellOutput {
  output: string;
  truncated: boolean;
  error: string | null;
}

export function CodeCell({ code, channel }: { code: string; channel: string }) {
  const [text, setText] = useState(code);
  const [out, setOut] = useState<CellOutput | null>(null);
  const [busy, setBusy] = useState(false);
  const run = (source: string) => {
    setBusy(true);
    void runCell(source, channel).then((o) => {
      if (o.status === 'stale') return;
      setBusy(false);
      if (o.status === 'ok') setOut({ output: o.value.output, truncated: o.value.truncated, error: o.value.error && cellError(o.value.error) });
      else setOut({ output: '', truncated: false, error: cellError(o.error) });
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
        Code cell · runs in a sandbox of its own ·{' '}
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
        {out?.truncated && (
          <span class="code-cell-truncated" data-testid="code-truncated">
            {out.output.endsWith('\n') ? '' : '\n'}… output truncated (only the first {out.output.length.toLocaleString('en-US')} characters are shown)
          </span>
        )}
        {out?.error && <span class="code-cell-error">{(out.output ? '\n' : '') + out.error}</span>}
      </pre>
    </figure>
  );
}
