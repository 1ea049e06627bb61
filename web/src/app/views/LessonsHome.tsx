// The lessons view: the lesson path (every lesson file in web/src/lessons, in
// order, with progress), or one lesson when the address names it. The lesson
// code (and KaTeX) loads only when this view opens.
import { useEffect, useState } from 'preact/hooks';
import './LessonsHome.css';

type LessonsModule = typeof import('../../lessons/LessonsPage');

export function LessonsHome() {
  const [mod, setMod] = useState<LessonsModule | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    import('../../lessons/LessonsPage').then(setMod, (e: unknown) => setFailed(String(e)));
  }, []);
  if (failed !== null) return <p role="alert">The lessons could not be loaded: {failed}</p>;
  if (mod === null) return <p class="lessons-loading">Loading the lessons…</p>;
  return <mod.LessonsPage />;
}
