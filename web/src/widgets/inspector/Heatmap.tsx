// A snapshot (or its gradient) as an n x d heatmap on a canvas: one row per
// position, labelled by its byte, with the core's per-position RMS beside it.
// Hover (or focus and use the arrow keys) to read position, coordinate and value.
import { useEffect, useRef, useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import type { ShownTensor } from '../../protocol/base';
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
  const canvas = useRef<HTMLCanvasElement>(null);
  const [n, d] = tensor.shape;
  const scale = colourScale(tensor.data);
  const [cursor, setCursor] = useState<{ row: number; col: number } | null>(null);

  useEffect(() => {
    const c = canvas.current;
    if (c === null) return;
    c.width = d;
    c.height = n;
    const ctx = c.getContext('2d')!;
    const image = ctx.createImageData(d, n);
    for (let i = 0; i < n * d; i++) {
      const [r, g, b] = divergingRgb(tensor.data[i], scale);
      image.data.set([r, g, b, 255], i * 4);
    }
    ctx.putImageData(image, 0, 0);
  }, [tensor, n, d, scale]);

  const at = (e: MouseEvent) => {
    const rect = (e.currentTarget as HTMLCanvasElement).getBoundingClientRect();
    const col = Math.floor(((e.clientX - rect.left) / rect.width) * d);
    const row = Math.floor(((e.clientY - rect.top) / rect.height) * n);
    if (row >= 0 && row < n && col >= 0 && col < d) setCursor({ row, col });
  };
  const onKey = (e: KeyboardEvent) => {
    const step: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const s = step[e.key];
    if (s === undefined) return;
    e.preventDefault();
    const c = cursor ?? { row: 0, col: 0 };
    setCursor({ row: Math.min(n - 1, Math.max(0, c.row + s[0])), col: Math.min(d - 1, Math.max(0, c.col + s[1])) });
  };
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
          <canvas
            ref={canvas}
            class="heatmap-canvas"
            style={{ width: `${d * cellWidth}px`, height: `${n * ROW_HEIGHT}px` }}
            tabIndex={0}
            role="img"
            aria-label={`${title}: heatmap of ${n} positions by ${d} coordinates, colour scale ±${fmt(scale, 3)}`}
            onMouseMove={at}
            onMouseLeave={() => setCursor(null)}
            onKeyDown={onKey}
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
