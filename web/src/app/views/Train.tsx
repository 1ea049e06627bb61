// The Train view: two runs of the model trained side by side in the page. Its
// code (plots, forms, the trainer's client) loads only when this view opens;
// the trainer workers start only when a run does.
import { LazyPart } from './LazyPart';
import './Train.css';

const load = () => import('./TrainPage').then((m) => m.TrainPage);

export function Train() {
  return <LazyPart load={load} what="The Train view" />;
}
