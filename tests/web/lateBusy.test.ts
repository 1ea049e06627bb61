// The inspector's "still working" cue (app/lateBusy.ts): it shows only once a
// run has taken long enough to notice, a run superseded by the next keeps the
// first clock, and the end of the work takes it away (or keeps it from coming).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lateBusy } from '../../web/src/app/lateBusy';

describe('lateBusy: a busy cue that waits before it shows', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('stays hidden for work that ends before the delay', () => {
    const b = lateBusy(150);
    b.start();
    vi.advanceTimersByTime(149);
    expect(b.shown.value).toBe(false);
    b.end();
    vi.advanceTimersByTime(1000);
    expect(b.shown.value).toBe(false);
  });

  it('shows once the work has run the whole delay, and goes when it ends', () => {
    const b = lateBusy(150);
    b.start();
    vi.advanceTimersByTime(150);
    expect(b.shown.value).toBe(true);
    b.end();
    expect(b.shown.value).toBe(false);
  });

  it('keeps the first start\'s clock while new work supersedes the old (a slider dragged)', () => {
    const b = lateBusy(150);
    for (let t = 0; t < 160; t += 20) {
      b.start();
      vi.advanceTimersByTime(20);
    }
    expect(b.shown.value).toBe(true); // 160 ms of steady work, none of it ended
    b.start(); // more work while shown: still shown
    expect(b.shown.value).toBe(true);
    b.end();
    expect(b.shown.value).toBe(false);
  });

  it('starts a fresh clock after an end, and an end with nothing started changes nothing', () => {
    const b = lateBusy(150);
    b.end();
    expect(b.shown.value).toBe(false);
    b.start();
    vi.advanceTimersByTime(100);
    b.end();
    b.start();
    vi.advanceTimersByTime(100); // 200 ms since the first start, 100 since this one
    expect(b.shown.value).toBe(false);
    vi.advanceTimersByTime(50);
    expect(b.shown.value).toBe(true);
  });
});
