// A code-cell sandbox in a renderer process of its own: a hidden frame
// (public/sandbox.html) whose header sandboxes it to an opaque origin, which
// Chromium runs in another process than the page, with the sandbox worker
// (worker/sandbox/sandbox.ts) inside it. A worker shares its page's process, and
// V8 ends that whole process when any heap in it runs out (a cell that fills the
// JS heap): in the frame, that ends the frame's process, never the page's.
//
//   startSandbox(() => new FramedSandbox(sandboxBoot(assets), assets.frame));
//
// It is a WorkerLike for app/sandboxClient.ts, which keeps every time limit and
// checks every message. The frame can fetch nothing the service worker has (an
// opaque origin is not under it), so the page sends it the worker's script and
// the core's .wasm with the run. The frame answers a ping every PING_MS;
// MISSED_PINGS in a row without an answer mean its process is gone: `onexit`.
import type { SandboxBoot } from '../protocol/sandbox';
import type { WorkerLike } from './coreClient';

/** Where the sandbox's parts are in the built site (main.tsx has them from the bundler). */
export interface SandboxAssets {
  /** The frame's page (public/sandbox.html). */
  frame: string;
  /** The sandbox worker's built script: one file, no chunks. */
  script: string;
  /** The core's .wasm, one per build (core/wasmBuild.ts). */
  wasm: Record<SandboxBoot['build'], string>;
}

/** What a frame needs to start its worker. */
export interface SandboxParts {
  script: string;
  build: SandboxBoot['build'];
  wasm: ArrayBuffer;
}

export const PING_MS = 1000;
/** Pings in a row without an answer that mean the frame's process is gone. */
export const MISSED_PINGS = 4;
/** After the frame's page loaded, how long its script may take to say hello. */
export const HELLO_LIMIT_MS = 5000;

/** Fetches the parts once (from the service worker's cache after the first visit); a failure is tried again next time. */
export function sandboxParts(assets: SandboxAssets): () => Promise<SandboxParts> {
  let parts: Promise<SandboxParts> | null = null;
  return () =>
    (parts ??= fetchParts(assets).catch((e: unknown) => {
      parts = null;
      throw e;
    }));
}

async function fetchParts(assets: SandboxAssets): Promise<SandboxParts> {
  const get = async (url: string) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    return response;
  };
  const script = await (await get(assets.script)).text();
  const fma = await (await get(assets.wasm['relaxed-fma'])).arrayBuffer();
  // the faster build validates exactly where the engine runs relaxed SIMD (what core/wasmBuild.ts probes)
  if (WebAssembly.validate(fma)) return { script, build: 'relaxed-fma', wasm: fma };
  return { script, build: 'simd128', wasm: await (await get(assets.wasm.simd128)).arrayBuffer() };
}

type FrameMessage = { frame: 'hello' } | { frame: 'pong'; n: number } | { frame: 'message'; data: unknown } | { frame: 'error'; message: string } | { frame: 'messageerror' };

export class FramedSandbox implements WorkerLike {
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  onmessageerror: ((event: MessageEvent) => void) | null = null;
  /** The frame's process ended (it stopped answering pings): the code filled its memory, or it crashed. */
  onexit: (() => void) | null = null;

  private readonly frame: HTMLIFrameElement;
  private readonly queue: [unknown, Transferable[]][] = [];
  private readonly listener = (event: MessageEvent) => this.receive(event);
  private said = false; // hello
  private booted = false;
  private ended = false;
  private pinged = 0;
  private answered = 0;
  private timer: ReturnType<typeof setInterval> | ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly parts: () => Promise<SandboxParts>,
    frameUrl: string,
  ) {
    const frame = document.createElement('iframe');
    frame.src = frameUrl;
    frame.hidden = true;
    frame.tabIndex = -1;
    frame.title = 'code-cell sandbox';
    frame.setAttribute('aria-hidden', 'true');
    frame.dataset.testid = 'code-sandbox';
    frame.addEventListener('load', () => {
      if (!this.said && !this.ended && this.timer === null) this.timer = setTimeout(() => this.fail('the code cell\u2019s sandbox did not start'), HELLO_LIMIT_MS);
    });
    this.frame = frame;
    addEventListener('message', this.listener);
    document.body.append(frame);
  }

  postMessage(message: unknown, transfer: Transferable[] = []): void {
    if (this.ended) return;
    if (this.booted) this.send({ type: 'post', data: message, transfer }, transfer);
    else this.queue.push([message, transfer]);
  }

  terminate(): void {
    if (this.ended) return;
    this.ended = true;
    this.stopTimer();
    removeEventListener('message', this.listener);
    this.queue.length = 0;
    this.frame.remove(); // its worker ends with its document
  }

  private receive(event: MessageEvent): void {
    if (this.ended || event.source === null || event.source !== this.frame.contentWindow) return;
    const m = event.data as FrameMessage;
    if (m === null || typeof m !== 'object') return this.unreadable();
    switch (m.frame) {
      case 'hello':
        if (this.said) return this.unreadable();
        this.said = true;
        this.stopTimer();
        this.parts().then(
          (parts) => this.boot(parts),
          (e: unknown) => this.fail(`the code cell\u2019s sandbox could not load: ${e instanceof Error ? e.message : String(e)}`),
        );
        return;
      case 'pong':
        if (m.n === this.pinged) this.answered = m.n;
        return;
      case 'message':
        this.onmessage?.(new MessageEvent('message', { data: m.data }));
        return;
      case 'error':
        this.onerror?.(new ErrorEvent('error', { message: typeof m.message === 'string' ? m.message : '' }));
        return;
      default:
        this.unreadable();
    }
  }

  private boot(parts: SandboxParts): void {
    if (this.ended) return;
    const wasm = parts.wasm.slice(0); // the cached bytes stay here; the frame gets a copy
    this.send({ type: 'boot', script: parts.script, build: parts.build, wasm }, [wasm]);
    this.booted = true;
    for (const [message, transfer] of this.queue.splice(0)) this.send({ type: 'post', data: message, transfer }, transfer);
    this.timer = setInterval(() => this.ping(), PING_MS);
  }

  private ping(): void {
    // MISSED_PINGS unanswered: every sandbox frame of the page shares one process and
    // one main thread, which a cell posting a flood of messages keeps busy for a while
    if (this.pinged - this.answered >= MISSED_PINGS) {
      const exit = this.onexit;
      this.terminate();
      exit?.();
      return;
    }
    this.pinged += 1;
    this.send({ type: 'ping', n: this.pinged });
  }

  private send(message: unknown, transfer: Transferable[] = []): void {
    // an opaque origin cannot be named as a target: the frame is ours, and nothing sent to it is secret
    this.frame.contentWindow?.postMessage(message, '*', transfer);
  }

  private fail(message: string): void {
    if (this.ended) return;
    this.onerror?.(new ErrorEvent('error', { message }));
  }

  private unreadable(): void {
    this.onmessageerror?.(new MessageEvent('messageerror'));
  }

  private stopTimer(): void {
    if (this.timer !== null) {
      clearInterval(this.timer);
      clearTimeout(this.timer);
    }
    this.timer = null;
  }
}
