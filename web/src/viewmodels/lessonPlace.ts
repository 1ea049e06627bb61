// Where a lesson widget stands and how it moves the learner: the lesson and
// step it is on (its key for remembered settings and its channel), and links
// that open another view the way Back/Forward would.
import { lessonRoute, openAddress } from '../lessons/route';

export { openAddress };

/** Where a lesson widget stands: "lesson/step/widget", its key for remembered settings and its channel. */
export function useWidgetPlace(widget: string): string {
  const route = lessonRoute.value;
  return `${route.slug ?? ''}/${route.step + 1}/${widget}`;
}
