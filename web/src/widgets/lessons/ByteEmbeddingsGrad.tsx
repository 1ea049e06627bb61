// Type a text: the core runs forward and backward of the next-byte loss and
// reports, for each distinct byte, the norm of its row of ∂loss/∂tok_emb and of
// the sum of ∂loss/∂embed over the positions where the byte occurs.
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import type { EmbedGradResult } from '../../protocol/lessons/bytes';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { TextPresets } from './TextPresets';
import { WidgetShell } from './WidgetShell';
import './ByteEmbeddings.css';
import './lessonWidgets.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { 'embedding-grad': EmbeddingGrad };

/** Which rows are zero here and why, and a byte used twice, read from the table. */
function notice(r: EmbedGradResult): string {
  const zero = r.rows.filter((row) => row.rowNorm === 0);
  const absent = r.zeroRows - zero.length;
  const twice = r.rows.find((row) => row.positions.length > 1 && row.rowNorm > 0);
  const parts = [
    zero.length > 0
      ? `the row of “${zero.map((z) => z.glyph).join('”, “')}” is exactly 0 (highlighted)${zero.every((z) => z.positions.length === 1 && z.positions[0] === r.n - 1) ? ': it stands only at the last position, whose prediction the loss never uses, and nothing the loss uses depends on it' : ''}.`
      : 'every byte of this text gets a nonzero row.',
    `The other ${absent} zero rows belong to bytes that do not occur in the text.`,
  ];
  if (twice !== undefined) parts.push(`“${twice.glyph}” occurs at positions ${twice.positions.join(', ')}, so its row is the sum of those positions' gradients.`);
  return parts.join(' ');
}

export function EmbeddingGrad() {
  const [text, setText] = useState('banana');
  const answer = useLessonOp('embedGrad', { text }, [text]);
  return (
    <div class="lesson-widget be-grad" data-testid="widget-embedding-grad">
      <TextPresets value={text} onText={setText} testId="grad-bytes-text" presets={['banana', 'abc', 'aaaa'].map((t) => [t, t] as const)} />
      <WidgetShell answer={answer} errorTestId="grad-bytes-error" pendingText="Running the model forward and backward…">
        {(r) => (
          <>
            <p class="widget-lead" data-testid="grad-bytes-summary">
              Loss {fmt(r.loss, 5)} nats over {r.n} bytes. Rows of the ({r.vocab}, 128) gradient that are exactly zero:{' '}
              <span class="num" data-testid="grad-zero-rows">{r.zeroRows}</span> of {r.vocab}.
            </p>
            <table data-testid="grad-bytes-table">
              <thead>
                <tr>
                  <th>byte</th>
                  <th>value</th>
                  <th>at positions</th>
                  <th>‖∂loss/∂tok_emb[byte]‖</th>
                  <th>‖Σ ∂loss/∂embed[positions]‖</th>
                </tr>
              </thead>
              <tbody>
                {r.rows.map((row) => (
                  <tr key={row.byte} class={row.rowNorm === 0 ? 'be-zero' : ''}>
                    <td class="glyph">{row.glyph}</td>
                    <td class="num">{row.byte}</td>
                    <td class="num">{row.positions.join(', ')}</td>
                    <td class="num" data-testid={`grad-row-${row.byte}`}>
                      {fmt(row.rowNorm, 6)}
                    </td>
                    <td class="num">{fmt(row.summedNorm, 6)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p class="widget-note">
              The last column is the core's oneHot(bytes)ᵀ @ ∂loss/∂embed: each byte's row is the sum of its positions' gradients.
            </p>
            <ToNotice testId="grad-bytes-notice">{notice(r)}</ToNotice>
          </>
        )}
      </WidgetShell>
    </div>
  );
}
