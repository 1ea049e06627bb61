// The model drawn like the RMSNorm lesson's diagram, one row per block:
//
//   X ─────────────────────── + ── H ────────────────── + ── X'
//    └─ RMSNorm₁ → Attention ─┘      └─ RMSNorm₂ → SwiGLU ─┘
//
// then the final RMSNorm and the head. Every box is a button that opens its
// snapshot (click, Enter or Space).
import { tensorName } from '../../app/tensorNames';
import { ToNotice } from '../ToNotice';
import './BlockMap.css';

interface Props {
  blocks: number;
  /** The snapshot shown now, and the pair being compared (if any). */
  selected: string;
  compare: readonly [string, string] | null;
  onSelect: (name: string) => void;
}

const W = 92; // box width
const H = 24;
const STREAM_Y = 18;
const BRANCH_Y = 60;
const ROW = 88;
const LEFT = 78; // room for "block i"

interface NodeDef {
  x: number; // centre
  y: number;
  label: string;
  name: string;
  what: string;
}

function blockNodes(i: number): NodeDef[] {
  const input = i === 0 ? 'embed' : `blocks.${i - 1}.resid.ffn`;
  const p = `blocks.${i}.`;
  const node = (x: number, y: number, label: string, name: string): NodeDef => ({ x, y, label, name, what: tensorName(name).what });
  return [
    { x: 50, y: STREAM_Y, label: 'X', name: input, what: `X entering block ${i}, that is ${tensorName(input).name}` },
    node(150, BRANCH_Y, 'RMSNorm₁', `${p}norm.attn`),
    node(270, BRANCH_Y, 'Attention', `${p}attn`),
    node(440, STREAM_Y, 'H', `${p}resid.attn`),
    node(540, BRANCH_Y, 'RMSNorm₂', `${p}norm.ffn`),
    node(660, BRANCH_Y, 'SwiGLU', `${p}ffn`),
    node(830, STREAM_Y, 'X′', `${p}resid.ffn`),
  ];
}
const PLUS1 = 360;
const PLUS2 = 750;

function Box({ n, state, onSelect }: { n: NodeDef; state: string; onSelect: (name: string) => void }) {
  const activate = () => onSelect(n.name);
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      activate();
    }
  };
  return (
    <g
      class={`bm-node ${state}`}
      role="button"
      tabindex={0}
      aria-label={`${n.label}: open ${n.what}`}
      aria-pressed={state === 'is-selected'}
      data-name={n.name}
      onClick={activate}
      onKeyDown={onKey}
    >
      <title>{`${n.name} — ${n.what}`}</title>
      <rect x={n.x - W / 2} y={n.y - H / 2} width={W} height={H} rx={5} />
      <text x={n.x} y={n.y + 4.5} text-anchor="middle">
        {n.label}
      </text>
    </g>
  );
}

