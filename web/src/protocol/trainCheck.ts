// Shape checks of the training stream's messages (train.ts), for both ends: the
// trainer worker checks every command it receives, the page's client every
// event. A message of the wrong shape is refused with a message naming the
// field, never half-used. Ranges are trainSettings.ts's job.
import type { ModelConfigInput, RunSpec, StepReport, TrainCommand, TrainEvent, TrainSettings } from './train';
import { MAX_THREADS, isThreadCount } from './threads';

type Obj = Record<string, unknown>;

export class MessageShapeError extends Error {
  override name = 'MessageShapeError';
}

function fail(what: string): never {
  throw new MessageShapeError(what);
}

function obj(v: unknown, what: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(`${what} must be an object`);
  return v as Obj;
}
function str(o: Obj, key: string, what: string): string {
  if (typeof o[key] !== 'string') fail(`${what}.${key} must be a string`);
  return o[key] as string;
}
function num(o: Obj, key: string, what: string): number {
  if (typeof o[key] !== 'number') fail(`${what}.${key} must be a number`);
  return o[key] as number;
}
function bool(o: Obj, key: string, what: string): boolean {
  if (typeof o[key] !== 'boolean') fail(`${what}.${key} must be true or false`);
  return o[key] as boolean;
}
function numOrNull(o: Obj, key: string, what: string): number | null {
  if (o[key] === null) return null;
  return num(o, key, what);
}
function numbers(o: Obj, key: string, what: string): number[] {
  const v = o[key];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'number')) fail(`${what}.${key} must be an array of numbers`);
  return v as number[];
}
function buffer(o: Obj, key: string, what: string): ArrayBuffer {
  if (!(o[key] instanceof ArrayBuffer)) fail(`${what}.${key} must be an ArrayBuffer`);
  return o[key] as ArrayBuffer;
}
function optionalStr(o: Obj, key: string, what: string): void {
  if (o[key] !== undefined) str(o, key, what);
}
function threadCount(o: Obj, key: string, what: string): number {
  const n = num(o, key, what);
  if (!isThreadCount(n)) fail(`${what}.${key} must be a whole number of threads from 1 to ${MAX_THREADS}, got ${n}`);
  return n;
}

const CONFIG_KEYS = ['blocks', 'd', 'heads', 'ctx', 'eps'] as const;
const CONFIG_WORDS = ['norm', 'normKind', 'initScale', 'dtype'] as const;
const SETTINGS_KEYS = ['steps', 'batch', 'lr', 'warmup', 'clip', 'weightDecay', 'seed', 'evalEvery', 'sampleEvery', 'sampleLength'] as const;

function checkConfig(v: unknown, what: string): ModelConfigInput {
  const c = obj(v, what);
  for (const k of CONFIG_KEYS) num(c, k, what);
  for (const k of CONFIG_WORDS) str(c, k, what);
  bool(c, 'residual', what);
  return c as unknown as ModelConfigInput;
}

function checkSettings(v: unknown, what: string): TrainSettings {
  const t = obj(v, what);
  for (const k of SETTINGS_KEYS) num(t, k, what);
  return t as unknown as TrainSettings;
}

/** A RunSpec's shape (not its ranges). */
export function checkRunSpecShape(v: unknown): RunSpec {
  const s = obj(v, 'spec');
  str(s, 'run', 'spec');
  checkConfig(s.config, 'spec.config');
  checkSettings(s.train, 'spec.train');
  const data = obj(s.data, 'spec.data');
  switch (data.kind) {
    case 'kjv':
      optionalStr(data, 'url', 'spec.data');
      if (data.bytes !== undefined) num(data, 'bytes', 'spec.data');
      break;
    case 'text':
      str(data, 'text', 'spec.data');
      str(data, 'label', 'spec.data');
      break;
    case 'file':
      buffer(data, 'bytes', 'spec.data');
      str(data, 'name', 'spec.data');
      break;
    default:
      fail("spec.data.kind must be 'kjv', 'text' or 'file'");
  }
  const init = obj(s.init, 'spec.init');
  switch (init.kind) {
    case 'scratch':
      break;
    case 'shipped':
      optionalStr(init, 'url', 'spec.init');
      break;
    case 'weights':
      buffer(init, 'bytes', 'spec.init');
      str(init, 'name', 'spec.init');
      break;
    default:
      fail("spec.init.kind must be 'scratch', 'shipped' or 'weights'");
  }
  if (s.persist !== undefined) bool(s, 'persist', 'spec');
  if (s.probes !== undefined) {
    if (!Array.isArray(s.probes)) fail('spec.probes must be an array');
    for (const p of s.probes as unknown[]) {
      const o = obj(p, 'spec.probes[]');
      str(o, 'param', 'spec.probes[]');
      num(o, 'index', 'spec.probes[]');
    }
  }
  return s as unknown as RunSpec;
}

