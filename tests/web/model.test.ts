// The model in wasm against the native CLI on the same weights file: what the
// page computes must equal what `glassllm inspect` computes (issue 4), up to
// float32 rounding differences between two compilers.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GlassError, Model, hasRelaxedMadd, type Glass, type NamedTensor } from '../../web/src/core';
import { loadTestGlass } from './load';

const cli = new URL('../../build/native/glassllm', import.meta.url).pathname;
const shipped = new URL('../../public/weights/glass-kjv.safetensors', import.meta.url).pathname;

interface Inspect {
  loss: number;
  snapshots: Record<string, { shape: number[]; data: number[] }>;
  grads: Record<string, { shape: number[]; data: number[] }>;
}

// max |a - b| / max |b|: the comparison the PyTorch reference uses too
function relError(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let diff = 0;
  let scale = 1e-30;
  for (let i = 0; i < b.length; i++) {
    diff = Math.max(diff, Math.abs(a[i] - b[i]));
    scale = Math.max(scale, Math.abs(b[i]));
  }
  return diff / scale;
}

// Both builds of the core: the plain simd128 one, and the relaxed-SIMD one the
// page runs where the engine has fused multiply-add (wasmBuild.ts).
describe.each(['simd128', 'relaxed-fma'] as const)('the model in wasm (%s build)', (build) => {
  let glass: Glass;
  let model: Model;
  let weights: Uint8Array;
  let dir: string;
  const text = 'In the beginning God créated the heaven — and the earth.';

  beforeAll(async () => {
    // the native CLI is built by the native stage of npm test, which runs first
    if (!existsSync(cli)) throw new Error(`${cli} is missing: build the native preset first (npm run build:native)`);
    dir = mkdtempSync(join(tmpdir(), 'glass-model-'));
    // the weights the app ships: the page must compute what the CLI computes on this very file
    weights = readFileSync(shipped);
    glass = await loadTestGlass(build);
    expect(glass.build).toBe(build);
    model = Model.create(glass);
  });
  afterAll(() => model?.dispose());

  it('runs where it can: this Node has relaxed SIMD enabled (vitest.config.ts), so both builds are tested', () => {
    expect(hasRelaxedMadd()).toBe(true);
  });

  it('reports the configuration and parameter counts computed by the core', () => {
    const info = model.loadWeights(weights);
    expect(info.d).toBe(128);
    expect(info.blocks).toBe(4);
    expect(info.norms).toBe(9);
    expect(info.parameterTable.find((g) => g.kind === 'norm')?.params).toBe(1152);
    expect(info.parameters).toBe(info.parameterTable.reduce((s, g) => s + g.params, 0));
    expect(info.perBlock).toHaveLength(4);
  });

  for (const dtype of ['float32', 'float64'] as const) {
    it(`equals the native CLI in ${dtype}: loss, every snapshot and every gradient`, () => {
      const json = join(dir, `inspect-${dtype}.json`);
      execFileSync(cli, ['inspect', '--weights', shipped, '--text', text, '--dtype', dtype === 'float32' ? 'f32' : 'f64', '--json', json]);
      const native = JSON.parse(readFileSync(json, 'utf8')) as Inspect;
      model.loadWeights(weights);
      const run = model.run(text, { dtype, eps: 1e-6, backward: true });
      const tol = dtype === 'float32' ? 1e-4 : 1e-10;
      expect(Math.abs((run.loss ?? NaN) - native.loss) / native.loss).toBeLessThan(tol);
      const names = Object.keys(native.snapshots);
      expect(Object.keys(run.snapshots).sort()).toEqual([...names].sort());
      expect(names).toHaveLength(27);
      for (const name of names) {
        const mine: NamedTensor = run.snapshots[name];
        expect(mine.shape, name).toEqual(native.snapshots[name].shape);
        expect(relError(mine.data, native.snapshots[name].data), name).toBeLessThan(tol);
        expect(relError(run.grads![name].data, native.grads[name].data), `grad ${name}`).toBeLessThan(tol);
      }
      const g = model.paramGrad('blocks.2.ffn.w_up.weight');
      expect(g.shape).toEqual([384, 128]);
      expect(relError(g.data, native.grads['blocks.2.ffn.w_up.weight'].data)).toBeLessThan(tol);
    });
  }

  it('gives a parameter\'s values exactly as stored in the weights file', () => {
    model.loadWeights(weights);
    // read the file independently: 8-byte little-endian header length, JSON header, raw F32 data
    const view = new DataView(weights.buffer, weights.byteOffset, weights.byteLength);
    const headerLength = Number(view.getBigUint64(0, true));
    const header = JSON.parse(new TextDecoder().decode(weights.subarray(8, 8 + headerLength))) as Record<string, { dtype: string; shape: number[]; data_offsets: [number, number] }>;
    for (const name of ['tok_emb.weight', 'blocks.1.attn.wk.weight', 'norm_final.gamma']) {
      const entry = header[name];
      expect(entry.dtype).toBe('F32');
      const start = weights.byteOffset + 8 + headerLength + entry.data_offsets[0];
      const stored = new Float32Array(weights.buffer.slice(start, start + entry.data_offsets[1] - entry.data_offsets[0]));
      const p = model.param(name);
      expect(p.shape, name).toEqual(entry.shape);
      expect(Array.from(p.data), name).toEqual(Array.from(stored));
    }
    expect(() => model.param('blocks.9.attn.wq.weight')).toThrow(/no parameter named "blocks.9.attn.wq.weight"/);
  });

  it('gives top-5 next bytes with probabilities from the core', () => {
    model.run('And God said, Let there be ligh', { dtype: 'float32', backward: false });
    const top = model.topNext(5);
    expect(top).toHaveLength(5);
    for (let i = 1; i < 5; i++) expect(top[i].prob).toBeLessThanOrEqual(top[i - 1].prob);
    expect(top[0].prob).toBeLessThanOrEqual(1);
    // the shipped weights learned the text: "ligh" is followed by "t"
    expect(top[0].label).toBe('t');
    expect(top[0].prob).toBeGreaterThan(0.5);
  });

  it('refuses bad input with a message and keeps working', () => {
    expect(() => model.run('')).toThrow(GlassError);
    expect(() => model.run('x'.repeat(129))).toThrow(/129 bytes.*128/);
    expect(() => model.run('abc', { eps: -1 })).toThrow(/eps/);
    expect(() => model.run('abc', { dtype: 'float16' as never })).toThrow(/float16/);
    expect(() => model.loadWeights(weights.slice(0, 100))).toThrow(/safetensors/);
    // still the loaded model, still usable
    const run = model.run('abc', { dtype: 'float32', eps: 1e-6 });
    expect(run.loss).toBeGreaterThan(0);
    expect(run.snapshots['logits'].shape).toEqual([3, 256]);
  });
});
