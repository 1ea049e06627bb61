// A loop that keeps a core's floating-point units busy: twelve independent
// chains of 4-lane multiply-then-add in WebAssembly SIMD, no memory traffic.
// The host check (host_check.mjs) runs it on one thread and on several at
// once. Its plain loop waits on its chains' latency and leaves most of the
// units idle, so it runs as fast on a core whose other hardware thread is busy
// as on a core of its own; this one doesn't. If the host puts two of our
// virtual CPUs, or one of ours and someone else's, on one physical core, two
// threads of this loop do well under twice the work of one.
//
// Why twelve: on a 2-core Zen 5 (2026-12-06, Node 20) one thread ran 4 chains
// at 21.8 GFLOP/s, 8 at 41.8 and 12 at 57, about the two multiply and two add
// units' peak at the core's clock; 14 ran at 30 (V8 ran out of vector
// registers and spilled). Two threads of 12 chains did 1.97-1.99x one's work.
//
// The module is assembled here, byte by byte, so the check needs no compiler.

export const CHAINS = 12;
/** Floating-point operations in one pass of `run`: a multiply and an add on 4 lanes, per chain. */
export const FLOPS_PER_PASS = CHAINS * 2 * 4;
/** What the chains start from and what each pass does to them: x = x * MUL + ADD. */
export const START = (chain) => 1 + chain / 64;
export const MUL = 0.999;
export const ADD = 0.001;

const uleb = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const f32 = (x) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, x, true);
  return [...b];
};
const simd = (op) => [0xfd, ...uleb(op)];
const F32X4_SPLAT = 0x13, F32X4_EXTRACT_LANE = 0x1f, F32X4_ADD = 0xe4, F32X4_MUL = 0xe6;
const F32_CONST = 0x43, F32_ADD = 0x92, I32_CONST = 0x41, I32_SUB = 0x6b;
const LOCAL_GET = 0x20, LOCAL_SET = 0x21, LOCAL_TEE = 0x22, LOOP = 0x03, BR_IF = 0x0d, END = 0x0b, EMPTY = 0x40;
const I32 = 0x7f, F32 = 0x7d, V128 = 0x7b;

/**
 * The module's bytes: `run(passes)` (passes >= 1) does `passes` passes over
 * the chains and returns the sum of every chain's first lane.
 */
export function vectorLoopBytes() {
  // locals: 0 the passes left (the parameter), 1..CHAINS the chains, then the multiplier and the addend
  const mul = CHAINS + 1, add = CHAINS + 2;
  const body = [];
  for (let i = 0; i < CHAINS; i++) body.push(F32_CONST, ...f32(START(i)), ...simd(F32X4_SPLAT), LOCAL_SET, ...uleb(1 + i));
  body.push(F32_CONST, ...f32(MUL), ...simd(F32X4_SPLAT), LOCAL_SET, ...uleb(mul));
  body.push(F32_CONST, ...f32(ADD), ...simd(F32X4_SPLAT), LOCAL_SET, ...uleb(add));
  body.push(LOOP, EMPTY);
  for (let i = 0; i < CHAINS; i++) {
    body.push(LOCAL_GET, ...uleb(1 + i), LOCAL_GET, ...uleb(mul), ...simd(F32X4_MUL));
    body.push(LOCAL_GET, ...uleb(add), ...simd(F32X4_ADD), LOCAL_SET, ...uleb(1 + i));
  }
  body.push(LOCAL_GET, 0, I32_CONST, 1, I32_SUB, LOCAL_TEE, 0, BR_IF, 0, END);
  body.push(LOCAL_GET, 1, ...simd(F32X4_EXTRACT_LANE), 0);
  for (let i = 1; i < CHAINS; i++) body.push(LOCAL_GET, ...uleb(1 + i), ...simd(F32X4_EXTRACT_LANE), 0, F32_ADD);
  body.push(END);
  const code = [1, ...uleb(CHAINS + 2), V128, ...body]; // one group of locals, all v128
  const section = (id, bytes) => [id, ...uleb(bytes.length), ...bytes];
  const name = [...new TextEncoder().encode('run')];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
    ...section(1, [1, 0x60, 1, I32, 1, F32]), // one type: (i32) -> f32
    ...section(3, [1, 0]), // one function, of that type
    ...section(7, [1, name.length, ...name, 0x00, 0]), // exported as "run"
    ...section(10, [1, ...uleb(code.length), ...code]),
  ]);
}

/**
 * `run(passes)`, compiled and run for `warmMs` first: V8 starts a wasm
 * function in its baseline tier and swaps in the optimised code, compiled in
 * the background, on a later call.
 */
export async function vectorLoop(warmMs = 20) {
  const { instance } = await WebAssembly.instantiate(vectorLoopBytes());
  const run = instance.exports.run;
  const t0 = performance.now();
  while (performance.now() - t0 < warmMs) run(10_000);
  return run;
}
