// The inspector's settings: defaults, the prompt's byte budget, snapshot names,
// and reading/writing them in the address. Validation and parsing only: the
// model runs in the worker.
//
//   ?view=inspector&prompt=In+the+beginning&tensor=blocks.2.resid.attn&of=grad&meps=1e-6&mdtype=float32
//   &compare=blocks.2.norm.attn,blocks.2.resid.attn      (present: the compare view)
//
// `tensor` names the layer too (blocks.{layer}.…). The lab owns eps/dtype/grad,
// so the model-wide ones are meps/mdtype and the value/gradient switch is `of`.
import { duplicateKeys, quoted } from './addressText';
import { DTYPES, checkEps, parseNumber } from './labSettings';
import type { DTypeName } from '../protocol/base';

/** docs/model.md: 4 blocks, a 128-byte context (the loaded weights are checked against these too). */
export const BLOCKS = 4;
export const CONTEXT_BYTES = 128;
export const DEFAULT_PROMPT = 'In the beginning God created the heaven and the earth.';
/** The weights' own eps (docs/model.md); the inspector compares every other eps with it. */
export const DEFAULT_MODEL_EPS = 1e-6;
/** Prompts up to this many bytes go in the address. */
export const URL_PROMPT_BYTES = 128;

export const BLOCK_PARTS = ['norm.attn', 'attn', 'resid.attn', 'norm.ffn', 'ffn', 'resid.ffn'] as const;
export type BlockPart = (typeof BLOCK_PARTS)[number];

/** Every snapshot name, in the order the model computes them. */
export function snapshotNames(blocks = BLOCKS): string[] {
  const names = ['embed'];
  for (let i = 0; i < blocks; i++) for (const p of BLOCK_PARTS) names.push(`blocks.${i}.${p}`);
  names.push('norm.final', 'logits');
  return names;
}
const NAMES = new Set(snapshotNames());

/** The block a snapshot belongs to, or null (embed, norm.final, logits). */
export function layerOf(name: string): number | null {
  const m = /^blocks\.(\d+)\./.exec(name);
  return m ? Number(m[1]) : null;
}

export interface InspectorSettings {
  /** As typed; runs truncated to CONTEXT_BYTES bytes. */
  prompt: string;
  eps: number;
  dtype: DTypeName;
  /** The selected snapshot (docs/model.md name). */
  tensor: string;
  /** Show gradients instead of values. */
  grad: boolean;
  /** Two snapshots (same shape) to show side by side with b − a, or null. */
  compare: [string, string] | null;
}

export const DEFAULT_INSPECTOR: InspectorSettings = {
  prompt: DEFAULT_PROMPT,
  eps: DEFAULT_MODEL_EPS,
  dtype: 'float32',
  tensor: 'blocks.0.resid.attn',
  grad: false,
  compare: null,
};

/** The default comparison: what the attention branch sees vs. the stream after it, same block. */
export function defaultCompare(tensor: string): [string, string] {
  const layer = layerOf(tensor) ?? 0;
  return [`blocks.${layer}.norm.attn`, `blocks.${layer}.resid.attn`];
}

// ---- the prompt's byte budget ----

export interface Truncated {
  /** The text the model runs on: at most maxBytes UTF-8 bytes, cut on a character boundary. */
  text: string;
  bytes: number;
  originalBytes: number;
  truncated: boolean;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const utf8Length = (cp: number) => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);

/** Counts UTF-8 bytes (not JS characters) and cuts on a code point boundary. */
export function truncateUtf8(typed: string, maxBytes = CONTEXT_BYTES): Truncated {
  const text = typed.replace(LONE_SURROGATE, '\uFFFD'); // as TextEncoder would encode it
  let bytes = 0;
  let cut = -1;
  let index = 0;
  for (const ch of text) {
    const n = utf8Length(ch.codePointAt(0)!);
    if (cut < 0 && bytes + n > maxBytes) cut = index;
    if (cut < 0) bytes += n;
    index += ch.length;
  }
  if (cut < 0) return { text, bytes, originalBytes: bytes, truncated: false };
  return { text: text.slice(0, cut), bytes, originalBytes: new TextEncoder().encode(text).length, truncated: true };
}

// ---- the address ----

/** The inspector's keys in the address. */
export const INSPECTOR_KEYS = ['prompt', 'meps', 'mdtype', 'tensor', 'of', 'compare'] as const;

export interface InspectorRead {
  settings: InspectorSettings;
  problems: string[];
}

export function readInspectorUrl(search: string): InspectorRead {
  const params = new URLSearchParams(search);
  const problems: string[] = duplicateKeys(params, INSPECTOR_KEYS);
  const bad = (key: string, why: string, fallback: string) => problems.push(`The address has ${key}=${quoted(params.get(key))}: ${why}; using ${fallback}.`);
  const s: InspectorSettings = { ...DEFAULT_INSPECTOR };

  const prompt = params.get('prompt');
  if (prompt !== null) {
    if (prompt === '') bad('prompt', 'the prompt is empty', 'the default prompt');
    else s.prompt = prompt;
  }
  const eps = params.get('meps');
  if (eps !== null) {
    const r = parseNumber(eps, 'meps');
    const why = r.ok ? checkEps(r.value) : r.message;
    if (r.ok && why === null) s.eps = r.value;
    else bad('meps', why!, String(DEFAULT_MODEL_EPS));
  }
  const dtype = params.get('mdtype');
  if (dtype !== null) {
    if ((DTYPES as readonly string[]).includes(dtype)) s.dtype = dtype as DTypeName;
    else bad('mdtype', `not one of ${DTYPES.join(', ')}`, DEFAULT_INSPECTOR.dtype);
  }
  const tensor = params.get('tensor');
  if (tensor !== null) {
    if (NAMES.has(tensor)) s.tensor = tensor;
    else bad('tensor', 'not a snapshot name (embed, blocks.0.norm.attn … blocks.3.resid.ffn, norm.final, logits)', DEFAULT_INSPECTOR.tensor);
  }
  const of = params.get('of');
  if (of !== null) {
    if (of === 'value' || of === 'grad') s.grad = of === 'grad';
    else bad('of', "not 'value' or 'grad'", 'value');
  }
  const compare = params.get('compare');
  if (compare !== null) {
    const pair = compare.split(',');
    const ok = pair.length === 2 && pair.every((n) => NAMES.has(n) && n !== 'logits');
    if (ok) s.compare = [pair[0], pair[1]];
    else bad('compare', 'not two snapshot names of shape (n, 128) separated by a comma', 'one tensor, no comparison');
  }
  return { settings: s, problems };
}

/** The query string with the inspector's keys set (other keys kept). */
export function writeInspectorUrl(s: InspectorSettings, currentSearch: string): string {
  const params = new URLSearchParams(currentSearch);
  if (new TextEncoder().encode(s.prompt).length <= URL_PROMPT_BYTES && s.prompt !== '') params.set('prompt', s.prompt);
  else params.delete('prompt');
  params.set('tensor', s.tensor);
  params.set('of', s.grad ? 'grad' : 'value');
  params.set('meps', String(s.eps));
  params.set('mdtype', s.dtype);
  if (s.compare !== null) params.set('compare', s.compare.join(','));
  else params.delete('compare');
  return `?${params.toString().replace(/%2C/g, ',')}`;
}
