// A box that scrolls sideways when its content (an equation, a diagram, a wide
// table) is wider than the screen, so the page itself never does. While it
// overflows it says so: a shadow on the side with more to see (ScrollBox.css),
// a small "scroll →" note, and it becomes a keyboard stop (arrow keys scroll
// it) with a name for screen readers.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import './ScrollBox.css';

interface Props {
  /** What the box holds, for screen readers ("Equation", "Block diagram"). */
  label: string;
  class?: string;
  children: ComponentChildren;
}

export function ScrollBox({ label, class: cls, children }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [wide, setWide] = useState(false);
  useEffect(() => {
    const el = box.current!;
    const measure = () => setWide(el.scrollWidth > el.clientWidth + 1);
    const watch = new ResizeObserver(measure);
    watch.observe(el);
    for (const child of el.children) watch.observe(child);
    measure();
    return () => watch.disconnect();
  }, []);
  return (
    <div class={`scroll-box${wide ? ' is-wide' : ''}${cls ? ` ${cls}` : ''}`}>
      <div
        ref={box}
        class="scroll-box-inner"
        tabIndex={wide ? 0 : undefined}
        role={wide ? 'group' : undefined}
        aria-label={wide ? `${label} (wider than the screen: scroll sideways)` : undefined}
      >
        {children}
      </div>
      {wide && (
        <p class="scroll-box-hint" aria-hidden="true">
          scroll →
        </p>
      )}
    </div>
  );
}
