// A guided tour of the inspector: each stop is an address (view and selection
// in the URL) that opens the inspector on the tensors to compare.
import { useWeights } from '../../viewmodels/model';
import { withCode } from '../../app/tensorNames';
import { openAddress } from '../../viewmodels/lessonPlace';
import './lessonWidgets.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { 'inspector-tour': InspectorTour };

/** d: the width of the stream, vocab: the number of byte values, from the loaded model (symbols until it is loaded). */
const stops = (d: string, vocab: string) => [
  {
    title: `${withCode('blocks.1.norm.attn')} against ${withCode('blocks.1.resid.attn')}`,
    query: '?view=inspector&tensor=blocks.1.resid.attn&compare=blocks.1.norm.attn,blocks.1.resid.attn',
    look:
      `Read the right-hand column of each map, the RMS of every position. RMSNorm₁ divided each row by its own r(x) and multiplied it by the learned γ: with γ = 1 and ε = 0 every row would have RMS exactly 1, i.e. it would lie on the sphere of radius √${d}. The stream H is never normalized, and its rows differ in size.`,
  },
  {
    title: `${withCode('blocks.1.norm.ffn')} against ${withCode('blocks.1.resid.ffn')}`,
    query: '?view=inspector&tensor=blocks.1.resid.ffn&compare=blocks.1.norm.ffn,blocks.1.resid.ffn',
    look: 'The same pair for the second addition of the block: what the SwiGLU branch reads, and the stream after its output is added.',
  },
  {
    title: `The ${withCode('norm.final')}`,
    query: '?view=inspector&tensor=norm.final',
    look: `It belongs to no block and is not part of the stream: it normalizes the last block’s output once more, just before the head turns each row into ${vocab} scores, one per possible next byte.`,
  },
  {
    title: `The gradient of ${withCode('blocks.0.resid.attn')}`,
    query: '?view=inspector&tensor=blocks.0.resid.attn&of=grad',
    look: `Switch between values and gradients: every tensor has both, of the same shape (n, ${d}). The last row of every gradient is exactly 0, because nothing the loss uses depends on the last byte.`,
  },
];

export function InspectorTour() {
  const w = useWeights({ load: true });
  const STOPS = w.status === 'ready' ? stops(String(w.info.d), String(w.info.vocab)) : stops('d', 'V');
  return (
    <ol class="lesson-widget tour" data-testid="widget-inspector-tour">
      {STOPS.map((s) => (
        <li key={s.query}>
          <a
            href={s.query}
            data-testid="tour-link"
            onClick={(e) => {
              if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
              e.preventDefault();
              openAddress(s.query);
            }}
          >
            {s.title} →
          </a>
          <p>{s.look}</p>
        </li>
      ))}
      <li class="tour-back">Come back with the browser’s Back button: the lesson step is in the address too.</li>
    </ol>
  );
}
