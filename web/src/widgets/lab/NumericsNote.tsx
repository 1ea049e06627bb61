// What the floating-point numbers did, when they did something surprising:
// overflow, underflow, 0/0. Decided from the core's own results (no math here).
import { fmt } from '../../app/format';
import type { LabResult } from '../../protocol/lab';
import type { LabSettings } from '../../app/labSettings';
import './NumericsNote.css';

interface Note {
  id: string;
  title: string;
  body: string;
}

function notesFor(r: LabResult, s: LabSettings): Note[] {
  const notes: Note[] = [];
  const eps = s.eps;
  const storedInf = r.x.some((v, i) => !Number.isFinite(v) && Number.isFinite(s.x[i]));
  const storedZero = r.x.some((v, i) => v === 0 && s.x[i] !== 0);
  const inputAllZero = r.input.every((v) => v === 0);
  const inputFinite = r.input.every((v) => Number.isFinite(v));
  const outNaN = r.output.some((v) => Number.isNaN(v));
  const outInf = r.output.some((v) => v === Infinity || v === -Infinity);

  if (storedInf) {
    notes.push({
      id: 'float32-inf',
      title: `${r.dtype} cannot hold these values`,
      body: `Values like ${fmt(s.x.find((v, i) => !Number.isFinite(r.x[i]))!)} are beyond the largest ${r.dtype} (about ${r.dtype === 'float32' ? '3.4e38' : '1.8e308'}), so the tensor stores Infinity. Then x² = Infinity, r = Infinity, and Infinity / Infinity = NaN in the output.`,
    });
  }
  if (storedZero) {
    notes.push({
      id: 'float32-zero',
      title: `${r.dtype} rounds these values to 0`,
      body: `Values like ${fmt(s.x.find((v, i) => r.x[i] === 0 && v !== 0)!)} are below the smallest ${r.dtype} (about ${r.dtype === 'float32' ? '1.4e-45' : '4.9e-324'}), so the tensor stores 0.`,
    });
  }
  if (inputFinite && r.meanSquare === Infinity) {
    notes.push({
      id: 'overflow',
      title: 'Overflow in the mean of squares',
      body: `Every input is finite, but their squares are not: they exceed the largest ${r.dtype} and become Infinity. So mean(x²) = Infinity, r = Infinity, and x / Infinity = 0: the output is all zeros instead of the direction of x. The formula is fine; the arithmetic is not. (Dividing by max |x| before squaring would avoid this; RMSNorm as the core writes it, square first, does not.)`,
    });
  }
  if (!inputAllZero && inputFinite && r.meanSquare === 0) {
    notes.push({
      id: 'underflow',
      title: 'Underflow in the squares',
      body: `The inputs are not zero but their squares are too small for ${r.dtype} and round to 0, so mean(x²) = 0 and r = √ε = ${fmt(r.r)}. ${eps > 0 ? 'The output is x / √ε: epsilon alone sets the scale.' : 'With ε = 0 that is x / 0 = ±Infinity.'}`,
    });
  }
  if (inputAllZero) {
    notes.push(
      eps > 0
        ? {
            id: 'zero-eps',
            title: 'The zero vector with ε > 0',
            body: `mean(x²) = 0, so r = √ε = ${fmt(r.r)} and the output is 0 / ${fmt(r.r)} = 0: no division by zero. This is what ε is for.`,
          }
        : {
            id: 'zero-nan',
            title: 'The zero vector with ε = 0: 0 / 0 = NaN',
            body: 'mean(x²) = 0 and ε = 0, so r = √0 = 0 and every output coordinate is 0 / 0, which is NaN (not a number). Any positive ε avoids it.',
          },
    );
  } else if (outNaN && !storedInf) {
    notes.push({ id: 'nan', title: 'NaN in the output', body: 'Some output coordinates are NaN: an undefined operation (0/0 or Infinity/Infinity) happened on the way.' });
  } else if (outInf && r.meanSquare !== 0) {
    notes.push({ id: 'inf', title: 'Infinity in the output', body: 'Some output coordinates are ±Infinity: a division by a result that rounded to 0.' });
  }
  return notes;
}

export function NumericsNote({ result, settings }: { result: LabResult; settings: LabSettings }) {
  const notes = notesFor(result, settings);
  if (notes.length === 0) return null;
  return (
    <section class="numerics-note" aria-label="what the floating-point arithmetic did" data-testid="numerics-note">
      {notes.map((n) => (
        <div key={n.id} class="numerics-note-item" data-note={n.id}>
          <h3>{n.title}</h3>
          <p>{n.body}</p>
        </div>
      ))}
    </section>
  );
}
