// The code-cell sandbox's client with fake workers: one fresh worker per run,
// a spare loading in the background, time limits, and every message checked:
// whatever a sandbox posts, the run ends with a clear error or its own result.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOAD_LIMIT_MS, START_LIMIT_MS, type WorkerLike } from '../../web/src/app/coreClient';
import { SandboxClient } from '../../web/src/app/sandboxClient';
import type { SandboxRun } from '../../web/src/protocol/sandbox';

class FakeSandbox implements WorkerLike {
  sent: SandboxRun[] = [];
  terminated = false;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  onexit: (() => void) | null = null;
  postMessage(message: unknown) {
    this.sent.push(message as SandboxRun);
  }
  terminate() {
    this.terminated = true;
  }
  post(data: unknown) {
    this.onmessage?.({ data } as MessageEvent);
  }
  answer(output: string) {
    const id = this.sent[0].id;
    this.post({ type: 'ready' });
    this.post({ type: 'started', id });
    this.post({ type: 'result', id, ok: true, value: { output, truncated: false, error: null }, computeMs: 1 });
  }
}

function setup() {
  const workers: FakeSandbox[] = [];
  const client = new SandboxClient(() => {
    const w = new FakeSandbox();
    workers.push(w);
    return w;
  });
  return { client, workers };
}

