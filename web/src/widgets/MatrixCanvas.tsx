// One canvas for every matrix the page draws as colours (the inspector's
// heatmap of a tensor, the attention lesson's softmax weights): one pixel per
// cell, scaled up by CSS. Hovering a cell, or focusing the canvas and using the
// arrow keys, picks it; the parent shows the readout and the labels around it.
import { useEffect, useRef } from 'preact/hooks';

export interface Cell {
  row: number;
  col: number;
}

interface Props {
  rows: number;
  cols: number;
  /** Row-major, rows × cols: the core's numbers. */
  values: ArrayLike<number>;
  /** A value's colour [r, g, b] (colour mapping only). Keep it stable between renders (module level or useMemo). */
  colour: (v: number) => readonly number[];
  /** Size on screen, CSS pixels. */
  width: number;
  height: number;
  cursor: Cell | null;
  onCursor: (cell: Cell | null) => void;
  /** Where the arrow keys start when no cell is picked (default the top left). */
  keyStart?: Cell;
  /** Forget the picked cell when the pointer leaves. */
  clearOnLeave?: boolean;
  label: string;
  class: string;
}

const STEPS: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

export function MatrixCanvas({ rows, cols, values, colour, width, height, cursor, onCursor, keyStart, clearOnLeave, label, class: className }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const c = canvas.current;
    if (c === null) return;
    // setting a canvas's size clears and reallocates it even when unchanged
    if (c.width !== cols) c.width = cols;
    if (c.height !== rows) c.height = rows;
    const ctx = c.getContext('2d')!;
    const image = ctx.createImageData(cols, rows);
    const px = image.data; // rows x cols x RGBA, one pixel per cell
    for (let i = 0; i < rows * cols; i++) {
      const [r, g, b] = colour(values[i]);
      px[4 * i] = r;
      px[4 * i + 1] = g;
      px[4 * i + 2] = b;
      px[4 * i + 3] = 255;
    }
    ctx.putImageData(image, 0, 0);
  }, [values, rows, cols, colour]);

  const at = (e: MouseEvent) => {
    const rect = (e.currentTarget as HTMLCanvasElement).getBoundingClientRect();
    const col = Math.floor(((e.clientX - rect.left) / rect.width) * cols);
    const row = Math.floor(((e.clientY - rect.top) / rect.height) * rows);
    if (row >= 0 && row < rows && col >= 0 && col < cols) onCursor({ row, col });
  };
  const onKey = (e: KeyboardEvent) => {
    const step = STEPS[e.key];
    if (step === undefined) return;
    e.preventDefault();
    const c = cursor ?? keyStart ?? { row: 0, col: 0 };
    onCursor({ row: Math.min(rows - 1, Math.max(0, c.row + step[0])), col: Math.min(cols - 1, Math.max(0, c.col + step[1])) });
  };

  return (
    <canvas
      ref={canvas}
      class={className}
      style={{ width: `${width}px`, height: `${height}px` }}
      tabIndex={0}
      role="img"
      aria-label={label}
      onMouseMove={at}
      onMouseLeave={clearOnLeave ? () => onCursor(null) : undefined}
      onKeyDown={onKey}
    />
  );
}
