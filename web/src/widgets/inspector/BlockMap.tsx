// The model drawn like the RMSNorm lesson's diagram, one row per block. For the
// shipped model (pre-norm, residuals):
//
//   X ─────────────────────── + ── H ────────────────── + ── X'
//    └─ RMSNorm₁ → Attention ─┘      └─ RMSNorm₂ → SwiGLU ─┘
//
// then the final RMSNorm and the head. Any other config is drawn from its own
// snapshot names (protocol/modelNames.ts): a post-norm block puts the norm after
// the +, a model without norms has none, and without residuals there is no +
// and the branch is the stream. Every box is a button that opens its snapshot
// (click, Enter or Space). Past 6 blocks (or with no branches to draw) the rows
// are drawn closer together so a 24-block model stays one readable column.
import { normWord, tensorName } from '../../app/tensorNames';
import { SHIPPED_SHAPE, blockInput, hasFinalNorm, sublayerParts, SUBLAYERS, type ModelShape } from '../../protocol/modelNames';
import { ToNotice } from '../ToNotice';
import './BlockMap.css';

interface Props {
  /** The loaded model's config (the shipped model's until it is known). */
  model?: ModelShape;
  /** The snapshot shown now, and the pair being compared (if any). */
  selected: string;
  compare: readonly [string, string] | null;
  onSelect: (name: string) => void;
}

const W = 92; // box width
const H = 24;
const LEFT = 78; // room for "block i"
/** Row geometry: the stream's line, the branches' line, the row's height. */
const ROOMY = { stream: 18, branch: 60, row: 88 };
const COMPACT = { stream: 16, branch: 48, row: 66 };
const NO_BRANCH = { stream: 16, branch: 16, row: 44 }; // without residuals every box sits on the stream
const COMPACT_FROM = 7; // blocks

interface NodeDef {
  x: number; // centre
  y: number;
  label: string;
  name: string;
  what: string;
}

interface RowLayout {
  nodes: NodeDef[];
  wires: string[]; // SVG path data
  plus: number[]; // x of each + circle
  width: number;
}

/** One block's boxes, wires and + circles, laid out left to right from its snapshot names. */
function blockLayout(m: ModelShape, i: number, g: typeof ROOMY): RowLayout {
  const N = normWord(m);
  const what = (name: string) => tensorName(name, m).what;
  const input = blockInput(m, i);
  const nodes: NodeDef[] = [{ x: 50, y: g.stream, label: 'X', name: input, what: `X entering block ${i}, that is ${tensorName(input, m).name}` }];
  const wires: string[] = [];
  const plus: number[] = [];
  let cur = 50; // the stream box the next sublayer reads
  const arrow = (from: number, to: number, y: number) => wires.push(`M ${from + W / 2} ${y} H ${to - W / 2}`);
  for (const s of SUBLAYERS) {
    const k = s === 'attn' ? 1 : 2;
    const branch = s === 'attn' ? 'Attention' : 'SwiGLU';
    const into = s === 'attn' ? 'X' : 'H';
    const out = s === 'attn' ? 'H' : 'X′';
    const label = (part: string): string => {
      if (part === s) return branch;
      if (part === `norm.${s}`) return m.norm === 'post' ? `${out} = ${N}${k === 1 ? '₁' : '₂'}` : `${N}${k === 1 ? '₁' : '₂'}`;
      if (part === `sum.${s}`) return `${into} + ${s === 'attn' ? 'Attn' : 'SwiGLU'}`;
      return out; // resid.s
    };
    const { parts } = sublayerParts(m, s);
    const node = (x: number, y: number, part: string) => {
      const name = `blocks.${i}.${part}`;
      nodes.push({ x, y, label: label(part), name, what: what(name) });
    };
    if (!m.residual) {
      // no +: every part sits on the stream, one after the other
      for (const part of parts) {
        arrow(cur, cur + 120, g.stream);
        cur += 120;
        node(cur, g.stream, part);
      }
      continue;
    }
    // the branch leaves the stream below the box it reads, and comes back up into the +
    const inBranch = m.norm === 'pre' ? [`norm.${s}`, s] : [s];
    const afterPlus = parts.filter((p) => !inBranch.includes(p));
    let x = cur + 100;
    wires.push(`M ${cur} ${g.stream + H / 2} V ${g.branch} H ${x - W / 2}`);
    inBranch.forEach((part, j) => {
      if (j > 0) {
        arrow(x - 120, x, g.branch);
      }
      node(x, g.branch, part);
      if (j < inBranch.length - 1) x += 120;
    });
    const p = x + 90;
    plus.push(p);
    wires.push(`M ${x + W / 2} ${g.branch} H ${p} V ${g.stream + 9}`);
    wires.push(`M ${cur + W / 2} ${g.stream} H ${p - 9}`);
    let at = p + 80;
    wires.push(`M ${p + 9} ${g.stream} H ${at - W / 2}`);
    afterPlus.forEach((part, j) => {
      if (j > 0) {
        arrow(at, at + 120, g.stream);
        at += 120;
      }
      node(at, g.stream, part);
    });
    cur = at;
  }
  return { nodes, wires, plus, width: cur + W / 2 + 10 };
}

