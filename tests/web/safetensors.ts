// A safetensors file made in a test (8-byte header length, JSON header, the
// float32 data in the header's order): the lesson experiments' checkpoints and
// the e2e tests' weights of models larger than the shipped one.

/** A float32 tensor: its shape, and its values in row-major order. */
export interface F32 {
  shape: number[];
  data: ArrayLike<number>;
}

export function safetensorsBytes(tensors: Record<string, F32>, metadata: Record<string, string>): Uint8Array {
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  for (const [name, t] of Object.entries(tensors)) {
    header[name] = { dtype: 'F32', shape: t.shape, data_offsets: [offset, offset + 4 * t.data.length] };
    offset += 4 * t.data.length;
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  let at = 8 + json.length;
  for (const t of Object.values(tensors)) {
    const f = t.data instanceof Float32Array ? t.data : Float32Array.from(t.data);
    out.set(new Uint8Array(f.buffer, f.byteOffset, f.byteLength), at); // little-endian, as every platform the tests run on
    at += 4 * t.data.length;
  }
  return out;
}
