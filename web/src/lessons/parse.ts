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
//   ```widget row-norm            a live widget, by name (lessons/widgetNames.ts)
//   ```
//   ```glass                      a code cell: JavaScript against the core, run in the worker
//   print(glass.tensor([[3, 4]]))
//   ```
//   ```check                      a question whose answer the core computes
//   id: norm-params               unique in the lesson (progress remembers it)
//   question: How many ...?
//   answer: model.info().norms * model.info().d      a JS expression, evaluated in the worker
//   tolerance: 1e-9               relative (default 1e-9); `tolerance: abs 0.01` for absolute
//   choices: yes | no             optional: the answer expression returns one of them
//   hint: shown after a wrong answer
//   explain: shown after the right one
//   ```
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

export interface CheckSpec {
  id: string;
  question: string;
  answer: string; // expression
  tolerance: { kind: 'rel' | 'abs'; value: number };
  choices: string[] | null;
  hint: string;
  explain: string;
}

export type Block =
  | { kind: 'markdown'; text: string }
  | { kind: 'widget'; name: string; args: Record<string, string> }
  | { kind: 'code'; code: string }
  | { kind: 'check'; check: CheckSpec };

export interface Step {
  title: string;
  blocks: Block[];
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
      steps.push({ title: line.slice(3).trim(), blocks: [] });
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
        args[k] = v.join('=');
      }
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
  return { slug, title: meta.title, order, summary: meta.summary, recap: meta.recap ?? '', steps };
}

function parseCheck(body: string[], fail: (m: string) => never): CheckSpec {
  const fields: Record<string, string> = {};
  let last: string | null = null;
  for (const line of body) {
    const m = /^(\w+):\s*(.*)$/.exec(line);
    if (m !== null) {
      last = m[1];
      fields[last] = m[2].trim();
    } else if (line.trim() !== '' && last !== null) {
      fields[last] += ' ' + line.trim(); // continuation line
    }
  }
  for (const key of ['id', 'question', 'answer']) if (!fields[key]) fail(`no ${key}`);
  let tolerance: CheckSpec['tolerance'] = { kind: 'rel', value: 1e-9 };
  if (fields.tolerance) {
    const m = /^(abs\s+|rel\s+)?(\S+)$/.exec(fields.tolerance);
    const v = m ? Number(m[2]) : NaN;
    if (!m || !(v >= 0)) fail(`bad tolerance ${JSON.stringify(fields.tolerance)}`);
    tolerance = { kind: m![1]?.trim() === 'abs' ? 'abs' : 'rel', value: v };
  }
  const choices = fields.choices ? fields.choices.split('|').map((c) => c.trim()).filter((c) => c !== '') : null;
  if (choices !== null && choices.length < 2) fail('choices needs at least two options separated by |');
  return {
    id: fields.id,
    question: fields.question,
    answer: fields.answer,
    tolerance,
    choices,
    hint: fields.hint ?? '',
    explain: fields.explain ?? '',
  };
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

/** Every expression the worker must evaluate for a step: inline values and check answers. */
export function stepExpressions(step: Step): string[] {
  const out = new Set<string>();
  for (const b of step.blocks) {
    if (b.kind === 'markdown') for (const m of b.text.matchAll(LIVE_VALUE)) out.add(splitLiveValue(m[1]).expr);
    if (b.kind === 'check') out.add(b.check.answer);
  }
  return [...out];
}

/** A learner's number: "1,152", "1152", "2.5e-8", "−0.5" (typographic minus). */
export function parseAnswerNumber(text: string): number | null {
  const t = text.trim().replace(/[\u2212\u2013]/g, '-').replace(/(\d),(?=\d{3}\b)/g, '$1').replace(/\s+/g, '').replace(/×10\^?/, 'e');
  if (t === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  return Number(t);
}

export function isRight(check: CheckSpec, answer: unknown, given: string): boolean {
  if (check.choices !== null) return given === String(answer);
  const v = parseAnswerNumber(given);
  if (v === null || typeof answer !== 'number') return false;
  const err = Math.abs(v - answer);
  return check.tolerance.kind === 'abs' ? err <= check.tolerance.value : err <= check.tolerance.value * Math.abs(answer);
}
