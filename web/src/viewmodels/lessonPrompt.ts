// The learner's own prompt in the lessons: the widgets that run the model on
// "your prompt" share it, and a step's checks read it as `prompt` (LessonView
// computes them again when it changes), so a check asked "on your prompt" is
// answered from the values the widget above it shows. Kept in localStorage,
// read defensively: a reload keeps the prompt and the answers that go with it.
import { signal } from '@preact/signals';
import { DEFAULT_PROMPT } from '../protocol/lessons/residual';

export { DEFAULT_PROMPT };

const KEY = 'glassllm.lessonPrompt';
/** The model's context: a longer prompt is refused by the core with a message, and never stored. */
const MAX_BYTES = 128;

function stored(): string | null {
  try {
    const v = globalThis.localStorage?.getItem(KEY) ?? null;
    return v !== null && v !== '' && new TextEncoder().encode(v).length <= MAX_BYTES ? v : null;
  } catch {
    return null;
  }
}

export const lessonPrompt = signal<string>(stored() ?? DEFAULT_PROMPT);

export function setLessonPrompt(text: string): void {
  lessonPrompt.value = text;
  try {
    if (text === DEFAULT_PROMPT || text === '' || new TextEncoder().encode(text).length > MAX_BYTES) globalThis.localStorage?.removeItem(KEY);
    else globalThis.localStorage?.setItem(KEY, text);
  } catch {
    // storage full or disabled: the prompt lives for this page only
  }
}
