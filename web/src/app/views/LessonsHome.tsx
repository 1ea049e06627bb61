// The lessons view: the lesson path, or one lesson when the address names it.
// The lesson code (and KaTeX) loads only when this view opens.
import { LazyPart } from './LazyPart';
import './LessonsHome.css';

const load = () =>
  import('../../lessons/LessonsPage').then((m) => {
    m.startLessons(); // the lesson and step in the address, before the first render
    return m.LessonsPage;
  });

export function LessonsHome() {
  return <LazyPart load={load} what="The lessons" />;
}
