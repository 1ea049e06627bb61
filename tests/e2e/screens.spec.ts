// Every screen size, and accessibility, on every page a learner can open: each
// view (and the inspector's tensor, gradient and compare variants) and every
// step of every lesson. One pass per page: open it at 1280 px by deep link and
// wait for the core's values (a lesson step's live values, code cells and
// widgets must wait for the weights, and none may fail), then at 1280, 768 and
// 390 px, with every card drawn (the inspector's skip their drawing while out
// of view: sideways.ts):
//   - nothing scrolls sideways (documentElement.scrollWidth <= the viewport);
//   - no readout (<output>, such as "c = 2e-7") wraps onto two lines;
//   - no autograd-graph arrow lacks a card on either side (a row of cards wraps);
//   - no code cell is shorter than its code; no block-diagram label overlaps another;
//   - axe finds no serious or critical violation (all rules at 1280 px; at 390 px,
//     where scroll boxes appear, all but colour contrast, which does not change);
// and a full-page screenshot is saved as build/screenshots/widths/<width>-<page>.png.
// Then, on a lesson step, with what its predictions hide shown: what a learner
// reads (no text for developers, what to notice under every plot and table:
// expectLearnerText in lessonWalk.ts).
//
// Views come from the app (VIEWS) and lessons from web/src/lessons/*.md, so a
// new view or lesson step is covered without editing this file.
import { readdirSync } from 'node:fs';
import { axe } from './axe';
import { test as base, expect, type Page } from '@playwright/test';
import { VIEWS } from '../../web/src/app/urlState';
import { SHOTS, expectLearnerText, lessonCounts, stepShown } from './lessonWalk';
import { withEveryCardDrawn } from './sideways';

// One page for all the screens a worker tests: each screen is still a fresh load by
// deep link with empty storage, but not in a new browser context. A new context
// (a new renderer process, the core compiled again) costs more than the load: six
// loads of the lab took 10.3 CPU-seconds in new contexts and 4.6 in one page, and
// this file opens 80-odd screens. After a failed test Playwright starts a new
// worker, so a failure cannot leave its page to the next screen.
const test = base.extend<object, { shared: Page }>({
  shared: [
    async ({ browser }, use, workerInfo) => {
      const { baseURL, serviceWorkers } = workerInfo.project.use;
      const context = await browser.newContext({ baseURL, serviceWorkers });
      await use(await context.newPage());
      await context.close();
    },
    { scope: 'worker' },
  ],
});

/** Opens `url` as a first visit would: nothing kept from the screen before (lesson progress, settings). */
async function openFresh(page: Page, url: string) {
  if (page.url().startsWith('http'))
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
  await page.goto(url);
}

const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 768, height: 1024 },
  { width: 390, height: 844 },
];
const AXE_WIDTHS = new Set([1280, 390]);

interface Screen {
  name: string;
  url: string;
  ready: (page: Page) => Promise<void>;
  /** Checked last, at 1280 px: it may change the page (show what a prediction hides). */
  after?: (page: Page) => Promise<void>;
}

/** What each view shows once the core has answered; a view not listed here is ready when its heading is. */
const VIEW_READY: Record<string, (page: Page) => Promise<void>> = {
  lab: async (page) => {
    await expect(page.getByTestId('rms-readout')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('readout-output').locator('[data-value]').first()).toBeVisible();
  },
  inspector: async (page) => {
    await expect(page.getByTestId('inspector-results')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('heatmap').first()).toBeVisible();
  },
  lessons: async (page) => {
    await expect(page.locator('[data-testid^="lesson-card-"]').first()).toBeVisible();
  },
};

async function viewReady(page: Page, view: string) {
  await expect(page.locator('main :is(h1, h2)').first()).toBeVisible({ timeout: 20_000 });
  await VIEW_READY[view]?.(page);
}

const views: Screen[] = VIEWS.map((view) => ({ name: `view-${view}`, url: `./?view=${view}`, ready: (page) => viewReady(page, view) }));

const inspectorVariants: Screen[] = [
  ['inspector-logits', '&tensor=logits'],
  ['inspector-gradient', '&tensor=blocks.2.attn&of=grad'],
  ['inspector-compare', '&tensor=blocks.1.resid.ffn&compare=blocks.1.norm.attn,blocks.1.resid.attn'],
].map(([name, query]) => ({ name, url: `./?view=inspector${query}`, ready: (page) => viewReady(page, 'inspector') }));

const lessonSlugs = readdirSync('web/src/lessons')
  .filter((f) => f.endsWith('.md'))
  .map((f) => f.slice(0, -3))
  .sort();

const lessonSteps: Screen[] = lessonSlugs.flatMap((slug) =>
  Array.from({ length: lessonCounts(slug).steps }, (_, i) => ({
    name: `${slug}-${i + 1}`,
    url: `./?view=lessons&lesson=${slug}&step=${i + 1}`,
    // a fresh load by deep link: live values, code cells and widgets wait for the weights, and none fails
    ready: async (page: Page) => {
      await stepShown(page, i + 1);
      await expect(page.locator('.md-live-pending')).toHaveCount(0, { timeout: 20_000 });
      await expect(page.locator('.md-live-error'), `${slug} step ${i + 1}`).toHaveCount(0);
      for (const out of await page.getByTestId('code-output').all()) await expect(out).not.toHaveText('Running…', { timeout: 20_000 });
      await expect(page.locator('.code-cell-error'), `${slug} step ${i + 1}`).toHaveCount(0);
      await expect(page.locator('.lesson-error'), `${slug} step ${i + 1}`).toHaveCount(0);
    },
    after: (page: Page) => expectLearnerText(page, `${slug} step ${i + 1}`),
  })),
);

