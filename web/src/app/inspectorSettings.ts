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
import {
  ALL_BLOCK_PARTS,
  MAX_BLOCKS,
  SHIPPED_SHAPE,
  blockInput,
  blockParts,
  layerOf,
  snapshotNamesOf,
  streamNames,
  sublayerParts,
  type ModelShape,
} from '../protocol/modelNames';

/** The shipped model (docs/model.md): 4 blocks, a 128-byte context. A loaded model's own config (ModelInfo) wins. */
export const BLOCKS = SHIPPED_SHAPE.blocks;
export const CONTEXT_BYTES = 128;
import { DEFAULT_PROMPT } from '../protocol/model';
export { DEFAULT_PROMPT };
/** The weights' own eps (docs/model.md); the inspector compares every other eps with it. */
export const DEFAULT_MODEL_EPS = 1e-6;
/** Prompts up to this many bytes go in the address. */
export const URL_PROMPT_BYTES = 128;

export { layerOf };

/** Every snapshot name of a model (the shipped one by default), in the order it computes them (protocol/modelNames.ts). */
export function snapshotNames(model: ModelShape | number = SHIPPED_SHAPE): string[] {
  return snapshotNamesOf(typeof model === 'number' ? { ...SHIPPED_SHAPE, blocks: model } : model);
}

/** A name of the right form for some model (before the loaded one is known): embed, blocks.{i}.{part}, norm.final, logits. */
export function snapshotNameForm(name: string): boolean {
  if (name === 'embed' || name === 'norm.final' || name === 'logits') return true;
  const m = /^blocks\.(0|[1-9]\d?)\.(.+)$/.exec(name);
  return m !== null && Number(m[1]) < MAX_BLOCKS && (ALL_BLOCK_PARTS as readonly string[]).includes(m[2]);
}

/** The tensor the inspector opens on: the stream after block 0's attention sublayer. */
export function defaultTensor(m: ModelShape = SHIPPED_SHAPE): string {
  return streamNames(m)[1];
}

/** "blocks.0 … blocks.3: norm.attn, attn, …; embed, norm.final, logits": what exists, briefly (it goes in a short message). */
export function namesSummary(m: ModelShape): string {
  const blocks = m.blocks === 1 ? 'blocks.0' : `blocks.0 … blocks.${m.blocks - 1}`;
  const outer = snapshotNamesOf(m).filter((n) => layerOf(n) === null);
  return `${blocks}: ${blockParts(m).join(', ')}; ${outer.join(', ')}`;
}

export interface InspectorSettings {
  /** As typed; runs truncated to the model's context (CONTEXT_BYTES for the shipped one). */
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

/**
 * The default comparison, same block: what the attention branch reads vs. the
 * stream after it (pre-norm), the sum vs. its norm (post-norm), or the stream
 * before and after the attention sublayer (no norms).
 */
export function defaultCompare(tensor: string, m: ModelShape = SHIPPED_SHAPE): [string, string] {
  const layer = Math.min(layerOf(tensor) ?? 0, m.blocks - 1);
  const { parts, stream } = sublayerParts(m, 'attn');
  const at = (p: string) => `blocks.${layer}.${p}`;
  if (m.norm === 'pre') return [at('norm.attn'), at(stream)];
  if (m.norm === 'post') return [at(parts[parts.length - 2]), at(stream)];
  return [blockInput(m, layer), at(stream)];
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

/**
 * Reads the inspector's keys. `model`: the loaded model's shape, to check the
 * tensor names against (the shipped model's by default); null while it is not
 * known, which checks only the names' form (fitToModel checks them later).
 */
export function readInspectorUrl(search: string, model: ModelShape | null = SHIPPED_SHAPE): InspectorRead {
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
    const why = model === null ? (snapshotNameForm(tensor) ? null : FORM) : missing(tensor, model);
    if (why === null) s.tensor = tensor;
    else bad('tensor', why, DEFAULT_INSPECTOR.tensor);
  }
  const of = params.get('of');
  if (of !== null) {
    if (of === 'value' || of === 'grad') s.grad = of === 'grad';
    else bad('of', "not 'value' or 'grad'", 'value');
  }
  const compare = params.get('compare');
  if (compare !== null) {
    const pair = compare.split(',');
    const known = (n: string) => (model === null ? snapshotNameForm(n) : missing(n, model) === null);
    const ok = pair.length === 2 && pair.every((n) => known(n) && n !== 'logits');
    if (ok) s.compare = [pair[0], pair[1]];
    else bad('compare', COMPARE, 'one tensor, no comparison');
  }
  return { settings: s, problems };
}

const FORM = 'not a snapshot name (embed, blocks.{i}.{part}, norm.final, logits)';
const COMPARE = 'not two snapshot names of shape (n, d) separated by a comma';

/** Why `name` is not a snapshot of this model, or null if it is. */
function missing(name: string, m: ModelShape): string | null {
  if (snapshotNamesOf(m).includes(name)) return null;
  return `not a snapshot name of this model (${namesSummary(m)})`;
}

/**
 * Checks settings read before the model was known against the loaded model:
 * a tensor or pair it does not have is replaced by its default there, with the
 * address's message for each.
 */
export function fitToModel(s: InspectorSettings, m: ModelShape, given: { tensor: boolean; compare: boolean } = { tensor: true, compare: true }): InspectorRead {
  // A key the address does not have holds a default (the shipped model's): replaced quietly, never reported as the address's
  const problems: string[] = [];
  const out = { ...s };
  const why = missing(s.tensor, m);
  if (why !== null) {
    out.tensor = defaultTensor(m);
    if (given.tensor) problems.push(`The address has tensor=${quoted(s.tensor)}: ${why}; using ${out.tensor}.`);
  }
  if (s.compare !== null && !s.compare.every((n) => missing(n, m) === null && n !== 'logits')) {
    out.compare = null;
    if (given.compare) problems.push(`The address has compare=${quoted(s.compare.join(','))}: ${COMPARE} in this model; using one tensor, no comparison.`);
  }
  return { settings: out, problems };
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
