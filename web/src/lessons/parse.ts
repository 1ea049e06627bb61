// Lesson files: Markdown with frontmatter, one step per `## ` heading.
//
//   ---
//   title: RMSNorm, pre-norm and residuals
//   order: 1
//   summary: One sentence for the lesson path.
//   recap: What the learner can now do (shown once the lesson is finished; optional).
//   ---
//   ## First step title
//   Prose with $inline$ math, $$display$$ math, `code`, **bold**, [links](?view=lab)
//   and live numbers {{ expr | int }} that the core computes in the worker.
//
//   ```widget row-norm            a live widget, by name (lessons/widgets.tsx finds them)
//   ```
//   ```glass                      a code cell: JavaScript against the core, run in the worker
//   print(glass.tensor([[3, 4]]))
//   ```
//   ```check                      a question whose answer the core computes
//   id: norm-params               unique in the lesson (progress remembers it)
//   kind: compute                 what the check asks of the learner (below)
//   question: How many ...?       may hold live numbers {{ expr }}, as hint and explain may
//   answer: model.info().norms * model.info().d      a JS expression, evaluated in the worker
//   precision: decimals 4         the precision the question asks for (below)
//   tolerance: 1e-9               or: relative (default 1e-9); `tolerance: abs 0.01` for absolute
//   choices: yes | no             optional: the answer expression returns one of them
//   hides: row-norm, code         predictions only: blocks kept hidden until it is answered (below)
//   hint: shown after a wrong answer
//   explain: shown after the right one
//   ```
//
// kind (required):
//   read           the value is read off a widget, a code cell or the prose
//   compute        worked out from what the step says (counting, a little arithmetic)
//   predict        answered BEFORE the step shows it: `hides` names the blocks that
//                  show the answer (a widget by name, or `code` for the first code
//                  cell after the check); they come after the check in its step and
//                  stay hidden until the learner answers (right or not) or gives up
//   misconception  probes a known wrong belief; may also `hide` what gives it away
//
// precision (numbers only): `decimals N` (N places after the point) or `sig N`
// (N significant digits). It must match what the question text asks for ("Four
// decimals", "three significant digits"; the content tests read the text). An answer
// is right when it is within one unit of the N-th place of the core's exact value:
// that accepts the value rounded, truncated, or read off a widget that rounded it
// first ("six decimals" of 0.999999875: 0.999999 and 1.000000; z = -1.27846 to three
// decimals: -1.278 and -1.279), and any answer given with more digits that is
// closer. A near miss (right to fewer digits, or off in the last place or two) is
// told apart from a wrong idea: it gets a rounding message, not the check's hint.
// Without precision a number is judged by `tolerance` (integers: exactly).
//
// Pure parsing (no DOM, no core): the content tests run it in Node.
export interface LessonMeta {
  slug: string;
  title: string;
  order: number;
  summary: string;
  /** Shown when the lesson is finished ('' when the file has none). */
  recap: string;
}

const FRONTMATTER_KEYS = ['title', 'order', 'summary', 'recap'] as const;
const CHECK_FIELDS = ['id', 'kind', 'question', 'answer', 'precision', 'tolerance', 'choices', 'hides', 'hint', 'explain'] as const;

export const CHECK_KINDS = ['read', 'compute', 'predict', 'misconception'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

export interface Precision {
  kind: 'decimals' | 'sig';
  digits: number;
}

export interface CheckSpec {
  id: string;
  kind: CheckKind;
  question: string;
  answer: string; // expression
  /** What the question asks for; null: judged by tolerance. */
  precision: Precision | null;
  tolerance: { kind: 'rel' | 'abs'; value: number };
  choices: string[] | null;
  /** Blocks after the check (widget names, or `code`) hidden until it is answered. */
  hides: string[];
  hint: string;
  explain: string;
}

export type Block =
  | { kind: 'markdown'; text: string }
  | { kind: 'widget'; name: string; args: Record<string, string> }
  | { kind: 'code'; code: string }
  | { kind: 'check'; check: CheckSpec };

export interface Step {
  /** The step's name in the learner's progress, from its title: adding or moving steps leaves it as it was. */
  id: string;
  title: string;
  blocks: Block[];
}

/** A lesson's step ids, in order. */
export const stepIds = (lesson: { steps: readonly Step[] }): string[] => lesson.steps.map((s) => s.id);

/** A step's id: its title in lower-case letters and digits, words joined by "-" (at most 64 characters). */
export function stepId(title: string): string {
  const id = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+/, '').slice(0, 64).replace(/-+$/, '');
  return id === '' ? 'step' : id;
}

