// The states every lesson widget that asks the worker goes through, in one
// place: the core's message when it refuses, a line while the first answer is
// on its way, and the answer itself (with keepLast, the last good answer stays
// under a refusal, dimmed, so a typo does not blank the widget).
//
//   const answer = useLessonOp('byteText', { text }, [text]);
//   <WidgetShell answer={answer} errorTestId="bytes-error" pendingText="Asking the core…">
//     {(r) => <p>{r.bytes.length} bytes</p>}
//   </WidgetShell>
import type { ComponentChildren } from 'preact';
import './lessonWidgets.css';

export interface ShellAnswer<R> {
  result: R | null;
  error: string | null;
  /** A request is on its way (useLessonOp's pending); without it, pending means "no answer yet". */
  pending?: boolean;
}

interface Props<R> {
  answer: ShellAnswer<R>;
  children: (result: R) => ComponentChildren;
  /** data-testid of the message line. */
  errorTestId?: string;
  /** Put before the core's message ("The core refuses: "). */
  errorPrefix?: string;
  /** Shown until the first answer (nothing if omitted). */
  pendingText?: string;
  /** Keep showing the last answer under a message (default: only the message). */
  keepLast?: boolean;
  /** With keepLast: the answer sits in a box that is dimmed while a message shows (default true). */
  dim?: boolean;
}

export function WidgetShell<R>({ answer, children, errorTestId, errorPrefix = '', pendingText, keepLast = false, dim = true }: Props<R>) {
  const { result, error, pending = true } = answer;
  return (
    <>
      {error !== null && (
        <p class="lesson-error" role="alert" data-testid={errorTestId}>
          {errorPrefix}
          {error}
        </p>
      )}
      {result === null && error === null && pending && pendingText !== undefined && <p class="widget-note">{pendingText}</p>}
      {result !== null &&
        (keepLast && dim ? (
          <div class={error !== null ? 'widget-stale' : ''}>{children(result)}</div>
        ) : (
          (error === null || keepLast) && children(result)
        ))}
    </>
  );
}
