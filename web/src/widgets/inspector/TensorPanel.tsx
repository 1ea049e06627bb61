// The open tensor: one heatmap, or two side by side with their difference
// (b − a), each with its per-position RMS; value or gradient; export.
import { download, npyBytes, tensorJson } from '../../app/npy';
import { defaultCompare, type InspectorSettings } from '../../app/inspectorSettings';
import { SHIPPED_SHAPE, type ModelShape } from '../../protocol/modelNames';
import type { InspectResult } from '../../protocol/model';
import type { ShownTensor } from '../../protocol/base';
import { tensorName, withCode } from '../../app/tensorNames';
import { ToNotice } from '../ToNotice';
import { Heatmap } from './Heatmap';
import { compareNotice, tensorNotice } from './inspectorNotices';
import './TensorPanel.css';

interface Props {
  settings: InspectorSettings;
  result: InspectResult;
  onChange: (patch: Partial<InspectorSettings>) => void;
  /** The loaded model's config (its names and words); the shipped model's by default. */
  model?: ModelShape;
}

/** Cell width in CSS pixels: about 512 px of map for any width d (4 px at d = 128), between 2 and 16. */
const cellWidth = (d: number, room = 512) => Math.max(2, Math.min(16, Math.round(room / d)));

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

/** "RMSNorm₂ of block 3 (blocks.3.norm.ffn)", or for its gradient "gradient of RMSNorm₂ of block 3 (∂loss/∂blocks.3.norm.ffn)". */
const heading = (t: ShownTensor, m: ModelShape) => (t.grad ? `gradient of ${tensorName(t.name, m).name} (∂loss/∂${t.name})` : withCode(t.name, m));

export function TensorPanel({ settings, result, onChange, model = SHIPPED_SHAPE }: Props) {
  const shown = result.shown;
  // the core's own names for this run, all (n, d) but the logits: comparable with each other
  const wide = result.names.filter((n) => n !== 'logits');
  const noGrad = result.loss === null;
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
          <button type="button" onClick={() => onChange({ compare: defaultCompare(settings.tensor, model) })}>
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
                  {wide.map((n) => (
                    <option key={n} value={n}>
                      {withCode(n, model)}
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
          <Heatmap tensor={shown[0]} labels={result.labels} title={heading(shown[0], model)} cellWidth={cellWidth(shown[0].shape[1])} testId="heatmap" />
          <ToNotice testId="tensor-notice">{tensorNotice(shown[0], result.labels, model)}</ToNotice>
          <Export t={shown[0]} result={result} />
        </div>
      ) : (
        <>
        <div class="tp-compare" data-testid="compare-view">
          {shown.map((t, i) => (
            <div key={i} class="tp-compare-item">
              <Heatmap
                tensor={t}
                labels={result.labels}
                title={i === 0 ? `A: ${heading(t, model)}` : i === 1 ? `B: ${heading(t, model)}` : `B − A`}
                cellWidth={cellWidth(t.shape[1], 256)}
                testId={i === 2 ? 'heatmap-diff' : 'heatmap'}
              />
              <Export t={t} result={result} />
            </div>
          ))}
        </div>
        <ToNotice testId="compare-notice">{compareNotice(shown[0], shown[1], shown[2], result.labels, model)}</ToNotice>
        </>
      )}
    </div>
  );
}

