// The page's worker client with a fake worker: ids, waiting requests dropped
// as stale per kind and channel (the one in flight still answers), only the
// newest waiting request kept, errors as data,
// restart after a crash, time limits on every request, the watchdog, and
// messages checked before they are believed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CoreClient, DEFAULT_TIME_LIMIT_MS, LOAD_LIMIT_MS, START_LIMIT_MS, type WorkerLike } from '../../web/src/app/coreClient';
import type { Request, Response } from '../../web/src/protocol/api';

/** Says 'ready' and 'started' the way worker.ts does, unless a test sends them itself. */
class FakeWorker implements WorkerLike {
  sent: Request[] = [];
  terminated = false;
  private isReady = false;
  private readonly startedIds = new Set<number>();
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  postMessage(message: unknown) {
    this.sent.push(message as Request);
  }
  terminate() {
    this.terminated = true;
  }
  /** Any data, as a worker could post it. */
  raw(data: unknown) {
    this.onmessage!({ data } as MessageEvent);
  }
  ready() {
    this.isReady = true;
    this.raw({ type: 'ready' });
  }
  reply(message: Response) {
    if (message.type !== 'ready' && !this.isReady) this.ready();
    if (message.type === 'started') this.startedIds.add(message.id);
    if (message.type === 'result' && !this.startedIds.has(message.id)) this.reply({ type: 'started', id: message.id });
    this.raw(message);
  }
  ok(id: number, value: unknown) {
    this.reply({ type: 'result', id, ok: true, value, computeMs: 0 });
  }
  started(id: number) {
    this.reply({ type: 'started', id });
  }
}

function setup() {
  const workers: FakeWorker[] = [];
  const restarts: string[] = [];
  const client = new CoreClient(
    () => {
      const w = new FakeWorker();
      workers.push(w);
      return w;
    },
    { onRestart: (reason) => restarts.push(reason.name) },
  );
  return { client, workers, restarts };
}

const labInput = (c: number) => ({ x: [3, 4], gamma: null, eps: 1e-6, c, dtype: 'float64' as const, grad: 'sum' as const });

