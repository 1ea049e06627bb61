// The residual ledger: the last residual stream split into what the embedding
// and every branch added, at one position and over all of them, with the core's
// live check that the parts add up; and the same for the loss's gradient at the
// embedding (the residual path alone, then each branch's I + J_F term).
// Every number is the core's (worker/interp.ts: interpLedger).
import { fmt } from '../../app/format';
import { ScrollBox } from '../../app/ScrollBox';
import { withCode } from '../../app/tensorNames';
import type { LedgerTerm } from '../../protocol/interp';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import type { ToolContext } from './interpContext';
import { PositionPicker } from './PositionPicker';

const pct = (p: number | null | undefined) => (p === null || p === undefined ? '—' : `${(p * 100).toFixed(1)}%`);
const num = (v: number | null | undefined, digits = 4) => (v === null || v === undefined ? '—' : fmt(v, digits));

/** "attention output of block 2 (blocks.2.attn)"; the gradient side's first row in words. */
function termLabel(name: string): string {
  if (name === 'residual path') return 'straight down the residual path (the identity of every I + J_F)';
  if (name === 'embed') return 'embedding X (embed)';
  return withCode(name);
}

function TermTable({ terms, pos, caption, testId, identity }: { terms: LedgerTerm[]; pos: number; caption: string; testId: string; identity?: (number | null)[] }) {
  return (
    <ScrollBox label={caption}>
      <table class="look-table" data-testid={testId}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">part</th>
            <th scope="col">size ‖·‖ at position {pos}</th>
            <th scope="col">share at position {pos}</th>
            <th scope="col">size over all positions</th>
            <th scope="col">share over all positions</th>
            {identity && <th scope="col">what the identity passes on</th>}
          </tr>
        </thead>
        <tbody>
          {terms.map((t, k) => (
            <tr key={t.name}>
              <th scope="row">{termLabel(t.name)}</th>
              <td class="num">{num(t.norm[pos])}</td>
              <td class="num">{pct(t.share[pos])}</td>
              <td class="num">{num(t.totalNorm)}</td>
              <td class="num">{pct(t.totalShare)}</td>
              {identity && <td class="num">{k === 0 ? '' : num(identity[k - 1])}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}

export function ResidualLedgerTool({ ctx }: { ctx: ToolContext }) {
  const { run, labels, settings } = ctx;
  const answer = useLessonOp('interpLedger', { run }, [run.text, run.eps, run.dtype, ctx.model], { channel: 'look-inside-ledger', model: 'shown' });
  const r = answer.result;
  if (r === null) return <p class="look-status">{answer.error ?? 'Asking the core for the residual ledger…'}</p>;
  if ('refused' in r)
    return (
      <p class="look-status" data-testid="ledger-refused">
        This model's stream is not a plain sum of its parts, so there is no ledger: {r.refused}
      </p>
    );
  const pos = Math.min(settings.pos, labels.length - 1);
  const biggest = r.terms.reduce((a, b) => ((b.totalShare ?? -Infinity) > (a.totalShare ?? -Infinity) ? b : a), r.terms[0]);
  const g = r.grad;
  return (
    <div class="interp-tool" data-testid="ledger">
      <p class="look-caption">
        With residual connections the last stream, {withCode(r.totalName)}, is exactly the embedding plus what every attention and
        SwiGLU branch added. Size is the length ‖·‖ of each part's vector; share is how much of the stream points its way (the shares
        add up to 100%; a negative share pulls against the sum).
      </p>
      <div class="interp-controls">
        <PositionPicker labels={labels} pos={pos} onPos={(p) => ctx.onChange({ pos: p })} />
        <span class="interp-note">
          the stream's size there: <span class="num">{num(r.totalNorm[pos])}</span>
        </span>
      </div>
      <TermTable terms={r.terms} pos={pos} caption="What each part added to the stream" testId="ledger-table" />
      <p class="interp-check" data-testid="ledger-check">
        Check, computed now by the core: embedding + Σ attention + Σ SwiGLU − the last stream is at most{' '}
        <span class="num" data-testid="ledger-check-value">
          {r.maxAbsDiff === null ? 'undefined (NaN)' : fmt(r.maxAbsDiff, 3)}
        </span>{' '}
        in any coordinate ({run.dtype} rounding, adding them in the model's order).
      </p>
      {g === null ? (
        <p class="look-status">A one-byte prompt has no loss, so there is no gradient to split.</p>
      ) : (
        <>
          <h4 class="interp-subtitle">Where the gradient at the embedding comes from</h4>
          <p class="look-caption">
            Backward, each block passes the gradient through I + J_F: the identity carries it unchanged down the residual path, and
            each branch's Jacobian J_F adds its own part. Here ∂loss/∂embedding is split into the part that came straight down and the
            part whose branch nearest the embedding was each branch.
          </p>
          <TermTable terms={g.terms} pos={pos} caption="Parts of ∂loss/∂embedding" testId="ledger-grad-table" identity={g.throughIdentity} />
          <p class="interp-check" data-testid="ledger-grad-check">
            Check: the residual path + every branch's part − ∂loss/∂embedding is at most{' '}
            <span class="num" data-testid="ledger-grad-check-value">
              {g.maxAbsDiff === null ? 'undefined (NaN)' : fmt(g.maxAbsDiff, 3)}
            </span>
            .
          </p>
        </>
      )}
      {biggest !== undefined && biggest.totalShare !== null && (
        <ToNotice testId="ledger-notice">
          {' '}
          Over the whole prompt the largest share of the last stream comes from {termLabel(biggest.name)}: {pct(biggest.totalShare)}.
          {g !== null && g.terms[0]?.totalShare != null && (
            <> Of the gradient at the embedding, {pct(g.terms[0].totalShare)} came straight down the residual path.</>
          )}
        </ToNotice>
      )}
    </div>
  );
}
