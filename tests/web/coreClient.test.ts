// The page's worker client with a fake worker: ids, stale results dropped per
// kind and channel, only the newest waiting request kept, errors as data,
// restart after a crash.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CoreClient, type WorkerLike } from '../../web/src/app/coreClient';
import type { Request, Response } from '../../web/src/protocol/api';

class FakeWorker implements WorkerLike {
  sent: Request[] = [];
  terminated = false;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  postMessage(message: unknown) {
    this.sent.push(message as Request);
  }
  terminate() {
    this.terminated = true;
  }
  reply(message: Response) {
    this.onmessage!({ data: message } as MessageEvent);
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
  it('a newer request of the same kind makes older ones stale; only the newest waiting one is sent', async () => {
    const { client, workers } = setup();
    const w = workers[0];
    const first = client.request('lab', labInput(1));
    const second = client.request('lab', labInput(2)); // waits: one lab request is in flight
    const third = client.request('lab', labInput(3)); // replaces the second
    expect(await second).toEqual({ status: 'stale' });
    expect(w.sent.map((r) => r.id)).toEqual([1]);
    w.ok(1, 'one');
    expect(await first).toEqual({ status: 'stale' }); // superseded while in flight
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

  it('on one channel a newer request makes older ones stale; superseded waiting ones never reach the worker', async () => {
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
    expect(await a).toEqual({ status: 'stale' });
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
  const code = (source: string) => ({ code: source });

  it('a request that runs past its limit stops the worker, resolves as TimeLimit, and the next request runs on a new worker', async () => {
    vi.useFakeTimers();
    const { client, workers, restarts } = setup();
    const loop = client.request('runCode', code('while (true) {}'), { timeLimitMs: 3000 });
    expect(workers[0].sent[0]).toMatchObject({ id: 1, kind: 'runCode', watch: true });
    workers[0].started(1);
    vi.advanceTimersByTime(2999);
    expect(workers).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(await loop).toEqual({ status: 'error', error: { name: 'TimeLimit', message: 'stopped after 3 s' } });
    expect(workers[0].terminated).toBe(true);
    expect(workers).toHaveLength(2);
    expect(restarts).toEqual(['TimeLimit']);
    const next = client.request('runCode', code('print(1)'), { timeLimitMs: 3000 });
    workers[1].started(2);
    workers[1].ok(2, { output: '1.', error: null });
    expect(await next).toMatchObject({ status: 'ok', value: { output: '1.' } });
    vi.advanceTimersByTime(10_000); // the answered request's timer was cleared: no second restart
    expect(workers).toHaveLength(2);
  });

  it('the limit counts from when the work starts, not from sending (loading the core is not counted)', async () => {
    vi.useFakeTimers();
    const { client, workers } = setup();
    const cell = client.request('runCode', code('print(1)'), { timeLimitMs: 3000 });
    vi.advanceTimersByTime(60_000); // still loading the wasm: no 'started' yet
    expect(workers).toHaveLength(1);
    workers[0].started(1);
    vi.advanceTimersByTime(1000);
    workers[0].ok(1, { output: '1.', error: null });
    expect(await cell).toMatchObject({ status: 'ok' });
    vi.advanceTimersByTime(10_000);
    expect(workers).toHaveLength(1);
  });

  it('requests without a limit are never watched', () => {
    vi.useFakeTimers();
    const { client, workers } = setup();
    void client.request('inspect', { run: { text: 'ab', eps: 1e-6, dtype: 'float32' }, show: { kind: 'single', name: 'embed', grad: false } });
    expect(workers[0].sent[0].watch).toBeUndefined();
    vi.advanceTimersByTime(600_000);
    expect(workers).toHaveLength(1);
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
    const loop = client.request('runCode', code('for (;;) {}'), { timeLimitMs: 3000 });
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
      const loop = client.request('runCode', code('while (true) {}'), { timeLimitMs: 100 });
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