describe('CoreClient', () => {
  it('a newer request of the same kind makes older waiting ones stale; only the newest waiting one is sent, and the one in flight still answers', async () => {
    const { client, workers } = setup();
    const w = workers[0];
    const first = client.request('lab', labInput(1));
    const second = client.request('lab', labInput(2)); // waits: one lab request is in flight
    const third = client.request('lab', labInput(3)); // replaces the second
    expect(await second).toEqual({ status: 'stale' });
    expect(w.sent.map((r) => r.id)).toEqual([1]);
    w.ok(1, 'one');
    // it ran: the newest result there is while the third computes (a slider dragged over a slow model shows it)
    expect(await first).toEqual({ status: 'ok', value: 'one', computeMs: 0 });
    expect(w.sent.map((r) => r.id)).toEqual([1, 3]);
    w.ok(3, 'three');
    expect(await third).toEqual({ status: 'ok', value: 'three', computeMs: 0 });
  });

  it('kinds do not supersede each other, and errors come back as data', async () => {
    const { client, workers } = setup();
    const lab = client.request('lab', labInput(1));
    const seed = client.request('seed', null);
    workers[0].reply({ type: 'result', id: 1, ok: false, error: { name: 'GlassError', message: 'bad' }, fatal: false });
    workers[0].ok(2, []);
    expect(await lab).toEqual({ status: 'error', error: { name: 'GlassError', message: 'bad' } });
    expect(await seed).toMatchObject({ status: 'ok' });
  });

  it('channels keep callers apart: a widget asking at once does not make the lab view\'s answer stale', async () => {
    const { client, workers } = setup();
    const w = workers[0];
    const lab = client.request('lab', labInput(1), { channel: 'lab' });
    const widget = client.request('lab', labInput(2), { channel: 'lesson:rmsnorm/4/epsilon-lab' });
    expect(w.sent.map((r) => r.id)).toEqual([1, 2]); // both sent at once
    w.ok(1, 'lab');
    w.ok(2, 'widget');
    expect(await lab).toMatchObject({ status: 'ok', value: 'lab' });
    expect(await widget).toMatchObject({ status: 'ok', value: 'widget' });
  });

  it('on one channel a newer request makes older waiting ones stale, and they never reach the worker', async () => {
    const { client, workers } = setup();
    const w = workers[0];
    const a = client.request('lab', labInput(1), { channel: 'w' });
    const b = client.request('lab', labInput(2), { channel: 'w' }); // waits behind a
    const other = client.request('lab', labInput(5), { channel: 'lab' });
    const c = client.request('lab', labInput(3), { channel: 'w' }); // replaces b
    expect(await b).toEqual({ status: 'stale' });
    expect(w.sent.map((r) => (r as Request<'lab'>).payload.c)).toEqual([1, 5]);
    w.ok(1, 'a');
    w.ok(3, 'other');
    expect(await a).toMatchObject({ status: 'ok', value: 'a' }); // in flight when c came: it still answers
    expect(await other).toMatchObject({ status: 'ok', value: 'other' });
    expect(w.sent.map((r) => (r as Request<'lab'>).payload.c)).toEqual([1, 5, 3]);
    w.ok(4, 'c');
    expect(await c).toMatchObject({ status: 'ok', value: 'c' });
  });

  it('a channel belongs to its kind: the same channel name on another kind supersedes nothing', async () => {
    const { client, workers } = setup();
    const lab = client.request('lab', labInput(1), { channel: 'x' });
    const seed = client.request('seed', null, { channel: 'x' });
    workers[0].ok(1, 'lab');
    workers[0].ok(2, 'seed');
    expect(await lab).toMatchObject({ status: 'ok' });
    expect(await seed).toMatchObject({ status: 'ok' });
  });

  it('a fatal error restarts the worker and sends what was waiting to the new one', async () => {
    const { client, workers, restarts } = setup();
    const trap = client.debugTrap();
    const lab = client.request('lab', labInput(1));
    const next = client.request('lab', labInput(2)); // waiting behind lab #2
    workers[0].reply({ type: 'result', id: 1, ok: false, error: { name: 'RuntimeError', message: 'unreachable' }, fatal: true });
    expect(await trap).toMatchObject({ status: 'error', error: { name: 'RuntimeError' } });
    expect(await lab).toEqual({ status: 'stale' });
    expect(workers).toHaveLength(2);
    expect(workers[0].terminated).toBe(true);
    expect(restarts).toEqual(['RuntimeError']);
    expect(workers[1].sent.map((r) => r.id)).toEqual([3]);
    workers[1].ok(3, 'after restart');
    expect(await next).toMatchObject({ status: 'ok', value: 'after restart' });
    expect(client.restarts).toBe(1);
  });

  it('an error event restarts the worker; what was in flight resolves as an error', async () => {
    const { client, workers } = setup();
    const seed = client.request('seed', null);
    workers[0].onerror!({ message: 'boom', preventDefault() {} } as ErrorEvent);
    expect(await seed).toMatchObject({ status: 'error', error: { name: 'WorkerError' } });
    expect(workers).toHaveLength(2);
    // messages from the dead worker are ignored
    workers[0].ok(1, 'late');
    const again = client.request('seed', null);
    workers[1].ok(2, 'fresh');
    expect(await again).toMatchObject({ value: 'fresh' });
  });

  it('gives up after repeated crashes and answers every request with the reason', async () => {
    const { client, workers } = setup();
    for (let i = 0; i < 4; i++) workers.at(-1)!.onerror!({ message: 'boom', preventDefault() {} } as ErrorEvent);
    expect(await client.request('seed', null)).toMatchObject({ status: 'error', error: { message: /keeps stopping/ } });
  });
});

