// What the Train view trains on: the learner's choice, and the data source each
// run's worker gets. The page never decodes a file: an upload's bytes go to the
// worker as they are (it checks UTF-8, binary content and length), and a file
// over the limit is refused by its size before it is read at all.
import { LESSONS } from '../lessons';
import type { DataSource } from '../protocol/train';

/** The largest upload the trainer accepts (the worker checks it again). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export type DataChoice =
  | { kind: 'kjv' }
  | { kind: 'lessons' }
  | { kind: 'paste'; text: string }
  | { kind: 'file'; name: string; size: number; bytes: ArrayBuffer | null };

export const DATA_LABELS: Record<DataChoice['kind'], string> = {
  kjv: 'King James Bible excerpt',
  lessons: 'the lesson texts',
  paste: 'text you paste',
  file: 'a .txt file',
};

/** "3.4 MB", "812 bytes": sizes for learners. */
export function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes.toLocaleString('en')} byte${bytes === 1 ? '' : 's'}`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** Refuses a file by its size alone, before anything reads it; null when it may be read. */
export function checkUploadSize(name: string, size: number): string | null {
  if (size === 0) return `“${name}” is empty: choose a text file with something in it.`;
  if (size > MAX_UPLOAD_BYTES) return `“${name}” is ${sizeText(size)}; the trainer takes files of at most 50 MB, so it was not read.`;
  return null;
}

/**
 * The data source for one run, or a message when the choice is not ready
 * (nothing pasted, a file still being read). File bytes are copied per run:
 * each run's worker gets its own buffer, moved rather than cloned.
 */
export function dataSource(choice: DataChoice, lessonsText: () => string): { ok: true; source: () => DataSource } | { ok: false; message: string } {
  switch (choice.kind) {
    case 'kjv':
      return { ok: true, source: () => ({ kind: 'kjv' }) };
    case 'lessons':
      return { ok: true, source: () => ({ kind: 'text', text: lessonsText(), label: 'the lesson texts' }) };
    case 'paste':
      if (choice.text.trim() === '') return { ok: false, message: 'Paste some text to train on first (or pick another source).' };
      return { ok: true, source: () => ({ kind: 'text', text: choice.text, label: 'your text' }) };
    case 'file': {
      const bytes = choice.bytes;
      if (bytes === null) return { ok: false, message: `“${choice.name}” is still being read.` };
      return { ok: true, source: () => ({ kind: 'file', bytes: bytes.slice(0), name: choice.name }) };
    }
  }
}

let lessons: string | null = null;

/**
 * The lesson texts as one training text: each lesson's title, summary and the
 * prose of its steps (the markdown the lesson loader parsed), in path order.
 * Widgets, code cells and checks are left out: they are not prose.
 */
export function lessonsText(): string {
  lessons ??= LESSONS.flatMap(({ lesson }) =>
    lesson === null
      ? []
      : [`# ${lesson.title}`, lesson.summary, ...lesson.steps.flatMap((s) => [`## ${s.title}`, ...s.blocks.flatMap((b) => (b.kind === 'markdown' ? [b.text] : []))])],
  ).join('\n\n');
  return lessons;
}

let lessonsSize: number | null = null;
/** The lesson texts' size in UTF-8 bytes (what the trainer counts). */
export function lessonsBytes(): number {
  lessonsSize ??= new TextEncoder().encode(lessonsText()).length;
  return lessonsSize;
}