export interface Lesson extends LessonMeta {
  steps: Step[];
}

export class LessonError extends Error {
  constructor(slug: string, message: string) {
    super(`lesson ${slug}: ${message}`);
    this.name = 'LessonError';
  }
}

const FENCE = /^```(\S*)\s*(.*)$/;

export function parseLesson(slug: string, source: string): Lesson {
  const fail = (m: string) => {
    throw new LessonError(slug, m);
  };
  const text = source.replace(/\r\n?/g, '\n');
  const fm = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (fm === null) fail('it does not start with a --- frontmatter block ---');
  const meta: Record<string, string> = {};
  for (const line of fm![1].split('\n')) {
    if (line.trim() === '') continue;
    const m = /^(\w+):\s*(.*)$/.exec(line);
    if (m === null) fail(`bad frontmatter line ${JSON.stringify(line)}`);
    if (!(FRONTMATTER_KEYS as readonly string[]).includes(m![1])) fail(`unknown frontmatter key ${m![1]} (known: ${FRONTMATTER_KEYS.join(', ')})`);
    if (m![1] in meta) fail(`the frontmatter gives ${m![1]} twice`);
    // a value may be quoted, as in YAML (needed when it holds a colon): the quotes are not part of it
    const value = m![2].trim();
    meta[m![1]] = /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
  }
  for (const key of ['title', 'order', 'summary']) if (!meta[key]) fail(`the frontmatter has no ${key}`);
  const order = Number(meta.order);
  if (!Number.isFinite(order)) fail(`order ${JSON.stringify(meta.order)} is not a number`);

  const lines = text.slice(fm![0].length).split('\n');
  const steps: Step[] = [];
  let prose: string[] = [];
  const current = () => {
    if (steps.length === 0) fail('text before the first "## " step heading');
    return steps[steps.length - 1];
  };
  const flush = () => {
    const t = prose.join('\n').trim();
    if (t !== '') current().blocks.push({ kind: 'markdown', text: t });
    prose = [];
  };
  const checkIds = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('## ')) {
      flush();
      const title = line.slice(3).trim();
      const id = stepId(title);
      const twin = steps.find((s) => s.id === id);
      if (twin !== undefined) fail(`steps "${twin.title}" and "${title}" have the same id "${id}" (progress is kept by it): retitle one`);
      steps.push({ id, title, blocks: [] });
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence === null) {
      if (steps.length === 0 && line.trim() !== '') fail('text before the first "## " step heading');
      prose.push(line);
      continue;
    }
    flush();
    const body: string[] = [];
    let closed = false;
    const startLine = i + 1;
    for (i++; i < lines.length; i++) {
      if (lines[i].startsWith('```')) {
        closed = true;
        break;
      }
      body.push(lines[i]);
    }
    if (!closed) fail(`the \`\`\` block at line ${startLine} is never closed`);
    const [, tag, info] = fence;
    if (tag === 'widget') {
      const [name, ...rest] = info.trim().split(/\s+/);
      if (!name) fail(`a widget block at line ${startLine} has no name`);
      const args: Record<string, string> = {};
      for (const r of rest) {
        const [k, ...v] = r.split('=');
        if (!/^[a-z][\w-]*$/i.test(k) || v.length === 0) fail(`widget ${name} at line ${startLine}: argument ${JSON.stringify(r)} is not key=value`);
        if (k in args) fail(`widget ${name} at line ${startLine}: argument ${k} is given twice`);
        args[k] = v.join('=');
      }
      if (body.some((l) => l.trim() !== '')) fail(`widget ${name} at line ${startLine}: a widget block holds no text (arguments go on its first line)`);
      current().blocks.push({ kind: 'widget', name, args });
    } else if (tag === 'glass') {
      current().blocks.push({ kind: 'code', code: body.join('\n').trim() });
    } else if (tag === 'check') {
      const check = parseCheck(body, (m) => fail(`check at line ${startLine}: ${m}`));
      if (checkIds.has(check.id)) fail(`two checks have the id ${check.id}`);
      checkIds.add(check.id);
      current().blocks.push({ kind: 'check', check });
    } else {
      // any other fence is shown as code
      current().blocks.push({ kind: 'markdown', text: ['```' + tag, ...body, '```'].join('\n') });
    }
  }
  flush();
  if (steps.length === 0) fail('it has no "## " steps');
  for (const s of steps) if (s.blocks.length === 0) fail(`step "${s.title}" is empty`);
  for (const s of steps) {
    try {
      gatedBlocks(s);
    } catch (e) {
      fail((e as Error).message);
    }
  }
  return { slug, title: meta.title, order, summary: meta.summary, recap: meta.recap ?? '', steps };
}

