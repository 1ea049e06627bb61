// The three views as links (?view=...): they work by keyboard, with the
// middle button, and in the address; a plain click switches without reloading.
import { view } from './state';
import { VIEWS, type View } from './urlState';
import './ViewTabs.css';

const LABELS: Record<View, string> = { lessons: 'Lessons', lab: 'RMSNorm lab', inspector: 'Inspector' };

export function ViewTabs() {
  return (
    <nav class="view-tabs" aria-label="Views">
      {VIEWS.map((v) => {
        const params = new URLSearchParams(location.search);
        params.set('view', v);
        return (
          <a
            key={v}
            href={`?${params.toString()}`}
            aria-current={view.value === v ? 'page' : undefined}
            onClick={(e) => {
              if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
              e.preventDefault();
              view.value = v;
            }}
          >
            {LABELS[v]}
          </a>
        );
      })}
    </nav>
  );
}
