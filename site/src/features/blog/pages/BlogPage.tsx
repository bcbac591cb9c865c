import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { Page } from '../../../components/ui/Page';
import { Skeleton, SkeletonBox } from '../../../components/ui/Skeleton';
import { useAuth } from '../../../lib/auth';
import { toast } from '../../../lib/toast';
import { pageCount } from '../../../lib/pagination';
import { QueryState } from '../../../lib/QueryState';
import { useDebouncedValue } from '../../../lib/useDebouncedValue';
import { useReleaseServerRender } from '../../../lib/ssr';
import { PAGE_SIZE, SEARCH_DEBOUNCE_MS, useArticles, useCategories, useDeleteArticle, type ArticleSummary } from '../api';
import { ArticleCard } from '../components/ArticleCard';
import { useCommentCounts } from '../comments/api';
import { CreateArticleModal } from '../components/CreateArticleModal';
import { Pagination } from '../components/Pagination';
import { SubscribeBox } from '../newsletter/SubscribeBox';
import { BLOG_NS } from '../i18n';
import { FEED_URL, useFeedLink } from '../useFeedLink';
import '../blog.css';

/** A page number from the address, 1 when missing or not a positive whole number. */
function pageParam(v: string | null): number {
  return v && /^[1-9]\d{0,8}$/.test(v) ? Number(v) : 1;
}

/**
 * /blog: search with a 500 ms debounce, a category filter, article cards, the pager,
 * and for admins a create button (modal form) and a delete button per card (confirm dialog).
 * The search, category and page live in the address (?search=&category=&page=), so the browser's
 * back button and the article's back link return to the same list, and a list can be shared.
 */
