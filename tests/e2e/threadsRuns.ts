// What the thread specs compare, bit for bit, between thread counts and between
// the threaded and the single-threaded build of the core: the shipped model's
// forward + backward on 128 bytes as the inspector gets it (glass.model.run, in
// the core worker), and a 20-step training run (glass.train.run, in a trainer
// worker). The thread count is the page's own setting (localStorage, read by a
// worker when it starts); the page is loaded again after setting it.
import type { Page } from '@playwright/test';

export const TEXT = 'In the beginning God created the heaven and the earth. And the earth was without form, and void; and darkness was upon the face'.padEnd(128, '.').slice(0, 128);
// small, but its products are large enough for the kernels to split (several row blocks)
export const SMALL = { blocks: 2, d: 64, heads: 4, ctx: 64, norm: 'pre', normKind: 'rms', residual: true, eps: 1e-6, initScale: 'depth', dtype: 'float32' };

export interface Runs {
  /** The footer line's summary. */
  line: string;
  isolated: boolean;
  loss: number;
  /** Every snapshot's value and gradient, flattened, by name. */
  tensors: Record<string, number[]>;
  losses: number[];
  gradNorms: number[][];
}

/** Loads `url` with the thread setting `threads` (null: none chosen) and computes both runs. */
export async function runsAt(page: Page, url: string, threads: number | null): Promise<Runs> {
  await page.goto(url);
  await page.evaluate((n) => (n === null ? localStorage.removeItem('glassllm.threads') : localStorage.setItem('glassllm.threads', String(n))), threads);
  await page.goto(url);
  const line = (await page.getByTestId('threads-line').locator('summary').textContent({ timeout: 30_000 })) ?? '';
  return {
    line,
    ...(await page.evaluate(
      async ({ text, config }) => {
        const g = (globalThis as any).glass;
        const run = await g.model.run(text, { backward: true, dtype: 'float32' });
        const tensors: Record<string, number[]> = {};
        for (const [name, t] of Object.entries(run.snapshots as Record<string, { data: ArrayLike<number> }>)) tensors[name] = Array.from(t.data);
        for (const [name, t] of Object.entries(run.grads as Record<string, { data: ArrayLike<number> }>)) tensors[`grad ${name}`] = Array.from(t.data);
        const t = await g.train.run({ config, steps: 20, batch: 8, lr: 3e-3, warmup: 2, seed: 5 });
        return { isolated: crossOriginIsolated, loss: run.loss, tensors, losses: t.losses, gradNorms: t.gradNorms };
      },
      { text: TEXT, config: SMALL },
    )),
  };
}

/** Where two runs differ (empty: bit for bit the same). */
export function differences(a: Runs, b: Runs): string[] {
  const out: string[] = [];
  if (!Object.is(a.loss, b.loss)) out.push(`loss ${a.loss} vs ${b.loss}`);
  const names = Object.keys(a.tensors);
  if (names.join() !== Object.keys(b.tensors).join()) out.push('different tensor names');
  for (const n of names) {
    const x = a.tensors[n];
    const y = b.tensors[n] ?? [];
    const i = x.findIndex((v, k) => !Object.is(v, y[k]));
    if (i >= 0 || x.length !== y.length) out.push(`${n}[${i}] ${x[i]} vs ${y[i]}`);
  }
  a.losses.forEach((l, i) => Object.is(l, b.losses[i]) || out.push(`training loss at step ${i + 1}: ${l} vs ${b.losses[i]}`));
  if (JSON.stringify(a.gradNorms) !== JSON.stringify(b.gradNorms)) out.push('training gradient norms differ');
  return out;
}
