// What both runs train on: the King James Bible excerpt (shipped with the site),
// the lesson texts, text pasted here, or a .txt file. A file over 50 MB is
// refused by its size before it is read; the rest of the checks (UTF-8, binary,
// long enough for the context) are the trainer's, and its refusal shows on the
// runs.
import { useState } from 'preact/hooks';
import { DATA_LABELS, checkUploadSize, sizeText, type DataChoice } from '../../viewmodels/trainData';
import './DataPicker.css';

interface Props {
  choice: DataChoice;
  locked: boolean;
  onChoose: (choice: DataChoice) => void;
  /** Bytes in the lesson texts, for the label. */
  lessonsBytes: number;
}

const KINDS: DataChoice['kind'][] = ['kjv', 'lessons', 'paste', 'file'];

export function DataPicker({ choice, locked, onChoose, lessonsBytes }: Props) {
  const [pasted, setPasted] = useState(choice.kind === 'paste' ? choice.text : '');
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [lastFile, setLastFile] = useState<DataChoice | null>(choice.kind === 'file' ? choice : null);

  const pick = (kind: DataChoice['kind']) => {
    setFileProblem(null);
    if (kind === 'kjv' || kind === 'lessons') onChoose({ kind });
    else if (kind === 'paste') onChoose({ kind, text: pasted });
    else if (lastFile !== null) onChoose(lastFile);
    else onChoose({ kind: 'file', name: '', size: 0, bytes: null });
  };

  const onFile = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (file === undefined) return;
    const refused = checkUploadSize(file.name, file.size);
    if (refused !== null) {
      setFileProblem(refused); // the file is not read at all
      input.value = '';
      return;
    }
    setFileProblem(null);
    const reading: DataChoice = { kind: 'file', name: file.name, size: file.size, bytes: null };
    onChoose(reading);
    try {
      const bytes = await file.arrayBuffer(); // bytes only: the trainer worker decodes and checks them
      const done: DataChoice = { ...reading, bytes };
      setLastFile(done);
      onChoose(done);
    } catch (e) {
      setFileProblem(`“${file.name}” could not be read: ${e instanceof Error ? e.message : String(e)}.`);
      onChoose({ kind: 'file', name: '', size: 0, bytes: null });
    }
  };

  return (
    <fieldset class="data-picker" disabled={locked} data-testid="data-picker">
      <legend>Train both runs on</legend>
      <div class="dp-choices" role="radiogroup" aria-label="Training text">
        {KINDS.map((k) => (
          <label key={k} class={choice.kind === k ? 'is-chosen' : ''}>
            <input type="radio" name="train-data" value={k} checked={choice.kind === k} onChange={() => pick(k)} />{' '}
            {k === 'lessons' ? `${DATA_LABELS[k]} (${sizeText(lessonsBytes)})` : DATA_LABELS[k]}
          </label>
        ))}
      </div>
      {choice.kind === 'kjv' && <p class="dp-note">An excerpt of the King James Bible, the kind of text the shipped model learned from. It is fetched when training starts.</p>}
      {choice.kind === 'lessons' && <p class="dp-note">The words of this site’s lessons, with their formulas.</p>}
      {choice.kind === 'paste' && (
        <div class="dp-paste">
          <label for="train-paste">Your text</label>
          <textarea
            id="train-paste"
            rows={5}
            value={pasted}
            placeholder="Paste or type the text to train on. It must be longer than the model's context."
            onInput={(e) => {
              setPasted(e.currentTarget.value);
              onChoose({ kind: 'paste', text: e.currentTarget.value });
            }}
            data-testid="train-paste"
          />
          <span class="dp-note num">
            {pasted.length.toLocaleString('en')} character{pasted.length === 1 ? '' : 's'}
          </span>
        </div>
      )}
      {choice.kind === 'file' && (
        <div class="dp-file">
          <label for="train-file">A plain-text file (.txt, UTF-8, at most 50 MB)</label>
          <input id="train-file" type="file" accept=".txt,text/plain" onChange={(e) => void onFile(e.currentTarget)} data-testid="train-file" />
          {choice.name !== '' && (
            <span class="dp-note" data-testid="train-file-status">
              {choice.bytes === null ? `Reading “${choice.name}”…` : `“${choice.name}”, ${sizeText(choice.size)}`}
            </span>
          )}
        </div>
      )}
      {fileProblem !== null && (
        <p class="notice notice-bad" role="alert" data-testid="train-file-problem">
          {fileProblem}
        </p>
      )}
    </fieldset>
  );
}