/** The elements that stick out past the right edge (not inside a box that scrolls or clips) while their parent does not: where a sideways scroll starts. */
function overflowOrigins(): string[] {
  const width = document.documentElement.clientWidth;
  const clipped = (el: Element) => {
    for (let a = el.parentElement; a !== null && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') return true;
    return false;
  };
  const out: string[] = [];
  for (const el of document.body.querySelectorAll('*')) {
    const right = el.getBoundingClientRect().right;
    const parent = el.parentElement!;
    if (right > width + 0.5 && (parent === document.body || parent.getBoundingClientRect().right <= width + 0.5) && !clipped(el)) {
      const testid = el.getAttribute('data-testid');
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      out.push(`${el.tagName.toLowerCase()}${cls}${testid ? `[data-testid=${testid}]` : ''} right=${Math.round(right)}`);
    }
  }
  return out.slice(0, 8);
}

/** Slider and other readouts (<output>) that take more than one line ("c = 2e-" / "7"). */
function wrappedOutputs(): string[] {
  return [...document.querySelectorAll('output')]
    .filter((o) => {
      if (o.getClientRects().length === 0) return false; // not shown
      const range = document.createRange();
      range.selectNodeContents(o);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      return tops.size > 1;
    })
    .map((o) => o.textContent!.trim());
}

/** Arrows of an autograd graph (GraphChain) that show without a card on both sides in the same row. */
function danglingArrows(): string[] {
  const shown = (el: Element) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0) return false;
    for (let a = el.parentElement; a !== null && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX === 'visible') continue;
      const box = a.getBoundingClientRect();
      if (r.right <= box.left + 0.5 || r.left >= box.right - 0.5) return false;
    }
    return true;
  };
  const cards = [...document.querySelectorAll('.rms-graph-card')].map((c) => c.getBoundingClientRect());
  const out: string[] = [];
  for (const arrow of document.querySelectorAll('.rms-graph-arrow')) {
    if (arrow.textContent!.trim() === '' || !shown(arrow)) continue;
    const a = arrow.getBoundingClientRect();
    const sameRow = (c: DOMRect) => c.top < a.bottom && c.bottom > a.top;
    const before = cards.some((c) => sameRow(c) && c.right <= a.left + 1);
    const after = cards.some((c) => sameRow(c) && c.left >= a.right - 1);
    if (!before || !after) out.push(`arrow at (${Math.round(a.left)}, ${Math.round(a.top)}) has no card ${before ? 'after' : 'before'} it`);
  }
  return out;
}

/** Code cells whose box is shorter than their code (an inner scrollbar). */
function crampedCodeCells(): string[] {
  return [...document.querySelectorAll<HTMLTextAreaElement>('textarea.code-cell-source')]
    .filter((t) => t.scrollHeight > t.clientHeight + 1)
    .map((t) => `${t.value.split('\n')[0]}… (${t.scrollHeight} px of code in ${t.clientHeight} px)`);
}

/** Labels of the block diagram (RMSNorm lesson) drawn over one another. */
function overlappingDiagramLabels(): string[] {
  const texts = [...document.querySelectorAll<SVGTextElement>('.block-diagram svg text')].map((t) => ({ text: t.textContent!, box: t.getBoundingClientRect() }));
  const out: string[] = [];
  texts.forEach((a, i) =>
    texts.slice(i + 1).forEach((b) => {
      const x = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
      const y = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
      if (x > 0.5 && y > 0.5) out.push(`"${a.text}" / "${b.text}"`);
    }),
  );
  return out;
}

async function axeProblems(page: Page, all = true): Promise<string[]> {
  const builder = axe(page);
  if (!all) builder.disableRules(['color-contrast']);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(' | ')}`);
}

/** Two frames after a resize, so layout and any redraw have happened. */
const settle = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

for (const screen of [...views, ...inspectorVariants, ...lessonSteps]) {
  test(`${screen.name}: no sideways scroll at ${WIDTHS.map((w) => w.width).join(', ')} px, no serious axe violation${screen.after ? ', text for learners' : ''}`, async ({ shared: page }) => {
    await page.setViewportSize(WIDTHS[0]);
    await openFresh(page, screen.url);
    await screen.ready(page);
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      const at = `${screen.name} at ${size.width} px`;
      // every card drawn, as a learner scrolling down the page finds each one (the settle covers the resize too)
      await withEveryCardDrawn(page, async () => {
        await settle(page);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect.soft(scrollWidth, `${at} scrolls sideways; sticking out: ${(await page.evaluate(overflowOrigins)).join(', ')}`).toBeLessThanOrEqual(size.width);
        expect.soft(await page.evaluate(wrappedOutputs), `${at}: readouts that wrap`).toEqual([]);
        expect.soft(await page.evaluate(danglingArrows), `${at}: graph arrows without a card on each side`).toEqual([]);
        expect.soft(await page.evaluate(crampedCodeCells), `${at}: code cells that scroll inside`).toEqual([]);
        expect.soft(await page.evaluate(overlappingDiagramLabels), `${at}: overlapping diagram labels`).toEqual([]);
        if (AXE_WIDTHS.has(size.width)) expect.soft(await axeProblems(page, size.width === 1280), `${at}: axe`).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/widths/${size.width}-${screen.name}.png`, fullPage: true });
      });
    }
    if (screen.after) {
      await page.setViewportSize(WIDTHS[0]);
      await screen.after(page);
    }
  });
}
