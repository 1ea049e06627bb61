// Training in the browser, on the real wasm core: the TrainSession bindings
// (cpp/wasm/train_bindings.cpp), the trainer worker's loop (worker/trainer/runner.ts)
// driven as main.ts drives it, and the page's client (app/trainClient.ts) over
// an in-thread stand-in for the Worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Glass } from '../../web/src/core';
import { Model } from '../../web/src/core/model';
import { TrainSession, type TrainModelConfig, type TrainOptions, type TrainStepResult } from '../../web/src/core/trainSession';
import { memoryRunStore, type RunStore, type SavedRun } from '../../web/src/common/trainStore';
import type { RunSpec, StepReport, TrainEvent } from '../../web/src/protocol/train';
import { DEFAULT_MODEL_CONFIG, DEFAULT_TRAIN_SETTINGS, minTextBytes } from '../../web/src/protocol/trainSettings';
import { TrainerRunner, type TrainerHost } from '../../web/src/worker/trainer/runner';
import { TrainClient } from '../../web/src/app/trainClient';
import { consoleRunSpec, consoleTrainRun } from '../../web/src/app/consoleTrain';
import type { WorkerLike } from '../../web/src/app/coreClient';
import { loadTestGlass } from './load';

let glass: Glass;
beforeAll(async () => {
  glass = await loadTestGlass();
});
afterAll(() => expect(glass.liveHandles()).toBe(0));

const TEXT = Array.from({ length: 60 }, (_, i) => `In the beginning ${i} God created the heaven and the earth. `).join('');

const SMALL: TrainModelConfig = { ...DEFAULT_MODEL_CONFIG, blocks: 2, d: 32, heads: 2, ctx: 32 };
const OPTIONS: TrainOptions = { steps: 6, batch: 4, lr: 1e-2, warmup: 2, clip: 1, weightDecay: 0.1, seed: 3, evalEvery: 3 };

