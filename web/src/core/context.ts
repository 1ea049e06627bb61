// What every facade object needs: the raw module and the handle tracker of
// the glass instance that made it.
import type { RawModule } from './raw';
import type { HandleTracker } from './scope';

export interface Context {
  readonly raw: RawModule;
  readonly tracker: HandleTracker;
}
