// A value that reads the learner's experiment runs (`runs.<id>` in a lesson
// expression) before those runs have ended: not an error, a value still to
// come. LessonView marks it so; checks and live values say to run it first.
import type { ValueOutcome } from '../protocol/base';

export const NEEDS_RUN = 'NeedsRun';

export const needsRun = (o: ValueOutcome | undefined): boolean => o !== undefined && !o.ok && o.error.name === NEEDS_RUN;
