// Widget name (as written in lesson files) -> component. Every module in
// web/src/widgets/lessons/ that exports `lessonWidgets` (widgetTypes.ts) is
// found here (import.meta.glob): a new widget registers itself in its own file.
// An unknown name in a lesson shows a visible error; tests/web/lessons.test.ts
// checks every name the lessons use exists, and that no two modules claim one.
import type { LessonWidgets, WidgetProps } from './widgetTypes';

const modules = import.meta.glob<{ lessonWidgets?: LessonWidgets }>('../widgets/lessons/*.tsx', { eager: true });

/** Each module's names, by module path (for the test that no name is claimed twice). */
export const WIDGETS_BY_MODULE: Record<string, string[]> = Object.fromEntries(
  Object.entries(modules).map(([path, m]) => [path, Object.keys(m.lessonWidgets ?? {})]),
);

const REGISTRY: LessonWidgets = Object.assign({}, ...Object.values(modules).map((m) => m.lessonWidgets ?? {}));

export const WIDGET_NAMES: readonly string[] = Object.keys(REGISTRY).sort();

export const isWidgetName = (name: string): boolean => Object.hasOwn(REGISTRY, name);

export function LessonWidget({ name, args }: { name: string } & WidgetProps) {
  if (!isWidgetName(name))
    return (
      <p class="lesson-error" role="alert" data-testid="unknown-widget">
        This lesson asks for a widget named “{name}”, which does not exist.
      </p>
    );
  const W = REGISTRY[name];
  return <W args={args} />;
}
