// Lesson code: code cells, and the expressions behind inline values and check
// answers (worker side: web/src/worker/lessonOps/code.ts). JavaScript against
// the core, run in the worker and only there.
import type { ErrorData, ValueOutcome } from '../base';

export type { ValueOutcome };

export interface CodeInput {
  code: string;
}
/** What print() wrote, and the error that stopped the cell (if one did). */
export interface CodeResult {
  output: string;
  error: ErrorData | null;
}

export interface EvalInput {
  exprs: string[];
}
