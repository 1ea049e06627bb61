// What scripts/test.sh prints from the JSON reports of vitest (build/vitest.json)
// and Playwright (build/playwright.json):
//   node scripts/test_report.mjs counts   vitest|playwright FILE  ->  "passed failed flaky"
//   node scripts/test_report.mjs problems vitest|playwright FILE  ->  a line per failed (or
//     flaky: failed, then passed on a retry) test, with the start of its first error
// test.sh repeats the problems in its closing summary, so the last lines of a CI log
// say which test failed and why, not only which stage.
import { readFileSync } from 'node:fs';

const [mode, kind, file] = process.argv.slice(2);
if (!['counts', 'problems'].includes(mode) || !['vitest', 'playwright'].includes(kind) || !file) {
  console.error('usage: node scripts/test_report.mjs counts|problems vitest|playwright FILE');
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, 'utf8'));

// eslint-disable-next-line no-control-regex
const plain = (text) => String(text ?? '').replace(/\x1b\[[0-9;]*m/g, '');
/** The first few non-empty lines of an error, each cut to a readable width. */
function gist(text, lines = 4) {
  return plain(text)
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .slice(0, lines)
    .map((l) => (l.length > 200 ? `${l.slice(0, 199)}…` : l));
}

/** [{ title, status: 'failed' | 'flaky', error }] */
function playwrightProblems() {
  const out = [];
  const walk = (suite, file) => {
    const here = suite.file ?? file;
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests) {
        if (test.status !== 'unexpected' && test.status !== 'flaky') continue;
        const failed = test.results.find((r) => r.status !== 'passed' && r.status !== 'skipped');
        const error = failed?.errors?.[0]?.message ?? failed?.error?.message ?? `status ${failed?.status ?? test.status}`;
        out.push({ title: `${here}:${spec.line} › ${spec.title}`, status: test.status === 'flaky' ? 'flaky' : 'failed', error });
      }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return out;
}

function vitestProblems() {
  const out = [];
  for (const file of report.testResults ?? [])
    for (const test of file.assertionResults ?? [])
      if (test.status === 'failed') out.push({ title: `${file.name.replace(`${process.cwd()}/`, '')} › ${test.fullName}`, status: 'failed', error: test.failureMessages?.[0] ?? '' });
  return out;
}

if (mode === 'counts') {
  if (kind === 'playwright') console.log(report.stats.expected + report.stats.flaky, report.stats.unexpected, report.stats.flaky);
  else console.log(report.numPassedTests, report.numFailedTests, 0);
} else {
  for (const p of kind === 'playwright' ? playwrightProblems() : vitestProblems()) {
    console.log(`${p.status === 'flaky' ? 'FLAKY (failed, then passed on a retry)' : 'FAILED'}: ${p.title}`);
    for (const line of gist(p.error)) console.log(`    ${line}`);
  }
}
