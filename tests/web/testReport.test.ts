// scripts/test_report.mjs: the counts and the failures npm test's closing summary
// prints from vitest's and Playwright's JSON reports, on small reports of each
// kind written here (a passed, a failed, a flaky and a skipped test), and its
// refusal of a call it does not know.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'glass-report-'));
const report = (name: string, body: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(body));
  return file;
};
const run = (...args: string[]) => execFileSync('node', ['scripts/test_report.mjs', ...args], { encoding: 'utf8' });

const result = (status: string, message?: string) => ({ status, errors: message === undefined ? [] : [{ message }] });
const playwright = report('playwright.json', {
  stats: { expected: 2, unexpected: 1, flaky: 1, skipped: 1 },
  suites: [
    {
      file: 'a.spec.ts',
      specs: [{ title: 'passes', line: 3, tests: [{ status: 'expected', results: [result('passed')] }] }],
      suites: [
        {
          title: 'inner',
          specs: [
            { title: 'fails', line: 9, tests: [{ status: 'unexpected', results: [result('failed', '\u001b[31mError: expect(locator).toHaveText(expected)\u001b[39m\n\nExpected: "4"\nReceived: "x"\n' + 'y'.repeat(300) + '\nfifth line')] }] },
            { title: 'flaky', line: 20, tests: [{ status: 'flaky', results: [result('timedOut', 'Test timeout of 30000ms exceeded.'), result('passed')] }] },
            { title: 'skipped', line: 30, tests: [{ status: 'skipped', results: [result('skipped')] }] },
          ],
        },
      ],
    },
  ],
});
const vitest = report('vitest.json', {
  numPassedTests: 1,
  numFailedTests: 1,
  testResults: [
    {
      name: join(process.cwd(), 'tests/web/x.test.ts'),
      assertionResults: [
        { status: 'passed', fullName: 'x works', failureMessages: [] },
        { status: 'failed', fullName: 'x breaks', failureMessages: ['AssertionError: expected 1 to be 2\n    at x.test.ts:4'] },
      ],
    },
  ],
});

describe('test report', () => {
  test('counts: passed (flaky ones included, as Playwright counts them), failed, flaky', () => {
    expect(run('counts', 'playwright', playwright).trim()).toBe('3 1 1');
    expect(run('counts', 'vitest', vitest).trim()).toBe('1 1 0');
  });

  test('problems: each failed or flaky test by file, line and title, with the start of its first error in plain text', () => {
    const lines = run('problems', 'playwright', playwright).trimEnd().split('\n');
    expect(lines[0]).toBe('FAILED: a.spec.ts:9 › fails');
    expect(lines[1]).toBe('    Error: expect(locator).toHaveText(expected)'); // no colour codes, no blank lines
    expect(lines[2]).toBe('    Expected: "4"');
    expect(lines[4]).toBe(`    ${'y'.repeat(199)}…`); // a long line is cut
    expect(lines).not.toContain('    fifth line'); // four lines of an error at most
    expect(lines[5]).toBe('FLAKY (failed, then passed on a retry): a.spec.ts:20 › flaky');
    expect(lines[6]).toBe('    Test timeout of 30000ms exceeded.');
    expect(lines).toHaveLength(7); // the passed and skipped tests say nothing
    expect(run('problems', 'vitest', vitest).trimEnd().split('\n')).toEqual(['FAILED: tests/web/x.test.ts › x breaks', '    AssertionError: expected 1 to be 2', '        at x.test.ts:4']);
  });

  test('an unknown mode, kind or a missing file is refused with the usage', () => {
    for (const args of [['count', 'vitest', vitest], ['counts', 'jest', vitest], ['counts', 'vitest']]) {
      const r = spawnSync('node', ['scripts/test_report.mjs', ...args], { encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('usage: node scripts/test_report.mjs');
    }
  });
});
