import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { Page } from '../../../components/ui/Page';
import { Skeleton, SkeletonBox } from '../../../components/ui/Skeleton';
import { usePageTitle } from '../../../lib/usePageTitle';
import { usePageDescription } from '../../../lib/pageDescription';
import { ApiError } from '../../../lib/api';
import { useArticle } from '../api';
import { ArticleContent } from '../components/ArticleContent';
import { ArticleImage } from '../components/ArticleImage';
import { CommentThread } from '../comments/CommentThread';
import { formatDate } from '../formatDate';
import { BLOG_NS } from '../i18n';
import { articleImageSrc } from '../image';
import { articleLang, autonym } from '../language';
import { useFeedLink } from '../useFeedLink';
import { useAuth } from '../../../lib/auth';
import { useReleaseServerRender } from '../../../lib/ssr';
import { StatusBadge } from '../components/StatusBadge';
import '../blog.css';
import '../chroma.css';

/**
 * /blog/:id: the article as the server rendered it (content_html is sanitised on the server —
 * no raw HTML, no script URLs — and it is the only HTML this page inserts), with its date,
 * category and a way back to the list; unknown ids show a not-found state.
 */
export default function ArticlePage() {
  const { t, i18n } = useTranslation(BLOG_NS);
  const { id = '' } = useParams();
  const query = useArticle(id);
  // Opened from the list: go back to that page of it, with its search and category.
  const backTo = (useLocation().state as { backTo?: unknown } | null)?.backTo;
  const listUrl = typeof backTo === 'string' && backTo.startsWith('/blog') ? backTo : '/blog';
  useFeedLink(t('feedTitle'));
  // shared links and search results show the article's summary, as the server's HTML does
  usePageDescription(query.data?.excerpt);

  const notFound = !/^[1-9]\d*$/.test(id) || (query.error instanceof ApiError && query.error.status === 404);
  const kind = notFound ? 'notFound' : query.data ? 'ready' : query.isError ? 'error' : 'loading';
  useReleaseServerRender(kind !== 'loading');
  const { isAdmin } = useAuth();

  const back = (
    <Link to={listUrl} className="blog-article__back">
      ← {t('article.back')}
    </Link>
  );

  switch (kind) {
    case 'loading':
      return <ArticleSkeleton label={t('article.loading')} documentTitle={t('title')} />;
    case 'notFound':
      return (
        <Page title={t('article.notFoundTitle')} className="blog-article blog-article--missing">
          <p>{t('article.notFoundText')}</p>
          {back}
        </Page>
      );
    case 'error':
      return (
        <Page title={t('title')} className="blog-article">
          <p role="alert">{t('article.loadError')}</p>
          {back}
        </Page>
      );
  }

  const a = query.data!;
  // The article's own language on its text (the interface's stays on the page around it).
  const lang = articleLang(a);
  const translations = a.translations ?? [];
  return (
    <Page title={a.name} className="blog-article" titleLang={lang}>
      {back}
      {isAdmin ? (
        <p className="blog-article__admin">
          <StatusBadge article={a} />{' '}
          <Link to={`/blog/${a.id}/edit`} className="btn btn--ghost">
            {t('editor.edit')}
          </Link>
        </p>
      ) : null}
      {translations.length > 0 ? (
        <nav className="blog-article__translations" aria-label={t('article.translations')}>
          <span>{t('article.translations')}:</span>
          <ul>
            {translations.map((tr) => (
              <li key={tr.id}>
                <Link to={`/blog/${tr.id}`} state={{ backTo: listUrl }} lang={tr.lang} hrefLang={tr.lang} title={tr.name}>
                  {autonym(tr.lang)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <p className="blog-article__meta">
        <span>
          {t('article.published')}: <time dateTime={a.createdAt}>{formatDate(a.createdAt, i18n.language)}</time>
        </span>
        <span>
          {t('article.category')}:{' '}
          <Link to={`/blog?${new URLSearchParams({ category: a.category })}`} className="blog-article__category">
            {a.category}
          </Link>
        </span>
      </p>
      {a.excerpt ? (
        <p className="blog-article__excerpt" lang={lang}>
          {a.excerpt}
        </p>
      ) : null}
      {articleImageSrc(a.image_url) ? <ArticleImage value={a.image_url} className="blog-article__image" alt={a.name} /> : null}
      <ArticleContent html={a.content_html ?? ''} lang={lang} />
      <CommentThread articleId={a.id} />
    </Page>
  );
}

/**
 * The article's place while it loads: grey shapes where the title, the meta line, the picture and
 * the text will be, a screen tall. Its elements are not the article's (a different component),
 * so none of them is moved by the arriving title's height: the article replaces them whole.
 */
function ArticleSkeleton({ label, documentTitle }: { label: string; documentTitle: string }) {
  usePageTitle(documentTitle);
  return (
    <div className="page blog-article">
      <Skeleton label={label} className="blog-skeleton-article">
        <SkeletonBox className="blog-skeleton-article__title" />
        <SkeletonBox className="blog-skeleton-article__line" />
        <SkeletonBox className="blog-skeleton-article__image" />
        <SkeletonBox className="blog-skeleton-article__text" />
      </Skeleton>
    </div>
  );
}
