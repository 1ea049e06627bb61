// The "Look inside" tools' part of the inspector's address: which tool is open,
// the position, the coordinate, the head, a parameter for the gradient check,
// its nudges and the interventions. Parsing and validation only (the core
// judges names against the loaded model and refuses the ones it lacks).
//
//   &tool=gradcheck&pos=5&coord=17&param=blocks.0.attn.wq.weight&d32=1e-3&d64=1e-6
//   &tool=heads&head=1.2&pos=9
//   &tool=intervene&iv=zero:blocks.2.ffn,ablateHead:1:2
//
// Every key is optional; without them the view is the one the inspector had
// before the tools had addresses (the tools closed). A bad value is reported
// like the other keys (UrlProblems) and replaced by its default; the others
// are still used.
import { duplicateKeys, quoted } from './addressText';
import { parseNumber } from './labSettings';

export const TOOLS = ['heads', 'lens', 'ledger', 'intervene', 'gradcheck'] as const;
export type Tool = (typeof TOOLS)[number];

/** What each tool is called on the page. */
export const TOOL_TITLES: Record<Tool, string> = {
  heads: 'Attention heads',
  lens: 'Logit lens',
  ledger: 'Residual ledger',
  intervene: 'Interventions',
  gradcheck: 'Gradient check',
};

export interface InterpSettings {
  /** The open tool, or null: "Look inside" closed. */
  tool: Tool | null;
  /** A position in the prompt (the heads' query row, the lens's column, the ledger's position, the gradient check's row). */
  pos: number;
  /** A coordinate of the position's vector (the gradient check). */
  coord: number;
  /** The head shown by the heads tool. */
  head: { block: number; head: number };
  /** The gradient check nudges this parameter (row pos, column coord) instead of the open tensor. */
  param: string | null;
  /** The gradient check's δ per dtype. */
  delta: { float32: number; float64: number };
  /** The interventions' text forms (glass/nn/interventions.h), in order. */
  interventions: string[];
}

/** A nudge that shows the gradient at work in each dtype without drowning in rounding (the core's default too). */
export const DEFAULT_DELTAS = { float32: 1e-3, float64: 1e-6 } as const;

export const DEFAULT_INTERP: InterpSettings = {
  tool: null,
  pos: 0,
  coord: 0,
  head: { block: 0, head: 0 },
  param: null,
  delta: { ...DEFAULT_DELTAS },
  interventions: [],
};

export const INTERP_KEYS = ['tool', 'pos', 'coord', 'head', 'param', 'd32', 'd64', 'iv'] as const;

