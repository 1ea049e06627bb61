// Helpers for messages about what a learner typed or an address carried: the
// message stays short however long the input (an address can hold megabytes),
// and keys that appear twice are reported rather than silently resolved.

/** The input as a message quotes it: at most `max` characters, cut with an ellipsis. */
export function clip(text: string, max = 40): string {
  const chars = Array.from(text); // never cut inside a surrogate pair
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** JSON-quoted and clipped: "abc", or "aaaa…" for a long one. */
export function quoted(text: string | null, max = 40): string {
  return JSON.stringify(clip(text ?? '', max));
}

/** One message per key of `keys` that appears more than once in the address (the first is used). */
export function duplicateKeys(params: URLSearchParams, keys: readonly string[]): string[] {
  const problems: string[] = [];
  for (const key of keys) {
    const all = params.getAll(key);
    if (all.length > 1)
      problems.push(`The address has ${clip(key)} ${all.length} times (${all.slice(0, 3).map((v) => `${clip(key)}=${quoted(v, 20)}`).join(', ')}${all.length > 3 ? ', …' : ''}); using the first.`);
  }
  return problems;
}
