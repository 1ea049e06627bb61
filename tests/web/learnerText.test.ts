// Learner screens speak to learners: no file paths, no "seed lesson", no
// internal names without a plain one. Checks every learner-visible part of every
// lesson file (titles, summaries, prose, code cells, check questions, hints,
// explanations and choices; not the answer expressions, which nobody sees) and
// the text of the widgets and views (their source with comments removed).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLesson } from '../../web/src/lessons/parse';

/** Phrases written for developers, not learners. */
const DEVELOPER = [
  /\bweb\/src\b/i,
  /\bsrc\/\w/i,
  /\bcpp\/(glass|wasm|cli)\b/i,
  /\btests?\/(web|e2e|cpp)\b/i,
  /\bDESIGN\.md\b/,
  /\bREADME\b/,
  /\bseed lesson/i,
  /\bseed example\b/i,
  /\bthe seed['’]s\b/i,
  /\b[A-Za-z_][\w-]*\.(tsx|cpp|py|md)\b/,
  /\bTODO\b|\bFIXME\b/,
];

const offending = (text: string) => DEVELOPER.filter((re) => re.test(text)).map(String);

describe('lesson files', () => {
  const dir = new URL('../../web/src/lessons/', import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith('.md'));

  it('the phrase list catches what the issue found', () => {
    expect(offending('Each lesson is a Markdown file in web/src/lessons/…')).not.toEqual([]);
    expect(offending("the seed lesson's example")).not.toEqual([]);
    expect(offending('Back to the seed example')).not.toEqual([]);
    expect(offending('as written in cpp/glass/nn/rmsnorm.cpp')).not.toEqual([]);
    expect(offending('RMSNorm₁ (blocks.1.norm.attn), 1.5 nats, rmsnorm.graph')).toEqual([]);
  });

  for (const f of files) {
    it(`${f}: no developer phrases in anything a learner sees`, () => {
      const l = parseLesson(f.replace(/\.md$/, ''), readFileSync(new URL(f, dir), 'utf8'));
      const seen: [string, string][] = [
        ['title', l.title],
        ['summary', l.summary],
      ];
      for (const s of l.steps) {
        seen.push([`step title "${s.title}"`, s.title]);
        for (const b of s.blocks) {
          if (b.kind === 'markdown') seen.push([`prose of "${s.title}"`, b.text]);
          if (b.kind === 'code') seen.push([`code cell of "${s.title}"`, b.code]);
          if (b.kind === 'check') {
            const c = b.check as unknown as Record<string, unknown>;
            for (const key of ['question', 'hint', 'explain']) if (typeof c[key] === 'string') seen.push([`check ${c.id} ${key}`, c[key] as string]);
            if (Array.isArray(c.choices)) seen.push([`check ${c.id} choices`, c.choices.join(' | ')]);
          }
        }
      }
      for (const [where, text] of seen) expect(offending(text), `${f}, ${where}: ${text.slice(0, 120)}`).toEqual([]);
    });
  }
});

/** Every .tsx file under a folder. */
function tsxFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? tsxFiles(p) : p.endsWith('.tsx') ? [p] : [];
  });
}

/** The source without comments: what is left is code, markup and the strings a learner can see. */
const withoutComments = (src: string) => src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1').replace(/\{\/\*[\s\S]*?\*\/\}/g, '');

describe('widgets and views', () => {
  const root = new URL('../../web/src/', import.meta.url).pathname;
  const files = [...tsxFiles(join(root, 'widgets')), ...tsxFiles(join(root, 'app/views')), ...tsxFiles(join(root, 'lessons'))];

  it('finds the widget files', () => expect(files.length).toBeGreaterThan(40));

  for (const path of files) {
    const rel = path.slice(root.length);
    it(`${rel}: no developer phrases outside comments`, () => {
      const lines = withoutComments(readFileSync(path, 'utf8'))
        .split('\n')
        .filter((line) => !/^\s*import\s/.test(line) && !/\bfrom\s+['"]/.test(line));
      for (const line of lines) expect(offending(line), `${rel}: ${line.trim()}`).toEqual([]);
    });
  }
});
