// Problems in the address the page was opened with: each bad key was replaced by its default.
import { urlProblems } from './state';
import './Notice.css';

export function UrlProblems() {
  const problems = urlProblems.value;
  if (problems.length === 0) return null;
  return (
    <div class="notice notice-warn" role="alert" data-testid="url-problems">
      <div>
        <strong>Part of this address could not be used.</strong>
        <ul>
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      </div>
      <button type="button" class="notice-dismiss" onClick={() => (urlProblems.value = [])}>
        Dismiss
      </button>
    </div>
  );
}
