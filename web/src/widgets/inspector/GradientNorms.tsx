// Gradient norms by layer, as the core computed them: ||dL/d snapshot|| for
// every snapshot in model order (a log-scale bar each), and ||dL/d parameter||
// for every parameter, one row per layer.
import { fmt } from '../../app/format';
import './GradientNorms.css';

interface Props {
  snapshotNorms: Record<string, number>;
  paramNorms: Record<string, number>;
  onSelect: (name: string) => void;
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

/** "blocks.2.attn.wq.weight" -> ["block 2", "attn.wq"]; "tok_emb.weight" -> ["embedding", "tok_emb"]. */
function layerAndPart(name: string): [string, string] {
  const m = /^blocks\.(\d+)\.(.*?)(\.weight)?$/.exec(name);
  if (m) return [`block ${m[1]}`, m[2]];
  const part = name.replace(/\.weight$/, '');
  return [name.startsWith('tok_emb') ? 'embedding' : name.startsWith('head') ? 'head' : 'final norm', part];
}

export function GradientNorms({ snapshotNorms, paramNorms, onSelect }: Props) {
  const snaps = Object.entries(snapshotNorms);
  const [slo, shi] = decadeRange(snaps.map(([, v]) => v));
  const params = Object.entries(paramNorms);
  const [plo, phi] = decadeRange(params.map(([, v]) => v));
  const layers = new Map<string, [string, number][]>();
  for (const [name, v] of params) {
    const [layer, part] = layerAndPart(name);
    layers.set(layer, [...(layers.get(layer) ?? []), [part, v]]);
  }
  return (
    <div class="grad-norms" data-testid="grad-norms">
      <section>
        <h3>‖∂loss/∂snapshot‖, bottom to top</h3>
        <p class="gn-note">The total derivative through every later use (bars on a log scale). Click a name to open its gradient.</p>
        <table class="gn-table">
          <tbody>
            {snaps.map(([name, v]) => (
              <tr key={name}>
                <th scope="row">
                  <button type="button" class="gn-link" onClick={() => onSelect(name)}>
                    {name}
                  </button>
                </th>
                <td class="gn-bar-cell">
                  <span class="gn-bar" style={{ width: `${bar(v, slo, shi)}%` }} />
                </td>
                <td class="num">{fmt(v, 4)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section>
        <h3>‖∂loss/∂parameter‖ per layer</h3>
        <p class="gn-note">Each parameter tensor's gradient norm, grouped by layer (log-scale bars).</p>
        <table class="gn-table">
          <tbody>
            {[...layers.entries()].map(([layer, parts]) =>
              parts.map(([part, v], k) => (
                <tr key={`${layer}.${part}`} class={k === 0 ? 'gn-first' : ''}>
                  <th scope="row">{k === 0 ? layer : ''}</th>
                  <td class="gn-part num">{part}</td>
                  <td class="gn-bar-cell">
                    <span class="gn-bar is-param" style={{ width: `${bar(v, plo, phi)}%` }} />
                  </td>
                  <td class="num">{fmt(v, 4)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </section>
    </div>
  );
}
