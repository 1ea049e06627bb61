// Lesson code: code cells, and the expressions behind inline values and check
// answers (worker side: web/src/worker/lessonOps/code.ts). JavaScript against
// the core, run in a worker and never on the page: code cells in the sandbox
// (protocol/sandbox.ts), expressions in the core worker.
import type { ErrorData, ValueOutcome } from '../base';

export type { ValueOutcome };

export interface CodeInput {
  code: string;
}
/** What print() wrote, and the error that stopped the cell (if one did). */
export interface CodeResult {
  output: string;
  /** The output was cut at its cap (worker/lessonOps/code.ts, MAX_OUTPUT_CHARS). */
  truncated: boolean;
  error: ErrorData | null;
}

export interface EvalInput {
  exprs: string[];
  /** The learner's own prompt, which expressions read as `prompt` (default: lessons/residual.ts's DEFAULT_PROMPT). */
  prompt?: string;
  /**
   * The learner's finished experiment runs (viewmodels/experiments.ts: id -> { A, B }), which the
   * expressions read as `runs.<id>.A`; absent when no expression of the request reads a run.
   */
  runs?: Record<string, unknown>;
}
