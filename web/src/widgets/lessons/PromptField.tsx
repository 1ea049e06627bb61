// The learner's own prompt, shared by every widget that runs the model on
// "your prompt" (and read by the step's checks: viewmodels/lessonPrompt.ts), so
// changing it in one widget changes it in all of them and in the answers.
import { DEFAULT_PROMPT, lessonPrompt, setLessonPrompt } from '../../viewmodels/lessonPrompt';
import { TextPresets } from './TextPresets';

const PRESETS: readonly (readonly [string, string])[] = [
  ['a verse', DEFAULT_PROMPT],
  ['another verse', 'And God said, Let there be light: and there was light.'],
  ['not the Bible', 'The quick brown fox jumps over the lazy dog.'],
];

/** The prompt field; `testId` names the input (one per widget, so a test can type into any of them). */
export function PromptField({ testId }: { testId: string }) {
  return <TextPresets value={lessonPrompt.value} onText={setLessonPrompt} testId={testId} presets={PRESETS} label="Your prompt" />;
}

/** The prompt's text, read by a widget so it asks again when it changes. */
export function usePrompt(): string {
  return lessonPrompt.value;
}
