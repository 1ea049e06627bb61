// The lessons home. Lessons are content files (added by the next issue); this
// lists what is coming and points to the lab meanwhile.
import { view } from '../state';
import './LessonsHome.css';

const COMING = [
  {
    title: 'RMSNorm, pre-norm and residuals',
    summary: 'How each position’s scale is controlled, why epsilon matters, and the two residual additions per block.',
  },
];

export function LessonsHome() {
  return (
    <section class="lessons-home" aria-labelledby="lessons-title">
      <h1 id="lessons-title">Lessons</h1>
      <p>Guided lessons walk through the model with live numbers from the core.</p>
      <ul class="lessons-list">
        {COMING.map((l) => (
          <li key={l.title} class="lessons-card">
            <h2>{l.title}</h2>
            <p>{l.summary}</p>
            <p class="lessons-status">Coming soon. Meanwhile, try its numbers in the RMSNorm lab.</p>
            <button type="button" onClick={() => (view.value = 'lab')}>
              Open the RMSNorm lab
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
