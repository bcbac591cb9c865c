import { useEffect, useMemo, useRef, useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { BLOG_NS } from '../i18n';

type Part = { kind: 'html'; html: string } | { kind: 'code'; html: string; className: string; lang: string };

/** The language a highlighted block names (chroma's data-lang, or a language-* class), if any. */
function codeLanguage(pre: Element): string {
  const code = pre.querySelector('code');
  const named = code?.getAttribute('data-lang') ?? pre.getAttribute('data-lang');
  if (named) return named;
  const cls = [...(code?.classList ?? []), ...pre.classList].find((c) => c.startsWith('language-'));
  return cls ? cls.slice('language-'.length) : '';
}

/**
 * Splits the server's article HTML at its top-level <pre> blocks, so each one renders as a
 * CodeBlock; everything between stays the server's HTML as it came (already sanitised there).
 */
export function splitCodeBlocks(html: string): Part[] {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const parts: Part[] = [];
  let run = doc.createElement('div');
  const flush = () => {
    if (run.childNodes.length) parts.push({ kind: 'html', html: run.innerHTML });
    run = doc.createElement('div');
  };
  for (const node of [...doc.body.childNodes]) {
    if (node instanceof Element && node.nodeName === 'PRE') {
      flush();
      parts.push({ kind: 'code', html: node.innerHTML, className: node.getAttribute('class') ?? '', lang: codeLanguage(node) });
    } else {
      run.appendChild(node);
    }
  }
  flush();
  return parts;
}

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * One code block of an article: a keyboard-focusable scroll region named after its language
 * (long lines scroll sideways, never clipped) with a copy button whose result is announced.
 */
export function CodeBlock({ html, className, lang }: { html: string; className?: string; lang?: string }) {
  const { t } = useTranslation(BLOG_NS);
  const preRef = useRef<HTMLPreElement>(null);
  const [state, setState] = useState<CopyState>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const id = window.setTimeout(() => setState('idle'), 2000);
    return () => window.clearTimeout(id);
  }, [state]);

  async function copy() {
    const text = (preRef.current?.textContent ?? '').replace(/\n$/, '');
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  }

  return (
    <div className="code-block">
      <div className="code-block__bar">
        <span aria-hidden="true">{lang}</span>
        <button type="button" className="code-block__copy" onClick={() => void copy()}>
          {state === 'copied' ? t('code.copied') : t('code.copy')}
        </button>
        <span role="status" className="visually-hidden">
          {state === 'copied' ? t('code.copiedStatus') : state === 'failed' ? t('code.copyFailed') : ''}
        </span>
      </div>
      <pre
        ref={preRef}
        className={className || undefined}
        tabIndex={0}
        role="region"
        aria-label={lang ? t('code.labelLang', { lang }) : t('code.label')}
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </div>
  );
}

/**
 * An article's rendered Markdown (content_html from the server, the only HTML the blog inserts)
 * with its code blocks as CodeBlocks. Code nested deeper (in a list or a quote) stays as it came
 * but is still made a focusable, named scroll region; task-list checkboxes are named by their item.
 */
export function ArticleContent({ html, ...rest }: { html: string } & Omit<HTMLAttributes<HTMLDivElement>, 'children'>) {
  const { t } = useTranslation(BLOG_NS);
  const parts = useMemo(() => splitCodeBlocks(html), [html]);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    for (const pre of ref.current?.querySelectorAll('pre:not([role="region"])') ?? []) {
      const lang = codeLanguage(pre);
      pre.setAttribute('tabindex', '0');
      pre.setAttribute('role', 'region');
      pre.setAttribute('aria-label', lang ? t('code.labelLang', { lang }) : t('code.label'));
    }
    // a GFM task list's checkboxes come without a label: the item's text is their name
    for (const box of ref.current?.querySelectorAll<HTMLInputElement>('li input[type="checkbox"]:not([aria-label])') ?? []) {
      const text = (box.closest('p') ?? box.closest('li'))?.textContent?.trim();
      if (text) box.setAttribute('aria-label', text);
    }
  }, [parts, t]);

  return (
    <div {...rest} ref={ref} className={['blog-article__content', rest.className].filter(Boolean).join(' ')}>
      {parts.map((p, i) =>
        p.kind === 'code' ? (
          <CodeBlock key={i} html={p.html} className={p.className} lang={p.lang} />
        ) : (
          <div key={i} className="blog-article__html" dangerouslySetInnerHTML={{ __html: p.html }} />
        ),
      )}
    </div>
  );
}