describe('SandboxClient', () => {
  afterEach(() => vi.useRealTimers());

  it('each run gets a fresh worker, which is terminated after its answer; a spare starts loading at once', async () => {
    const { client, workers } = setup();
    const a = client.run('print(1)', { channel: 'c', weights: null });
    expect(workers).toHaveLength(2); // the run's and the spare
    expect(workers[0].sent).toEqual([{ type: 'run', id: 1, code: 'print(1)', weights: null }]);
    workers[0].answer('1');
    expect(await a).toEqual({ status: 'ok', value: { output: '1', truncated: false, error: null }, computeMs: 1 });
    expect(workers[0].terminated).toBe(true);
    const b = client.run('print(2)', { channel: 'c', weights: null });
    expect(workers[1].sent).toHaveLength(1); // the spare ran it
    workers[1].answer('2');
    expect(await b).toMatchObject({ status: 'ok', value: { output: '2' } });
  });

  it('weights are transferred with the run', () => {
    const { client, workers } = setup();
    const weights = new ArrayBuffer(16);
    void client.run('model.info()', { channel: 'c', weights });
    expect(workers[0].sent[0].weights).toBe(weights);
  });

  it('running again on a channel stops the older run\'s worker', async () => {
    const { client, workers } = setup();
    const a = client.run('for(;;){}', { channel: 'c', weights: null });
    const b = client.run('print(2)', { channel: 'c', weights: null });
    expect(await a).toEqual({ status: 'stale' });
    expect(workers[0].terminated).toBe(true);
    workers[1].answer('2');
    expect(await b).toMatchObject({ status: 'ok' });
  });

  it('a loop is stopped at the time limit (counted from started), only that worker goes', async () => {
    vi.useFakeTimers();
    const { client, workers } = setup();
    const run = client.run('while(true){}', { channel: 'c', weights: null, timeLimitMs: 3000 });
    workers[0].post({ type: 'ready' });
    workers[0].post({ type: 'started', id: 1 });
    vi.advanceTimersByTime(2999);
    expect(workers[0].terminated).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await run).toEqual({ status: 'error', error: { name: 'TimeLimit', message: 'stopped after 3 s' } });
    expect(workers[0].terminated).toBe(true);
    expect(workers[1].terminated).toBe(false); // the spare is fine
  });

  it("a sandbox whose process ends (it filled the memory) says so; the spare, which may have shared the process, is replaced", async () => {
    const { client, workers } = setup();
    const run = client.run('const keep = []; for (;;) keep.push([1])', { channel: 'c', weights: null });
    workers[0].post({ type: 'ready' });
    workers[0].post({ type: 'started', id: 1 });
    workers[0].onexit?.();
    expect(await run).toEqual({ status: 'error', error: { name: 'Crashed', message: "the code cell's sandbox crashed — did the code fill the memory?" } });
    expect(workers[0].terminated).toBe(true);
    expect(workers[1].terminated).toBe(true);
    const next = client.run('print(2)', { channel: 'c', weights: null });
    expect(workers).toHaveLength(4); // a fresh one for this run, and a fresh spare
    expect(workers[2].sent).toHaveLength(1);
    workers[2].answer('2');
    expect(await next).toMatchObject({ status: 'ok', value: { output: '2' } });
  });

  it("a run whose process ends before its code started (another cell's doing) is tried once more in a fresh box, weights included", async () => {
    const { client, workers } = setup();
    const weights = new Uint8Array([1, 2, 3]).buffer;
    const run = client.run('print(model.info().blocks)', { channel: 'c', weights });
    workers[0].post({ type: 'ready' });
    workers[0].onexit?.(); // before 'started'
    expect(workers[0].terminated).toBe(true);
    expect(workers[1].terminated).toBe(true); // the spare, likely in the same process
    const again = workers[2];
    expect(again.sent).toHaveLength(1);
    expect(again.sent[0]).toMatchObject({ type: 'run', id: 1, code: 'print(model.info().blocks)' });
    expect([...new Uint8Array(again.sent[0].weights!)]).toEqual([1, 2, 3]);
    again.onexit?.(); // a second time: no more tries
    expect(await run).toEqual({ status: 'error', error: { name: 'Crashed', message: "the code cell's sandbox crashed — did the code fill the memory?" } });
  });

  it('a spare whose process ends is dropped quietly; the next run gets a fresh one', async () => {
    const { client, workers } = setup();
    const first = client.run('print(1)', { channel: 'c', weights: null });
    workers[0].answer('1');
    await first;
    workers[1].onexit?.();
    expect(workers[1].terminated).toBe(true);
    const next = client.run('print(2)', { channel: 'c', weights: null });
    expect(workers[2].sent).toHaveLength(1);
    workers[2].answer('2');
    expect(await next).toMatchObject({ status: 'ok' });
  });

  it('a sandbox that closes itself before starting is noticed', async () => {
    vi.useFakeTimers();
    const { client, workers } = setup();
    const run = client.run('self.close()', { channel: 'c', weights: null });
    workers[0].post({ type: 'ready' });
    vi.advanceTimersByTime(START_LIMIT_MS);
    expect(await run).toMatchObject({ status: 'error', error: { name: 'NoAnswer' } });
  });

  it('a sandbox that never loads is given up after the load limit', async () => {
    vi.useFakeTimers();
    const { client } = setup();
    const run = client.run('print(1)', { channel: 'c', weights: null });
    vi.advanceTimersByTime(LOAD_LIMIT_MS);
    expect(await run).toMatchObject({ status: 'error', error: { name: 'NoAnswer', message: /did not load/ } });
  });

  const forged: [string, (w: FakeSandbox) => void][] = [
    ['a string', (w) => w.post('result')],
    ['a result before ready', (w) => w.post({ type: 'result', id: 1, ok: true, value: { output: 'x', truncated: false, error: null }, computeMs: 0 })],
    ['a result for another run', (w) => (w.post({ type: 'ready' }), w.post({ type: 'result', id: 7, ok: true, value: { output: 'x', truncated: false, error: null }, computeMs: 0 }))],
    ['a result whose value is not a cell result', (w) => (w.post({ type: 'ready' }), w.post({ type: 'result', id: 1, ok: true, value: { html: '<b>' }, computeMs: 0 }))],
    ['an output of 10 MB', (w) => (w.post({ type: 'ready' }), w.post({ type: 'result', id: 1, ok: true, value: { output: 'x'.repeat(10_000_000), truncated: false, error: null }, computeMs: 0 }))],
    ['started twice', (w) => (w.post({ type: 'ready' }), w.post({ type: 'started', id: 1 }), w.post({ type: 'started', id: 1 }))],
    ['ready twice', (w) => (w.post({ type: 'ready' }), w.post({ type: 'ready' }))],
    ['a message of the core worker\'s kind', (w) => (w.post({ type: 'ready' }), w.post({ type: 'result', id: 1, ok: true, value: [1, 2], computeMs: 0 }))],
  ];
  for (const [what, forge] of forged) {
    it(`a forged message (${what}) stops that sandbox with a clear error`, async () => {
      const { client, workers } = setup();
      const run = client.run('postMessage(...)', { channel: 'c', weights: null });
      forge(workers[0]);
      const o = await run;
      expect(o).toMatchObject({ status: 'error', error: { name: 'BadMessage' } });
      expect((o as { error: { message: string } }).error.message.length).toBeLessThan(300);
      expect(workers[0].terminated).toBe(true);
      // the next run is served by a fresh worker
      const next = client.run('print(1)', { channel: 'c', weights: null });
      workers[1].answer('1');
      expect(await next).toMatchObject({ status: 'ok' });
    });
  }

  it('messages after the answer are ignored (the worker is gone)', async () => {
    const { client, workers } = setup();
    const run = client.run('setTimeout(() => postMessage(1), 0)', { channel: 'c', weights: null });
    workers[0].answer('done');
    expect(await run).toMatchObject({ status: 'ok' });
    expect(() => workers[0].post({ type: 'forged' })).not.toThrow();
  });

  it('an error event (the sandbox ran out of memory) ends the run with a clear error', async () => {
    const { client, workers } = setup();
    const run = client.run('const a = []; for (;;) a.push(new Array(1e6))', { channel: 'c', weights: null });
    workers[0].onerror!({ message: 'Uncaught RangeError: Array buffer allocation failed', preventDefault() {} } as ErrorEvent);
    expect(await run).toMatchObject({ status: 'error', error: { name: 'WorkerError', message: /stopped with an error/ } });
  });
});
