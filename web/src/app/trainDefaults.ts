// The Train view's defaults and ranges, for the page (the view, glass.train.run).
// They live in protocol/trainSettings.ts so the trainer worker checks against
// the very same numbers; this module is the page's name for them.
export {
  DEFAULT_MODEL_CONFIG,
  DEFAULT_TRAIN_SETTINGS,
  EVAL_WINDOWS,
  HELD_OUT_FRACTION,
  MAX_TEXT_BYTES,
  MODEL_RANGES,
  SHIPPED_MODEL_CONFIG,
  TRAIN_RANGES,
  checkModelConfig,
  checkRunSpec,
  checkTrainSettings,
  minTextBytes,
} from '../protocol/trainSettings';
export type { SettingRange } from '../protocol/trainSettings';
