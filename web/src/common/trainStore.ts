// Saved training runs in IndexedDB, so a run survives a page reload: the
// trainer worker writes a checkpoint at every evaluation step, and 'resume-saved'
// continues from it exactly. The page imports listSavedRuns / deleteSavedRun to
// offer "resume" after a reload. IndexedDB exists in pages and workers alike;
// this module imports nothing, so both sides can use it. A record's spec is
// checked by the worker when it is read back (it may come from an older build).
//
// Database 'glassllm-train', store 'runs', keyed by the run's name ('A', 'B').

export interface SavedRun {
  key: string;
  /** The run's spec as it was started, without big buffers (the worker's RunSpec, checked on reading). */
  spec: unknown;
  /** Trainer checkpoint: weights, optimizer moments, step and sampler state (safetensors). */
  checkpoint: ArrayBuffer;
  step: number;
  total: number;
  /** Date.now() when written. */
  savedAt: number;
  /** The step reports up to `step` (the worker's StepReport), so a resumed run can redraw its curves. */
  reports?: unknown[];
}

export type SavedRunInfo = Omit<SavedRun, 'checkpoint' | 'spec' | 'reports'>;

/** Where saved runs live; the worker takes one (IndexedDB in the browser, a Map in tests). */
export interface RunStore {
  put(run: SavedRun): Promise<void>;
  get(key: string): Promise<SavedRun | undefined>;
  remove(key: string): Promise<void>;
  list(): Promise<SavedRunInfo[]>;
}

const DB = 'glassllm-train';
const STORE = 'runs';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') {
      reject(new Error('this browser keeps no saved runs (IndexedDB is unavailable)'));
      return;
    }
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'key' });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB did not open'));
  });
}

async function withStore<T>(mode: IDBTransactionMode, use: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = use(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error ?? req.error ?? new Error('IndexedDB transaction failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted (storage full?)'));
    });
  } finally {
    db.close();
  }
}

function info(r: SavedRun): SavedRunInfo {
  return { key: r.key, step: r.step, total: r.total, savedAt: r.savedAt };
}

/** The browser's IndexedDB store. */
export const indexedDbRunStore: RunStore = {
  async put(run) {
    await withStore('readwrite', (s) => s.put(run));
  },
  async get(key) {
    return (await withStore<SavedRun | undefined>('readonly', (s) => s.get(key))) ?? undefined;
  },
  async remove(key) {
    await withStore('readwrite', (s) => s.delete(key));
  },
  async list() {
    const all = await withStore<SavedRun[]>('readonly', (s) => s.getAll());
    return all.map(info).sort((a, b) => a.key.localeCompare(b.key));
  },
};

/** A store in memory (tests; a browser without IndexedDB). */
export function memoryRunStore(): RunStore {
  const runs = new Map<string, SavedRun>();
  return {
    async put(run) {
      runs.set(run.key, { ...run, checkpoint: run.checkpoint.slice(0) });
    },
    async get(key) {
      return runs.get(key);
    },
    async remove(key) {
      runs.delete(key);
    },
    async list() {
      return [...runs.values()].map(info).sort((a, b) => a.key.localeCompare(b.key));
    },
  };
}

/** Saved runs the page can offer to resume (empty when IndexedDB is unavailable). */
export async function listSavedRuns(): Promise<SavedRunInfo[]> {
  try {
    return await indexedDbRunStore.list();
  } catch {
    return [];
  }
}

export function deleteSavedRun(key: string): Promise<void> {
  return indexedDbRunStore.remove(key);
}
