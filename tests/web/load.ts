// Loads the real wasm core built by `cmake --build --preset wasm`.
// The glue is built for web,worker (see TOOLCHAIN.md), so in Node we hand it
// the bytes ourselves instead of letting it fetch a file path.
import { readFileSync } from 'node:fs';
import { loadGlass, type Glass } from '../../web/src/core';

export const wasmUrl = new URL('../../web/src/core/wasm/glass_core.wasm', import.meta.url);

export function loadTestGlass(): Promise<Glass> {
  return loadGlass({ wasmBinary: readFileSync(wasmUrl) });
}
