// The blog's API calls, one per function, through the shared client. The list, create and delete
// calls use the spec's /api/api/blog paths (served as aliases of /api/blog).
import { api } from '../../lib/api';

export const PAGE_SIZE = 5;

export interface ArticleSummary {
  id: number;
  slug: string;
  name: string;
  excerpt: string;
  category: string;
  image_url: string;
  createdAt: string;
  updatedAt: string;
}

export interface Article extends ArticleSummary {
  /** Markdown source. */
  content: string;
  /** The server's rendering of `content`: no raw HTML, no script-bearing URLs. */
  content_html: string;
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
}

export interface NewArticle {
  name: string;
  excerpt: string;
  content: string;
  category: string;
  image_url?: string;
}

export function listArticles(q: ListQuery, signal?: AbortSignal): Promise<ArticleList> {
  return api.get<ArticleList>('/api/api/blog', {
    query: { limit: q.limit ?? PAGE_SIZE, page: q.page, category: q.category || 'all', search: q.search ?? '' },
    signal,
  });
}

export function getArticle(id: string, signal?: AbortSignal): Promise<Article> {
  return api.get<Article>(`/api/blog/${encodeURIComponent(id)}`, { signal });
}

export function listCategories(signal?: AbortSignal): Promise<Category[]> {
  return api.get<Category[]>('/api/blog/categories', { signal });
}

export function createArticle(input: NewArticle): Promise<Article> {
  return api.post<Article>('/api/api/blog', input);
}

export function deleteArticle(id: number): Promise<void> {
  return api.delete<void>(`/api/api/blog/${id}`);
}
