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
