// The page's one CoreClient (coreClient.ts) and its worker. Nothing starts at
// import: main.tsx starts it once (startApp in state.ts calls startCore), so
// tests and widgets can import any module without spawning a Worker.
import { CoreClient, type CoreClientEvents, type WorkerLike } from './coreClient';

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
