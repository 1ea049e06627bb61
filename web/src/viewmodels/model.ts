// The loaded model as lesson widgets see it: the weights' state (downloading,
// ready with the core's configuration, failed), read here so a widget never
// imports the app's state.
import { useEffect } from 'preact/hooks';
import { ensureShippedWeights, shippedWeights, type WeightsState } from '../app/inspectorState';

export type { WeightsState };

/** The weights' state now; with `load`, starts fetching them when the widget opens. */
export function useWeights({ load = false }: { load?: boolean } = {}): WeightsState {
  useEffect(() => {
    if (load) void ensureShippedWeights();
  }, [load]);
  return shippedWeights.value;
}
