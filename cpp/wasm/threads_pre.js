// The threaded build's Web Workers (CMakeLists.txt: -sPTHREAD_POOL_SIZE=glassPoolSize),
// started with the module, before it resolves: the loader's `glassThreads`
// (web/src/core/glass.ts), else the machine's cores; one fewer, since the
// thread that calls the core computes too; at least one (Emscripten 3.1.6 waits
// for the pool to load, and an empty pool never reports that it has).
var glassPoolSize = Math.max(
  1,
  Math.min(64, Module["glassThreads"] || (typeof navigator == "object" && navigator.hardwareConcurrency) || 1) - 1
);
