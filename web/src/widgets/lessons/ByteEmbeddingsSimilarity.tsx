// Pick two bytes: the core compares their rows of the trained tok_emb.weight
// (cosine similarity, both lengths) and lists the bytes whose rows point most
// nearly the same way as the first.
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import type { BytePairResult } from '../../protocol/lessons/bytes';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { WidgetShell } from './WidgetShell';
import './ByteEmbeddings.css';
import './lessonWidgets.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { 'byte-similarity': ByteSimilarity };

const PAIRS: [string, string][] = [
  ['a', 'A'],
  ['a', 'e'],
  ['a', '.'],
  ['t', 'T'],
  ['0', '1'],
  [',', '.'],
];

/** The cosine against chance (1/√d, from the core), and how short the nearest rows are. */
function notice(r: BytePairResult): string {
  const c = r.b.cosine;
  const verdict = c > r.chance || c < -r.chance ? 'beyond that chance level' : 'within that chance level: random rows would do as much';
  return `two random rows of the table have a cosine within about ±${fmt(r.chance, 2)} of 0 (1/√d). cos(W[${r.a.glyph}], W[${r.b.glyph}]) = ${fmt(c, 3)} is ${verdict}.`;
}

export function ByteSimilarity() {
  const [a, setA] = useState('a');
  const [b, setB] = useState('A');
  const answer = useLessonOp('bytePair', { a, b }, [a, b]);
  return (
    <div class="lesson-widget" data-testid="widget-byte-similarity">
      <div class="widget-row">
        <label>
          byte A <input data-testid="pair-a" value={a} size={5} onInput={(e) => setA(e.currentTarget.value)} />
        </label>
        <label>
          byte B <input data-testid="pair-b" value={b} size={5} onInput={(e) => setB(e.currentTarget.value)} />
        </label>
        {PAIRS.map(([x, y]) => (
          <button key={x + y} type="button" onClick={() => (setA(x), setB(y))}>
            {x} · {y}
          </button>
        ))}
      </div>
      <p class="widget-note">One character that is a single byte (a, A, 7, a space…), or any byte written as 0xNN.</p>
      <WidgetShell answer={answer} errorTestId="pair-error" pendingText="Asking the core…">
        {(r) => (
          <>
            <div class="be-pair">
              <span>
                cos(W[<strong>{r.a.glyph}</strong>], W[<strong>{r.b.glyph}</strong>]) ={' '}
                <span class="be-cos" data-testid="pair-cos" data-value={String(r.b.cosine)}>
                  {fmt(r.b.cosine, 4)}
                </span>
              </span>
              <span class="be-meter" role="img" aria-label={`cosine ${fmt(r.b.cosine, 3)} on a scale from −1 to 1`}>
                <span style={r.b.cosine >= 0 ? { left: '50%', width: `${r.b.cosine * 50}%` } : { right: '50%', width: `${-r.b.cosine * 50}%` }} />
              </span>
              <span class="widget-note">
                rows {r.a.byte} and {r.b.byte}; lengths ‖W[{r.a.glyph}]‖ = <span class="num">{fmt(r.normA, 4)}</span>, ‖W[{r.b.glyph}]‖ ={' '}
                <span class="num">{fmt(r.normB, 4)}</span>
              </span>
            </div>
            <p class="widget-lead">Rows closest in direction to W[{r.a.glyph}], out of the whole table (cosine, then the row's length):</p>
            <ol class="be-near" data-testid="pair-nearest">
              {r.nearest.map((n) => (
                <li key={n.byte}>
                  {n.glyph} <span class="num">{fmt(n.cosine, 3)}</span> <span class="be-len num">‖{fmt(n.norm, 2)}‖</span>
                </li>
              ))}
            </ol>
            <ToNotice testId="pair-notice">{notice(r)}</ToNotice>
          </>
        )}
      </WidgetShell>
    </div>
  );
}
