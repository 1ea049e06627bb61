// The inspector's eps slider moved step by step, as a learner moves it:
// bench/browser/inspector.mjs times the steps, and tests/e2e/bench-slider.spec.ts
// checks on every npm test that the steps still work against today's page (the
// slider's label, the result line and its core time), so the benchmark does
// not break unseen when the inspector changes.

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
