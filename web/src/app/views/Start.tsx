// The start page (the view for a first visit, `/`). Its code reads the lesson
// path, so it loads with the lesson texts, after the shell.
import { LazyPart } from './LazyPart';

const load = () =>
  import('../../lessons/StartPage').then((m) => {
    m.startLessons(); // the lesson and step in the address, before the first render
    return m.StartPage;
  });

export function Start() {
  return <LazyPart load={load} what="The start page" />;
}
