// The message a call throws, or '(no error)': for tests that assert on refusals' words.
export function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return '(no error)';
}