/** The block's formula in one line, e.g. H = X + Attention(RMSNorm₁(X)), X′ = H + SwiGLU(RMSNorm₂(H)). */
function formula(m: ModelShape): string {
  const N = normWord(m);
  const one = (into: string, out: string, F: string, k: string) => {
    const read = m.norm === 'pre' ? `${F}(${N}${k}(${into}))` : `${F}(${into})`;
    const sum = m.residual ? `${into} + ${read}` : read;
    return `${out} = ${m.norm === 'post' ? `${N}${k}(${sum})` : sum}`;
  };
  return `${one('X', 'H', 'Attention', '₁')}, ${one('H', 'X′', 'SwiGLU', '₂')}`;
}

/** What to look for in this kind of block. */
function notice(m: ModelShape): string {
  if (!m.residual)
    return `there is no residual path: each sublayer's output replaces the stream, so everything the loss uses passes through every branch of every block, and so does the gradient on its way back.`;
  if (m.norm === 'post')
    return `the stream itself is normalized here: each sum X + F(X) goes through a norm before the next sublayer reads it (post-norm, the 2017 Transformer), so the head reads the last norm's output, with no final norm.`;
  if (m.norm === 'none')
    return `there are no norms: each branch reads the raw stream and adds its output back, and the head reads the last block's output directly.`;
  return `only the two + circles change the stream (the top line of each block). Each branch reads a normalized copy and adds its output back, so the stream itself is never normalized; the final ${normWord(m)} is not part of it, it only feeds the head.`;
}

function Box({ n, state, onSelect }: { n: NodeDef; state: string; onSelect: (name: string) => void }) {
  const activate = () => onSelect(n.name);
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      activate();
    }
  };
  const long = n.label.length > 11; // "X′ = LayerNorm₂": squeezed into the box
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
      <text x={n.x} y={n.y + 4.5} text-anchor="middle" {...(long ? { textLength: W - 10, lengthAdjust: 'spacingAndGlyphs' } : {})}>
        {n.label}
      </text>
    </g>
  );
}

export function BlockMap({ model = SHIPPED_SHAPE, selected, compare, onSelect }: Props) {
  const m = model;
  const g = !m.residual ? NO_BRANCH : m.blocks >= COMPACT_FROM ? COMPACT : ROOMY;
  const stateOf = (name: string) =>
    name === selected && compare === null ? 'is-selected' : compare?.includes(name) ? 'is-compared' : '';
  const rows = Array.from({ length: m.blocks }, (_, i) => blockLayout(m, i, g));
  const finalY = m.blocks * g.row + g.stream;
  const height = m.blocks * g.row + 44;
  const last = blockInput(m, m.blocks);
  const N = normWord(m);
  const tail: NodeDef[] = [{ x: 50, y: g.stream, label: 'X′', name: last, what: tensorName(last, m).what }];
  if (hasFinalNorm(m)) tail.push({ x: 200, y: g.stream, label: tensorName('norm.final', m).short, name: 'norm.final', what: tensorName('norm.final', m).what });
  tail.push({ x: tail.at(-1)!.x + (tail.length === 1 ? 150 : 160), y: g.stream, label: 'head → logits', name: 'logits', what: tensorName('logits', m).what });
  const width = Math.max(890, ...rows.map((r) => r.width));
  return (
    <figure class="block-map" data-testid="block-map" data-blocks={m.blocks}>
      <svg viewBox={`0 0 ${LEFT + width} ${height}`} role="group" aria-label={`The model's ${m.blocks} blocks: choose a tensor to open`}>
        <defs>
          <marker id="bm-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L8,4 L0,8 z" class="bm-arrowhead" />
          </marker>
        </defs>
        {rows.map((r, i) => (
          <g key={i} transform={`translate(${LEFT}, ${i * g.row})`} data-testid="block-row">
            <text x={-LEFT + 4} y={g.stream + 4} class="bm-block-label">
              block {i}
            </text>
            {r.wires.map((d) => (
              <path key={d} class="bm-wire" d={d} marker-end="url(#bm-arrow)" />
            ))}
            {r.plus.map((x) => (
              <g key={x} class="bm-plus" aria-hidden="true">
                <circle cx={x} cy={g.stream} r={9} />
                <text x={x} y={g.stream + 4.5} text-anchor="middle">
                  +
                </text>
              </g>
            ))}
            {r.nodes.map((n) => (
              <Box key={n.name} n={n} state={stateOf(n.name)} onSelect={onSelect} />
            ))}
          </g>
        ))}
        <g transform={`translate(${LEFT}, ${finalY - g.stream})`}>
          <text x={-LEFT + 4} y={g.stream + 4} class="bm-block-label">
            output
          </text>
          {tail.slice(1).map((n, k) => (
            <path key={n.name} class="bm-wire" d={`M ${tail[k].x + (k === 0 ? W / 2 : 56)} ${g.stream} H ${n.x - 56}`} marker-end="url(#bm-arrow)" />
          ))}
          {tail.map((n) => (
            <Box key={n.name} n={n} state={stateOf(n.name)} onSelect={onSelect} />
          ))}
        </g>
      </svg>
      <figcaption class="block-map-caption">
        Each block: {formula(m)}.{!hasFinalNorm(m) && ` No final ${N}: the head reads the last block's output.`} Click a box (or Tab to it and press
        Enter) to open its tensor.
      </figcaption>
      <ToNotice testId="block-map-notice">{notice(m)}</ToNotice>
    </figure>
  );
}
