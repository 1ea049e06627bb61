// Type a text: the core encodes it to UTF-8 bytes (what the model reads), shows
// how many bytes each character takes, and looks up each byte's row of
// tok_emb — once with the embedding op, once as one-hot @ W — beside the
// model's own "embed" snapshot. The rows are drawn with the inspector's Heatmap.
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import { Heatmap } from '../inspector/Heatmap';
import type { ByteTextResult } from '../../protocol/lessons/bytes';
import { tensorName } from '../../app/tensorNames';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { TextPresets } from './TextPresets';
import { WidgetShell } from './WidgetShell';
import './ByteEmbeddings.css';
import './lessonWidgets.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { 'byte-embeddings': ByteEmbeddings };

const PRESETS: [string, string][] = [
  ['créé', 'créé'],
  ['emoji', 'ok 🙂'],
  ['Genesis', 'In the beginning God created the heaven and the earth.'],
  ['too long', 'é'.repeat(70)],
];

/** What the byte list and the map show for this text: multi-byte characters and repeated bytes. */
function notice(r: ByteTextResult): string {
  const multi = r.chars.filter((c) => c.count > 1).length;
  const where = new Map<number, number[]>();
  for (const b of r.bytes) where.set(b.byte, [...(where.get(b.byte) ?? []), b.position]);
  const repeated = [...where.entries()].find(([, ps]) => ps.length > 1);
  const chars = `${multi} of the ${r.chars.length} characters take more than one byte.`;
  if (repeated === undefined) return `${chars} No byte occurs twice here; type one twice and its two rows of the map will be identical.`;
  const [byte, ps] = repeated;
  const glyph = r.bytes[ps[0]].glyph;
  return `${chars} Byte ${byte} (“${glyph}”) stands at positions ${ps.join(', ')}, and its rows of the map are identical: the table knows the byte, not where it stands.`;
}

export function ByteEmbeddings() {
  const [text, setText] = useState('Café 🙂');
  const answer = useLessonOp('byteText', { text }, [text]);
  return (
    <div class="lesson-widget byte-embeddings" data-testid="widget-byte-embeddings">
      <TextPresets value={text} onText={setText} testId="bytes-text" presets={PRESETS} />
      <WidgetShell answer={answer} errorTestId="bytes-error" pendingText="Asking the core…">
        {(r) => (
          <>
            <p class="widget-lead" data-testid="bytes-summary">
              <span class="num" data-testid="bytes-chars">{r.chars.length}</span> characters →{' '}
              <span class="num" data-testid="bytes-count">{r.bytes.length}</span> bytes → an input of shape ({r.bytes.length}, {r.rows.shape[1]}).
              That is {r.bytes.length} of the {r.context} bytes the context holds.
            </p>
            <ol class="be-chars" data-testid="bytes-chars-list" aria-label="characters and their UTF-8 bytes">
              {r.chars.map((c) => (
                <li key={c.first} class={c.count > 1 ? 'be-multi' : ''}>
                  <span class="be-char">{c.char === ' ' ? '␣' : c.char}</span>
                  <span class="be-bytes">
                    {r.bytes.slice(c.first, c.first + c.count).map((b) => (
                      <span key={b.position} class="be-byte" title={`position ${b.position}: byte ${b.byte} (${b.hex}), ${b.role}`}>
                        <span class="be-pos">{b.position}</span>
                        <span class="be-glyph">{b.glyph}</span>
                        <span class="be-val num">{b.byte}</span>
                        <span class="be-hex num">{b.hex}</span>
                      </span>
                    ))}
                  </span>
                  <span class="be-count">
                    {c.count} byte{c.count > 1 ? 's' : ''}
                  </span>
                </li>
              ))}
            </ol>
            <p class="widget-note" data-testid="bytes-equal">
              Largest difference between <code>embedding(W, bytes)</code> and <code>oneHot(bytes) @ W</code>:{' '}
              <span class="num" data-testid="bytes-onehot-gap">{fmt(r.oneHotGap)}</span>; between it and the model's own {tensorName('embed').short} (
              <code>embed</code>):{' '}
              <span class="num" data-testid="bytes-snapshot-gap">{fmt(r.snapshotGap)}</span>.
            </p>
            <Heatmap
              tensor={r.rows}
              labels={r.bytes.map((b) => b.glyph)}
              title="rows of the embedding table (tok_emb.weight) picked by the bytes"
              cellWidth={4}
              testId="bytes-heatmap"
            />
            <ToNotice testId="bytes-notice">{notice(r)}</ToNotice>
          </>
        )}
      </WidgetShell>
    </div>
  );
}
