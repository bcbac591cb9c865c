import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Page } from '../../../components/ui/Page';
import { useAuth } from '../../../lib/auth';
import { toast } from '../../../lib/toast';
import { deleteArticle, listArticles, listCategories, PAGE_SIZE, type ArticleList, type ArticleSummary, type Category } from '../api';
import { ArticleCard } from '../components/ArticleCard';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { CreateArticleModal } from '../components/CreateArticleModal';
import { Pagination } from '../components/Pagination';
import { BLOG_NS } from '../i18n';
import { pageCount } from '../pagination';
import { useDebouncedValue } from '../useDebouncedValue';
import { FEED_URL, useFeedLink } from '../useFeedLink';
import '../blog.css';

/** The page the reader chose, remembered together with the search and category it was for. */
interface PageChoice {
  page: number;
  search: string;
  category: string;
}

/**
 * /blog (spec §2): search with a 500 ms debounce, a category filter, article cards, the pager,
 * and for admins a create button (modal form) and a delete button per card (confirm dialog).
 */
export default function BlogPage() {
  const { t } = useTranslation(BLOG_NS);
  const { isAdmin } = useAuth();
  const [search, setSearch] = useState('');
  const debouncedSearch = useDebouncedValue(search);
  // The article page's category link arrives with the category to filter by.
  const initialCategory = (useLocation().state as { category?: unknown } | null)?.category;
  const startCategory = typeof initialCategory === 'string' && initialCategory ? initialCategory : 'all';
  const [category, setCategory] = useState(startCategory);
  const [choice, setChoice] = useState<PageChoice>({ page: 1, search: '', category: startCategory });
  // A new search or category starts at page 1 without an extra request for the old page.
  const page = choice.search === debouncedSearch && choice.category === category ? choice.page : 1;
  const toolbarRef = useRef<HTMLDivElement>(null);
  const setPage = (p: number) => {
    setChoice({ page: p, search: debouncedSearch, category });
    // The pager sits below the list: bring the top of the new page into view.
    const bar = toolbarRef.current;
    if (bar && bar.getBoundingClientRect().top < 0) bar.scrollIntoView?.({ block: 'start' });
  };
  useFeedLink(t('feedTitle'));

  const [list, setList] = useState<ArticleList | null>(null);
  const [loading, setLoading] = useState(true);
  const [categories, setCategories] = useState<Category[]>([]);
  const [version, setVersion] = useState(0);
  const [creating, setCreating] = useState(false);
  const [toDelete, setToDelete] = useState<ArticleSummary | null>(null);
  const [deleting, setDeleting] = useState(false);

  useEffect(() => {
    const ctrl = new AbortController();
    setLoading(true);
    listArticles({ page, category, search: debouncedSearch.trim() }, ctrl.signal)
      .then((res) => {
        if (ctrl.signal.aborted) return;
        const safe: ArticleList = {
          articles: Array.isArray(res?.articles) ? res.articles : [],
          totalCount: typeof res?.totalCount === 'number' ? res.totalCount : 0,
        };
        setList(safe);
        // After a delete the last page may be gone: go to the new last page.
        const pages = pageCount(safe.totalCount, PAGE_SIZE);
        if (safe.articles.length === 0 && page > pages) setChoice({ page: pages, search: debouncedSearch, category });
      })
      .catch((err: unknown) => {
        if (ctrl.signal.aborted || (err instanceof DOMException && err.name === 'AbortError')) return;
        toast.error(t('toast.loadError'));
      })
      .finally(() => {
        if (!ctrl.signal.aborted) setLoading(false);
      });
    return () => ctrl.abort();
    // t is stable for a language; a language change needs no new request
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [page, category, debouncedSearch, version]);

  useEffect(() => {
    const ctrl = new AbortController();
    listCategories(ctrl.signal)
      .then((cats) => {
        if (!ctrl.signal.aborted && Array.isArray(cats)) setCategories(cats);
      })
      .catch(() => undefined); // the filter then offers "all" only
    return () => ctrl.abort();
  }, [version]);

  async function confirmDelete() {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await deleteArticle(toDelete.id);
      toast.success(t('toast.deleted'));
      setVersion((v) => v + 1);
    } catch {
      toast.error(t('toast.deleteError'));
    } finally {
      setDeleting(false);
      setToDelete(null);
    }
  }

  const pages = pageCount(list?.totalCount ?? 0, PAGE_SIZE);
  const articles = list?.articles ?? [];

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

      <div className="blog__results" aria-busy={loading} aria-live="polite">
        {list === null && loading ? (
          <p role="status" className="blog__status">
            {t('loading')}
          </p>
        ) : articles.length === 0 ? (
          <p role="status" className="blog__status">
            {t('empty')}
          </p>
        ) : (
          <>
            <div className="blog__meta">
              <p className="blog__count">{t('total', { count: list?.totalCount ?? 0 })}</p>
              <a className="blog__feed" href={FEED_URL} type="application/atom+xml" title={t('feedTitle')}>
                {t('feed')}
              </a>
            </div>
            <div className="blog__list">
              {articles.map((a) => (
                <ArticleCard key={a.id} article={a} onDelete={isAdmin ? setToDelete : undefined} />
              ))}
            </div>
          </>
        )}
      </div>

      <Pagination page={page} pages={pages} onChange={setPage} />

      {creating ? (
        <CreateArticleModal
          onClose={() => setCreating(false)}
          onCreated={() => {
            setCreating(false);
            setChoice({ page: 1, search: debouncedSearch, category });
            setVersion((v) => v + 1);
          }}
        />
      ) : null}
      {toDelete ? (
        <ConfirmDialog name={toDelete.name} busy={deleting} onConfirm={confirmDelete} onCancel={() => setToDelete(null)} />
      ) : null}
    </Page>
  );
}