/** A whole number from 0 to max, or null. */
function whole(text: string, max: number): number | null {
  if (!/^\d{1,9}$/.test(text)) return null;
  const v = Number(text);
  return v <= max ? v : null;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

/**
 * One intervention's text form, checked for its shape only (kind, fields,
 * numbers); null if it is fine, else why not. Whether the model has that part
 * is the core's to say.
 */
export function interventionProblem(text: string): string | null {
  const f = text.split(':');
  const kind = f[0];
  const name = (s: string | undefined) => s !== undefined && s.length <= 60 && NAME.test(s);
  const num = (s: string | undefined) => s !== undefined && parseNumber(s, 'x').ok;
  const int = (s: string | undefined) => s !== undefined && whole(s, 1e6) !== null;
  switch (kind) {
    case 'zero':
    case 'identityNorm':
    case 'unitGamma':
      return f.length === 2 && name(f[1]) ? null : `${kind} takes one name (${kind}:${kind === 'zero' ? 'blocks.2.ffn' : 'blocks.0.norm_attn'})`;
    case 'scale':
      return f.length === 3 && name(f[1]) && num(f[2]) ? null : 'scale takes a branch and a factor (scale:blocks.0.attn:0.5)';
    case 'eps':
      return f.length === 3 && name(f[1]) && num(f[2]) ? null : 'eps takes a norm and a value (eps:blocks.3.norm_ffn:0.01)';
    case 'ablateHead':
      return f.length === 3 && int(f[1]) && int(f[2]) ? null : 'ablateHead takes a block and a head (ablateHead:1:2)';
    default:
      return `unknown kind ${quoted(kind, 20)}; the kinds are zero, scale, ablateHead, eps, identityNorm, unitGamma`;
  }
}

export interface InterpRead {
  settings: InterpSettings;
  problems: string[];
}

/** The tools' keys of an address; `promptBytes` bounds the position (the prompt as the model runs it). */
export function readInterpUrl(search: string, promptBytes: number): InterpRead {
  const params = new URLSearchParams(search);
  const problems: string[] = duplicateKeys(params, INTERP_KEYS);
  const bad = (key: string, why: string, fallback: string) => problems.push(`The address has ${key}=${quoted(params.get(key))}: ${why}; using ${fallback}.`);
  const s: InterpSettings = { ...DEFAULT_INTERP, head: { ...DEFAULT_INTERP.head }, delta: { ...DEFAULT_DELTAS }, interventions: [] };

  const tool = params.get('tool');
  if (tool !== null) {
    if ((TOOLS as readonly string[]).includes(tool)) s.tool = tool as Tool;
    else bad('tool', `not one of ${TOOLS.join(', ')}`, 'the tools closed');
  }
  const pos = params.get('pos');
  if (pos !== null) {
    const last = Math.max(promptBytes - 1, 0);
    const v = whole(pos, last);
    if (v !== null) s.pos = v;
    else bad('pos', `not a position of the prompt (a whole number from 0 to ${last})`, 'position 0');
  }
  const coord = params.get('coord');
  if (coord !== null) {
    const v = whole(coord, 100_000);
    if (v !== null) s.coord = v;
    else bad('coord', 'not a coordinate (a whole number from 0)', 'coordinate 0');
  }
  const head = params.get('head');
  if (head !== null) {
    const m = /^(\d{1,4})\.(\d{1,4})$/.exec(head);
    if (m) s.head = { block: Number(m[1]), head: Number(m[2]) };
    else bad('head', 'not a block and a head such as 1.2 (head 2 of block 1)', 'head 0 of block 0');
  }
  const param = params.get('param');
  if (param !== null) {
    if (param.length <= 80 && NAME.test(param)) s.param = param;
    else bad('param', 'not a parameter name such as blocks.0.attn.wq.weight', 'the open tensor');
  }
  for (const [key, dtype] of [
    ['d32', 'float32'],
    ['d64', 'float64'],
  ] as const) {
    const text = params.get(key);
    if (text === null) continue;
    const r = parseNumber(text, key);
    if (r.ok && r.value > 0 && r.value <= 1) s.delta[dtype] = r.value;
    else bad(key, r.ok ? 'δ must be above 0 and at most 1' : r.message, String(DEFAULT_DELTAS[dtype]));
  }
  const iv = params.get('iv');
  if (iv !== null) {
    for (const text of iv.split(',').filter((t) => t !== '')) {
      const why = interventionProblem(text);
      if (why === null) s.interventions.push(text);
      else problems.push(`The address has the intervention ${quoted(text)} in iv: ${why}; it was left out.`);
    }
  }
  return { settings: s, problems };
}

/** The query string with the tools' keys set (only those that differ from their defaults; other keys kept). */
export function writeInterpUrl(s: InterpSettings, currentSearch: string): string {
  const params = new URLSearchParams(currentSearch);
  for (const key of INTERP_KEYS) params.delete(key);
  if (s.tool !== null) params.set('tool', s.tool);
  if (s.pos !== DEFAULT_INTERP.pos) params.set('pos', String(s.pos));
  if (s.coord !== DEFAULT_INTERP.coord) params.set('coord', String(s.coord));
  if (s.head.block !== 0 || s.head.head !== 0) params.set('head', `${s.head.block}.${s.head.head}`);
  if (s.param !== null) params.set('param', s.param);
  if (s.delta.float32 !== DEFAULT_DELTAS.float32) params.set('d32', String(s.delta.float32));
  if (s.delta.float64 !== DEFAULT_DELTAS.float64) params.set('d64', String(s.delta.float64));
  if (s.interventions.length > 0) params.set('iv', s.interventions.join(','));
  return `?${params.toString().replace(/%2C/g, ',').replace(/%3A/g, ':')}`;
}
