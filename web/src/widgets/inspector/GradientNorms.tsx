// Gradient norms by layer, as the core computed them: ||dL/d snapshot|| for
// every snapshot in model order (a log-scale bar each), and ||dL/d parameter||
// for every parameter, one row per layer; each under its learner name with the
// code name beside it.
import { fmt } from '../../app/format';
import { paramName, tensorName } from '../../app/tensorNames';
import { SHIPPED_SHAPE, type ModelShape } from '../../protocol/modelNames';
import { ToNotice } from '../ToNotice';
import { paramGradNotice, snapshotGradNotice } from './inspectorNotices';
import './GradientNorms.css';

interface Props {
  snapshotNorms: Record<string, number>;
  paramNorms: Record<string, number>;
  onSelect: (name: string) => void;
  /** The loaded model's config (its words); the shipped model's by default. */
  model?: ModelShape;
}

function bar(v: number, lo: number, hi: number): number {
  if (!(v > 0) || !Number.isFinite(v)) return 0;
  return Math.max(2, ((Math.log10(v) - lo) / (hi - lo)) * 100);
}

function decadeRange(values: number[]): [number, number] {
  const pos = values.filter((v) => v > 0 && Number.isFinite(v));
  if (pos.length === 0) return [0, 1];
  const lo = Math.floor(Math.log10(Math.min(...pos))) - 0.5;
  const hi = Math.ceil(Math.log10(Math.max(...pos)));
  return [lo, Math.max(hi, lo + 1)];
}

export function GradientNorms({ snapshotNorms, paramNorms, onSelect, model = SHIPPED_SHAPE }: Props) {
  const snaps = Object.entries(snapshotNorms);
  const [slo, shi] = decadeRange(snaps.map(([, v]) => v));
  const params = Object.entries(paramNorms);
  const [plo, phi] = decadeRange(params.map(([, v]) => v));
  const layers = new Map<string, [string, string, number][]>();
  for (const [name, v] of params) {
    const p = paramName(name, model);
    layers.set(p.layer, [...(layers.get(p.layer) ?? []), [p.part, name, v]]);
  }
  const layerOfSnap = (name: string) => {
    const t = tensorName(name, model);
    return t.block !== null ? `block ${t.block}` : name === 'embed' ? 'input' : 'output';
  };
  return (
    <div class="grad-norms" data-testid="grad-norms">
      <section>
        <h3>‖∂loss/∂tensor‖, from the input end to the logits</h3>
        <p class="gn-note">The total derivative through every later use (bars on a log scale). Click a name to open its gradient.</p>
        <table class="gn-table">
          <tbody>
            {snaps.map(([name, v], k) => {
              const t = tensorName(name, model);
              const first = k === 0 || layerOfSnap(snaps[k - 1][0]) !== layerOfSnap(name);
              return (
                <tr key={name} class={first ? 'gn-first' : ''}>
                  <th scope="row">{first ? layerOfSnap(name) : ''}</th>
                  <td class="gn-name">
                    <button type="button" class="gn-link" onClick={() => onSelect(name)}>
                      {t.short}
                    </button>{' '}
                    <code class="gn-part">{name}</code>
                  </td>
                  <td class="gn-bar-cell">
                    <span class="gn-bar" style={{ width: `${bar(v, slo, shi)}%` }} />
                  </td>
                  <td class="num">{fmt(v, 4)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <ToNotice testId="grad-norms-notice">{snapshotGradNotice(snapshotNorms, model)}</ToNotice>
      </section>
      <section>
        <h3>‖∂loss/∂parameter‖ per layer</h3>
        <p class="gn-note">Each parameter tensor's gradient norm, grouped by layer (log-scale bars).</p>
        <table class="gn-table">
          <tbody>
            {[...layers.entries()].map(([layer, parts]) =>
              parts.map(([part, code, v], k) => (
                <tr key={code} class={k === 0 ? 'gn-first' : ''}>
                  <th scope="row">{k === 0 ? layer : ''}</th>
                  <td class="gn-name">
                    {part} <code class="gn-part">{code}</code>
                  </td>
                  <td class="gn-bar-cell">
                    <span class="gn-bar is-param" style={{ width: `${bar(v, plo, phi)}%` }} />
                  </td>
                  <td class="num">{fmt(v, 4)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
        <ToNotice testId="param-norms-notice">{paramGradNotice(paramNorms, model)}</ToNotice>
      </section>
    </div>
  );
}