function parseCheck(body: string[], fail: (m: string) => never): CheckSpec {
  const fields: Record<string, string> = {};
  let last: string | null = null;
  for (const line of body) {
    const m = /^(\w+):\s*(.*)$/.exec(line);
    if (m !== null) {
      // a typo (tolerence:) must not be dropped silently, nor a field given twice
      if (!(CHECK_FIELDS as readonly string[]).includes(m[1])) fail(`unknown field ${m[1]} (known: ${CHECK_FIELDS.join(', ')})`);
      if (m[1] in fields) fail(`the field ${m[1]} is given twice`);
      last = m[1];
      fields[last] = m[2].trim();
    } else if (line.trim() !== '') {
      if (last === null) fail(`text before the first field: ${JSON.stringify(line.trim())}`);
      fields[last!] += ' ' + line.trim(); // continuation line
    }
  }
  for (const key of ['id', 'kind', 'question', 'answer']) if (!fields[key]) fail(`no ${key}`);
  const kind = fields.kind as CheckKind;
  if (!(CHECK_KINDS as readonly string[]).includes(kind)) fail(`kind ${JSON.stringify(fields.kind)} is not one of ${CHECK_KINDS.join(', ')}`);
  let tolerance: CheckSpec['tolerance'] = { kind: 'rel', value: 1e-9 };
  if (fields.tolerance) {
    const m = /^(abs\s+|rel\s+)?(\S+)$/.exec(fields.tolerance);
    const v = m ? Number(m[2]) : NaN;
    if (!m || !(v >= 0)) fail(`bad tolerance ${JSON.stringify(fields.tolerance)}`);
    tolerance = { kind: m![1]?.trim() === 'abs' ? 'abs' : 'rel', value: v };
  }
  let precision: Precision | null = null;
  if (fields.precision) {
    const m = /^(decimals|sig)\s+(\d{1,2})$/.exec(fields.precision);
    if (m === null) fail(`bad precision ${JSON.stringify(fields.precision)} (write "decimals N" or "sig N")`);
    precision = { kind: m![1] as Precision['kind'], digits: Number(m![2]) };
    if (precision.kind === 'sig' && precision.digits === 0) fail('precision: sig needs at least 1 digit');
    if (fields.tolerance) fail('give precision or tolerance, not both');
  }
  const choices = fields.choices ? fields.choices.split('|').map((c) => c.trim()).filter((c) => c !== '') : null;
  if (choices !== null && choices.length < 2) fail('choices needs at least two options separated by |');
  if (choices !== null && precision !== null) fail('a choice has no precision');
  const hides = fields.hides ? fields.hides.split(',').map((h) => h.trim()).filter((h) => h !== '') : [];
  if (kind === 'predict' && hides.length === 0) fail('a prediction must say what it hides until it is answered (hides: a widget name, or code)');
  if (hides.length > 0 && kind !== 'predict' && kind !== 'misconception') fail(`a ${kind} check hides nothing (only predict and misconception checks may)`);
  return {
    id: fields.id,
    kind,
    question: fields.question,
    answer: fields.answer,
    precision,
    tolerance,
    choices,
    hides,
    hint: fields.hint ?? '',
    explain: fields.explain ?? '',
  };
}

