// The RMSNorm lesson's I + J_F on the real model: backward through each
// residual step y = x + F(x), the gradient at x is what the identity passes on
// (the gradient at y, unchanged) plus what the branch adds (J_Fᵀ times it).
// Unrolled down the stream, the gradient at the embedding is the gradient at
// the last stream (the residual path alone) plus one term per branch. From the
// core's residual ledger, gradient side (the worker's residualLedger), on the
// learner's prompt.
import { ScrollBox } from '../../app/ScrollBox';
import { fmt } from '../../app/format';
import type { LessonWidgets } from '../../lessons/widgetTypes';
import type { LedgerResult } from '../../protocol/lessons/residual';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { PromptField, usePrompt } from './PromptField';
import { contributionName, pct, routeName } from './residualLabels';
import { WidgetShell } from './WidgetShell';
import './ResidualStream.css';

export const lessonWidgets: LessonWidgets = { 'gradient-ledger': GradientLedger };

function notice(r: LedgerResult): string {
  const g = r.ledger.grad;
  const path = g.terms[0];
  const big = g.terms[r.largestGradBranch];
  const top = g.throughIdentity[g.throughIdentity.length - 1];
  const bottom = g.throughIdentity[0];
  return (
    ` the residual path alone brings ${pct(path.totalShare)} of the gradient at the embedding (norm ${fmt(path.totalNorm ?? NaN, 3)} of ${fmt(r.gradNorm, 3)}); ` +
    `the largest term came last through ${contributionName(big.name)} (${pct(big.totalShare)}). ` +
    `The identity passes every gradient down unchanged and each branch adds to it: the gradient at the top of the stream has norm ${fmt(top ?? NaN, 3)}, the one arriving at block 0's attention ${fmt(bottom ?? NaN, 3)}.`
  );
}

export function GradientLedger() {
  const text = usePrompt();
  const answer = useLessonOp('residualLedger', { text, dtype: 'float32' }, [text], { keepLast: true, channel: 'gradient-ledger' });
  return (
    <div class="lesson-widget residual-widget" data-testid="widget-gradient-ledger">
      <PromptField testId="gradient-ledger-prompt" />
      <WidgetShell answer={answer} errorTestId="gradient-ledger-error" pendingText="Running the model forward and backward…" keepLast>
        {(r) => {
          const g = r.ledger.grad;
          const maxNorm = Math.max(...g.terms.map((t) => t.totalNorm ?? 0), ...g.throughIdentity.map((v) => v ?? 0));
          const bar = (v: number | null) => <span class="rs-bar" style={{ width: `${Math.max(1, ((v ?? 0) / (maxNorm || 1)) * 100)}%` }} />;
          return (
            <>
              <p class="rs-loss">
                Loss <span class="num" data-testid="gradient-ledger-loss">{fmt(r.loss, 5)}</span> nats on your prompt ({r.labels.length} bytes); the
                gradient at the embedding, ∂loss/∂X₀, has norm <span class="num" data-testid="gradient-ledger-norm" data-value={String(r.gradNorm)}>{fmt(r.gradNorm, 4)}</span>.
              </p>
              <p class="widget-lead">
                Where it came from, route by route: the gradient at the last stream, carried down by the identities alone, then for each branch the
                part whose last detour (the one nearest the embedding) went through that branch, Jᵀ times the gradient arriving above it.
              </p>
              <ScrollBox label="The gradient at the embedding, by route">
                <table class="rs-table" data-testid="gradient-ledger-table">
                  <thead>
                    <tr>
                      <th scope="col" class="rs-left">route</th>
                      <th scope="col">I passes on ‖g above‖</th>
                      <th scope="col">J_Fᵀ adds ‖term‖</th>
                      <th scope="col">share of ∂loss/∂X₀</th>
                      <th scope="col" class="rs-bar-col" aria-label="term norm as a bar" />
                    </tr>
                  </thead>
                  <tbody>
                    {g.terms.map((term, i) => (
                      <tr key={term.name} data-name={term.name}>
                        <th scope="row">{routeName(term.name)}</th>
                        <td class="num" data-value={String(i === 0 ? null : g.throughIdentity[i - 1])}>
                          {i === 0 ? '' : fmt(g.throughIdentity[i - 1] ?? NaN, 4)}
                        </td>
                        <td class="num" data-value={String(term.totalNorm)} data-testid={`gradient-term-${i}`}>
                          {fmt(term.totalNorm ?? NaN, 4)}
                        </td>
                        <td class="num" data-value={String(term.totalShare)}>
                          {pct(term.totalShare)}
                        </td>
                        <td class="rs-bar-col">{bar(term.totalNorm)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollBox>
              <p class="rs-check" data-testid="gradient-ledger-sum">
                The check, computed live: residual path + every branch's term − ∂loss/∂X₀, largest difference:{' '}
                <span class="num" data-value={String(g.maxAbsDiff)}>
                  {g.maxAbsDiff === null ? 'not a number' : fmt(g.maxAbsDiff, 3)}
                </span>{' '}
                (in float32: a difference at the level of rounding means no route is missing).
              </p>
              <ToNotice testId="gradient-ledger-notice">{notice(r)}</ToNotice>
            </>
          );
        }}
      </WidgetShell>
    </div>
  );
}
