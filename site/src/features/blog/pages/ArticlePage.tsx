import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { Page } from '../../../components/ui/Page';
import { ApiError } from '../../../lib/api';
import { getArticle, type Article } from '../api';
import { ArticleImage } from '../components/ArticleImage';
import { formatDate } from '../formatDate';
import { BLOG_NS } from '../i18n';
import { articleImageSrc } from '../image';
import { useFeedLink } from '../useFeedLink';
import '../blog.css';
import '../chroma.css';

type State = { kind: 'loading' } | { kind: 'ready'; article: Article } | { kind: 'notFound' } | { kind: 'error' };

/**
 * /blog/:id: the article as the server rendered it (content_html is sanitised on the server —
 * no raw HTML, no script URLs — and it is the only HTML this page inserts), with its date,
 * category and a way back to the list; unknown ids show a not-found state.
 */
export default function ArticlePage() {
  const { t, i18n } = useTranslation(BLOG_NS);
  const { id = '' } = useParams();
  const [state, setState] = useState<State>({ kind: 'loading' });
  // Opened from the list: go back to that page of it, with its search and category.
  const backTo = (useLocation().state as { backTo?: unknown } | null)?.backTo;
  const listUrl = typeof backTo === 'string' && backTo.startsWith('/blog') ? backTo : '/blog';
  useFeedLink(t('feedTitle'));

  useEffect(() => {
    const ctrl = new AbortController();
    setState({ kind: 'loading' });
    if (!/^[1-9]\d*$/.test(id)) {
      setState({ kind: 'notFound' });
      return;
    }
    getArticle(id, ctrl.signal)
      .then((article) => {
        if (!ctrl.signal.aborted) setState({ kind: 'ready', article });
      })
      .catch((err: unknown) => {
        if (ctrl.signal.aborted) return;
        setState(err instanceof ApiError && err.status === 404 ? { kind: 'notFound' } : { kind: 'error' });
      });
    return () => ctrl.abort();
  }, [id]);

  const back = (
    <Link to={listUrl} className="blog-article__back">
      ← {t('article.back')}
    </Link>
  );

  switch (state.kind) {
    case 'loading':
      return (
        <Page title={t('title')} className="blog-article">
          {back}
          <p role="status" className="blog__status">
            {t('article.loading')}
          </p>
        </Page>
      );
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

  const a = state.article;
  return (
    <Page title={a.name} className="blog-article">
      {back}
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
      {a.excerpt ? <p className="blog-article__excerpt">{a.excerpt}</p> : null}
      {articleImageSrc(a.image_url) ? <ArticleImage value={a.image_url} className="blog-article__image" alt={a.name} /> : null}
      <div className="blog-article__content" dangerouslySetInnerHTML={{ __html: a.content_html ?? '' }} />
    </Page>
  );
}
