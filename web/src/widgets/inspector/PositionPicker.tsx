// A position of the prompt, by number and byte: one control every tool shares
// (the address's pos).
interface Props {
  labels: readonly string[];
  pos: number;
  onPos: (pos: number) => void;
  label?: string;
  testId?: string;
}

export function PositionPicker({ labels, pos, onPos, label = 'position', testId = 'interp-pos' }: Props) {
  return (
    <label class="interp-field">
      {label}{' '}
      <select value={pos} onChange={(e) => onPos(Number(e.currentTarget.value))} data-testid={testId}>
        {labels.map((l, t) => (
          <option key={t} value={t}>
            {t} “{l}”
          </option>
        ))}
      </select>
    </label>
  );
}
