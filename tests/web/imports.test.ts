// Importing a module of the page starts nothing: no Worker, no reading of the
// address, no listeners. Only main.tsx starts the app (app/state.ts startApp),
// so tests and widgets can import any of these freely. Runs in Node, where a
// module that touched `location` or `document` at import would fail to load,
// and where a Worker constructed at import is caught here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const modules = import.meta.glob([
  '../../web/src/widgets/**/*.{ts,tsx}',
  '../../web/src/viewmodels/*.ts',
  '../../web/src/lessons/*.{ts,tsx}',
  '../../web/src/app/**/*.{ts,tsx}',
]);

const started: string[] = [];
beforeAll(() => {
  (globalThis as { Worker?: unknown }).Worker = class {
    constructor(url: unknown) {
      started.push(String(url));
    }
  };
});
afterAll(() => {
  delete (globalThis as { Worker?: unknown }).Worker;
});

describe('importing a widget (or any page module) starts nothing', () => {
  it('finds the modules', () => {
    expect(Object.keys(modules).filter((m) => m.includes('/widgets/lessons/')).length).toBeGreaterThan(15);
  });
  it.each(Object.keys(modules))('%s', async (path) => {
    await modules[path]();
    expect(started, `${path} started a Worker at import`).toEqual([]);
  });
});
