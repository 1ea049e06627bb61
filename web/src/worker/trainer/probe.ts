// Follows single numbers of a run's parameters through AdamW: after a step the
// session's checkpoint (a safetensors file: the weights, then AdamW's moments
// as "adamw.m.<name>" and "adamw.v.<name>") is read for the entries asked for.
// The training lesson shows one weight's value and moments step by step; the
// core computes them, this file only finds them in the checkpoint's bytes.
import type { ProbeReading, ProbeSpec } from '../../protocol/train';

interface Entry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

export class ProbeError extends Error {
  override name = 'ProbeError';
}

const WIDTH: Record<string, number> = { F32: 4, F64: 8 };

/** The header of a safetensors file: each tensor's dtype, shape and byte range (after the header). */
function header(bytes: Uint8Array): { entries: Record<string, Entry>; start: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = Number(view.getBigUint64(0, true));
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length))) as Record<string, Entry>;
  delete json.__metadata__;
  return { entries: json, start: 8 + length };
}

function read(bytes: Uint8Array, start: number, e: Entry, index: number): number {
  const width = WIDTH[e.dtype];
  const view = new DataView(bytes.buffer, bytes.byteOffset + start + e.data_offsets[0], e.data_offsets[1] - e.data_offsets[0]);
  return width === 4 ? view.getFloat32(index * 4, true) : view.getFloat64(index * 8, true);
}

/** Refuses a probe whose parameter or index the checkpoint does not have, naming it. */
export function checkProbes(checkpoint: Uint8Array, probes: readonly ProbeSpec[]): void {
  const { entries } = header(checkpoint);
  for (const p of probes) {
    const e = entries[p.param];
    if (e === undefined || p.param.startsWith('adamw.'))
      throw new ProbeError(`no parameter named "${p.param}" to follow (the model has ${Object.keys(entries).filter((k) => !k.startsWith('adamw.')).join(', ')})`);
    if (WIDTH[e.dtype] === undefined) throw new ProbeError(`"${p.param}" is stored as ${e.dtype}, not float32 or float64`);
    const n = e.shape.reduce((a, b) => a * b, 1);
    if (!Number.isInteger(p.index) || p.index < 0 || p.index >= n) throw new ProbeError(`"${p.param}" has ${n} numbers; index ${p.index} is not one of them`);
  }
}

/** The probed entries' values and moments, as the checkpoint holds them. */
export function readProbes(checkpoint: Uint8Array, probes: readonly ProbeSpec[]): ProbeReading[] {
  const { entries, start } = header(checkpoint);
  return probes.map((p) => ({
    value: read(checkpoint, start, entries[p.param], p.index),
    m: read(checkpoint, start, entries[`adamw.m.${p.param}`], p.index),
    v: read(checkpoint, start, entries[`adamw.v.${p.param}`], p.index),
  }));
}
