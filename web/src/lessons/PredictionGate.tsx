// Predictions first: a widget or code cell that would show a prediction's answer
// stays hidden (not mounted: nothing computed, nothing to peek at) until every
// check hiding it has been answered, right or not, or the learner gives up.
// A check passed on an earlier visit has been answered.
import { useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { gatedBlocks, type Step } from './parse';

export function usePredictionGates(step: Step, stepKey: string, passed: readonly string[]) {
  // answers given on this visit of this step (a new step starts with none)
  const [answered, setAnswered] = useState<{ key: string; ids: string[] }>({ key: stepKey, ids: [] });
  const ids = answered.key === stepKey ? answered.ids : [];
  const gates = gatedBlocks(step);
  const add = (more: string[]) => setAnswered((a) => ({ key: stepKey, ids: [...new Set([...(a.key === stepKey ? a.ids : []), ...more])] }));
  const pending = (block: number) => (gates.get(block) ?? []).filter((id) => !passed.includes(id) && !ids.includes(id));
  return {
    /** A check was answered (or its answer shown). */
    answered: (id: string) => add([id]),
    /** The block as it is, or the placeholder while a prediction above still waits. */
    gate: (block: number, what: 'widget' | 'code', children: ComponentChildren) => {
      const waiting = pending(block);
      if (waiting.length === 0) return children;
      return <PredictionGate key={block} what={what} waiting={waiting} onShow={() => add(waiting)} />;
    },
  };
}

function PredictionGate({ what, waiting, onShow }: { what: 'widget' | 'code'; waiting: string[]; onShow: () => void }) {
  const thing = what === 'widget' ? 'widget' : 'code cell';
  const shows = what === 'widget' ? 'shows' : 'prints';
  const question = waiting.length === 1 ? 'the question above' : 'the questions above';
  return (
    <div class="prediction-gate" data-testid="prediction-gate" data-checks={waiting.join(' ')} role="group" aria-label={`Hidden ${thing}`}>
      <p>
        <strong>Predict first.</strong> This {thing} {shows} the answer to {question}. Make your prediction there and
        the {thing} appears here — or show it now.
      </p>
      <button type="button" onClick={onShow}>
        Show the {thing} now
      </button>
    </div>
  );
}
