// The weights loaded, but some parameters hold NaN or infinite values (the core
// counts them: io::non_finite_parameters, ModelInfo.nonFinite). The file is kept
// so the learner can look inside, and this says plainly why every number the
// inspector shows from it is NaN or infinite too.
import type { ModelInfo } from '../../core';
import { paramName } from '../../app/tensorNames';

/** How many parameters are named; the rest are counted ("and 3 more"). */
export const SHOWN = 4;

const int = (n: number) => n.toLocaleString('en');

export function NonFiniteWarning({ nonFinite }: { nonFinite: ModelInfo['nonFinite'] }) {
  if (nonFinite.length === 0) return null;
  const shown = nonFinite.slice(0, SHOWN);
  const more = nonFinite.length - shown.length;
  return (
    <div class="notice notice-warn weights-non-finite" role="alert" data-testid="weights-non-finite">
      <div>
        <strong>
          {nonFinite.length === 1 ? '1 parameter' : `${int(nonFinite.length)} parameters`} of these weights {nonFinite.length === 1 ? 'holds' : 'hold'} NaN or
          infinite values
        </strong>
        , so every number computed from {nonFinite.length === 1 ? 'it' : 'them'} (the loss, the predictions, the tensors below) is NaN or infinite too:
        <ul>
          {shown.map((p) => {
            const n = paramName(p.name);
            return (
              <li key={p.name} data-testid="non-finite-param">
                {n.part === p.name ? p.name : `${n.part}, ${n.layer}`} (<code>{p.name}</code>): {p.count === p.numel ? `all ${int(p.numel)}` : `${int(p.count)} of ${int(p.numel)}`}{' '}
                values
              </li>
            );
          })}
          {more > 0 && <li data-testid="non-finite-more">and {int(more)} more</li>}
        </ul>
      </div>
    </div>
  );
}
