// A guided tour of the inspector: each stop is an address (view and selection
// in the URL) that opens the inspector on the tensors to compare.
import { openAddress } from '../../lessons/route';
import './lessonWidgets.css';

const STOPS = [
  {
    title: 'Attention branch input vs the stream after it, block 1',
    query: '?view=inspector&tensor=blocks.1.resid.attn&compare=blocks.1.norm.attn,blocks.1.resid.attn',
    look: 'Per-position RMS: the normalized input sits near |γ| in scale, the residual stream does not.',
  },
  {
    title: 'SwiGLU branch input vs the stream after it, block 1',
    query: '?view=inspector&tensor=blocks.1.resid.ffn&compare=blocks.1.norm.ffn,blocks.1.resid.ffn',
    look: 'The same pair for the second addition of the block.',
  },
  {
    title: 'The final norm, after the fourth block',
    query: '?view=inspector&tensor=norm.final',
    look: 'norm.final is not part of any block: it belongs to the output, just before the head.',
  },
  {
    title: 'Gradients along the stream',
    query: '?view=inspector&tensor=blocks.0.resid.attn&of=grad',
    look: 'Switch between value and gradient: each snapshot has both, shape (n, 128).',
  },
];

export function InspectorTour() {
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