describe('CoreClient time limits', () => {
  afterEach(() => vi.useRealTimers());
  const code = (source: string) => ({ exprs: [source] });

  it('a request that runs past its limit stops the worker, resolves as TimeLimit, and the next request runs on a new worker', async () => {
    vi.useFakeTimers();
    const { client, workers, restarts } = setup();
    const loop = client.request('evaluate', code('while (true) {}'), { timeLimitMs: 3000 });
    expect(workers[0].sent[0]).toEqual({ id: 1, kind: 'evaluate', payload: code('while (true) {}') });
    workers[0].started(1);
    vi.advanceTimersByTime(2999);
    expect(workers).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(await loop).toEqual({ status: 'error', error: { name: 'TimeLimit', message: 'stopped after 3 s' } });
    expect(workers[0].terminated).toBe(true);
    expect(workers).toHaveLength(2);
    expect(restarts).toEqual(['TimeLimit']);
    const next = client.request('evaluate', code('print(1)'), { timeLimitMs: 3000 });
    workers[1].started(2);
    workers[1].ok(2, { output: '1.', error: null });
    expect(await next).toMatchObject({ status: 'ok', value: { output: '1.' } });
    vi.advanceTimersByTime(10_000); // the answered request's timer was cleared: no second restart
    expect(workers).toHaveLength(2);
  });

  it('the limit counts from when the work starts, not from sending (loading the core is not counted)', async () => {
    vi.useFakeTimers();
    const { client, workers } = setup();
    const cell = client.request('evaluate', code('print(1)'), { timeLimitMs: 3000 });
    vi.advanceTimersByTime(59_000); // still loading the wasm: no 'ready', no 'started' yet
    expect(workers).toHaveLength(1);
    workers[0].started(1);
    vi.advanceTimersByTime(1000);
    workers[0].ok(1, { output: '1.', error: null });
    expect(await cell).toMatchObject({ status: 'ok' });
    vi.advanceTimersByTime(10_000);
    expect(workers).toHaveLength(1);
  });

  it('requests without a limit of their own get the default one', async () => {
    vi.useFakeTimers();
    const { client, workers, restarts } = setup();
    const inspect = client.request('inspect', { run: { text: 'ab', eps: 1e-6, dtype: 'float32' }, show: { kind: 'single', name: 'embed', grad: false } });
    workers[0].ready();
    workers[0].started(1);
    vi.advanceTimersByTime(DEFAULT_TIME_LIMIT_MS - 1);
    expect(workers).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(await inspect).toMatchObject({ status: 'error', error: { name: 'TimeLimit' } });
    expect(restarts).toEqual(['TimeLimit']);
  });

  it('what was queued behind the endless request goes to the new worker after what onRestart sends (the weights)', async () => {
    vi.useFakeTimers();
    const workers: FakeWorker[] = [];
    let client!: CoreClient;
    let reloaded: Promise<unknown> | null = null;
    client = new CoreClient(
      () => {
        const w = new FakeWorker();
        workers.push(w);
        return w;
      },
      { onRestart: () => (reloaded = client.request('loadWeights', { bytes: new ArrayBuffer(8) })) },
    );
    const loop = client.request('evaluate', code('for (;;) {}'), { timeLimitMs: 3000 });
    const lab = client.request('lab', labInput(1)); // sent, but queued in the worker behind the loop
    const seed = client.request('seed', null);
    workers[0].started(1);
    vi.advanceTimersByTime(3000);
    expect(await loop).toMatchObject({ status: 'error', error: { name: 'TimeLimit' } });
    expect(workers[1].sent.map((r) => r.kind)).toEqual(['loadWeights', 'lab', 'seed']);
    const [load, labAgain, seedAgain] = workers[1].sent;
    workers[1].ok(load.id, { blocks: 4 });
    workers[1].ok(labAgain.id, 'lab');
    workers[1].ok(seedAgain.id, 'seed');
    expect(await reloaded).toMatchObject({ status: 'ok' });
    expect(await lab).toMatchObject({ status: 'ok', value: 'lab' });
    expect(await seed).toMatchObject({ status: 'ok', value: 'seed' });
  });

  it('time limits are not crashes: stopping many endless loops never makes the client give up', async () => {
    vi.useFakeTimers();
    const { client, workers } = setup();
    for (let i = 0; i < 6; i++) {
      const loop = client.request('evaluate', code('while (true) {}'), { timeLimitMs: 100 });
      const w = workers.at(-1)!;
      w.started(w.sent.at(-1)!.id);
      vi.advanceTimersByTime(100);
      expect(await loop).toMatchObject({ error: { name: 'TimeLimit' } });
    }
    expect(workers).toHaveLength(7);
    const after = client.request('seed', null);
    workers.at(-1)!.ok(workers.at(-1)!.sent.at(-1)!.id, 'fine');
    expect(await after).toMatchObject({ status: 'ok', value: 'fine' });
  });
});

