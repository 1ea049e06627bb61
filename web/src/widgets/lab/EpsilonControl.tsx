// The ε slider with its "ε = 0 exactly" checkbox: the slider is off while ε is
// 0, and the checkbox beside it is the way back (to the last ε > 0 used here).
import { useRef } from 'preact/hooks';
import { DEFAULT_LAB, EPS_LOG10 } from '../../app/labSettings';
import { LogSlider } from './LogSlider';
import './EpsilonLab.css';

interface Props {
  /** The slider's element id (the checkbox is `${id}-zero`). */
  id: string;
  eps: number;
  onEps: (eps: number) => void;
  /** data-testid of the checkbox. */
  zeroTestid: string;
}

export function EpsilonControl({ id, eps, onEps, zeroTestid }: Props) {
  const lastEps = useRef(eps > 0 ? eps : DEFAULT_LAB.eps);
  if (eps > 0) lastEps.current = eps;
  return (
    <LogSlider
      id={id}
      label="epsilon ε (log scale)"
      symbol="ε"
      log10Min={EPS_LOG10.min}
      log10Max={EPS_LOG10.max}
      step={0.05}
      value={eps}
      disabled={eps === 0}
      onValue={onEps}
    >
      <label class="epsilon-lab-check">
        <input
          type="checkbox"
          id={`${id}-zero`}
          data-testid={zeroTestid}
          checked={eps === 0}
          onChange={(e) => onEps(e.currentTarget.checked ? 0 : lastEps.current)}
        />{' '}
        ε = 0 exactly
      </label>
    </LogSlider>
  );
}
