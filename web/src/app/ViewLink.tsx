// A link to one of the app's views (?view=...): it works by keyboard, with the
// middle button and in a new tab; a plain click switches view without reloading.
// The rest of the address (lab settings, inspector keys) is kept.
import type { ComponentChildren } from 'preact';
import { view } from './state';
import type { View } from './urlState';

export function viewHref(v: View): string {
  const params = new URLSearchParams(location.search);
  params.set('view', v);
  return `?${params.toString()}`;
}

export function ViewLink({ to, children, class: cls, current, label }: { to: View; children: ComponentChildren; class?: string; current?: boolean; label?: string }) {
  return (
    <a
      href={viewHref(to)}
      class={cls}
      aria-label={label}
      aria-current={current ? 'page' : undefined}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        view.value = to;
        scrollTo(0, 0);
      }}
    >
      {children}
    </a>
  );
}
