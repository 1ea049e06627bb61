// A snapshot (or its gradient) as an n x d heatmap on a canvas: one row per
// position, labelled by its byte, with the core's per-position RMS beside it.
// Hover (or focus and use the arrow keys) to read position, coordinate and value.
import { useMemo, useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import type { ShownTensor } from '../../protocol/base';
import { MatrixCanvas, type Cell } from '../MatrixCanvas';
import { colourScale, divergingRgb, legendGradient } from './colors';
import './Heatmap.css';

interface Props {
  tensor: ShownTensor;
  labels: readonly string[];
  title: string;
  /** Width of one cell in CSS pixels. */
  cellWidth: number;
  testId?: string;
}

export const ROW_HEIGHT = 12;

export function Heatmap({ tensor, labels, title, cellWidth, testId }: Props) {
  const [n, d] = tensor.shape;
  const scale = colourScale(tensor.data);
  const colour = useMemo(() => (v: number) => divergingRgb(v, scale), [scale]);
  const [cursor, setCursor] = useState<Cell | null>(null);
  const value = cursor === null ? null : tensor.data[cursor.row * d + cursor.col];
  const what = tensor.grad ? 'gradient' : 'value';

  return (
    <figure class="heatmap" data-testid={testId}>
      <figcaption class="heatmap-title">
        <strong>{title}</strong> <span class="heatmap-shape num">
          ({n}, {d}) · {tensor.data instanceof Float32Array ? 'float32' : 'float64'} · ‖t‖ = {fmt(tensor.norm, 4)}
        </span>
      </figcaption>
      <p class="heatmap-readout" aria-live="polite" data-testid="heatmap-readout">
        {cursor === null || value === null
          ? 'Hover a cell (or focus the map and use the arrow keys) to read it.'
          : `position ${cursor.row} (${labels[cursor.row] ?? '?'}) · coordinate ${cursor.col} · ${what} ${fmt(value, 6)}`}
      </p>
      <div class="heatmap-scroll">
        <div class="heatmap-grid" style={{ gridTemplateRows: `repeat(${n}, ${ROW_HEIGHT}px)` }}>
          <div class="heatmap-labels" aria-hidden="true">
            {labels.slice(0, n).map((l, i) => (
              <span key={i} class={cursor?.row === i ? 'is-row' : ''} title={`position ${i}`}>
                <span class="heatmap-pos">{i}</span> {l}
              </span>
            ))}
          </div>
          <MatrixCanvas
            rows={n}
            cols={d}
            values={tensor.data}
            colour={colour}
            width={d * cellWidth}
            height={n * ROW_HEIGHT}
            cursor={cursor}
            onCursor={setCursor}
            clearOnLeave
            class="heatmap-canvas"
            label={`${title}: heatmap of ${n} positions by ${d} coordinates, colour scale ±${fmt(scale, 3)}`}
          />
          <div class="heatmap-rms" aria-label={`per-position RMS of ${title}`}>
            {Array.from(tensor.rowRms, (r, i) => (
              <span key={i} class={cursor?.row === i ? 'is-row num' : 'num'}>
                {fmt(r, 3)}
              </span>
            ))}
          </div>
        </div>
      </div>
      <div class="heatmap-legend">
        <span class="num">−{fmt(scale, 3)}</span>
        <span class="heatmap-legend-bar" style={{ background: legendGradient }} aria-hidden="true" />
        <span class="num">+{fmt(scale, 3)}</span>
        <span class="heatmap-legend-note">
          colour: {what} (blue negative, white 0, red positive); right column: RMS of each row
        </span>
      </div>
    </figure>
  );
}
