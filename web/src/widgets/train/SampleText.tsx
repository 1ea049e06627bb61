// The latest text a run generated from its own weights (every few steps), so
// the learner can read what the loss means.
import type { RunState } from '../../viewmodels/train';
import './SampleText.css';

export function SampleText({ run }: { run: RunState }) {
  return (
    <figure class={`sample-text card run-${run.id}`} data-testid={`sample-${run.id}`}>
      <figcaption>
        <strong>Run {run.id} writes</strong>{' '}
        <span class="st-when">{run.sample === null ? '(a sample appears every few steps)' : `(after step ${run.sample.step.toLocaleString('en')})`}</span>
      </figcaption>
      <pre class="st-text">
        {run.sample === null ? (
          '…'
        ) : (
          <>
            <mark class="st-prompt" title="the prompt: the training text's first bytes">
              {run.sample.prompt}
            </mark>
            {run.sample.text}
          </>
        )}
      </pre>
      {run.sample !== null && <p class="st-key">Highlighted: the prompt (the start of the training text); the rest is the model’s.</p>}
    </figure>
  );
}
