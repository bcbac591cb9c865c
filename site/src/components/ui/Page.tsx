import type { ReactNode } from 'react';
import { usePageTitle } from '../../lib/usePageTitle';
import './ui.css';

interface PageProps {
  title: string;
  /** Sets document.title (default: the page title). */
  documentTitle?: string;
  lead?: ReactNode;
  children?: ReactNode;
  className?: string;
  /** The title's and the lead's language when it is not the interface's (an article's name, a page
   *  shown in a language of its own). */
  titleLang?: string;
}

/** The frame of a page: its heading, an optional lead line and its content. */
export function Page({ title, documentTitle, lead, children, className, titleLang }: PageProps) {
  usePageTitle(documentTitle ?? title);
  return (
    <section className={['page', className].filter(Boolean).join(' ')} aria-labelledby="page-title">
      <header className="page__header">
        <h1 id="page-title" className="page__title" lang={titleLang}>
          {title}
        </h1>
        {lead ? (
          <p className="page__lead" lang={titleLang}>
            {lead}
          </p>
        ) : null}
      </header>
      {children}
    </section>
  );
}
