// The threaded builds of the core (CMakeLists.txt, preset wasm-threads:
// glass_core_mt and glass_core_fma_mt, compiled with -pthread). Their memory is
// a SharedArrayBuffer, which a browser gives only to a cross-origin isolated
// page (the COOP/COEP headers: README "Threads in the browser"); elsewhere the
// single-threaded builds run.
//
// Each thread is a Web Worker running the build's own small script
// (glass_core_mt.worker.js), which imports the same glue as the thread that
// loaded the module. So the three files are loaded by address, exactly as
// built: `new URL(..., import.meta.url)` makes each a plain asset of the site.
// The glue bundled into a chunk would be a second copy under another name,
// and Vite would try to bundle the worker script as a worker of its own.
import type { GlassCoreOptions } from './wasm/glass_core.js';
import type { RawModule } from './raw';
import type { WasmBuild } from './wasmBuild';

/** Memory can be shared with Web Workers here: the threaded build can run. */
export function canShareMemory(): boolean {
  return typeof SharedArrayBuffer === 'function' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
}

/**
 * The threaded build is worth loading here: memory can be shared, and this is a
 * worker. A page's own thread may not wait for others (Atomics.wait throws
 * there, and Emscripten would spin instead, freezing the page), so a core on
 * it (the console's) stays single-threaded.
 */
export function threadsPayOff(): boolean {
  return canShareMemory() && typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === 'function';
}

/** The machine's cores as the browser reports them (at least 1). */
export function hardwareThreads(): number {
  const n = typeof navigator === 'object' ? navigator.hardwareConcurrency : 1;
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

interface ThreadedFiles {
  glue: string;
  wasm: string;
  worker: string;
}

// Functions, not constants: the code-cell sandbox bundles this file too, and
// there the base address is a blob: URL, against which new URL() throws.
const FILES: Record<WasmBuild, () => ThreadedFiles> = {
  simd128: () => ({
    glue: new URL('./wasm/glass_core_mt.js', import.meta.url).href,
    wasm: new URL('./wasm/glass_core_mt.wasm', import.meta.url).href,
    worker: new URL('./wasm/glass_core_mt.worker.js', import.meta.url).href,
  }),
  'relaxed-fma': () => ({
    glue: new URL('./wasm/glass_core_fma_mt.js', import.meta.url).href,
    wasm: new URL('./wasm/glass_core_fma_mt.wasm', import.meta.url).href,
    worker: new URL('./wasm/glass_core_fma_mt.worker.js', import.meta.url).href,
  }),
};

interface ThreadedOptions extends GlassCoreOptions {
  /** Where each thread's worker imports the glue from. */
  mainScriptUrlOrBlob: string;
  /** Threads the module starts Web Workers for (cpp/wasm/threads_pre.js): one fewer than this. */
  glassThreads: number;
}

/** The threaded module of `build`, with Web Workers for `threads` threads (the calling one included). */
export async function loadThreadedCore(build: WasmBuild, threads: number, options: GlassCoreOptions): Promise<RawModule> {
  const files = FILES[build]();
  const glue = (await import(/* @vite-ignore */ files.glue)) as { default: (options: ThreadedOptions) => Promise<RawModule> };
  return glue.default({
    ...options,
    locateFile: (path) => (path.endsWith('.worker.js') ? files.worker : path.endsWith('.wasm') ? files.wasm : path),
    mainScriptUrlOrBlob: files.glue,
    glassThreads: threads,
  });
}