/** A command from the page, checked field by field; throws MessageShapeError naming what is wrong. */
export function checkTrainCommand(v: unknown): TrainCommand {
  const m = obj(v, 'command');
  switch (m.type) {
    case 'start':
      checkRunSpecShape(m.spec);
      break;
    case 'resume-saved':
      str(m, 'key', 'command');
      break;
    case 'pause':
    case 'resume':
    case 'stop':
    case 'save':
      break;
    case 'threads':
      threadCount(m, 'n', 'command');
      break;
    default:
      fail(`unknown command type ${JSON.stringify(m.type)}`);
  }
  return m as unknown as TrainCommand;
}

function checkReport(v: unknown): StepReport {
  const r = obj(v, 'report');
  for (const k of ['step', 'total', 'loss', 'lr', 'gradNorm', 'seconds', 'tokensPerSecond', 'etaSeconds'] as const) num(r, k, 'report');
  numbers(r, 'blockGradNorms', 'report');
  numbers(r, 'residRms', 'report');
  numOrNull(r, 'valLoss', 'report');
  if (r.threads !== undefined) threadCount(r, 'threads', 'report');
  if (r.probes !== undefined) {
    if (!Array.isArray(r.probes)) fail('report.probes must be an array');
    for (const p of r.probes as unknown[]) {
      const o = obj(p, 'report.probes[]');
      for (const k of ['value', 'm', 'v'] as const) num(o, k, 'report.probes[]');
    }
  }
  return r as unknown as StepReport;
}

/** An event from the trainer worker, checked field by field; throws MessageShapeError naming what is wrong. */
export function checkTrainEvent(v: unknown): TrainEvent {
  const m = obj(v, 'event');
  switch (m.type) {
    case 'ready':
      break;
    case 'started':
      str(m, 'run', 'started');
      for (const k of ['parameters', 'trainBytes', 'valBytes'] as const) num(m, k, 'started');
      checkConfig(m.config, 'started.config');
      checkSettings(m.train, 'started.train');
      str(m, 'dataLabel', 'started');
      if (!Array.isArray(m.depthNames) || !m.depthNames.every((x) => typeof x === 'string')) fail('started.depthNames must be an array of strings');
      break;
    case 'step':
      checkReport(m.report);
      break;
    case 'history':
      if (!Array.isArray(m.reports)) fail('history.reports must be an array');
      (m.reports as unknown[]).forEach(checkReport);
      break;
    case 'sample':
      num(m, 'step', 'sample');
      str(m, 'prompt', 'sample');
      str(m, 'text', 'sample');
      break;
    case 'saved':
      str(m, 'key', 'saved');
      num(m, 'step', 'saved');
      num(m, 'total', 'saved');
      break;
    case 'paused':
    case 'resumed':
      num(m, 'step', String(m.type));
      break;
    case 'stopped':
      num(m, 'step', 'stopped');
      bool(m, 'finished', 'stopped');
      numOrNull(m, 'valLoss', 'stopped');
      break;
    case 'diverged':
      num(m, 'step', 'diverged');
      str(m, 'what', 'diverged');
      str(m, 'message', 'diverged');
      break;
    case 'weights':
      buffer(m, 'bytes', 'weights');
      str(m, 'fileName', 'weights');
      break;
    case 'error': {
      const e = obj(m.error, 'error.error');
      str(e, 'name', 'error.error');
      str(e, 'message', 'error.error');
      bool(m, 'fatal', 'error');
      break;
    }
    default:
      fail(`unknown event type ${JSON.stringify(m.type)}`);
  }
  return m as unknown as TrainEvent;
}
