// The page's one CoreClient (coreClient.ts) and its worker, and the code-cell
// sandbox (sandboxClient.ts). Nothing starts at import: main.tsx starts them
// once (startApp in state.ts calls startCore; startSandbox), so tests and
// widgets can import any module without spawning a Worker.
import { CoreClient, type CoreClientEvents, type WorkerLike } from './coreClient';
import { SandboxClient } from './sandboxClient';

let client: CoreClient | null = null;
const restartListeners = new Set<() => void>();

/** Makes the client (once); onRestart also tells everyone who asked with onCoreRestart. */
export function startCore(spawn: () => WorkerLike, events: CoreClientEvents = {}): CoreClient {
  client ??= new CoreClient(spawn, {
    ...events,
    onRestart: (reason, restarts) => {
      events.onRestart?.(reason, restarts);
      for (const listener of [...restartListeners]) listener();
    },
  });
  return client;
}

/** The started client. */
export function core(): CoreClient {
  if (client === null) throw new Error('the core is not started (main.tsx starts it with startApp)');
  return client;
}

/**
 * Called after the worker was replaced (its state is gone: the weights, a held
 * run): re-send what you need. Returns a function that stops the calls.
 */
export function onCoreRestart(listener: () => void): () => void {
  restartListeners.add(listener);
  return () => restartListeners.delete(listener);
}

let sandboxClient: SandboxClient | null = null;

/** Makes the code-cell sandbox (once): `spawn` starts one sandbox worker (worker/sandbox/sandbox.ts). */
export function startSandbox(spawn: () => WorkerLike): SandboxClient {
  sandboxClient ??= new SandboxClient(spawn);
  return sandboxClient;
}

/** The started sandbox. */
export function sandbox(): SandboxClient {
  if (sandboxClient === null) throw new Error('the code-cell sandbox is not started (main.tsx starts it)');
  return sandboxClient;
}
