// The views as links (?view=...), one per tab.
import { view } from './state';
import { VIEWS, type View } from './urlState';
import { ViewLink } from './ViewLink';
import './ViewTabs.css';

const LABELS: Record<View, string> = { start: 'Start', lessons: 'Lessons', lab: 'RMSNorm lab', inspector: 'Inspector', train: 'Train' };

export function ViewTabs() {
  return (
    <nav class="view-tabs" aria-label="Views">
      {VIEWS.map((v) => (
        <ViewLink key={v} to={v} current={view.value === v}>
          {LABELS[v]}
        </ViewLink>
      ))}
    </nav>
  );
}
