// The RMSNorm lesson's widgets (worker side: web/src/worker/lessonOps/rmsnorm.ts):
// rows normalised one by one, γ against scale, the gradient path through
// residual layers, and the model's gradient norms by depth.

export interface RowsInput {
  rows: number[][]; // (n, d)
  eps: number;
}
export interface RowsResult {
  output: number[][]; // RMSNorm of the whole (n, d) tensor, row by row
  r: number[]; // (n,) r(x) of each row
}

export interface GammaInput {
  rows: number[][]; // (n, d) inputs of different scale
  gamma: number[]; // (d,)
  eps: number;
}
export interface GammaRow {
  input: number[];
  output: number[];
  norm: number; // ||y||
  meanSquare: number; // mean(y²)
  variance: number; // mean((y − mean y)²)
  onesNorm: number; // ||y|| with gamma = 1
  onesMeanSquare: number;
}

export interface PathInput {
  matrix: number[][]; // A, (k, k): F(x) = s·A x
  scale: number; // s
  depth: number; // L, 1 .. 64
}
export interface PathResult {
  /** Singular values, largest first. */
  residual: number[]; // of I + s·A
  branch: number[]; // of s·A alone
  /** Per depth 1..L: [σmax, σmin] of (I + sA)^l and of (sA)^l. */
  residualDepth: [number, number][];
  branchDepth: [number, number][];
}

export interface ModelGradsInput {
  text: string;
}
export interface ModelGradsResult {
  loss: number | null;
  names: string[]; // residual stream by depth
  norms: number[]; // ||dL/d name||
  n: number;
}

// ---- the lesson's story additions (worker side: web/src/worker/lessonOps/rmsnormShape.ts, rmsnormModel.ts)

export interface OpCountsInput {
  x: number[]; // one row
}
export interface OpCountsResult {
  /** The operations (not the leaves) each graph records, inputs first, as the core names them. */
  rms: string[];
  layer: string[];
}

export interface GeometryInput {
  x: number[]; // d = 2 or 3
  gamma: number[]; // (d,)
}
export interface GeometryResult {
  d: number;
  /** RMSNorm(x) with this γ and ε = 0, and with γ = 1. */
  y: number[];
  yOnes: number[];
  rms: number; // RMS of y
  norm: number; // ‖y‖
  onesNorm: number; // ‖y with γ = 1‖
  sqrtD: number;
  /** Outlines drawn through the core: RMSNorm with γ = 1 (sphere) and with this γ (stretched), ε = 0, each a list of 2-D polylines (d = 3: projected). */
  sphere: [number, number][][];
  stretched: [number, number][][];
  /** x, y and y with γ = 1 in the drawing's 2-D coordinates. */
  xAt: [number, number];
  yAt: [number, number];
  yOnesAt: [number, number];
}

export interface NormGradInput {
  x: number[];
  eps: number;
  scales: number[]; // c: the rows are c·x
}
export interface NormGradRow {
  c: number;
  input: number[];
  grad: number[]; // ∂ sum(RMSNorm(c·x)) / ∂(c·x), γ = 1
  dot: number; // (c·x) · grad
  gradNorm: number;
  inputNorm: number;
  product: number; // ‖grad‖ · ‖c·x‖
}

export interface EpsDtypeInput {
  x: number[];
  eps: number;
  dtype: 'float32' | 'float64';
}
export interface EpsDtypeRow {
  input: number[];
  meanSquare: number; // mean(x²) in the dtype
  withEps: number; // mean(x²) + ε, as the dtype stores it
  survived: number; // (mean(x²) + ε) − mean(x²), the part of ε the dtype kept
  output: number[];
}
export interface EpsDtypeResult {
  rows: [EpsDtypeRow, EpsDtypeRow]; // x and 2x
  difference: number[]; // RMSNorm(2x) − RMSNorm(x), in the dtype
}

export interface StreamRmsInput {
  text: string;
}
export interface StreamRmsRow {
  name: string; // the snapshot
  rms: number; // RMS over every position and coordinate
}
export interface StreamRmsResult {
  n: number;
  stream: StreamRmsRow[]; // embed, then after each residual addition
  branchInputs: StreamRmsRow[]; // what each branch reads: blocks.i.norm.attn, blocks.i.norm.ffn
  growth: number; // the last stream RMS over the embedding's
  branchRange: [number, number]; // smallest and largest RMS of a branch input
}

export interface GammaSummary {
  name: string; // parameter, e.g. blocks.0.norm_attn.gamma
  snapshot: string; // its output, e.g. blocks.0.norm.attn
  values: number[]; // (d,)
  mean: number;
  min: number;
  argmin: number;
  max: number;
  argmax: number;
  /** RMS of γ − 1: how far training moved it from its start. */
  moved: number;
  amplified: number; // coordinates with γ > 1
  damped: number; // with |γ| < 1
}

export interface InitGrowthInput {
  text: string;
  seed: number;
}
export interface InitGrowthRun {
  initScale: 'depth' | 'flat';
  /** Std of the output projections that write into the stream (every block's attention out and SwiGLU down). */
  outStd: number;
  stream: StreamRmsRow[];
  growth: number; // the last stream RMS over the embedding's
}
export interface InitGrowthResult {
  blocks: number;
  factor: number; // 1/√(2·blocks)
  depth: InitGrowthRun;
  flat: InitGrowthRun;
}
