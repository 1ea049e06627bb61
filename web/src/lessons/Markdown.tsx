// A small, safe Markdown renderer for lesson prose: it builds Preact elements
// (never HTML strings from content). Supported: paragraphs, ### headings, - and
// 1. lists, > notes, ``` code, `code`, **bold**, *italic*, [links](...) (https:
// in-app ?… addresses, or glossary:<term> for the glossary), $math$ and $$math$$ (KaTeX, trust off), and live
// values {{ expr | format }} computed by the core. Display math and code blocks
// scroll sideways in their own box on a narrow screen.
import katex from 'katex';
import 'katex/dist/katex.min.css';
import type { ComponentChildren, JSX } from 'preact';
import { ScrollBox } from '../app/ScrollBox';
import { formatValue } from './format';
import { LIVE_VALUE, splitLiveValue } from './parse';
import type { ValueOutcome } from '../protocol/base';
import { goTo, lessonRoute, openAddress } from './route';
import { writeLessonUrl } from './lessonUrl';
import { needsRun } from './runValues';

export type Values = Map<string, ValueOutcome> | null;

function Math_({ tex, display }: { tex: string; display: boolean }) {
  // KaTeX escapes its input; with trust: false it emits no links, styles or HTML from the source.
  const html = katex.renderToString(tex, { displayMode: display, throwOnError: false, trust: false, strict: 'ignore', output: 'htmlAndMathml' });
  if (!display) return <span class="md-math" dangerouslySetInnerHTML={{ __html: html }} />;
  return (
    <ScrollBox label="Equation">
      <div class="md-math-display" dangerouslySetInnerHTML={{ __html: html }} />
    </ScrollBox>
  );
}

function LiveValue({ inner, values }: { inner: string; values: Values }) {
  const { expr, format } = splitLiveValue(inner);
  const o = values?.get(expr);
  if (o === undefined) return <span class="md-live md-live-pending" title={expr}>…</span>;
  if (needsRun(o)) return <span class="md-live md-live-waiting">(after your run)</span>;
  if (!o.ok)
    return (
      <span class="md-live md-live-error" role="alert" title={expr}>
        [{o.error.message}]
      </span>
    );
  return (
    <span class="md-live num" title={`computed by the core: ${expr}`} data-expr={expr}>
      {formatValue(o.value, format)}
    </span>
  );
}

function Link({ href, children }: { href: string; children: ComponentChildren }) {
  if (href.startsWith('glossary:')) {
    // a glossary term ([words](glossary:<id>)): the glossary page, the lesson and step kept in the address to return to
    const term = href.slice('glossary:'.length);
    const here = lessonRoute.peek();
    const route = { slug: here.slug, step: here.step, glossary: term };
    return (
      <a
        href={writeLessonUrl(route, location.search)}
        class="md-glossary"
        data-glossary={term}
        onClick={(e) => {
          if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
          e.preventDefault();
          goTo(route);
        }}
      >
        {children}
      </a>
    );
  }
  if (href.startsWith('?')) {
    return (
      <a
        href={href}
        onClick={(e) => {
          if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
          e.preventDefault();
          openAddress(href);
        }}
      >
        {children}
      </a>
    );
  }
  if (/^https:\/\//.test(href))
    return (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  return <span class="md-bad-link">{children}</span>; // other schemes (javascript:, data:) are not links
}

const INLINE = /(`+)([\s\S]*?)\1|\$\$([\s\S]+?)\$\$|\$([^$\n]+?)\$|\{\{([\s\S]+?)\}\}|\*\*([\s\S]+?)\*\*|\*([^*\n]+?)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

export function inline(text: string, values: Values): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let at = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index! > at) out.push(text.slice(at, m.index));
    const [, , code, dmath, imath, live, bold, em, linkText, href] = m;
    if (code !== undefined) out.push(<code>{code}</code>);
    else if (dmath !== undefined) out.push(<Math_ tex={dmath} display={false} />);
    else if (imath !== undefined) out.push(<Math_ tex={imath} display={false} />);
    else if (live !== undefined) out.push(<LiveValue inner={live} values={values} />);
    else if (bold !== undefined) out.push(<strong>{inline(bold, values)}</strong>);
    else if (em !== undefined) out.push(<em>{inline(em, values)}</em>);
    else out.push(<Link href={href}>{inline(linkText, values)}</Link>);
    at = m.index! + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

export function Markdown({ text, values }: { text: string; values: Values }) {
  const lines = text.split('\n');
  const blocks: JSX.Element[] = [];
  let i = 0;
  const para: string[] = [];
  const flush = () => {
    if (para.length > 0) blocks.push(<p>{inline(para.join(' '), values)}</p>);
    para.length = 0;
  };
  while (i < lines.length) {
    const line = lines[i];
    const t = line.trim();
    if (t === '') {
      flush();
      i++;
    } else if (t.startsWith('$$')) {
      flush();
      const body: string[] = [t.slice(2)];
      if (!(t.length > 2 && t.endsWith('$$'))) {
        for (i++; i < lines.length && !lines[i].trim().endsWith('$$'); i++) body.push(lines[i]);
        body.push(lines[i]?.trim() ?? '');
      }
      blocks.push(<Math_ tex={body.join('\n').replace(/\$\$\s*$/, '')} display />);
      i++;
    } else if (t.startsWith('```')) {
      flush();
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
      blocks.push(
        <ScrollBox label="Code" class="md-pre-box">
          <pre class="md-pre">{body.join('\n')}</pre>
        </ScrollBox>,
      );
      i++;
    } else if (t.startsWith('### ')) {
      flush();
      blocks.push(<h3>{inline(t.slice(4), values)}</h3>);
      i++;
    } else if (/^(- |\d+\. )/.test(t)) {
      flush();
      const ordered = /^\d+\. /.test(t);
      const items: string[] = [];
      for (; i < lines.length && lines[i].trim() !== ''; i++) {
        const l = lines[i].trim();
        if (/^(- |\d+\. )/.test(l)) items.push(l.replace(/^(- |\d+\. )/, ''));
        else items[items.length - 1] += ' ' + l;
      }
      const lis = items.map((it) => <li>{inline(it, values)}</li>);
      blocks.push(ordered ? <ol>{lis}</ol> : <ul>{lis}</ul>);
    } else if (t.startsWith('> ')) {
      flush();
      const body: string[] = [];
      for (; i < lines.length && lines[i].trim().startsWith('>'); i++) body.push(lines[i].trim().replace(/^>\s?/, ''));
      blocks.push(<aside class="md-note">{inline(body.join(' '), values)}</aside>);
    } else {
      para.push(t);
      i++;
    }
  }
  flush();
  return <div class="md">{blocks}</div>;
}

export { LIVE_VALUE };
