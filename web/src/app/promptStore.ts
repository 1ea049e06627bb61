// A prompt longer than the address can hold (inspectorSettings.ts,
// URL_PROMPT_BYTES) is kept in this tab's sessionStorage instead, so a reload
// or Back does not lose it; the prompt editor tells the learner that a link to
// the page will not carry it.
import { URL_PROMPT_BYTES } from './inspectorSettings';

const KEY = 'glassllm.longPrompt';

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null; // storage disabled: the long prompt lives only as long as the page
  }
}

/** Does this prompt fit in the address? */
export function fitsInAddress(prompt: string): boolean {
  return prompt !== '' && new TextEncoder().encode(prompt).length <= URL_PROMPT_BYTES;
}

/** Keeps a prompt that does not fit in the address (and forgets it when the prompt fits again). */
export function keepPrompt(prompt: string): void {
  const s = storage();
  if (s === null) return;
  try {
    if (prompt !== '' && !fitsInAddress(prompt)) s.setItem(KEY, prompt);
    else s.removeItem(KEY);
  } catch {
    // quota: the prompt is still on screen, only a reload would lose it
  }
}

/** The long prompt kept for this tab, if any. */
export function keptPrompt(): string | null {
  try {
    return storage()?.getItem(KEY) ?? null;
  } catch {
    return null;
  }
}