/** Byte-for-byte equality (expect().toEqual walks a big Uint8Array slowly). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

function steps(s: TrainSession, n: number): TrainStepResult[] {
  const out: TrainStepResult[] = [];
  for (let i = 0; i < n; i++) {
    const r = s.step();
    if (r.diverged !== null) throw new Error(r.diverged.message);
    out.push(r);
  }
  return out;
}

describe('TrainSession (cpp/wasm/train_bindings.cpp)', () => {
  it('steps, evaluates, and reports per-block gradient norms and the residual RMS by depth', () => {
    const s = TrainSession.create(glass, SMALL, OPTIONS, TEXT);
    try {
      expect(s.config()).toEqual(SMALL);
      expect(s.depthNames()).toEqual(['embed', 'blocks.0.resid.ffn', 'blocks.1.resid.ffn']);
      const post = TrainSession.create(glass, { ...SMALL, norm: 'post', residual: false }, OPTIONS, TEXT);
      expect(post.depthNames()).toEqual(['embed', 'blocks.0.norm.ffn', 'blocks.1.norm.ffn']);
      post.dispose();
      expect(s.trainBytes + s.valBytes).toBe(new TextEncoder().encode(TEXT).length);
      expect(s.valBytes).toBe(Math.floor(TEXT.length * 0.05));
      expect(s.parameters).toBeGreaterThan(0);
      const rs = steps(s, 6);
      expect(rs.map((r) => r.step)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(rs[0].loss).toBeCloseTo(Math.log(256), 1);
      expect(rs[5].loss).toBeLessThan(rs[0].loss);
      expect(rs.map((r) => r.valLoss !== null)).toEqual([false, false, true, false, false, true]);
      expect(rs[5].valLoss).toBeCloseTo(s.validationLoss(), 12);
      for (const r of rs) {
        expect(r.blockGradNorms).toHaveLength(2);
        expect(r.residRms).toHaveLength(3);
        expect(Math.hypot(...r.blockGradNorms)).toBeLessThanOrEqual(r.gradNorm * (1 + 1e-12));
        expect(r.residRms.every((x) => x > 0)).toBe(true);
      }
      expect(() => s.step()).toThrow(/the run is finished \(6 steps\)/); // past the end: an error, not a divergence
    } finally {
      s.dispose();
    }
  });

  it('a checkpoint restored into a new session continues bit for bit; weights load into the inspector with their config', () => {
    const straight = TrainSession.create(glass, SMALL, OPTIONS, TEXT);
    const first = TrainSession.create(glass, SMALL, OPTIONS, TEXT);
    const resumed = TrainSession.create(glass, SMALL, { ...OPTIONS }, TEXT);
    const model = Model.create(glass);
    try {
      const want = steps(straight, 6).map((r) => r.loss);
      const got = steps(first, 3).map((r) => r.loss);
      resumed.restore(first.checkpoint());
      expect(resumed.stepsDone).toBe(3);
      got.push(...steps(resumed, 3).map((r) => r.loss));
      expect(got).toEqual(want);
      expect(sameBytes(resumed.weights(), straight.weights())).toBe(true);

      const info = model.loadWeights(straight.weights());
      expect(info).toMatchObject({ blocks: 2, d: 32, heads: 2, context: 32, norm: 'pre', normKind: 'rms', residual: true, initScale: 'depth', dtype: 'float32' });
      // fine-tuning from those weights: the file's config wins over nothing else given
      const tuned = TrainSession.fromWeights(glass, straight.weights(), OPTIONS, TEXT);
      expect(tuned.config()).toEqual(SMALL);
      tuned.dispose();
    } finally {
      for (const s of [straight, first, resumed, model]) s.dispose();
    }
  });

  it('samples the same bytes for the same seed', () => {
    const s = TrainSession.create(glass, SMALL, OPTIONS, TEXT);
    try {
      const a = s.sample('In the', 50, 7);
      expect(a).toBeInstanceOf(Uint8Array);
      expect(a.length).toBe(50);
      expect(s.sample('In the', 50, 7)).toEqual(a);
      expect(s.sample('In the', 50, 8)).not.toEqual(a);
    } finally {
      s.dispose();
    }
  });

  it('a diverging run names the step and what blew up, and keeps its last good state', () => {
    const cfg = { ...SMALL, blocks: 12, norm: 'none' as const };
    const s = TrainSession.create(glass, cfg, { ...OPTIONS, steps: 30, lr: 1, warmup: 0, clip: 0 }, TEXT);
    try {
      expect(s.step().diverged).toBeNull();
      const before = s.checkpoint();
      const r = s.step();
      expect(r.diverged).toEqual({ step: 2, what: 'loss', message: 'step 2: the loss is NaN; the update was not applied' });
      expect(s.stepsDone).toBe(1);
      expect(sameBytes(s.checkpoint(), before)).toBe(true);
    } finally {
      s.dispose();
    }
  });

  it('refuses bad settings and too short a text with a clear message', () => {
    const refuse = (config: TrainModelConfig, options: TrainOptions, text: string) => () => TrainSession.create(glass, config, options, text).dispose();
    expect(refuse({ ...SMALL, heads: 3 }, OPTIONS, TEXT)).toThrow(/heads must divide d/);
    expect(refuse({ ...SMALL, blocks: 25 }, OPTIONS, TEXT)).toThrow(/blocks must be a whole number from 1 to 24, got 25/);
    expect(refuse({ ...SMALL, norm: 'middle' as 'pre' }, OPTIONS, TEXT)).toThrow(/middle/);
    expect(refuse(SMALL, { ...OPTIONS, lr: 0 }, TEXT)).toThrow(/lr must be above 0/);
    expect(refuse(SMALL, { ...OPTIONS, batch: 2.5 }, TEXT)).toThrow(/batch must be a whole number/);
    expect(refuse({ ...SMALL, blocks: 24, d: 256, heads: 4, ctx: 256 }, { ...OPTIONS, batch: 512 }, TEXT)).toThrow(/lower the batch/);
    const need = minTextBytes(32);
    expect(refuse(SMALL, OPTIONS, 'x'.repeat(need - 1))).toThrow(new RegExp(`is ${need - 1} bytes; with a context of 32 bytes training needs at least ${need}`));
    expect(refuse(SMALL, OPTIONS, 'x'.repeat(need))).not.toThrow();
  });
});

// ---------------------------------------------------------------- the worker's loop

interface Harness {
  runner: TrainerRunner;
  events: TrainEvent[];
  /** Resolves when an event of this type (and matching test) arrives. */
  next(type: TrainEvent['type'], test?: (e: TrainEvent) => boolean): Promise<TrainEvent>;
}

