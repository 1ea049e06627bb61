// A "still working" cue that shows only once the work has taken long enough to
// notice. The inspector dims its results while a run is under way; shown at
// once, the cue flipped twice on every slider step, and each flip repainted the
// whole results (opacity on their container), for a run of about 20 ms that
// ended before the eye could see the dimming. On the 2-core Zen 5 that was
// about a quarter of the page's main-thread work per step (49 ms of tasks with
// it, 37 without), and it competed for the cores with the run itself
// (docs/threads.md, "The page's own share of a step, made smaller").
import { signal, type ReadonlySignal } from '@preact/signals';

export interface LateBusy {
  /** True once work started by `start` has run `delayMs` without an `end`. */
  readonly shown: ReadonlySignal<boolean>;
  /** Work began (or more began while some was under way: the first start's clock keeps running). */
  start(): void;
  /** The work the learner waits for has ended: the cue goes (or never comes). */
  end(): void;
}

export function lateBusy(delayMs: number): LateBusy {
  const shown = signal(false);
  let timer: ReturnType<typeof setTimeout> | null = null;
  return {
    shown,
    start() {
      // a run superseded by the next (a slider dragged) keeps the first clock, so a long drag still shows the cue
      if (timer !== null || shown.peek()) return;
      timer = setTimeout(() => {
        timer = null;
        shown.value = true;
      }, delayMs);
    },
    end() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      shown.value = false;
    },
  };
}
