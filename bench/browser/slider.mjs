// The inspector's eps slider moved as a learner moves it, with the mouse: a
// click on the track at a value, step by step, or one drag across the whole
// track. The events are real (Playwright's mouse, through the browser's input
// path), not values set from script: a value set from script costs Chromium a
// page-wide layout of its own (autofill answers each with a task), which a
// learner's hand never triggers. bench/browser/inspector.mjs times both
// kinds, and tests/e2e/bench-slider.spec.ts checks on every npm test that they
// still work against today's page (the slider's label, the result line and
// its core time), so the benchmark does not break unseen when the inspector
// changes.

/** The inspector on `text`, showing a tensor of block 1 (the slider re-runs the whole model whatever it shows). */
export const inspectorAddress = (url, text) => `${url}?view=inspector&tensor=blocks.1.resid.ffn&prompt=${encodeURIComponent(text)}`;

const STEP_LIMIT_MS = 10_000; // a step whose result never shows is an error, not a hang

// log10 of eps, small and large in turn, so every step moves the loss the page shows
export const SLIDER = ['-6', '-2', '-5', '-1', '-4', '0', '-3', '-1'];

const SLIDER_LABEL = 'eps in all'; // "eps in all norms", the label of the inspector's slider

/** The slider (a locator), in view, with its range and where it is on screen (viewport pixels). */
async function findSlider(page) {
  const slider = page.getByLabel(SLIDER_LABEL, { exact: false }).and(page.locator('input[type=range]'));
  if ((await slider.count()) !== 1) throw new Error(`the inspector has no single slider labelled "${SLIDER_LABEL}"`);
  await slider.scrollIntoViewIfNeeded();
  const box = await slider.boundingBox();
  if (!box || box.width < 20) throw new Error('the inspector\'s eps slider is not on screen');
  const { min, max, value } = await slider.evaluate((s) => ({ min: Number(s.min), max: Number(s.max), value: Number(s.value) }));
  return { slider, box, min, max, value };
}

/**
 * Where on the track a click lands on `value`: the thumb's centre runs from half a thumb in from one end to
 * half a thumb in from the other; Chromium's thumb is about as wide as the input is high.
 */
function xOf({ box, min, max }, value) {
  const half = Math.min(box.height, box.width / 4) / 2;
  return box.x + half + ((value - min) / (max - min)) * (box.width - 2 * half);
}

/** In the page, on the slider: watch for the next new result line; window.__glassStep settles with its core and screen times. */
function armStep(slider, limitMs) {
  const line = document.querySelector('[data-testid="inspector-loss"]');
  if (!line) throw new Error('the inspector has no result line');
  const before = line.textContent;
  let t0;
  // capture on the window: before the page's own handler on the slider
  const onInput = () => (t0 ??= performance.now());
  addEventListener('input', onInput, { capture: true });
  globalThis.__glassStep = new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      mo.disconnect();
      removeEventListener('input', onInput, { capture: true });
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(t0 === undefined ? 'the click on the slider sent no input (it landed on the value the slider had)' : `no new result ${limitMs} ms after the slider moved`));
    }, limitMs);
    const mo = new MutationObserver(() => {
      if (line.textContent === before) return;
      done();
      // the result is in the DOM; one frame later it is on screen
      requestAnimationFrame(() =>
        setTimeout(() => {
          const core = Number(/core ([\d.,]+) ms/.exec(line.textContent)?.[1]?.replace(/,/g, ''));
          if (t0 === undefined) reject(new Error('the result line changed with no input from the slider'));
          else if (!Number.isFinite(core)) reject(new Error(`the result line shows no core time: "${line.textContent}"`));
          else resolve({ core, screen: performance.now() - t0, position: slider.value });
        }, 0),
      );
    });
    mo.observe(line, { subtree: true, characterData: true, childList: true });
  });
  globalThis.__glassStep.catch(() => {}); // read by the benchmark, which reports the error
}