describe('CoreClient watchdog', () => {
  afterEach(() => vi.useRealTimers());

  it('a worker that closes itself (never starts the next request) is noticed and replaced; the request goes to the new one', async () => {
    vi.useFakeTimers();
    const { client, workers, restarts } = setup();
    const seed = client.request('seed', null);
    workers[0].ready(); // ...then silence: the worker closed itself
    vi.advanceTimersByTime(START_LIMIT_MS - 1);
    expect(workers).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(workers[0].terminated).toBe(true);
    expect(restarts).toEqual(['NoAnswer']);
    expect(workers[1].sent.map((r) => r.kind)).toEqual(['seed']);
    workers[1].ok(workers[1].sent[0].id, 'rows');
    expect(await seed).toMatchObject({ status: 'ok', value: 'rows' });
  });

  it('the next request must start soon after the previous answer', async () => {
    vi.useFakeTimers();
    const { client, workers, restarts } = setup();
    const a = client.request('seed', null);
    const b = client.request('lab', labInput(1));
    workers[0].ok(1, 'a');
    expect(await a).toMatchObject({ status: 'ok' });
    vi.advanceTimersByTime(START_LIMIT_MS);
    expect(restarts).toEqual(['NoAnswer']);
    workers[1].ok(workers[1].sent[0].id, 'b');
    expect(await b).toMatchObject({ status: 'ok', value: 'b' });
  });

  it('a core that never loads is replaced after the load limit', () => {
    vi.useFakeTimers();
    const { client, workers, restarts } = setup();
    void client.request('seed', null);
    vi.advanceTimersByTime(LOAD_LIMIT_MS - 1);
    expect(restarts).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(restarts).toEqual(['NoAnswer']);
    expect(workers).toHaveLength(2);
  });

  it('an idle worker is not watched: nothing in flight, nothing to answer', () => {
    vi.useFakeTimers();
    const { workers, restarts } = setup();
    workers[0].ready();
    vi.advanceTimersByTime(10 * 60_000);
    expect(restarts).toEqual([]);
  });

  it('stopping answering again and again ends in giving up, with the reason', async () => {
    vi.useFakeTimers();
    const { client, workers } = setup();
    const seed = client.request('seed', null);
    for (let i = 0; i < 4; i++) {
      workers.at(-1)!.ready();
      vi.advanceTimersByTime(START_LIMIT_MS);
    }
    expect(await seed).toMatchObject({ status: 'error', error: { name: 'NoAnswer', message: /stopped answering/ } });
    expect(await client.request('seed', null)).toMatchObject({ status: 'error', error: { message: /keeps stopping/ } });
  });
});

