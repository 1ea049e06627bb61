// Exporting a tensor: NumPy's .npy format (version 1.0) and JSON. Written by
// hand, no dependency:
//
//   magic "\x93NUMPY", version 1 0, header length (uint16 LE), then an ASCII dict
//   {'descr': '<f4', 'fortran_order': False, 'shape': (54, 128), }
//   padded with spaces and a final "\n" so the data starts on a 64-byte boundary,
//   then the values, C order, little-endian.
export interface ExportTensor {
  shape: readonly number[];
  data: Float32Array | Float64Array;
}

export function npyBytes(t: ExportTensor): Uint8Array {
  const f32 = t.data instanceof Float32Array;
  const shape = t.shape.length === 1 ? `(${t.shape[0]},)` : `(${t.shape.join(', ')})`;
  const dict = `{'descr': '${f32 ? '<f4' : '<f8'}', 'fortran_order': False, 'shape': ${shape}, }`;
  const preamble = 10; // magic (6) + version (2) + header length (2)
  const padded = Math.ceil((preamble + dict.length + 1) / 64) * 64;
  const header = dict + ' '.repeat(padded - preamble - dict.length - 1) + '\n';
  const width = f32 ? 4 : 8;
  const out = new Uint8Array(padded + t.data.length * width);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]); // \x93 N U M P Y, v1.0
  const view = new DataView(out.buffer);
  view.setUint16(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[preamble + i] = header.charCodeAt(i);
  for (let i = 0; i < t.data.length; i++) {
    if (f32) view.setFloat32(padded + i * 4, t.data[i], true);
    else view.setFloat64(padded + i * 8, t.data[i], true);
  }
  return out;
}

/** JSON with NaN/Infinity spelled as strings (JSON has no such numbers). */
export function tensorJson(t: ExportTensor, meta: Record<string, unknown>): string {
  const data = Array.from(t.data, (v) => (Number.isFinite(v) ? v : String(v)));
  return JSON.stringify({ ...meta, dtype: t.data instanceof Float32Array ? 'float32' : 'float64', shape: t.shape, data });
}

/** Offers bytes as a download named `filename`. */
export function download(filename: string, bytes: Uint8Array | string, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