export function BlockMap({ blocks, selected, compare, onSelect }: Props) {
  const stateOf = (name: string) =>
    name === selected && compare === null ? 'is-selected' : compare?.includes(name) ? 'is-compared' : '';
  const rows = Array.from({ length: blocks }, (_, i) => i);
  const finalY = blocks * ROW + STREAM_Y;
  const height = blocks * ROW + 44;
  const last = `blocks.${blocks - 1}.resid.ffn`;
  const tail: NodeDef[] = [
    { x: 50, y: STREAM_Y, label: 'X′', name: last, what: tensorName(last).what },
    { x: 200, y: STREAM_Y, label: tensorName('norm.final').short, name: 'norm.final', what: tensorName('norm.final').what },
    { x: 360, y: STREAM_Y, label: 'head → logits', name: 'logits', what: tensorName('logits').what },
  ];
  return (
    <figure class="block-map" data-testid="block-map">
      <svg viewBox={`0 0 ${LEFT + 890} ${height}`} role="group" aria-label="The model's blocks: choose a tensor to open">
        <defs>
          <marker id="bm-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L8,4 L0,8 z" class="bm-arrowhead" />
          </marker>
        </defs>
        {rows.map((i) => {
          const ns = blockNodes(i);
          return (
            <g key={i} transform={`translate(${LEFT}, ${i * ROW})`} data-testid="block-row">
              <text x={-LEFT + 4} y={STREAM_Y + 4} class="bm-block-label">
                block {i}
              </text>
              {/* the residual stream */}
              <path class="bm-wire" d={`M ${50 + W / 2} ${STREAM_Y} H ${PLUS1 - 9}`} marker-end="url(#bm-arrow)" />
              <path class="bm-wire" d={`M ${PLUS1 + 9} ${STREAM_Y} H ${440 - W / 2}`} marker-end="url(#bm-arrow)" />
              <path class="bm-wire" d={`M ${440 + W / 2} ${STREAM_Y} H ${PLUS2 - 9}`} marker-end="url(#bm-arrow)" />
              <path class="bm-wire" d={`M ${PLUS2 + 9} ${STREAM_Y} H ${830 - W / 2}`} marker-end="url(#bm-arrow)" />
              {/* the branches */}
              <path class="bm-wire" d={`M 50 ${STREAM_Y + H / 2} V ${BRANCH_Y} H ${150 - W / 2}`} marker-end="url(#bm-arrow)" />
              <path class="bm-wire" d={`M ${150 + W / 2} ${BRANCH_Y} H ${270 - W / 2}`} marker-end="url(#bm-arrow)" />
              <path class="bm-wire" d={`M ${270 + W / 2} ${BRANCH_Y} H ${PLUS1} V ${STREAM_Y + 9}`} marker-end="url(#bm-arrow)" />
              <path class="bm-wire" d={`M 440 ${STREAM_Y + H / 2} V ${BRANCH_Y} H ${540 - W / 2}`} marker-end="url(#bm-arrow)" />
              <path class="bm-wire" d={`M ${540 + W / 2} ${BRANCH_Y} H ${660 - W / 2}`} marker-end="url(#bm-arrow)" />
              <path class="bm-wire" d={`M ${660 + W / 2} ${BRANCH_Y} H ${PLUS2} V ${STREAM_Y + 9}`} marker-end="url(#bm-arrow)" />
              {[PLUS1, PLUS2].map((x) => (
                <g key={x} class="bm-plus" aria-hidden="true">
                  <circle cx={x} cy={STREAM_Y} r={9} />
                  <text x={x} y={STREAM_Y + 4.5} text-anchor="middle">
                    +
                  </text>
                </g>
              ))}
              {ns.map((n) => (
                <Box key={n.label} n={n} state={stateOf(n.name)} onSelect={onSelect} />
              ))}
            </g>
          );
        })}
        <g transform={`translate(${LEFT}, ${finalY - STREAM_Y})`}>
          <text x={-LEFT + 4} y={STREAM_Y + 4} class="bm-block-label">
            output
          </text>
          <path class="bm-wire" d={`M ${50 + W / 2} ${STREAM_Y} H ${200 - 56}`} marker-end="url(#bm-arrow)" />
          <path class="bm-wire" d={`M ${200 + 56} ${STREAM_Y} H ${360 - 56}`} marker-end="url(#bm-arrow)" />
          {tail.map((n) => (
            <Box key={n.label} n={n.label === 'X′' ? n : { ...n }} state={stateOf(n.name)} onSelect={onSelect} />
          ))}
        </g>
      </svg>
      <figcaption class="block-map-caption">
        Each block: H = X + Attention(RMSNorm₁(X)), X′ = H + SwiGLU(RMSNorm₂(H)). Click a box (or Tab to it and press Enter)
        to open its tensor.
      </figcaption>
      <ToNotice testId="block-map-notice">
        only the two + circles change the stream (the top line of each block). Each branch reads a normalized copy and adds
        its output back, so the stream itself is never normalized; the final RMSNorm is not part of it, it only feeds the
        head.
      </ToNotice>
    </figure>
  );
}