export default function BlogPage() {
  const { t, i18n } = useTranslation(BLOG_NS);
  const { isAdmin } = useAuth();
  const [params, setParams] = useSearchParams();
  const urlSearch = params.get('search') ?? '';
  const category = params.get('category') || 'all';
  const page = pageParam(params.get('page'));
  // What the box shows; the address (and so the request) follows it 500 ms after the last keystroke.
  const [search, setSearch] = useState(urlSearch);
  const debouncedSearch = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);

  /** Changes the address's list parameters, replacing the history entry; a new search or category starts at page 1. */
  const updateParams = (change: { search?: string; category?: string; page?: number }) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        const put = (key: string, value: string, empty: string) => (value === empty ? next.delete(key) : next.set(key, value));
        if (change.search !== undefined) put('search', change.search, '');
        if (change.category !== undefined) put('category', change.category, 'all');
        if (change.search !== undefined || change.category !== undefined) next.delete('page');
        if (change.page !== undefined) put('page', String(change.page), '1');
        return next;
      },
      { replace: true },
    );

  useEffect(() => {
    if (debouncedSearch.trim() !== urlSearch.trim()) updateParams({ search: debouncedSearch.trim() });
    // only a settled search changes the address
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debouncedSearch]);
  useEffect(() => {
    // The address changed from outside (back/forward, a link): show its search in the box.
    setSearch((cur) => (cur.trim() === urlSearch.trim() ? cur : urlSearch));
  }, [urlSearch]);

  const toolbarRef = useRef<HTMLDivElement>(null);
  const setPage = (p: number) => {
    updateParams({ page: p });
    // The pager sits below the list: bring the top of the new page into view.
    const bar = toolbarRef.current;
    if (bar && bar.getBoundingClientRect().top < 0) bar.scrollIntoView?.({ block: 'start' });
  };
  const setCategory = (c: string) => updateParams({ category: c });
  useFeedLink(t('feedTitle'));

  // The interface language's articles come first; the others follow, marked with their language.
  const list = useArticles({ page, category, search: urlSearch.trim(), lang: i18n.language.split('-')[0] });
  const categories = useCategories().data ?? []; // without them the filter offers "all" only
  const del = useDeleteArticle();
  const commentCounts = useCommentCounts(list.data?.articles.map((a) => a.id) ?? []).data?.counts;
  const [creating, setCreating] = useState(false);
  const [toDelete, setToDelete] = useState<ArticleSummary | null>(null);

  const failedAt = list.isError ? list.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) toast.error(t('toast.loadError'));
    // t is stable for a language; only a new failure says so again
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [failedAt]);

  const loaded = list.isPlaceholderData ? undefined : list.data;
  useReleaseServerRender(Boolean(loaded) || list.isError);
  useEffect(() => {
    // After a delete the last page may be gone: go to the new last page.
    if (!loaded) return;
    const last = pageCount(loaded.totalCount, PAGE_SIZE);
    if (loaded.articles.length === 0 && page > last) updateParams({ page: last });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, page]);

  function confirmDelete() {
    if (!toDelete) return;
    del.mutate(toDelete.id, {
      onSuccess: () => toast.success(t('toast.deleted')),
      onError: () => toast.error(t('toast.deleteError')),
      onSettled: () => setToDelete(null),
    });
  }

  const pages = pageCount(list.data?.totalCount ?? 0, PAGE_SIZE);
  const query = params.toString();
  const listUrl = query ? `/blog?${query}` : '/blog';

  return (
    <Page title={t('title')} lead={t('lead')} className="blog">
      <div className="blog__toolbar" ref={toolbarRef}>
        <div className="blog__search">
          <label htmlFor="blog-search" className="blog__label">
            {t('searchLabel')}
          </label>
          <input
            id="blog-search"
            type="search"
            className="blog__input"
            placeholder={t('searchPlaceholder')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            autoComplete="off"
          />
        </div>
        <div className="blog__filter">
          <label htmlFor="blog-category" className="blog__label">
            {t('categoryLabel')}
          </label>
          <select id="blog-category" className="blog__input" value={category} onChange={(e) => setCategory(e.target.value)}>
            <option value="all">{t('allCategories')}</option>
            {categories.map((c) => (
              <option key={c.name} value={c.name}>
                {t('categoryOption', { name: c.name, count: c.count })}
              </option>
            ))}
            {category !== 'all' && !categories.some((c) => c.name === category) ? <option value={category}>{category}</option> : null}
          </select>
        </div>
        {isAdmin ? (
          <button type="button" className="btn btn--primary blog__create" onClick={() => setCreating(true)}>
            {t('create')}
          </button>
        ) : null}
      </div>

      <div className="blog__results" aria-busy={list.isFetching} aria-live="polite">
        <QueryState
          query={list}
          loading={t('loading')}
          placeholder={
            <Skeleton label={t('loading')} className="blog-skeleton-list">
              {Array.from({ length: 5 }, (_, i) => (
                <SkeletonBox key={i} className="blog-skeleton-list__card" />
              ))}
            </Skeleton>
          }
          error={t('toast.loadError')}
          empty={t('empty')}
          isEmpty={(l) => l.articles.length === 0}
          className="blog__status"
        >
          {(l) => (
            <>
              <div className="blog__meta">
                <p className="blog__count">{t('total', { count: l.totalCount })}</p>
                <a className="blog__feed" href={FEED_URL} type="application/atom+xml" title={t('feedTitle')}>
                  {t('feed')}
                </a>
              </div>
              <div className="blog__list">
                {l.articles.map((a) => (
                  <ArticleCard
                    key={a.id}
                    article={a}
                    listUrl={listUrl}
                    onDelete={isAdmin ? setToDelete : undefined}
                    comments={commentCounts?.[a.id]}
                  />
                ))}
              </div>
            </>
          )}
        </QueryState>
      </div>

      <Pagination page={page} pages={pages} onChange={setPage} />

      <SubscribeBox isAdmin={isAdmin} />

      {creating ? (
        <CreateArticleModal
          onClose={() => setCreating(false)}
          onCreated={() => {
            setCreating(false);
            updateParams({ page: 1 });
          }}
        />
      ) : null}
      {toDelete ? (
        <ConfirmDialog
          title={t('confirm.title')}
          text={t('confirm.text', { name: toDelete.name })}
          confirmLabel={t('confirm.confirm')}
          cancelLabel={t('confirm.cancel')}
          busy={del.isPending}
          onConfirm={confirmDelete}
          onCancel={() => setToDelete(null)}
        />
      ) : null}
    </Page>
  );
}
