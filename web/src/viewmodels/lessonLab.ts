// The RMSNorm lesson's lab widgets: each computes its own settings on its own
// channel (one per lesson, step and widget), never the lab view's, and hands
// them to the lab only when the learner asks (openInLab).
import { useEffect, useState } from 'preact/hooks';
import { core, onCoreRestart } from '../app/core';
import type { LabSettings } from '../app/labSettings';
import { openInLab } from '../app/state';
import type { ErrorData } from '../protocol/base';
import type { LabResult } from '../protocol/lab';

export { openInLab };

export interface WidgetResult {
  /** The settings `result` was computed from. */
  settings: LabSettings | null;
  result: LabResult | null;
  error: ErrorData | null;
}

/** Asks the core on the widget's own channel whenever its settings change (and after a worker restart). */
export function useLabResult(channel: string, settings: LabSettings): WidgetResult {
  const [answer, setAnswer] = useState<WidgetResult & { channel: string }>({ channel, settings: null, result: null, error: null });
  const [restarts, setRestarts] = useState(0);
  useEffect(() => onCoreRestart(() => setRestarts((n) => n + 1)), []);
  useEffect(() => {
    let live = true;
    void core()
      .request('lab', settings, { channel })
      .then((o) => {
        if (!live || o.status === 'stale') return;
        if (o.status === 'ok') setAnswer({ channel, settings, result: o.value, error: null });
        else setAnswer((a) => ({ channel, settings, result: a.channel === channel ? a.result : null, error: o.error }));
      });
    return () => {
      live = false;
    };
  }, [channel, settings, restarts]);
  // A result from another step's widget (the same component reused) is not this one's.
  return answer.channel === channel ? answer : { settings: null, result: null, error: null };
}
