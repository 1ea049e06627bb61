// The open tensor: one heatmap, or two side by side with their difference
// (b − a), each with its per-position RMS; value or gradient; export.
import { download, npyBytes, tensorJson } from '../../app/npy';
import { defaultCompare, snapshotNames, type InspectorSettings } from '../../app/inspectorSettings';
import type { InspectResult, ShownTensor } from '../../app/protocol';
import { Heatmap } from './Heatmap';
import './TensorPanel.css';

interface Props {
  settings: InspectorSettings;
  result: InspectResult;
  onChange: (patch: Partial<InspectorSettings>) => void;
}

const WIDE = snapshotNames().filter((n) => n !== 'logits'); // (n, 128): comparable with each other

function Export({ t, result }: { t: ShownTensor; result: InspectResult }) {
  const base = `${t.name.replace(/ − /g, '-minus-').replace(/[^\w.-]+/g, '_')}${t.grad ? '.grad' : ''}`;
  const meta = { name: t.name, grad: t.grad, prompt: result.run.text, eps: result.run.eps };
  return (
    <div class="tp-export">
      <button type="button" onClick={() => download(`${base}.npy`, npyBytes(t), 'application/octet-stream')}>
        Export .npy
      </button>
      <button type="button" onClick={() => download(`${base}.json`, tensorJson(t, meta), 'application/json')}>
        Export JSON
      </button>
    </div>
  );
}

export function TensorPanel({ settings, result, onChange }: Props) {
  const shown = result.shown;
  const noGrad = result.loss === null;
  const what = settings.grad && !noGrad ? '∂loss/∂' : '';
  return (
    <div class="tensor-panel">
      <div class="tp-controls">
        <fieldset class="tp-of">
          <legend>Show</legend>
          <label>
            <input type="radio" name="tp-of" checked={!settings.grad} onChange={() => onChange({ grad: false })} /> values
          </label>
          <label>
            <input type="radio" name="tp-of" checked={settings.grad} disabled={noGrad} onChange={() => onChange({ grad: true })} /> gradients
            (∂loss/∂tensor)
          </label>
        </fieldset>
        {settings.compare === null ? (
          <button type="button" onClick={() => onChange({ compare: defaultCompare(settings.tensor) })}>
            Compare two tensors
          </button>
        ) : (
          <div class="tp-pair">
            {(['a', 'b'] as const).map((k, idx) => (
              <label key={k}>
                {k === 'a' ? 'A' : 'B'}{' '}
                <select
                  value={settings.compare![idx]}
                  onChange={(e) => {
                    const pair = [...settings.compare!] as [string, string];
                    pair[idx] = e.currentTarget.value;
                    onChange({ compare: pair });
                  }}
                >
                  {WIDE.map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </label>
            ))}
            <button type="button" onClick={() => onChange({ compare: null })}>
              Back to one tensor
            </button>
          </div>
        )}
      </div>
      {settings.grad && noGrad && <p class="notice notice-info">A one-byte prompt has no loss, so there are no gradients: values are shown.</p>}
      {shown.length === 1 ? (
        <div class="tp-single">
          <Heatmap tensor={shown[0]} labels={result.labels} title={`${what}${shown[0].name}`} cellWidth={shown[0].shape[1] > 128 ? 2 : 4} testId="heatmap" />
          <Export t={shown[0]} result={result} />
        </div>
      ) : (
        <div class="tp-compare" data-testid="compare-view">
          {shown.map((t, i) => (
            <div key={i} class="tp-compare-item">
              <Heatmap
                tensor={t}
                labels={result.labels}
                title={i === 0 ? `A: ${what}${t.name}` : i === 1 ? `B: ${what}${t.name}` : `B − A`}
                cellWidth={2}
                testId={i === 2 ? 'heatmap-diff' : 'heatmap'}
              />
              <Export t={t} result={result} />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

