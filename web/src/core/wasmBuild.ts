// Which of the two builds of the core an engine runs (CMakeLists.txt builds both):
//   simd128      plain 128-bit SIMD: every engine, and Node (the tests)
//   relaxed-fma  the same core with the matrix-product kernel using
//                f32x4.relaxed_madd (fused multiply-add): ~15% faster forward,
//                ~20% faster forward + backward, where the engine has relaxed SIMD
// The choice is made by validating the smallest module that uses relaxed_madd.
export type WasmBuild = 'simd128' | 'relaxed-fma';

// (module (func (param v128 v128 v128) (result v128)
//   local.get 0  local.get 1  local.get 2  f32x4.relaxed_madd))
const RELAXED_MADD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x08, 0x01, 0x60, 0x03, 0x7b, 0x7b, 0x7b, 0x01, 0x7b, // type section: (v128 v128 v128) -> v128
  0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
  0x0a, 0x0d, 0x01, 0x0b, 0x00, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02, 0xfd, 0x85, 0x02, 0x0b, // code
]);

export function hasRelaxedMadd(): boolean {
  try {
    return WebAssembly.validate(RELAXED_MADD_PROBE);
  } catch {
    return false;
  }
}

/** The faster build this engine can run. */
export const bestBuild = (): WasmBuild => (hasRelaxedMadd() ? 'relaxed-fma' : 'simd128');
