// "Reproduce in PyTorch": the command line that makes the repository's
// independent PyTorch model (tests/reference/reproduce.py) print the number on
// screen. Pure: the page builds the line, the learner runs it in a clone of the
// repository; tests/reference/page_commands.test.ts runs the lines this file
// builds and compares what they print with the core.
import type { DTypeName } from '../protocol/base';

/** The shipped weights as a clone of the repository has them. */
export const SHIPPED_WEIGHTS_FILE = 'public/weights/glass-kjv.safetensors';
/** The name the inspector's download gives the learner's own weights. */
export const OWN_WEIGHTS_FILE = 'glass-my-weights.safetensors';
export const REPRODUCE_SCRIPT = 'tests/reference/reproduce.py';

export type ReproduceWhat =
  /** One element of a snapshot's value, or of the loss's gradient at a snapshot or parameter. */
  | { kind: 'snapshot' | 'grad'; name: string; coords: readonly number[] }
  /** One element of a parameter's value. */
  | { kind: 'param'; name: string; coords: readonly number[] }
  /** The logit lens at a depth (a stream snapshot) and a position: top 5 and the next byte's loss. */
  | { kind: 'lens'; depth: string; pos: number }
  /** The loss with the run's interventions (and without them). */
  | { kind: 'loss' };

export interface ReproduceInput {
  /** The weights file's path as the command names it. */
  weights: string;
  text: string;
  dtype: DTypeName;
  eps: number;
  /** Text forms (glass/nn/interventions.h); the run they change. */
  interventions: readonly string[];
  what: ReproduceWhat;
}

/** POSIX shell quoting: bare when nothing in it is special, else in single quotes. */
export function shellQuote(s: string): string {
  if (/^[A-Za-z0-9_./:,=+-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The arguments after the script's path (what the reference test runs). */
export function reproduceArgs(i: ReproduceInput): string[] {
  const args = [i.weights, i.text];
  const w = i.what;
  if (w.kind === 'loss') args.push('loss');
  else if (w.kind === 'lens') args.push('lens', w.depth, String(w.pos));
  else args.push(w.kind, w.name, w.coords.join(','));
  args.push('--dtype', i.dtype === 'float64' ? 'f64' : 'f32', '--eps', String(i.eps));
  if (i.interventions.length > 0) args.push('--intervene', i.interventions.join(','));
  return args;
}

/** The line to paste into a shell at the repository's root. */
export function reproduceCommand(i: ReproduceInput): string {
  return ['python3', REPRODUCE_SCRIPT, ...reproduceArgs(i)].map(shellQuote).join(' ');
}
