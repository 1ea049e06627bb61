// Which attention head to show: a block menu and one button per head. The
// inspector's Look inside and the residual-stream lesson both pick a head with it.
import type { NamedTensor } from '../core';

interface Props {
  blocks: number;
  heads: number;
  block: number;
  head: number;
  onBlock: (block: number) => void;
  onHead: (head: number) => void;
  /** The group's class (each view lays it out its own way). */
  class: string;
  blockTestId: string;
  /** Test id of head i's button, if the view's tests address them. */
  headTestId?: (i: number) => string;
}

export function HeadPicker(p: Props) {
  return (
    <div class={p.class} role="group" aria-label="Which head">
      <label>
        block{' '}
        <select value={p.block} onChange={(e) => p.onBlock(Number(e.currentTarget.value))} data-testid={p.blockTestId}>
          {Array.from({ length: p.blocks }, (_, i) => (
            <option key={i} value={i}>
              {i}
            </option>
          ))}
        </select>
      </label>
      {Array.from({ length: p.heads }, (_, i) => (
        <button type="button" key={i} class={i === p.head ? 'is-on' : ''} aria-pressed={i === p.head} onClick={() => p.onHead(i)} data-testid={p.headTestId?.(i)}>
          head {i}
        </button>
      ))}
    </div>
  );
}

/** Head h's n × n attention weights, row by row, from one block's pattern (heads, n, n). */
export function headRows(pattern: NamedTensor, h: number): number[][] {
  const n = pattern.shape[1];
  return Array.from({ length: n }, (_, t) => Array.from(pattern.data.subarray((h * n + t) * n, (h * n + t + 1) * n)));
}
