// One pre-norm block as a diagram, with the residual stream's shape and the
// parameter counts the core counted in the loaded model.
import { useWeights } from '../../viewmodels/model';
import { ScrollBox } from '../../app/ScrollBox';
import './lessonWidgets.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { 'block-diagram': BlockDiagram };

/** The residual stream's line. */
const STREAM = 58;

const n = (v: number) => v.toLocaleString('en-US');

export function BlockDiagram() {
  const w = useWeights({ load: true });
  const info = w.status === 'ready' ? w.info : null;
  const normGroup = info?.parameterTable.find((g) => g.kind === 'norm');
  const d = info?.d ?? 128;
  return (
    <div class="lesson-widget block-diagram" data-testid="widget-block-diagram">
      {/* Each name sits on its own line above its shape, clear of the stream, the
          branches and the arrowhead; below its natural width the diagram scrolls in
          its own box so the labels stay readable. */}
      <ScrollBox label="Block diagram">
        <svg viewBox="0 0 760 182" role="img" aria-label="A pre-norm block: X plus attention of RMSNorm1 of X gives H; H plus SwiGLU of RMSNorm2 of H gives X prime">
          <defs>
            <marker id="bd-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto">
              <path d="M0,0 L8,4 L0,8 z" fill="#1d2330" />
            </marker>
          </defs>
          <line x1="20" y1={STREAM} x2="752" y2={STREAM} class="bd-stream" marker-end="url(#bd-arrow)" />
          {[
            { x: 20, name: 'X' },
            { x: 316, name: 'H' },
            { x: 652, name: 'X′' },
          ].map((s) => (
            <g key={s.name}>
              <text x={s.x} y={STREAM - 26} class="bd-label">
                {s.name}
              </text>
              <text x={s.x} y={STREAM - 9} class="bd-shape">
                (B, n, {d})
              </text>
            </g>
          ))}
          {[
            { x: 60, a: 'RMSNorm₁', b: 'Attention', plus: 296 },
            { x: 400, a: 'RMSNorm₂', b: 'SwiGLU', plus: 636 },
          ].map((s) => (
            <g key={s.a}>
              <path d={`M${s.x},${STREAM} V130 H${s.x + 20}`} class="bd-branch" />
              <rect x={s.x + 20} y="112" width="90" height="36" rx="6" class="bd-norm" />
              <text x={s.x + 65} y="135" class="bd-box">
                {s.a}
              </text>
              <path d={`M${s.x + 110},130 H${s.x + 130}`} class="bd-branch" marker-end="url(#bd-arrow)" />
              <rect x={s.x + 132} y="112" width="90" height="36" rx="6" class="bd-op" />
              <text x={s.x + 177} y="135" class="bd-box">
                {s.b}
              </text>
              <path d={`M${s.x + 222},130 H${s.plus} V${STREAM + 12}`} class="bd-branch" marker-end="url(#bd-arrow)" />
              <circle cx={s.plus} cy={STREAM} r="11" class="bd-plus" />
              <text x={s.plus} y={STREAM + 5} class="bd-box">
                +
              </text>
              <text x={s.x + 65} y="170" class="bd-shape bd-middle">
                γ: ({d},)
              </text>
              <text x={s.plus - 8} y={STREAM + 30} class="bd-shape bd-end">
                adds 0 parameters
              </text>
            </g>
          ))}
        </svg>
      </ScrollBox>
      {info === null ? (
        <p data-testid="block-counts-pending">{w.status === 'failed' ? w.message : 'Loading the model to count its parameters…'}</p>
      ) : (
        <dl class="bd-counts" data-testid="block-counts">
          <div><dt>blocks</dt><dd data-testid="count-blocks">{info.blocks}</dd></div>
          <div><dt>norms in the model</dt><dd data-testid="count-norms">{info.norms}</dd></div>
          <div><dt>RMSNorm parameters</dt><dd data-testid="count-norm-params">{normGroup ? n(normGroup.params) : '?'}</dd></div>
          <div><dt>parameters per block</dt><dd>{n(info.perBlock[0])}</dd></div>
          <div><dt>all parameters</dt><dd>{n(info.parameters)}</dd></div>
        </dl>
      )}
    </div>
  );
}