function harness(store: RunStore | null = memoryRunStore(), files: Record<string, ArrayBuffer> = {}): Harness {
  const events: TrainEvent[] = [];
  const waiters: { type: string; test?: (e: TrainEvent) => boolean; resolve: (e: TrainEvent) => void }[] = [];
  const host: TrainerHost = {
    glass,
    post(event) {
      events.push(event);
      for (const w of [...waiters])
        if (w.type === event.type && (!w.test || w.test(event))) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(event);
        }
    },
    store,
    async fetchBytes(url) {
      if (!(url in files)) throw new Error(`404 ${url}`);
      return files[url].slice(0);
    },
    yieldToEvents: () => new Promise((r) => setTimeout(r, 0)),
    now: () => performance.now(),
  };
  const runner = new TrainerRunner(host);
  return {
    runner,
    events,
    next(type, test) {
      const seen = events.find((e) => e.type === type && (!test || test(e)));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ type, test, resolve }));
    },
  };
}

function spec(over: Partial<RunSpec> = {}, train: Partial<RunSpec['train']> = {}): RunSpec {
  return {
    run: 'A',
    config: SMALL,
    train: { ...DEFAULT_TRAIN_SETTINGS, steps: 8, batch: 4, warmup: 2, evalEvery: 4, sampleEvery: 4, sampleLength: 20, ...train },
    data: { kind: 'text', text: TEXT, label: 'the test text' },
    init: { kind: 'scratch' },
    ...over,
  };
}

const reports = (events: TrainEvent[]): StepReport[] => events.flatMap((e) => (e.type === 'step' ? [e.report] : []));

