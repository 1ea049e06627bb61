// The relaxed-SIMD build of the same glue (glass_core_fma.js, see CMakeLists.txt):
// the same API and options as glass_core.js.
export { default, type GlassCoreOptions } from './glass_core';
