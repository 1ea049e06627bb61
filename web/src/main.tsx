// A placeholder page until the real app lands: the seed lesson's RMSNorm
// example, computed live by the wasm core in float64 and float32. (The real
// app runs the core in a Worker; this page is small enough for the main thread.)
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { loadGlass, type DTypeName, type Glass } from './core';

interface SeedResult {
  dtype: DTypeName;
  a: number[]; // RMSNorm([[3, 4]])
  diff: number[]; // RMSNorm([[6, 8]]) - RMSNorm([[3, 4]])
}

const EPS = 1e-6;

function seedExample(glass: Glass, dtype: DTypeName): SeedResult {
  return glass.scope(() => {
    const norm = glass.rmsnorm(2, { eps: EPS, dtype });
    const a = norm.call(glass.tensor([[3, 4]], { dtype }));
    const b = norm.call(glass.tensor([[6, 8]], { dtype }));
    return { dtype, a: Array.from(a.data()), diff: Array.from(b.sub(a).data()) };
  });
}

const row = (xs: number[], format: (x: number) => string) => `[[${xs.map(format).join(', ')}]]`;

function App() {
  const [results, setResults] = useState<SeedResult[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    loadGlass()
      .then((glass) => setResults((['float64', 'float32'] as const).map((dtype) => seedExample(glass, dtype))))
      .catch((e: unknown) => setError(e instanceof Error ? `${e.name}: ${e.message}` : String(e)));
  }, []);

  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: '44rem', margin: '2rem auto', lineHeight: 1.5 }}>
      <h1>GlassLLM</h1>
      <p>
        The seed lesson's example, computed just now by the C++ core compiled to WebAssembly:{' '}
        <code>norm = RMSNorm(d=2, eps={EPS})</code>, <code>a = norm([[3, 4]])</code>, <code>b = norm([[6, 8]])</code>.
      </p>
      {error !== null && <p role="alert">Could not run the core: {error}</p>}
      {results === null && error === null && <p>Loading the wasm core…</p>}
      {results !== null && (
        <table style={{ textAlign: 'left', borderSpacing: '1rem 0.25rem' }}>
          <thead>
            <tr>
              <th>dtype</th>
              <th>round(a, 6)</th>
              <th>b − a</th>
            </tr>
          </thead>
          <tbody>
            {results.map((r) => (
              <tr key={r.dtype} data-dtype={r.dtype}>
                <td>{r.dtype}</td>
                <td>
                  <code>{row(r.a, (x) => x.toFixed(6))}</code>
                </td>
                <td>
                  <code>{row(r.diff, (x) => x.toExponential(8))}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        Doubling the input divides the effective eps by 4, so <code>b</code> is close to <code>a</code> but not equal.
        In float32 that true difference is smaller than the spacing between float32 numbers near 1, so the float32
        row shows rounding, not the effect of eps.
      </p>
    </main>
  );
}

render(<App />, document.getElementById('app')!);
