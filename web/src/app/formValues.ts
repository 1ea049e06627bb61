// Form controls get their value as the string they hold. A number given as
// `value` (a select's position, a slider's step) never equals the control's own
// value, which is a string, so Preact set it again on every render, and Chromium
// answers a value set from script with a form-tracking task (autofill's) that
// lays out the whole page, the inspector's off-screen cards included: each
// inspector slider step set three values this way (fifteen with the lens open),
// and after each step came a layout of about 1,900 objects
// (tests/e2e/quiet-steps.spec.ts; docs/threads.md).
import { options } from 'preact';

const CONTROLS = new Set(['input', 'select', 'textarea', 'option']);

/** From now on, every element created with a numeric `value` on a form control gets it as a string. */
export function installFormValueStrings() {
  const next = options.vnode;
  options.vnode = (vnode) => {
    const props = vnode.props as { value?: unknown };
    if (typeof vnode.type === 'string' && CONTROLS.has(vnode.type) && typeof props.value === 'number') props.value = String(props.value);
    next?.(vnode);
  };
}
