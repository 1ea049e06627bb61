// The glossary page (?view=lessons&glossary=<term>): every term with its plain
// name, what it means, its names in the code and in TransformerLens, and the
// lesson that introduces it. Opened from a lesson's [words](glossary:<id>) link,
// it keeps that lesson and step in the address and offers the way back.
import { useEffect } from 'preact/hooks';
import { LESSONS, lessonBySlug } from './index';
import { GLOSSARY, glossaryTerm } from './glossary';
import { LessonLink } from './LessonDone';
import { goTo, lessonRoute } from './route';
import './lessons.css';

const byName = [...GLOSSARY].sort((a, b) => a.term.localeCompare(b.term, 'en', { sensitivity: 'base' }));

export function GlossaryPage() {
  const { slug, step, glossary = '' } = lessonRoute.value;
  const from = slug === null ? null : lessonBySlug(slug);
  const unknown = glossary !== '' && glossaryTerm(glossary) === null;
  useEffect(() => {
    const el = glossary === '' ? null : document.getElementById(`term-${glossary}`);
    if (el) el.scrollIntoView({ block: 'start' });
    else scrollTo(0, 0);
  }, [glossary]);
  return (
    <section class="glossary" aria-labelledby="glossary-title" data-testid="glossary">
      <p class="glossary-back">
        {from !== null ? (
          <button type="button" onClick={() => goTo({ slug, step })} data-testid="glossary-back">
            ← Back to “{from.title}”, step {step + 1}
          </button>
        ) : (
          <button type="button" onClick={() => goTo({ slug: null, step: 0 })} data-testid="glossary-back">
            ← Back to the lesson path
          </button>
        )}
      </p>
      <h1 id="glossary-title">Glossary</h1>
      <p>
        Each word the lessons use, in plain words; the names the same thing has in GlassLLM’s code (the inspector and the console use them; {'{i}'} is a
        block’s number); its name in TransformerLens, a widely used library for looking inside models, where it has one; and the lesson that introduces it.
      </p>
      {unknown && (
        <p class="lesson-error" role="alert" data-testid="glossary-unknown">
          There is no term “{glossary}” in the glossary; here is the whole list.
        </p>
      )}
      <dl class="glossary-list">
        {byName.map((t) => {
          const lesson = LESSONS.findIndex((l) => l.slug === t.lesson);
          const intro = lesson < 0 ? null : LESSONS[lesson].lesson;
          return (
            <div key={t.id} id={`term-${t.id}`} class={`glossary-term${t.id === glossary ? ' is-on' : ''}`} data-testid={`term-${t.id}`}>
              <dt>{t.term}</dt>
              <dd>
                <p>{t.means}</p>
                {t.code.length > 0 && (
                  <p class="glossary-names">
                    In the code: {t.code.map((c, i) => <span key={c}>{i > 0 && ', '}<code>{c}</code></span>)}
                  </p>
                )}
                <p class="glossary-names">
                  In TransformerLens: {t.lens.length > 0 ? t.lens.map((c, i) => <span key={c}>{i > 0 && ', '}<code>{c}</code></span>) : 'no name of its own'}
                </p>
                {intro !== null && (
                  <p class="glossary-names">
                    Introduced in <LessonLink slug={t.lesson}>lesson {lesson + 1}, {intro.title}</LessonLink>
                  </p>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}
