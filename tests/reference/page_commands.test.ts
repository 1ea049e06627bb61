// The page's "Reproduce in PyTorch" lines (web/src/viewmodels/reproduce.ts),
// each run as the learner would paste it (through bash, so the quoting is
// tested too) and what it prints compared with the core's number for the same
// thing: the native core (`glassllm interp`), which tests/web/interp.test.ts
// holds equal to the page's wasm core. One line of each kind the page offers:
// a snapshot's value and gradient and a parameter's value and gradient at a
// coordinate (the gradient check), a logit-lens entry, and the loss with
// interventions (and without). Tolerances as the other reference tests:
// relative 1e-10 in float64 and 1e-4 in float32.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reproduceCommand, SHIPPED_WEIGHTS_FILE, type ReproduceInput, type ReproduceWhat } from '../../web/src/viewmodels/reproduce';

const GLASSLLM = 'build/native/glassllm';
// an apostrophe, a comma and spaces: the line must quote them for the shell
const TEXT = "And God said, Let there be light: and there was light. God's";
const EPS = 1e-6;
const D = 128; // the shipped model's width: a row of a (n, d) snapshot or of tok_emb.weight
const TOLERANCE = { float32: 1e-4, float64: 1e-10 } as const;
type DType = keyof typeof TOLERANCE;

/** Runs the page's line in bash at the repository's root, with /usr/bin first so python3 is Debian's (with torch). */
function runLine(line: string): string[] {
  const out = execFileSync('bash', ['-c', line], { encoding: 'utf8', env: { ...process.env, PATH: `/usr/bin:/bin:${process.env.PATH ?? ''}` } });
  return out.trim().split('\n');
}

const line = (dtype: DType, what: ReproduceWhat, interventions: string[] = []): string => {
  const input: ReproduceInput = { weights: SHIPPED_WEIGHTS_FILE, text: TEXT, dtype, eps: EPS, interventions, what };
  return reproduceCommand(input);
};

function close(got: number, want: number, dtype: DType): void {
  expect(Number.isFinite(got), `printed ${got}`).toBe(true);
  expect(Math.abs(got - want), `${got} vs the core's ${want} (${dtype})`).toBeLessThanOrEqual(TOLERANCE[dtype] * Math.max(Math.abs(want), 1e-30));
}

/** `glassllm interp --grad-check`: per dtype the core's value and gradient of one element. */
function coreElement(target: string, index: number): Record<DType, { value: number; grad: number }> {
  const out = execFileSync(GLASSLLM, ['interp', '--weights', SHIPPED_WEIGHTS_FILE, '--text', TEXT, '--eps', String(EPS), '--grad-check', `${target}:${index}`], {
    encoding: 'utf8',
  });
  const read = (dtype: DType) => {
    const m = new RegExp(`^\\s*${dtype}\\s+value (\\S+)\\s+grad (\\S+)`, 'm').exec(out);
    if (m === null) throw new Error(`no ${dtype} line in: ${out}`);
    return { value: Number(m[1]), grad: Number(m[2]) };
  };
  return { float32: read('float32'), float64: read('float64') };
}

interface InterpJson {
  loss: number;
  baseline_loss: number;
  lens: { depths: string[]; logits: { shape: number[]; data: number[] } };
}
const dir = mkdtempSync(join(tmpdir(), 'glass-page-commands-'));
function coreInterp(dtype: DType, interventions: string[] = []): InterpJson {
  const json = join(dir, `${dtype}-${interventions.length}.json`);
  const args = ['interp', '--weights', SHIPPED_WEIGHTS_FILE, '--text', TEXT, '--eps', String(EPS), '--dtype', dtype === 'float64' ? 'f64' : 'f32', '--json', json];
  if (interventions.length > 0) args.push('--intervene', interventions.join(','));
  execFileSync(GLASSLLM, args, { encoding: 'utf8' });
  return JSON.parse(readFileSync(json, 'utf8')) as InterpJson;
}

beforeAll(() => {
  execFileSync(GLASSLLM, ['--help'], { encoding: 'utf8' }); // built by test_reference.sh before this runs
});

describe('the gradient check’s lines: one element’s value and gradient', () => {
  const ids = Array.from(new TextEncoder().encode(TEXT));
  const cases = [
    { kind: 'snapshot' as const, name: 'blocks.1.resid.attn', coords: [17, 40] },
    { kind: 'param' as const, name: 'tok_emb.weight', coords: [ids[5], 33] }, // a byte of the text: its row has a gradient
  ];
  for (const c of cases) {
    it(`${c.kind} ${c.name} (${c.coords.join(', ')})`, () => {
      const core = coreElement(c.name, c.coords[0] * D + c.coords[1]);
      for (const dtype of ['float32', 'float64'] as const) {
        const value = Number(runLine(line(dtype, c))[0]);
        close(value, core[dtype].value, dtype);
      }
      // gradients in float64 (a float32 gradient element can be near 0, where 1e-4 relative is rounding)
      expect(core.float64.grad).not.toBe(0);
      const grad = Number(runLine(line('float64', { kind: 'grad', name: c.name, coords: c.coords }))[0]);
      close(grad, core.float64.grad, 'float64');
    });
  }
});

describe('the logit lens’s line: the loss of the next byte at a depth and position', () => {
  for (const dtype of ['float32', 'float64'] as const) {
    it(dtype, () => {
      const j = coreInterp(dtype);
      const depth = 'blocks.2.resid.attn';
      const pos = 20;
      const printed = runLine(line(dtype, { kind: 'lens', depth, pos }));
      const loss = Number(/: (\S+)$/.exec(printed[1])![1]);
      // the core's lens logits at (depth, pos): -log softmax at the true next byte, in float64 here
      const [, n, V] = j.lens.logits.shape;
      const k = j.lens.depths.indexOf(depth);
      const row = j.lens.logits.data.slice((k * n + pos) * V, (k * n + pos + 1) * V);
      const next = new TextEncoder().encode(TEXT)[pos + 1];
      const max = Math.max(...row);
      const lse = max + Math.log(row.reduce((s, v) => s + Math.exp(v - max), 0));
      close(loss, lse - row[next], dtype);
      // the top byte too: the likeliest of the core's logits is the first one printed
      const best = row.indexOf(max);
      const label = best === 32 ? '␣' : best >= 33 && best < 127 ? String.fromCharCode(best) : null;
      if (label !== null) expect(printed[0]).toContain(`: ${label} `);
    });
  }
});

describe('the interventions’ line: the loss with them and without', () => {
  const ivs = ['zero:blocks.2.ffn', 'ablateHead:1:2', 'eps:blocks.3.norm_ffn:0.01'];
  for (const dtype of ['float32', 'float64'] as const) {
    it(dtype, () => {
      const j = coreInterp(dtype, ivs);
      const printed = runLine(line(dtype, { kind: 'loss' }, ivs));
      expect(printed[0]).toMatch(/^loss /);
      expect(printed[1]).toMatch(/^loss without the interventions /);
      close(Number(printed[0].split(' ').at(-1)), j.loss, dtype);
      close(Number(printed[1].split(' ').at(-1)), j.baseline_loss, dtype);
      expect(j.loss).not.toBe(j.baseline_loss);
    });
  }
});
