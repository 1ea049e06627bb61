// The sampling settings the generation lesson's widgets share: temperature
// (greedy at 0), top-k and the seed. A widget's ```widget``` line sets where they
// start (temperature=0.8 topk=5 seed=1 length=80) and which of them the learner
// may change (controls=temperature,topk,seed); a bad value is named on the page.
import { useState } from 'preact/hooks';
import { fmtScale } from '../../app/format';
import { LogSlider } from '../lab/LogSlider';

export interface Sampling {
  temperature: number;
  topK: number;
  seed: number;
}

export type Control = 'temperature' | 'topk' | 'seed';
const CONTROLS: readonly Control[] = ['temperature', 'topk', 'seed'];

export interface WidgetSettings extends Sampling {
  length: number;
  controls: Control[];
}

const whole = (v: string | undefined, fallback: number, min: number, max: number, what: string): number => {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!(Number.isInteger(n) && n >= min && n <= max)) throw new Error(`${what} must be a whole number from ${min} to ${max}, got “${v}”`);
  return n;
};

/** The widget line's settings, or the message naming the bad one. */
export function settingsFromArgs(args: Record<string, string>, defaults: Partial<WidgetSettings> = {}): WidgetSettings | string {
  try {
    const t = args.temperature === undefined ? (defaults.temperature ?? 1) : Number(args.temperature);
    if (!(Number.isFinite(t) && t >= 0 && t <= 10)) throw new Error(`temperature must be a number from 0 to 10, got “${args.temperature}”`);
    const controls = (args.controls ?? CONTROLS.join(',')).split(',').map((c) => c.trim()).filter((c) => c !== '');
    const bad = controls.find((c) => !(CONTROLS as readonly string[]).includes(c));
    if (bad !== undefined) throw new Error(`controls may name temperature, topk and seed, not “${bad}”`);
    return {
      temperature: t,
      topK: whole(args.topk, defaults.topK ?? 0, 0, 256, 'topk'),
      seed: whole(args.seed, defaults.seed ?? 1, 0, 2 ** 31, 'seed'),
      length: whole(args.length, defaults.length ?? 80, 1, 400, 'length'),
      controls: controls as Control[],
    };
  } catch (e) {
    return `This widget's settings are wrong: ${(e as Error).message}.`;
  }
}

/** The settings a widget starts from, as state the learner's controls change. */
export function useSampling(start: Sampling): [Sampling, (s: Partial<Sampling>) => void] {
  const [s, set] = useState(start);
  return [s, (p) => set((old) => ({ ...old, ...p }))];
}

const TOP_KS = [0, 1, 2, 5, 10, 40];
const TEMPERATURES = [0, 0.5, 1, 2];

/** The controls the widget line allows; `id` keeps two widgets' inputs apart. */
export function SampleControls({ id, value, onChange, controls }: { id: string; value: Sampling; onChange: (s: Partial<Sampling>) => void; controls: Control[] }) {
  const greedy = value.temperature === 0;
  return (
    <div class="gen-controls">
      {controls.includes('temperature') && (
        <LogSlider
          id={`${id}-temperature`}
          label="temperature T (log scale)"
          symbol="T"
          log10Min={-1}
          log10Max={1}
          step={0.05}
          value={greedy ? 1 : value.temperature}
          disabled={greedy}
          onValue={(temperature) => onChange({ temperature })}
        >
          <div class="widget-row gen-toggle" role="group" aria-label="temperature">
            {TEMPERATURES.map((t) => (
              <button key={t} type="button" aria-pressed={t === value.temperature} data-testid={`${id}-t-${t}`} onClick={() => onChange({ temperature: t })}>
                {t === 0 ? 'greedy (T = 0)' : `T = ${fmtScale(t)}`}
              </button>
            ))}
          </div>
        </LogSlider>
      )}
      {controls.includes('topk') && (
        <div class="widget-row gen-toggle" role="group" aria-label="top-k: draw only among the k likeliest bytes">
          <span>top-k:</span>
          {TOP_KS.map((k) => (
            <button key={k} type="button" aria-pressed={k === value.topK} data-testid={`${id}-k-${k}`} onClick={() => onChange({ topK: k })}>
              {k === 0 ? 'all 256' : `k = ${k}`}
            </button>
          ))}
        </div>
      )}
      {controls.includes('seed') && (
        <div class="widget-row">
          <label>
            seed{' '}
            <input
              type="number"
              min={0}
              step={1}
              class="gen-seed"
              data-testid={`${id}-seed`}
              value={value.seed}
              onInput={(e) => {
                const n = Number(e.currentTarget.value);
                if (Number.isInteger(n) && n >= 0 && n <= 2 ** 31) onChange({ seed: n });
              }}
            />
          </label>
          <button type="button" data-testid={`${id}-next-seed`} onClick={() => onChange({ seed: Math.min(2 ** 31, value.seed + 1) })}>
            another seed
          </button>
        </div>
      )}
    </div>
  );
}

/** "greedy", or "T = 0.8, top-k 5, seed 1": the settings in words. */
export function settingsText(s: Sampling): string {
  if (s.temperature === 0) return 'greedy (T = 0)';
  return `T = ${fmtScale(s.temperature)}, ${s.topK === 0 || s.topK === 256 ? 'every byte' : `top-k ${s.topK}`}, seed ${s.seed}`;
}
