// The prompt: any text; the model sees at most its context in UTF-8 bytes, so a
// longer one is cut on a character boundary and the learner is told so.
import { promptRun } from '../../app/inspectorState';
import { CONTEXT_BYTES } from '../../app/inspectorSettings';
import { inspectorSettings } from '../../app/state';
import './PromptEditor.css';

export function PromptEditor() {
  const s = inspectorSettings.value;
  const t = promptRun.value;
  return (
    <div class="prompt-editor">
      <label for="inspector-prompt">Prompt (the model predicts each next byte)</label>
      <textarea
        id="inspector-prompt"
        rows={2}
        value={s.prompt}
        spellcheck={false}
        onInput={(e) => (inspectorSettings.value = { ...inspectorSettings.peek(), prompt: e.currentTarget.value })}
      />
      <p class="prompt-count num" data-testid="prompt-count">
        {t.bytes} of {CONTEXT_BYTES} bytes
      </p>
      {s.prompt === '' && (
        <p class="notice notice-warn" role="alert" data-testid="prompt-empty">
          The prompt is empty: type at least one character (two or more give a loss and gradients).
        </p>
      )}
      {t.truncated && (
        <p class="notice notice-warn" role="status" data-testid="prompt-truncated">
          The prompt is {t.originalBytes.toLocaleString('en')} bytes; the model's context holds {CONTEXT_BYTES}, so it runs on the
          first {t.bytes} bytes (cut between characters, never inside one).
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