/**
 * `steps` clicks on the slider's track, at the values of SLIDER in turn, `pauseMs` after each result is on
 * screen (0: at once); each step's core and screen times, the position the slider took (log10 of eps) and the one
 * the click aimed at.
 */
export async function slide(page, steps, pauseMs) {
  const out = [];
  for (let i = 0; i < steps; i++) {
    const found = await findSlider(page);
    // the next value the slider is not at (the same value changes nothing, and no result would come)
    let k = i % SLIDER.length;
    if (Number(SLIDER[k]) === found.value) k = (k + 1) % SLIDER.length;
    await found.slider.evaluate(armStep, STEP_LIMIT_MS);
    await page.mouse.click(xOf(found, Number(SLIDER[k])), found.box.y + found.box.height / 2);
    out.push({ ...(await page.evaluate(() => globalThis.__glassStep)), aimed: SLIDER[k] });
    if (pauseMs > 0) await page.waitForTimeout(pauseMs);
  }
  return out;
}

/** In the page, on the slider: count its inputs, note each new result's time and whether the results dimmed, until the mouse is released. */
function armDrag(slider) {
  const line = document.querySelector('[data-testid="inspector-loss"]');
  const results = document.querySelector('[data-testid="inspector-results"]');
  if (!line || !results) throw new Error('the inspector has no result line or no results');
  const s = { inputs: 0, shown: [], dimmed: false, t0: undefined, end: undefined };
  let last = line.textContent;
  const seen = new MutationObserver(() => {
    if (line.textContent === last) return;
    last = line.textContent;
    s.shown.push(performance.now());
  });
  seen.observe(line, { subtree: true, characterData: true, childList: true });
  const onDown = () => (s.t0 ??= performance.now());
  const onUp = () => (s.end ??= performance.now());
  const onInput = (e) => e.target === slider && s.inputs++;
  addEventListener('mousedown', onDown, { capture: true });
  addEventListener('mouseup', onUp, { capture: true });
  addEventListener('input', onInput, { capture: true });
  const look = () => {
    if (s.end !== undefined) return;
    s.dimmed ||= results.classList.contains('is-busy');
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
  globalThis.__glassDrag = () => {
    seen.disconnect();
    removeEventListener('mousedown', onDown, { capture: true });
    removeEventListener('mouseup', onUp, { capture: true });
    removeEventListener('input', onInput, { capture: true });
    if (s.t0 === undefined || s.end === undefined) throw new Error('the page saw no press and release of the mouse during the drag');
    const at = s.shown.filter((t) => t >= s.t0).map((t) => t - s.t0);
    const ms = s.end - s.t0;
    return { inputs: s.inputs, ms, during: at.filter((t) => t <= ms), after: at.filter((t) => t > ms), dimmed: s.dimmed };
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The slider dragged with the mouse across its whole track in about `ms`: pressed at its left end, moved at
 * most every 8 ms (each move waits until the page has taken the one before, as a busy page makes a real
 * mouse's moves queue), released at its right end. The browser sends an input whenever the value changes
 * (the slider snaps to its steps). Returns the inputs, the drag's length as the page saw it (press to
 * release), when each new result appeared (ms after the press; while the drag lasted, and after it until
 * `settleMs` later), and whether the results were dimmed as behind at any frame of it.
 */
export async function drag(page, ms, settleMs = 1500) {
  const { slider, box } = await findSlider(page);
  const y = box.y + box.height / 2;
  const [left, right] = [box.x + 1, box.x + box.width - 1];
  await page.mouse.move(left, y);
  await slider.evaluate(armDrag);
  await page.mouse.down();
  const start = performance.now();
  for (let t = 0; t < ms; t = performance.now() - start) await Promise.all([page.mouse.move(left + (right - left) * (t / ms), y), sleep(8)]);
  await page.mouse.move(right, y);
  await page.mouse.up();
  await sleep(settleMs);
  return page.evaluate(() => globalThis.__glassDrag());
}
