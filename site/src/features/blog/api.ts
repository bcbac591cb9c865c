// The blog's API: one call per function through the shared client, on the canonical /api/blog
// paths (the spec's /api/api/blog ones are aliases the server keeps for other clients), and the
// TanStack Query keys and hooks the pages use. A created or deleted article invalidates every
// blog read, so the list, its count and the categories follow.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import type { components, paths, Schema } from '../../lib/apiTypes';

/** Articles per page. */
export const PAGE_SIZE = 5;
/** The search waits this long after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 500;

export interface ArticleSummary {
  id: number;
  slug: string;
  name: string;
  excerpt: string;
  category: string;
  image_url: string;
  /** The article's language (BCP 47, e.g. "uk"); older answers may lack it. */
  lang?: string;
  /** Shared by the articles that are translations of each other; "" when none. */
  translationKey?: string;
  createdAt: string;
  updatedAt: string;
  /** draft and scheduled articles reach admins only; older answers may lack it. */
  status?: ArticleStatus;
  publishAt?: string | null;
  version?: number;
  /** Whether the article is mailed to the newsletter's subscribers when it goes public. */
  newsletter?: boolean;
}

/** Another language version of an article. */
export interface ArticleTranslation {
  id: number;
  slug: string;
  name: string;
  lang: string;
}

export interface Article extends ArticleSummary {
  /** Markdown source. */
  content: string;
  /** The server's rendering of `content`: no raw HTML, no script-bearing URLs. */
  content_html: string;
  /** The article's other language versions. */
  translations?: ArticleTranslation[];
}

export interface ArticleList {
  articles: ArticleSummary[];
  totalCount: number;
}

export interface Category {
  name: string;
  count: number;
}

export interface ListQuery {
  page: number;
  limit?: number;
  category?: string;
  search?: string;
  /** The reader's language: the server lists its articles first. */
  lang?: string;
}

export interface NewArticle {
  name: string;
  excerpt: string;
  content: string;
  category: string;
  image_url?: string;
  lang?: string;
  translationKey?: string;
}

export async function listArticles(q: ListQuery, signal?: AbortSignal): Promise<ArticleList> {
  const res = await api.get<Partial<ArticleList> | null>('/api/blog', {
    query: { limit: q.limit ?? PAGE_SIZE, page: q.page, category: q.category || 'all', search: q.search ?? '', lang: q.lang ?? '' },
    signal,
  });
  return {
    articles: Array.isArray(res?.articles) ? res.articles : [],
    totalCount: typeof res?.totalCount === 'number' ? res.totalCount : 0,
  };
}

export function getArticle(id: string, signal?: AbortSignal): Promise<Article> {
  return api.get<Article>(`/api/blog/${encodeURIComponent(id)}`, { signal });
}

export function listCategories(signal?: AbortSignal): Promise<Category[]> {
  return api.get<Category[]>('/api/blog/categories', { signal });
}

export function createArticle(input: NewArticle): Promise<Article> {
  return api.post<Article>('/api/blog', input);
}

export function deleteArticle(id: number): Promise<void> {
  return api.delete<void>(`/api/blog/${id}`);
}

// --- writing (admins) ---------------------------------------------------------------------

export type ArticleStatus = Schema<'Article'>['status'];
export type SavedArticle = Schema<'Article'>;
export type ArticleRevision = Schema<'ArticleRevision'>;
/** The edit body: the create fields plus status, publishAt and the version the edit is based on. */
export type ArticleEdit = components['requestBodies']['ArticleBody']['content']['application/json'];
export type UploadedImage = paths['/api/blog/images']['post']['responses']['201']['content']['application/json'];

export function saveNewArticle(input: ArticleEdit): Promise<SavedArticle> {
  return api.post<SavedArticle>('/api/blog', input);
}

export function editArticle(id: number, input: ArticleEdit): Promise<SavedArticle> {
  return api.patch<SavedArticle>(`/api/blog/${id}`, input);
}

export async function previewMarkdown(content: string, signal?: AbortSignal): Promise<string> {
  const res = await api.post<{ html: string }>('/api/blog/preview', { content }, { signal });
  return res.html;
}

export async function listRevisions(id: number, signal?: AbortSignal): Promise<ArticleRevision[]> {
  const res = await api.get<{ revisions: ArticleRevision[] }>(`/api/blog/${id}/revisions`, { signal });
  return res.revisions;
}

export function restoreRevision(id: number, rev: number, version: number): Promise<SavedArticle> {
  return api.post<SavedArticle>(`/api/blog/${id}/revisions/${rev}/restore`, { version });
}

/** Uploads an image's bytes as they are (the server checks the type and size). */
export function uploadArticleImage(file: Blob, name: string): Promise<UploadedImage> {
  return api.post<UploadedImage>('/api/blog/images', file, {
    query: { name },
    headers: { 'Content-Type': file.type || 'application/octet-stream' },
  });
}

export const blogKeys = {
  all: ['blog'] as const,
  list: (q: Required<Pick<ListQuery, 'page' | 'category' | 'search' | 'lang'>>) => ['blog', 'list', q] as const,
  article: (id: string) => ['blog', 'article', id] as const,
  categories: ['blog', 'categories'] as const,
  revisions: (id: number) => ['blog', 'revisions', id] as const,
  preview: (content: string) => ['blog', 'preview', content] as const,
};

/**
 * A page of the list in the reader's language first (lang); the previous page stays on screen
 * while the next one loads.
 */
export function useArticles(q: { page: number; category: string; search: string; lang: string }) {
  return useQuery({
    queryKey: blogKeys.list(q),
    queryFn: ({ signal }) => listArticles(q, signal),
    placeholderData: keepPreviousData,
  });
}

/** One article's query (useArticle, and the start-up prefetch in app/routes.tsx); ids that cannot exist are never asked for. */
export const articleQuery = (id: string) =>
  queryOptions({
    queryKey: blogKeys.article(id),
    queryFn: ({ signal }) => getArticle(id, signal),
    enabled: /^[1-9]\d*$/.test(id),
  });

/** One article. */
export function useArticle(id: string) {
  return useQuery(articleQuery(id));
}

export function useCategories() {
  return useQuery({
    queryKey: blogKeys.categories,
    queryFn: async ({ signal }) => {
      const cats = await listCategories(signal);
      return Array.isArray(cats) ? cats : [];
    },
  });
}

export function useCreateArticle() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createArticle,
    onSuccess: () => qc.invalidateQueries({ queryKey: blogKeys.all }),
  });
}

export function useDeleteArticle() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteArticle,
    onSuccess: (_, id) => {
      qc.removeQueries({ queryKey: blogKeys.article(String(id)) });
      return qc.invalidateQueries({ queryKey: blogKeys.all });
    },
  });
}
