import { StatusBadge } from './StatusBadge';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ArticleSummary } from '../api';
import { BLOG_NS } from '../i18n';
import { articleImageSrc } from '../image';
import { ArticleImage } from './ArticleImage';
import { formatDate } from '../formatDate';
import { articleLang, inLanguage, languageName } from '../language';

interface Props {
  article: ArticleSummary;
  /** The list's address, handed to the article page for its back link. */
  listUrl?: string;
  /** Shown only to admins. */
  onDelete?: (article: ArticleSummary) => void;
  /** Its published comments, once counted. */
  comments?: number;
}

/**
 * The words of a sentence before and after its `<name>…</name>` part ("about “<name></name>”"
 * gives "about “" and "”"), so the name can go between them in an element of its own. <Trans>
 * does the same by parsing the sentence as markup, once per card: a third of the list's first
 * render, a long task on a phone, for one hidden span.
 */
export function aroundName(sentence: string): [before: string, after: string] {
  const m = /^([\s\S]*?)<name>[\s\S]*?<\/name>([\s\S]*)$/.exec(sentence);
  return m ? [m[1], m[2]] : [sentence, ''];
}

export function ArticleCard({ article, listUrl, onDelete, comments }: Props) {
  const { t, i18n } = useTranslation(BLOG_NS);
  const href = `/blog/${article.id}`;
  const state = listUrl ? { backTo: listUrl } : undefined;
  // The title and excerpt are in the article's language (lang, for screen readers and
  // hyphenation); an article in another language than the interface's says which.
  const lang = articleLang(article);
  const foreign = !inLanguage(article, i18n.language);
  const [aboutBefore, aboutAfter] = aroundName(t('readMoreTitle', { name: '' }));
  return (
    // An article without a picture says so (data-image="none"): on a phone its card has no grey
    // placeholder block, known from the first render, so nothing moves later.
    <article className="blog-card" aria-labelledby={`blog-card-${article.id}`} data-image={articleImageSrc(article.image_url) ? undefined : 'none'}>
      <Link to={href} state={state} className="blog-card__media" tabIndex={-1} aria-hidden="true">
        <ArticleImage value={article.image_url} className="blog-card__image" />
      </Link>
      <div className="blog-card__body">
        <p className="blog-card__meta">
          <span className="blog-card__category">{article.category}</span>
          {foreign ? (
            <span className="blog-card__lang" data-lang={lang}>
              {t('otherLanguage', { name: languageName(t, lang) })}
            </span>
          ) : null}
          <time dateTime={article.createdAt}>{formatDate(article.createdAt, i18n.language)}</time>
          <StatusBadge article={article} />
          {comments ? <span className="blog-card__comments">{t('commentCount', { count: comments })}</span> : null}
        </p>
        <h2 className="blog-card__title" id={`blog-card-${article.id}`} lang={lang}>
          <Link to={href} state={state}>
            {article.name}
          </Link>
        </h2>
        <p className="blog-card__excerpt" lang={lang}>
          {article.excerpt}
        </p>
        <div className="blog-card__actions">
          {/* Visibly "Read more"; the link's text goes on with the article's name, so it says
              where it leads to screen readers, link lists and search engines. */}
          <Link to={href} state={state} className="blog-card__more">
            {t('readMore')}{' '}
            <span className="visually-hidden">
              {/* the name in its own language, the words around it in the interface's */}
              {aboutBefore}
              <span lang={lang}>{article.name}</span>
              {aboutAfter}
            </span>
          </Link>
          {onDelete ? (
            <button
              type="button"
              className="btn btn--ghost blog-card__delete"
              aria-label={t('deleteArticle', { name: article.name })}
              onClick={() => onDelete(article)}
            >
              {t('delete')}
            </button>
          ) : null}
        </div>
      </div>
    </article>
  );
}
