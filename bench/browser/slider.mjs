// The inspector's eps slider moved as a learner moves it, step by step or in
// one drag: bench/browser/inspector.mjs times both, and
// tests/e2e/bench-slider.spec.ts checks on every npm test that they still work
// against today's page (the slider's label, the result line and its core
// time), so the benchmark does not break unseen when the inspector changes.

/** The inspector on `text`, showing a tensor of block 1 (the slider re-runs the whole model whatever it shows). */
export const inspectorAddress = (url, text) => `${url}?view=inspector&tensor=blocks.1.resid.ffn&prompt=${encodeURIComponent(text)}`;

const STEP_LIMIT_MS = 10_000; // a step whose result never shows is an error, not a hang

// log10 of eps, small and large in turn, so every step moves the loss the page shows
export const SLIDER = ['-6', '-2', '-5', '-1', '-4', '0', '-3', '-1'];

/** `steps` slider steps, `pauseMs` after each result is on screen (0: at once); each step's core and screen times. */
export function slide(page, steps, pauseMs) {
  return page.evaluate(
    async ({ steps, pauseMs, values, limitMs }) => {
      const slider = [...document.querySelectorAll('input')].find((x) => x.labels?.[0]?.textContent?.includes('eps in all'));
      const line = document.querySelector('[data-testid="inspector-loss"]');
      if (!slider || !line) throw new Error('the inspector has no eps slider or no result line');
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
      const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const out = [];
      for (let i = 0; i < steps; i++) {
        const before = line.textContent;
        const changed = new Promise((resolve, reject) => {
          const mo = new MutationObserver(() => {
            if (line.textContent === before) return;
            mo.disconnect();
            resolve();
          });
          mo.observe(line, { subtree: true, characterData: true, childList: true });
          setTimeout(() => reject(new Error(`no new result ${limitMs} ms after the slider moved (step ${i + 1})`)), limitMs);
        });
        // the next value the slider is not at (the same value changes nothing, and no result would come)
        let k = i % values.length;
        if (Number(values[k]) === Number(slider.value)) k = (k + 1) % values.length;
        const t0 = performance.now();
        setValue.call(slider, values[k]);
        slider.dispatchEvent(new Event('input', { bubbles: true }));
        await changed;
        await frame();
        const screen = performance.now() - t0;
        const core = Number(/core ([\d.,]+) ms/.exec(line.textContent)?.[1]?.replace(/,/g, ''));
        if (!Number.isFinite(core)) throw new Error(`the result line shows no core time: "${line.textContent}"`);
        out.push({ core, screen });
        if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
      }
      return out;
    },
    { steps, pauseMs, values: SLIDER, limitMs: STEP_LIMIT_MS },
  );
}

/**
 * The slider dragged across its whole track in `ms`: moved every frame, an input event whenever its value
 * changes, as a browser sends them (the slider snaps to its steps, so most frames bring none). Returns the
 * inputs sent, when each new result appeared (ms after the drag began; while it lasted, and after it until
 * `settleMs` later), and whether the results were dimmed as behind at any input.
 */
export function drag(page, ms, settleMs = 1500) {
  return page.evaluate(
    async ({ ms, settleMs }) => {
      const slider = [...document.querySelectorAll('input')].find((x) => x.labels?.[0]?.textContent?.includes('eps in all'));
      const line = document.querySelector('[data-testid="inspector-loss"]');
      const results = document.querySelector('[data-testid="inspector-results"]');
      if (!slider || !line || !results) throw new Error('the inspector has no eps slider or no results');
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
      const shown = [];
      let inputs = 0;
      let dimmed = false;
      let last = line.textContent;
      const t0 = performance.now();
      const seen = new MutationObserver(() => {
        if (line.textContent === last) return;
        last = line.textContent;
        shown.push(performance.now() - t0);
      });
      seen.observe(line, { subtree: true, characterData: true, childList: true });
      await new Promise((done) => {
        const frame = () => {
          const t = performance.now() - t0;
          if (t > ms) return done();
          dimmed ||= results.classList.contains('is-busy');
          const before = slider.value;
          const lo = Number(slider.min);
          setValue.call(slider, String(lo + (Number(slider.max) - lo) * (t / ms)));
          if (slider.value !== before) {
            slider.dispatchEvent(new Event('input', { bubbles: true }));
            inputs++;
          }
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      });
      await new Promise((r) => setTimeout(r, settleMs));
      seen.disconnect();
      return { inputs, during: shown.filter((t) => t <= ms), after: shown.filter((t) => t > ms), dimmed };
    },
    { ms, settleMs },
  );
}
