// The prompt: any text; the model sees at most its context in UTF-8 bytes, so a
// longer one is cut on a character boundary and the learner is told so.
import { CONTEXT_BYTES, type Truncated } from '../../app/inspectorSettings';
import './PromptEditor.css';

interface Props {
  prompt: string;
  /** The prompt as the model will see it (cut to the context). */
  run: Truncated;
  onPrompt: (prompt: string) => void;
  /** The loaded model's context in bytes (the shipped model's by default). */
  context?: number;
}

export function PromptEditor({ prompt, run: t, onPrompt, context = CONTEXT_BYTES }: Props) {
  return (
    <div class="prompt-editor">
      <label for="inspector-prompt">Prompt (the model predicts each next byte)</label>
      <textarea
        id="inspector-prompt"
        rows={2}
        value={prompt}
        spellcheck={false}
        onInput={(e) => onPrompt(e.currentTarget.value)}
      />
      <p class="prompt-count num" data-testid="prompt-count">
        {t.bytes} of {context} bytes
      </p>
      {prompt === '' && (
        <p class="notice notice-warn" role="alert" data-testid="prompt-empty">
          The prompt is empty: type at least one character (two or more give a loss and gradients).
        </p>
      )}
      {t.truncated && (
        <p class="notice notice-warn" role="status" data-testid="prompt-truncated">
          The prompt is {t.originalBytes.toLocaleString('en')} bytes; the model's context holds {context}, so it runs on the
          first {t.bytes} bytes (cut between characters, never inside one). It is too long for the address: this tab keeps it, but a
          link to this page opens with the default prompt.
        </p>
      )}
      {t.bytes === 1 && (
        <p class="notice notice-info" role="status">
          One byte predicts nothing: there is no loss and no gradient. Type a second character to see them.
        </p>
      )}
    </div>
  );
}
