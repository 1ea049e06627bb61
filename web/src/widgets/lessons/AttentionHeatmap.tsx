// An (n, n) matrix of softmax weights on a canvas, white (0) to dark blue (1),
// with the bytes of the prompt along both edges. Hover a cell (or focus the map
// and use the arrow keys) to read it; the chosen row is reported to the parent.
import { useEffect, useRef, useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import './Attention.css';

interface Props {
  weights: number[][]; // (n, n)
  labels: readonly string[];
  row: number | null;
  onRow: (row: number) => void;
}

const LOW = [255, 255, 255];
const HIGH = [16, 52, 140];

/** Colour of a probability (colour mapping only: the weights come from the core). */
function rgb(p: number): number[] {
  if (!Number.isFinite(p)) return [255, 0, 255];
  const t = Math.max(0, Math.min(1, p));
  return LOW.map((l, i) => Math.round(l + (HIGH[i] - l) * t));
}

export function AttentionHeatmap({ weights, labels, row, onRow }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const n = weights.length;
  const cell = Math.max(3, Math.min(22, Math.floor(440 / Math.max(n, 1))));
  const [hovered, setCursor] = useState<{ i: number; j: number } | null>(null);
  // a cursor left over from a longer prompt points past the new matrix
  const cursor = hovered !== null && hovered.i < n && hovered.j < n ? hovered : null;

  useEffect(() => {
    const c = canvas.current;
    if (c === null) return;
    c.width = n;
    c.height = n;
    const ctx = c.getContext('2d')!;
    const image = ctx.createImageData(n, n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) image.data.set([...rgb(weights[i][j]), 255], (i * n + j) * 4);
    ctx.putImageData(image, 0, 0);
  }, [weights, n]);

  const pick = (i: number, j: number) => {
    setCursor({ i, j });
    onRow(i);
  };
  const at = (e: MouseEvent) => {
    const rect = (e.currentTarget as HTMLCanvasElement).getBoundingClientRect();
    const j = Math.floor(((e.clientX - rect.left) / rect.width) * n);
    const i = Math.floor(((e.clientY - rect.top) / rect.height) * n);
    if (i >= 0 && i < n && j >= 0 && j < n) pick(i, j);
  };
  const onKey = (e: KeyboardEvent) => {
    const step: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const s = step[e.key];
    if (s === undefined) return;
    e.preventDefault();
    const c = cursor ?? { i: row ?? 0, j: 0 };
    pick(Math.min(n - 1, Math.max(0, c.i + s[0])), Math.min(n - 1, Math.max(0, c.j + s[1])));
  };
  const showLabels = cell >= 9;
  const font = `${Math.min(12, cell - 1)}px`;

  return (
    <figure class="attn-map" data-testid="pattern-map">
      <p class="attn-readout num" aria-live="polite" data-testid="pattern-readout">
        {cursor === null
          ? 'Hover a cell (or focus the map and use the arrow keys).'
          : `query ${cursor.i} “${labels[cursor.i]}” → key ${cursor.j} “${labels[cursor.j]}”: weight ${fmt(weights[cursor.i][cursor.j], 6)}`}
      </p>
      <div class="attn-grid" style={{ gridTemplateColumns: `auto ${n * cell}px`, gridTemplateRows: `auto ${n * cell}px` }}>
        <span />
        <div class="attn-cols" aria-hidden="true" style={{ gridTemplateColumns: `repeat(${n}, ${cell}px)`, fontSize: font }}>
          {showLabels && labels.map((l, j) => <span key={j}>{l}</span>)}
        </div>
        <div class="attn-rows" aria-hidden="true" style={{ gridTemplateRows: `repeat(${n}, ${cell}px)`, fontSize: font }}>
          {showLabels && labels.map((l, i) => <span key={i} class={row === i ? 'is-row' : ''}>{i} {l}</span>)}
        </div>
        <canvas
          ref={canvas}
          class="attn-canvas"
          style={{ width: `${n * cell}px`, height: `${n * cell}px` }}
          tabIndex={0}
          role="img"
          aria-label={`attention weights, ${n} queries by ${n} keys, white 0 to dark blue 1`}
          onMouseMove={at}
          onKeyDown={onKey}
        />
      </div>
      <figcaption class="attn-legend">
        <span class="num">0</span>
        <span class="attn-legend-bar" aria-hidden="true" />
        <span class="num">1</span>
        <span class="attn-muted">rows: query positions · columns: key positions{showLabels ? '' : ' (hover to read the bytes)'}</span>
      </figcaption>
    </figure>
  );
}