/**
 * The blocks of a step that predictions keep hidden: block index -> ids of the
 * checks hiding it. Each name in a check's `hides` is the first block after the
 * check with that widget name (or the first code cell, for `code`).
 */
export function gatedBlocks(step: Step): Map<number, string[]> {
  const gates = new Map<number, string[]>();
  step.blocks.forEach((b, i) => {
    if (b.kind !== 'check') return;
    for (const name of b.check.hides) {
      const j = step.blocks.findIndex((c, k) => k > i && (name === 'code' ? c.kind === 'code' : c.kind === 'widget' && c.name === name));
      if (j < 0) throw new Error(`check ${b.check.id} hides ${name === 'code' ? 'a code cell' : `the widget ${name}`}, but none comes after it in step "${step.title}"`);
      gates.set(j, [...(gates.get(j) ?? []), b.check.id]);
    }
  });
  return gates;
}

/** Every check of the lesson, in order (the lesson path counts these; progress remembers their ids). */
export function lessonChecks(lesson: Lesson): CheckSpec[] {
  return lesson.steps.flatMap((s) => s.blocks.flatMap((b) => (b.kind === 'check' ? [b.check] : [])));
}

/** Inline live values in prose: {{ expression }} or {{ expression | format }}. */
export const LIVE_VALUE = /\{\{([\s\S]+?)\}\}/g;
export const VALUE_FORMATS = /^(int|fixed:\d+|exp:\d+|sig:\d+|np|text)$/;

export function splitLiveValue(inner: string): { expr: string; format: string } {
  const m = /^([\s\S]*?)\s\|\s*(\S+)\s*$/.exec(inner);
  if (m !== null && VALUE_FORMATS.test(m[2])) return { expr: m[1].trim(), format: m[2] };
  return { expr: inner.trim(), format: 'auto' };
}

/** Every expression the worker must evaluate for a step: inline values (prose and checks) and check answers. */
export function stepExpressions(step: Step): string[] {
  const out = new Set<string>();
  const live = (text: string) => {
    for (const m of text.matchAll(LIVE_VALUE)) out.add(splitLiveValue(m[1]).expr);
  };
  for (const b of step.blocks) {
    if (b.kind === 'markdown') live(b.text);
    if (b.kind === 'check') {
      out.add(b.check.answer);
      for (const t of [b.check.question, b.check.hint, b.check.explain]) live(t);
    }
  }
  return [...out];
}

/** A learner's number, normalized: "1,152", "1152", "2.5e-8", "−0.5" (typographic minus), "2.5×10^-8". */
function numberText(text: string): string | null {
  const t = text.trim().replace(/[\u2212\u2013]/g, '-').replace(/(\d),(?=\d{3}\b)/g, '$1').replace(/\s+/g, '').replace(/×10\^?/, 'e');
  return t !== '' && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t) ? t : null;
}

export function parseAnswerNumber(text: string): number | null {
  const t = numberText(text);
  return t === null ? null : Number(t);
}

