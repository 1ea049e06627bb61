// "Reproduce in PyTorch": the command line that prints the number on screen
// from the repository's independent PyTorch model, with a copy button. The
// line is built by viewmodels/reproduce.ts; the number beside it is the core's.
import { useState } from 'preact/hooks';
import { reproduceCommand, type ReproduceInput } from '../../viewmodels/reproduce';

interface Props {
  input: ReproduceInput;
  /** What the line prints, in words, with the core's number: "the value shown here, 0.0123". */
  prints: string;
  ownWeights: boolean;
  onDownloadWeights: () => void;
  testId?: string;
  /** The summary's words, when a tool offers more than one line. */
  title?: string;
}

export function ReproduceLine({ input, prints, ownWeights, onDownloadWeights, testId = 'reproduce', title = 'Reproduce in PyTorch' }: Props) {
  const line = reproduceCommand(input);
  const [copied, setCopied] = useState<string | null>(null);
  const copy = () => {
    void navigator.clipboard?.writeText(line).then(
      () => setCopied(line),
      () => setCopied(null),
    );
  };
  return (
    <details class="interp-reproduce" data-testid={testId}>
      <summary>{title}</summary>
      <p class="interp-note">
        Run this in a copy of the GlassLLM repository (it needs Python with PyTorch). An independent PyTorch version of the model
        prints {prints}.
      </p>
      <div class="interp-command">
        <code data-testid={`${testId}-command`}>{line}</code>
        <button type="button" onClick={copy}>
          {copied === line ? 'Copied' : 'Copy'}
        </button>
      </div>
      {ownWeights ? (
        <p class="interp-note">
          These are your own weights: save them first as <code>{input.weights}</code> in the repository's folder{' '}
          <button type="button" onClick={onDownloadWeights} data-testid={`${testId}-download`}>
            Download these weights
          </button>
        </p>
      ) : (
        <p class="interp-note">The shipped weights are in the repository already, at the path the line names.</p>
      )}
    </details>
  );
}
