// The one line under a plot or table that says what to look for in it. Where
// it depends on the data, the caller builds it from the same live values the
// plot shows (never typed-in numbers).
import type { ComponentChildren } from 'preact';
import './ToNotice.css';

export function ToNotice({ children, testId = 'to-notice' }: { children: ComponentChildren; testId?: string }) {
  return (
    <p class="to-notice" data-testid={testId}>
      <span class="to-notice-label">Notice:</span>
      {children}
    </p>
  );
}
