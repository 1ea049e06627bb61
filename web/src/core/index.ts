// Public surface of the core facade. No DOM here: this runs in a Worker too.
export { loadGlass, Glass, Generator } from './glass';
export type { GraphNode, LoadOptions, RandomOptions } from './glass';
export { Tensor } from './tensor';
export type { TensorOrNumber } from './tensor';
export { RMSNorm } from './nn';
export { GlassError } from './errors';
export { bestBuild, hasRelaxedMadd, type WasmBuild } from './wasmBuild';
export { canShareMemory, hardwareThreads } from './threadedBuild';
export { Model } from './model';
export { TrainSession } from './trainSession';
export type { Divergence, TrainModelConfig, TrainOptions, TrainStepOutcome, TrainStepResult } from './trainSession';
export { DEFAULT_DELTA, interventionText } from './interp';
export type {
  AttentionSummary,
  GradientCheck,
  GradientCheckSide,
  HeadSummary,
  InterpOptions,
  Intervention,
  InterventionReport,
  LedgerGrad,
  LedgerParts,
  LedgerTerm,
  LogitLens,
  ResidualLedger,
  SnapshotChange,
} from './interp';
export type {
  AttentionParts,
  GenerationStep,
  ModelInfo,
  ModelRun,
  NamedTensor,
  ParamGroup,
  Prediction,
  RunOptions,
  SampleSettings,
  SwigluParts,
  TensorPick,
} from './model';
export type { BackwardOptions, DTypeName, Disposable, NestedNumbers, TensorData } from './types';