describe('CoreClient checks every message', () => {
  // Each is something a broken or hostile worker could post; each must replace the worker, never reach a caller as data.
  const bad: [string, unknown][] = [
    ['not an object', 'hello'],
    ['null', null],
    ['an array', [1, 2]],
    ['no type', { id: 1 }],
    ['an unknown type', { type: 'resultX', id: 1 }],
    ['a result without ok', { type: 'result', id: 1, value: 1, computeMs: 0 }],
    ['a fractional id', { type: 'result', id: 1.5, ok: true, value: 1, computeMs: 0 }],
    ['a string id', { type: 'result', id: '1', ok: true, value: 1, computeMs: 0 }],
    ['a negative computeMs', { type: 'result', id: 1, ok: true, value: 1, computeMs: -1 }],
    ['a NaN computeMs', { type: 'result', id: 1, ok: true, value: 1, computeMs: NaN }],
    ['an error without message', { type: 'result', id: 1, ok: false, error: { name: 'E' }, fatal: false }],
    ['an error message of 20,000 characters', { type: 'result', id: 1, ok: false, error: { name: 'E', message: 'x'.repeat(20_000) }, fatal: false }],
    ['fatal not a boolean', { type: 'result', id: 1, ok: false, error: { name: 'E', message: 'm' }, fatal: 'yes' }],
    ['an extra field', { type: 'result', id: 1, ok: true, value: 1, computeMs: 0, extra: 1 }],
    ['a result for an id never asked', { type: 'result', id: 99, ok: true, value: 'forged', computeMs: 0 }],
    ['a result for a request behind the running one', { type: 'result', id: 2, ok: true, value: 'forged', computeMs: 0 }],
    ['started twice', { type: 'started', id: 1 }],
    ['ready twice', { type: 'ready' }],
  ];
  for (const [what, data] of bad) {
    it(`${what}: the worker is replaced and the callers get an error naming the problem`, async () => {
      const { client, workers, restarts } = setup();
      const first = client.request('seed', null);
      const second = client.request('lab', labInput(1));
      workers[0].ready();
      workers[0].started(1);
      workers[0].raw(data);
      expect(workers[0].terminated).toBe(true);
      expect(restarts).toEqual(['BadMessage']);
      const a = await first;
      expect(a).toMatchObject({ status: 'error', error: { name: 'BadMessage' } });
      expect((a as { error: { message: string } }).error.message.length).toBeLessThan(400);
      expect(await second).toMatchObject({ status: 'error', error: { name: 'BadMessage' } });
      // and the new worker serves
      const after = client.request('seed', null);
      workers[1].ok(workers[1].sent.at(-1)!.id, 'ok');
      expect(await after).toMatchObject({ status: 'ok', value: 'ok' });
    });
  }
});

describe('the restart notice', () => {
  it('is short whatever the reason, and names no internals without saying what happened', async () => {
    const { restartText } = await import('../../web/src/app/state');
    const long = 'x'.repeat(50_000);
    for (const name of ['TimeLimit', 'NoAnswer', 'BadMessage', 'RuntimeError', 'WorkerError']) {
      const text = restartText({ name, message: long }, '');
      expect(text.length, name).toBeLessThan(260);
      expect(text).toMatch(/restarted/);
    }
    expect(restartText({ name: 'BadMessage', message: 'm' }, '')).not.toContain('BadMessage');
    expect(restartText({ name: 'NoAnswer', message: 'm' }, '')).toContain('stopped answering');
  });
});

describe('CoreClient load limit', () => {
  afterEach(() => vi.useRealTimers());
  it('counts from starting the worker, however many requests arrive while it loads', () => {
    vi.useFakeTimers();
    const { client, workers, restarts } = setup();
    for (let i = 0; i < 6; i++) {
      vi.advanceTimersByTime(LOAD_LIMIT_MS / 6 - 1);
      void client.request('lab', labInput(i), { channel: `c${i}` });
    }
    vi.advanceTimersByTime(6);
    expect(restarts).toEqual(['NoAnswer']);
    expect(workers).toHaveLength(2);
  });
});
