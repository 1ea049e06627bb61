// Types for the Emscripten ES6 glue built from cpp/wasm/bindings.cpp.
// glass_core.js and glass_core.wasm are build outputs (see CMakeLists.txt);
// this declaration file is hand-written and committed.
import type { RawModule } from '../raw';

export interface GlassCoreOptions {
  /** The .wasm bytes; required in Node, where the glue cannot fetch a file path. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
  print?: (text: string) => void;
  printErr?: (text: string) => void;
}

declare function createGlassCore(options?: GlassCoreOptions): Promise<RawModule>;
export default createGlassCore;