describe('the trainer worker loop (worker/trainer/runner.ts)', () => {
  it('runs to the end: started, a step report each step, samples, kept checkpoints, stopped', async () => {
    const h = harness();
    await h.runner.receive({ type: 'start', spec: spec() });
    const stopped = await h.next('stopped');
    await h.runner.flushed();
    const types = h.events.map((e) => e.type);
    expect(types[0]).toBe('started');
    expect(types.filter((t) => t === 'step')).toHaveLength(8);
    expect(stopped).toMatchObject({ step: 8, finished: true });
    const rs = reports(h.events);
    expect(rs.map((r) => r.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(rs.map((r) => r.valLoss !== null)).toEqual([false, false, false, true, false, false, false, true]);
    expect((stopped as { valLoss: number }).valLoss).toBe(rs[7].valLoss);
    for (const r of rs) {
      expect(r.tokensPerSecond).toBeGreaterThan(0);
      expect(r.etaSeconds).toBeGreaterThanOrEqual(0);
      expect(r.residRms).toHaveLength(3);
    }
    const samples = h.events.filter((e) => e.type === 'sample');
    expect(samples.map((e) => (e as { step: number }).step)).toEqual([4, 8]);
    expect(samples[0]).toMatchObject({ prompt: 'In the beginning 0 God c' });
    expect(h.events.filter((e) => e.type === 'saved').map((e) => (e as { step: number }).step)).toEqual([4, 8]);
    const started = h.events[0] as Extract<TrainEvent, { type: 'started' }>;
    expect(started.config).toEqual(SMALL);
    expect(started.depthNames).toEqual(['embed', 'blocks.0.resid.ffn', 'blocks.1.resid.ffn']);
    expect(started.train).toEqual(spec().train);
    expect(started.dataLabel).toBe('the test text');
    // the same settings straight through the session: the same losses, bit for bit
    const s = TrainSession.create(glass, SMALL, { ...spec().train, evalWindows: 256 }, TEXT);
    expect(steps(s, 8).map((r) => r.loss)).toEqual(rs.map((r) => r.loss));
    s.dispose();
  });

  it('pauses, resumes, saves and stops', async () => {
    const h = harness();
    await h.runner.receive({ type: 'start', spec: spec({}, { steps: 400, evalEvery: 0, sampleEvery: 0 }) });
    await h.next('step');
    await h.runner.receive({ type: 'pause' });
    const paused = (await h.next('paused')) as { step: number };
    const count = reports(h.events).length;
    await new Promise((r) => setTimeout(r, 100));
    expect(reports(h.events).length).toBe(count); // nothing trains while paused
    expect(paused.step).toBe(count);
    await h.runner.receive({ type: 'save' });
    const w = (await h.next('weights')) as { bytes: ArrayBuffer; fileName: string };
    expect(w.fileName).toBe(`glassllm-A-step${count}.safetensors`);
    const model = Model.create(glass);
    expect(model.loadWeights(new Uint8Array(w.bytes)).blocks).toBe(2);
    model.dispose();
    await h.runner.receive({ type: 'resume' });
    await h.next('resumed');
    await h.next('step', (e) => e.type === 'step' && e.report.step > count);
    await h.runner.receive({ type: 'stop' });
    const stopped = (await h.next('stopped')) as { step: number; finished: boolean; valLoss: number };
    expect(stopped.finished).toBe(false);
    expect(stopped.step).toBeLessThan(400);
    expect(stopped.valLoss).toBeGreaterThan(0);
    await h.runner.receive({ type: 'pause' });
    expect(h.events.at(-1)).toMatchObject({ type: 'error', fatal: false, error: { message: 'nothing to pause: the run has ended' } });
  });

  it('resumes a kept run after a "reload" exactly where it was', async () => {
    // the store as it was when the checkpoint at step 4 was written
    let atStep4: SavedRun | undefined;
    const recording = memoryRunStore();
    const spy: RunStore = { ...recording, put: async (r) => { if (r.step === 4) atStep4 = { ...r, checkpoint: r.checkpoint.slice(0) }; return recording.put(r); } };
    const a = harness(spy);
    await a.runner.receive({ type: 'start', spec: spec() });
    await a.next('stopped');
    await a.runner.flushed();
    expect(atStep4).toBeDefined();

    const reloaded = memoryRunStore();
    await reloaded.put(atStep4!);
    expect(await reloaded.list()).toEqual([{ key: 'A', step: 4, total: 8, savedAt: atStep4!.savedAt }]);
    const b = harness(reloaded);
    await b.runner.receive({ type: 'resume-saved', key: 'A' });
    await b.next('stopped');
    expect(b.events.find((e) => e.type === 'started')).toMatchObject({ train: spec().train, dataLabel: 'the test text', config: SMALL });
    const history = b.events.find((e) => e.type === 'history') as { reports: StepReport[] };
    expect(history.reports.map((r) => r.step)).toEqual([1, 2, 3, 4]);
    const all = reports(a.events);
    expect(reports(b.events).map((r) => r.loss)).toEqual(all.slice(4).map((r) => r.loss));
    expect(reports(b.events)[3].valLoss).toBe(all[7].valLoss);
    await b.runner.receive({ type: 'resume-saved', key: 'B' });
    expect(b.events.at(-1)).toMatchObject({ type: 'error', error: { message: 'no saved run named "B"' } });
  });

  it('reports a divergence with the step and what, and save still gives the last good weights', async () => {
    const h = harness();
    await h.runner.receive({ type: 'start', spec: spec({ config: { ...SMALL, blocks: 12, norm: 'none' } }, { lr: 1, warmup: 0, clip: 0, steps: 30 }) });
    const d = await h.next('diverged');
    expect(d).toEqual({ type: 'diverged', step: 2, what: 'loss', message: 'step 2: the loss is NaN; the update was not applied' });
    expect(reports(h.events)).toHaveLength(1);
    await h.runner.receive({ type: 'save' });
    expect(await h.next('weights')).toMatchObject({ fileName: 'glassllm-A-step1.safetensors' });
  });

  it('fetches the KJV excerpt only for the kjv source, and fine-tunes shipped weights with their config', async () => {
    const kjv = new TextEncoder().encode(TEXT).buffer as ArrayBuffer;
    const base = TrainSession.create(glass, SMALL, OPTIONS, TEXT);
    const weights = base.weights();
    base.dispose();
    const files = { 'http://site/data/kjv-excerpt.txt': kjv, 'http://site/weights/w.safetensors': weights.buffer.slice(0) as ArrayBuffer };
    const h = harness(null, files);
    await h.runner.receive({
      type: 'start',
      spec: spec({ data: { kind: 'kjv', url: 'http://site/data/kjv-excerpt.txt' }, init: { kind: 'shipped', url: 'http://site/weights/w.safetensors' }, config: DEFAULT_MODEL_CONFIG }, { steps: 2 }),
    });
    await h.next('stopped');
    expect(h.events.find((e) => e.type === 'started')).toMatchObject({ config: SMALL });
    const missing = harness(null, {});
    await missing.runner.receive({ type: 'start', spec: spec({ data: { kind: 'kjv', url: 'http://site/nothing.txt' } }) });
    expect(missing.events.at(-1)).toMatchObject({ type: 'error', error: { message: 'the KJV excerpt could not be loaded (404 http://site/nothing.txt)' } });
  });

  it('checks every command and every setting, and refuses bad data by name', async () => {
    const h = harness();
    const lastError = () => (h.events.at(-1) as Extract<TrainEvent, { type: 'error' }>).error.message;
    await h.runner.receive({ type: 'go' });
    expect(lastError()).toBe('unknown command type "go"');
    await h.runner.receive(null);
    expect(lastError()).toBe('command must be an object');
    await h.runner.receive({ type: 'start', spec: { ...spec(), train: { ...spec().train, lr: '1' } } });
    expect(lastError()).toBe('spec.train.lr must be a number');
    await h.runner.receive({ type: 'start', spec: spec({}, { lr: 5 }) });
    expect(lastError()).toBe('learning rate must be from 0.000001 to 1, got 5');
    await h.runner.receive({ type: 'start', spec: spec({ config: { ...SMALL, d: 48, heads: 16 } }) });
    expect(lastError()).toBe('each head\'s width d / heads must be even (RoPE turns pairs of numbers): d 48 / 16 heads = 3');
    await h.runner.receive({ type: 'start', spec: spec({ config: { ...SMALL, d: 30, heads: 4 } }) });
    expect(lastError()).toMatch(/heads must divide the width d/);
    await h.runner.receive({ type: 'start', spec: spec({}, { warmup: 9 }) });
    expect(lastError()).toBe('warmup steps (9) must not exceed the steps (8)');
    const file = (bytes: Uint8Array | ArrayBuffer, name = 'notes.txt'): RunSpec =>
      spec({ data: { kind: 'file', bytes: bytes instanceof Uint8Array ? (bytes.buffer.slice(0) as ArrayBuffer) : bytes, name } });
    await h.runner.receive({ type: 'start', spec: file(new Uint8Array([104, 105, 0, 1, 2]), 'a.bin') });
    expect(lastError()).toBe('"a.bin" looks like a binary file, not text (it has a zero byte at position 2)');
    await h.runner.receive({ type: 'start', spec: file(new Uint8Array([104, 0xc3, 0x28, 105])) });
    expect(lastError()).toBe('"notes.txt" is not UTF-8 text (save it as UTF-8 and try again)');
    await h.runner.receive({ type: 'start', spec: file(new ArrayBuffer(50 * 1024 * 1024 + 1), 'big.txt') });
    expect(lastError()).toBe('"big.txt" is 50.0 MB; a training text may be at most 50.0 MB');
    await h.runner.receive({ type: 'start', spec: file(new TextEncoder().encode('short text')) });
    expect(lastError()).toBe(`"notes.txt" is 10 bytes; with a context of 32 bytes training needs at least ${minTextBytes(32)} (5% is held out for the validation loss and must hold one whole window)`);
    await h.runner.receive({ type: 'start', spec: spec({ data: { kind: 'text', text: 'a\uD800b'.repeat(400), label: 'the pasted text' } }) });
    expect(lastError()).toMatch(/^the pasted text has a broken character/);
    await h.runner.receive({ type: 'save' });
    expect(lastError()).toBe('no run has started yet');
    // a share of threads is taken at any time, up to what the core has (1 in this build): no error
    const before = h.events.length;
    await h.runner.receive({ type: 'threads', n: 4 });
    expect(glass.threads()).toBe(Math.min(4, glass.maxThreads()));
    expect(h.events).toHaveLength(before);
    expect(h.events.every((e) => e.type === 'error' && !e.fatal)).toBe(true);
  });
});

// ---------------------------------------------------------------- the page's client

/** A Worker stand-in: the real runner in this thread, messages cloned as postMessage would. */
function inThreadWorker(store = memoryRunStore()): WorkerLike & { terminated: boolean; fail(message: string): void; raw(data: unknown): void } {
  let runner: TrainerRunner;
  const w = {
    onmessage: null as ((e: MessageEvent) => void) | null,
    onerror: null as ((e: ErrorEvent) => void) | null,
    onmessageerror: null as ((e: MessageEvent) => void) | null,
    terminated: false,
    postMessage(message: unknown) {
      if (!this.terminated) void runner.receive(structuredClone(message));
    },
    terminate() {
      this.terminated = true;
    },
    fail(message: string) {
      this.onerror?.({ message, preventDefault() {} } as ErrorEvent);
    },
    raw(data: unknown) {
      this.onmessage?.({ data } as MessageEvent);
    },
  };
  runner = new TrainerRunner({
    glass,
    post: (event) => {
      if (!w.terminated) setTimeout(() => w.onmessage?.({ data: structuredClone(event) } as MessageEvent), 0);
    },
    store,
    fetchBytes: async (url) => {
      throw new Error(`404 ${url}`);
    },
    yieldToEvents: () => new Promise((r) => setTimeout(r, 0)),
    now: () => performance.now(),
  });
  return w;
}

describe('TrainClient (app/trainClient.ts)', () => {
  it('drives a run end to end and hands every event to its listeners', async () => {
    const client = new TrainClient(() => inThreadWorker(), 'http://site/');
    const events: TrainEvent[] = [];
    const done = new Promise<void>((resolve) => client.on((e) => (events.push(e), e.type === 'stopped' && resolve())));
    client.start(spec({ run: 'console' }, { steps: 3, evalEvery: 0, sampleEvery: 0 }));
    await done;
    expect(events.map((e) => e.type).filter((t) => t !== 'saved')).toEqual(['started', 'step', 'step', 'step', 'stopped']);
    client.dispose();
  });

  it('refuses a message of the wrong shape, and replaces a worker that dies', async () => {
    const workers: ReturnType<typeof inThreadWorker>[] = [];
    const client = new TrainClient(() => {
      const w = inThreadWorker();
      workers.push(w);
      return w;
    }, 'http://site/');
    const events: TrainEvent[] = [];
    client.on((e) => events.push(e));
    workers[0].raw({ type: 'step', report: { step: 'one' } });
    expect(events.at(-1)).toMatchObject({ type: 'error', fatal: false, error: { name: 'ProtocolError' } });
    workers[0].fail('out of memory');
    expect(events.at(-1)).toMatchObject({ type: 'error', fatal: true, error: { message: expect.stringMatching(/^out of memory; the trainer was restarted/) } });
    expect(workers).toHaveLength(2);
    expect(workers[0].terminated).toBe(true);
    expect(client.restarts).toBe(1);
    workers[0].raw({ type: 'ready' }); // the old worker is no longer heard
    expect(events.filter((e) => e.type === 'ready')).toHaveLength(0);
    client.dispose();
  });
});

describe('glass.train.run (app/consoleTrain.ts)', () => {
  const small = { blocks: 2, d: 32, heads: 2, ctx: 32 };

  it('resolves to one loss and one gradient norm per block per step, and the final held-out loss', async () => {
    const r = await consoleTrainRun({ text: TEXT, config: small, steps: 5, batch: 4, lr: 3e-3, seed: 2 }, () => inThreadWorker(), 'http://site/');
    expect(r.losses).toHaveLength(5);
    expect(r.gradNorms).toHaveLength(5);
    expect(r.threads).toEqual([1, 1, 1, 1, 1]); // this core is the single-threaded build: every share is 1
    expect(r.gradNorms.every((g) => g.length === 2 && g.every((x) => x > 0))).toBe(true);
    expect(r.diverged).toBeUndefined();
    // the same as the session with the Train view's defaults for what was left out
    const spec = consoleRunSpec({ text: TEXT, config: small, steps: 5, batch: 4, lr: 3e-3, seed: 2 });
    expect(spec.train).toEqual({ ...DEFAULT_TRAIN_SETTINGS, steps: 5, batch: 4, lr: 3e-3, seed: 2, warmup: 5, evalEvery: 0, sampleEvery: 0 });
    expect(spec.config).toEqual({ ...DEFAULT_MODEL_CONFIG, ...small });
    const s = TrainSession.create(glass, spec.config, { ...spec.train, evalWindows: 256 }, TEXT);
    const direct = steps(s, 5);
    expect(r.losses).toEqual(direct.map((x) => x.loss));
    expect(r.gradNorms).toEqual(direct.map((x) => x.blockGradNorms));
    expect(r.valLoss).toBe(direct[4].valLoss);
    s.dispose();
  });

  it('reports a divergence, and refuses unknown fields and bad settings', async () => {
    const d = await consoleTrainRun({ text: TEXT, config: { ...small, blocks: 12, norm: 'none' }, steps: 20, batch: 4, lr: 1, warmup: 0, clip: 0 }, () => inThreadWorker(), 'http://site/');
    expect(d.diverged).toEqual({ step: 2, what: 'loss', message: 'step 2: the loss is NaN; the update was not applied' });
    expect(d.losses).toHaveLength(1);
    await expect(consoleTrainRun({ text: TEXT, stpes: 5 } as never, () => inThreadWorker())).rejects.toThrow('glass.train.run: unknown field "stpes"');
    await expect(consoleTrainRun({ text: TEXT, config: { layers: 2 } } as never, () => inThreadWorker())).rejects.toThrow(/config: unknown field "layers"/);
    await expect(consoleTrainRun({ text: TEXT, lr: 2 }, () => inThreadWorker())).rejects.toThrow('learning rate must be from 0.000001 to 1, got 2');
    await expect(consoleTrainRun({ text: 'too short' }, () => inThreadWorker())).rejects.toThrow(/the text is 9 bytes; with a context of 64 bytes training needs at least/);
  });
});
