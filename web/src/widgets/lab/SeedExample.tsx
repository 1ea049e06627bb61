// The RMSNorm lesson's worked example, computed live: RMSNorm(d=2, eps=1e-6) of
// [[3, 4]] and of [[6, 8]], in float64 (the verified digits) and in float32.
import { fmtNumpyExp } from '../../app/format';
import type { ErrorData } from '../../protocol/base';
import type { SeedRow } from '../../protocol/lab';
import { ToNotice } from '../ToNotice';
import './SeedExample.css';

const row = (xs: readonly number[], f: (v: number) => string) => `[[${xs.map(f).join(', ')}]]`;

export function SeedExample({ rows, error }: { rows: SeedRow[] | null; error: ErrorData | null }) {
  return (
    <section class="seed-example" aria-labelledby="seed-example-title" data-testid="seed-example">
      <h2 id="seed-example-title">The worked example: [3, 4], then twice as long</h2>
      <p>
        <code>norm = RMSNorm(d=2, eps=1e-6)</code>, <code>a = norm([[3, 4]])</code>, <code>b = norm([[6, 8]])</code>:
        print <code>round(a, 6)</code> and <code>b − a</code>.
      </p>
      {error !== null && (
        <p role="alert" class="seed-example-error">
          {error.name}: {error.message}
        </p>
      )}
      {rows === null && error === null && <p>Computing…</p>}
      {rows !== null && (
        <div class="seed-example-table" tabIndex={0} role="group" aria-labelledby="seed-example-title">
        <table>
          <thead>
            <tr>
              <th scope="col">dtype</th>
              <th scope="col">round(a, 6)</th>
              <th scope="col">b − a</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.dtype} data-dtype={r.dtype}>
                <th scope="row">{r.dtype}</th>
                <td class="num" data-testid={`seed-a-${r.dtype}`}>
                  {row(r.a, (v) => v.toFixed(6))}
                </td>
                <td class="num" data-testid={`seed-diff-${r.dtype}`}>
                  {row(r.diff, (v) => fmtNumpyExp(v))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
      <ToNotice testId="seed-notice">
        doubling x divides the effective ε by 4, so b is close to a but not equal: in float64 the difference is the effect
        of ε. In float32 that difference is smaller than the spacing of float32 numbers near 1 (about 1e-7), so the float32
        row shows rounding, not ε.
      </ToNotice>
    </section>
  );
}
