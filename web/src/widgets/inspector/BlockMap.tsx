// The model drawn like the seed lesson's diagram, one row per block:
//
//   X ─────────────────────── + ── H ────────────────── + ── X'
//    └─ RMSNorm₁ → Attention ─┘      └─ RMSNorm₂ → SwiGLU ─┘
//
// then the final RMSNorm and the head. Every box is a button that opens its
// snapshot (click, Enter or Space).
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
  return [
    { x: 50, y: STREAM_Y, label: 'X', name: input, what: `X entering block ${i} (${input})` },
    { x: 150, y: BRANCH_Y, label: 'RMSNorm₁', name: `${p}norm.attn`, what: `RMSNorm₁(X) of block ${i}` },
    { x: 270, y: BRANCH_Y, label: 'Attention', name: `${p}attn`, what: `the attention branch output of block ${i}` },
    { x: 440, y: STREAM_Y, label: 'H', name: `${p}resid.attn`, what: `H = X + Attention, block ${i}` },
    { x: 540, y: BRANCH_Y, label: 'RMSNorm₂', name: `${p}norm.ffn`, what: `RMSNorm₂(H) of block ${i}` },
    { x: 660, y: BRANCH_Y, label: 'SwiGLU', name: `${p}ffn`, what: `the SwiGLU branch output of block ${i}` },
    { x: 830, y: STREAM_Y, label: 'X′', name: `${p}resid.ffn`, what: `X′ = H + SwiGLU, block ${i} output` },
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
    { x: 50, y: STREAM_Y, label: 'X′', name: last, what: `the output of block ${blocks - 1}` },
    { x: 200, y: STREAM_Y, label: 'RMSNorm final', name: 'norm.final', what: 'the final RMSNorm, before the head' },
    { x: 360, y: STREAM_Y, label: 'head → logits', name: 'logits', what: 'the logits, (n, 256): one score per next byte' },
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
    </figure>
  );
}
