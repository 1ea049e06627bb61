// Every request kind the worker answers, and its handler: (state, payload) ->
// result. This table is the protocol: web/src/protocol/api.ts derives each
// kind's request and response types from it, so a handler and its type cannot
// drift apart. Each feature keeps its handlers in its own file (a new op there
// needs no edit here); web/src/worker/state.ts is the state they share.
import { benchHandlers } from './bench';
import { labHandlers } from './lab';
import { modelHandlers } from './inspector';
import { interpHandlers } from './interp';
import { attentionHandlers } from './lessonOps/attention';
import { autogradHandlers } from './lessonOps/autograd';
import { bytesHandlers } from './lessonOps/bytes';
import { codeHandlers } from './lessonOps/code';
import { generationHandlers } from './lessonOps/generation';
import { lossHandlers } from './lessonOps/loss';
import { residualHandlers } from './lessonOps/residual';
import { rmsnormHandlers } from './lessonOps/rmsnorm';
import { rmsnormModelHandlers } from './lessonOps/rmsnormModel';
import { rmsnormShapeHandlers } from './lessonOps/rmsnormShape';
import { swigluHandlers } from './lessonOps/swiglu';
import { tourHandlers } from './lessonOps/tour';
import type { WorkerState } from './state';

/** By feature, so a test can check that no two features claim one kind. */
export const handlerGroups = {
  lab: labHandlers,
  model: modelHandlers,
  bench: benchHandlers,
  interp: interpHandlers,
  code: codeHandlers,
  rmsnorm: rmsnormHandlers,
  rmsnormShape: rmsnormShapeHandlers,
  rmsnormModel: rmsnormModelHandlers,
  autograd: autogradHandlers,
  attention: attentionHandlers,
  swiglu: swigluHandlers,
  bytes: bytesHandlers,
  loss: lossHandlers,
  residual: residualHandlers,
  tour: tourHandlers,
  generation: generationHandlers,
  debug: {
    /** Testing only: the core traps (a wasm RuntimeError), so the worker dies and is restarted. */
    debugTrap: (s: WorkerState, _: null): never => s.glass.debugTrap(),
    /** Testing only: never answers (a handler stuck in a loop), so the client's time limit stops and replaces the worker. */
    debugHang: (_s: WorkerState, _: null): never => {
      for (;;);
    },
  },
};

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type Merged<G> = UnionToIntersection<G[keyof G]>;

/** kind -> handler, every group in one table (what the worker dispatches on). */
export const handlers = Object.assign({}, ...Object.values(handlerGroups)) as Merged<typeof handlerGroups>;
