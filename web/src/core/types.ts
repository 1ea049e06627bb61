// Plain types shared by the facade. No DOM, no wasm here.

export type DTypeName = 'float32' | 'float64';

/** A number or an arbitrarily nested rectangular array of numbers: [[3, 4]]. */
export type NestedNumbers = number | readonly NestedNumbers[];

/** What glass.tensor() accepts as values. */
export type TensorData = NestedNumbers | Float32Array | Float64Array;

export interface BackwardOptions {
  /** Keep the graph so backward can run again or be traced afterwards. */
  retainGraph?: boolean;
  /** Store the gradient of every non-leaf tensor too (the inspector needs this). */
  retainGrads?: boolean;
}

/** Something the facade frees: a Tensor, RMSNorm, Generator. */
export interface Disposable {
  dispose(): void;
  readonly isDisposed: boolean;
}

/** One likely next byte, as the core reports it (the model's and the logit lens's top-k). */
export interface Prediction {
  byte: number;
  /** How the byte reads on screen ("␣", "\\n", "e", "\\xC3"). */
  label: string;
  prob: number;
}