/** How many decimals and significant digits a typed number shows ("0.0560": 4 decimals, 3 significant). */
export function writtenPrecision(text: string): { decimals: number; sig: number } | null {
  const t = numberText(text);
  if (t === null) return null;
  const [mant, exp = '0'] = t.replace(/^[-+]/, '').toLowerCase().split('e');
  const [whole, frac = ''] = mant.split('.');
  const digits = (whole + frac).replace(/^0+/, '');
  return { decimals: frac.length - Number(exp), sig: digits.length };
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const words = (n: number) => NUMBER_WORDS[n] ?? String(n);

/** "four decimals", "three significant digits": what a precision asks for, in words. */
export function describePrecision(p: Precision): string {
  const unit = p.kind === 'decimals' ? (p.digits === 1 ? 'decimal' : 'decimals') : p.digits === 1 ? 'significant digit' : 'significant digits';
  return `${words(p.digits)} ${unit}`;
}

/**
 * The precision a question's text asks for ("(Four decimals.)", "Give three
 * significant digits"), or null when it names none: the content tests hold every
 * check's declared precision to its text.
 */
export function precisionInText(question: string): Precision | null {
  const m = /\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(decimals?|decimal places?|significant (?:digits?|figures?))\b/i.exec(question);
  if (m === null) return null;
  const n = /^\d+$/.test(m[1]) ? Number(m[1]) : NUMBER_WORDS.indexOf(m[1].toLowerCase());
  return { kind: m[2].toLowerCase().startsWith('decimal') ? 'decimals' : 'sig', digits: n };
}

/** One unit in the last place the precision asks for, at the size of the exact value. */
export function precisionStep(p: Precision, exact: number): number {
  if (p.kind === 'decimals') return 10 ** -p.digits;
  const a = Math.abs(exact);
  return a === 0 ? 10 ** -p.digits : 10 ** (Math.floor(Math.log10(a)) - p.digits + 1);
}

/** The exact value rounded to the precision, as the learner would write it ("1.000000", "2.55e-8"). */
export function formatAtPrecision(exact: number, p: Precision): string {
  if (p.kind === 'decimals') return exact.toFixed(p.digits);
  const s = exact.toPrecision(p.digits);
  return s.replace(/e\+?/, 'e'); // "1.23e-8", "4.56e5"
}

export type Verdict =
  | { kind: 'right' }
  | { kind: 'wrong' }
  /** Refused, but close: the message says what precision the question asks for. */
  | { kind: 'slip'; message: string }
  | { kind: 'unreadable' };

// A hair of slack for binary floating point: 0.5001 - 0.5 is 0.99999999999989 units of 1e-4.
const SLACK = 1 - 1e-6;

/** Judges an answer against the core's value: pure logic, the content tests run it. */
export function judge(check: CheckSpec, answer: unknown, given: string): Verdict {
  if (check.choices !== null) return given === String(answer) ? { kind: 'right' } : { kind: 'wrong' };
  const v = parseAnswerNumber(given);
  if (v === null) return { kind: 'unreadable' };
  if (typeof answer !== 'number') return { kind: 'wrong' };
  const err = Math.abs(v - answer);
  const p = check.precision;
  if (p === null) {
    const t = check.tolerance;
    return err <= (t.kind === 'abs' ? t.value : t.value * Math.abs(answer)) ? { kind: 'right' } : { kind: 'wrong' };
  }
  const step = precisionStep(p, answer);
  if (err < step * SLACK) return { kind: 'right' };
  // A near miss: the same sign, and either the value rounded or cut at the coarser
  // precision the answer was written in, or off only in the last place or two.
  if (v === 0 || Math.sign(v) !== Math.sign(answer)) return { kind: 'wrong' };
  const written = writtenPrecision(given)!;
  const ownStep = 10 ** -written.decimals;
  const asked = describePrecision(p);
  const roundedOrCut = err <= (ownStep / 2) * (2 - SLACK) || (Math.abs(v) <= Math.abs(answer) && err < ownStep * SLACK);
  if (ownStep > step * 1.000001 && roundedOrCut) {
    const has = p.kind === 'decimals' ? written.decimals : written.sig;
    return { kind: 'slip', message: `This looks like a rounding slip: the question asks for ${asked}, and your answer has ${has <= 0 ? 'none' : words(has)}.` };
  }
  // (within the last two places, and within 5% of the value or a few units of the last place)
  if (err < Math.min(100 * step, Math.max(0.05 * Math.abs(answer), 5 * step)))
    return { kind: 'slip', message: `This looks like a rounding slip: the question asks for ${asked}. Check your last digit or two (round or cut the value at the ${p.kind === 'decimals' ? `${ordinal(p.digits)} decimal` : `${ordinal(p.digits)} significant digit`}).` };
  return { kind: 'wrong' };
}

const ordinal = (n: number) => ['zeroth', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth'][n] ?? `${n}th`;

export function isRight(check: CheckSpec, answer: unknown, given: string): boolean {
  return judge(check, answer, given).kind === 'right';
}
