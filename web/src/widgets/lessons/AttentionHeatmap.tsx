// An (n, n) matrix of softmax weights on a canvas, white (0) to dark blue (1),
// with the bytes of the prompt along both edges. Hover a cell (or focus the map
// and use the arrow keys) to read it; the chosen row is reported to the parent.
import { useMemo, useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import { MatrixCanvas, type Cell } from '../MatrixCanvas';
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
  const n = weights.length;
  const values = useMemo(() => weights.flat(), [weights]);
  const cell = Math.max(3, Math.min(22, Math.floor(440 / Math.max(n, 1))));
  const [hovered, setCursor] = useState<Cell | null>(null);
  // a cursor left over from a longer prompt points past the new matrix
  const cursor = hovered !== null && hovered.row < n && hovered.col < n ? hovered : null;
  const pick = (c: Cell | null) => {
    setCursor(c);
    if (c !== null) onRow(c.row);
  };
  const showLabels = cell >= 9;
  const font = `${Math.min(12, cell - 1)}px`;

  return (
    <figure class="attn-map" data-testid="pattern-map">
      <p class="attn-readout num" aria-live="polite" data-testid="pattern-readout">
        {cursor === null
          ? 'Hover a cell (or focus the map and use the arrow keys).'
          : `query ${cursor.row} “${labels[cursor.row]}” → key ${cursor.col} “${labels[cursor.col]}”: weight ${fmt(weights[cursor.row][cursor.col], 6)}`}
      </p>
      <div class="attn-grid" style={{ gridTemplateColumns: `auto ${n * cell}px`, gridTemplateRows: `auto ${n * cell}px` }}>
        <span />
        <div class="attn-cols" aria-hidden="true" style={{ gridTemplateColumns: `repeat(${n}, ${cell}px)`, fontSize: font }}>
          {showLabels && labels.map((l, j) => <span key={j}>{l}</span>)}
        </div>
        <div class="attn-rows" aria-hidden="true" style={{ gridTemplateRows: `repeat(${n}, ${cell}px)`, fontSize: font }}>
          {showLabels && labels.map((l, i) => <span key={i} class={row === i ? 'is-row' : ''}>{i} {l}</span>)}
        </div>
        <MatrixCanvas
          rows={n}
          cols={n}
          values={values}
          colour={rgb}
          width={n * cell}
          height={n * cell}
          cursor={cursor}
          onCursor={pick}
          keyStart={{ row: row ?? 0, col: 0 }}
          class="attn-canvas"
          label={`attention weights, ${n} queries by ${n} keys, white 0 to dark blue 1`}
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
