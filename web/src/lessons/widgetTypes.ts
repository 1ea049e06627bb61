// What a lesson widget module exports so that lessons/widgets.tsx finds it:
//   export const lessonWidgets: LessonWidgets = { 'row-norm': RowNorm };
// The name is what a lesson file writes in its ```widget name``` block; the
// component gets that block's key=value lines as `args`.
import type { FunctionComponent } from 'preact';

export type WidgetProps = { args: Record<string, string> };

export type LessonWidgets = Record<string, FunctionComponent<WidgetProps>>;
