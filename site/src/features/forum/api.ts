// The forum's API: one call per function through the shared client, the query keys (forumKeys)
// and the hooks its pages use. Types come from the contract. A change to a thread or a post
// invalidates the forum's reads, so lists, counts and the moderation queue follow.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import type { Schema } from '../../lib/apiTypes';

export type Category = Schema<'ForumCategory'>;
export type Thread = Schema<'ForumThread'>;
export type Post = Schema<'ForumPost'>;
export type ThreadList = Schema<'ThreadList'>;
export type ThreadView = Schema<'ThreadView'>;
export type Sort = 'newest' | 'active';

/** Threads and posts per page. */
export const PAGE_SIZE = 20;

export const forumKeys = {
  all: ['forum'] as const,
  categories: () => [...forumKeys.all, 'categories'] as const,
  threads: (category: string, sort: Sort, page: number) => [...forumKeys.all, 'threads', category, sort, page] as const,
  search: (q: string, page: number) => [...forumKeys.all, 'search', q, page] as const,
  thread: (id: string, page: number) => [...forumKeys.all, 'thread', id, page] as const,
};

export const listCategories = () => api.get<Category[]>('/api/forum/categories');
export const listThreads = (category: string, sort: Sort, page: number) =>
  api.get<ThreadList>(`/api/forum/categories/${category}/threads`, { query: { sort, page, limit: PAGE_SIZE } });
export const searchThreads = (q: string, page: number) =>
  api.get<ThreadList>('/api/forum/search', { query: { q, page, limit: PAGE_SIZE } });
export const getThread = (id: string, page: number) =>
  api.get<ThreadView>(`/api/forum/threads/${id}`, { query: { page, limit: PAGE_SIZE } });
export const addCategory = (body: { name: string; description?: string; names?: Record<string, string> }) =>
  api.post<Category>('/api/forum/categories', body);
export const deleteCategory = (id: number) => api.delete<void>(`/api/forum/categories/${id}`);
export const startThread = (category: string, body: { title: string; content: string }) =>
  api.post<ThreadView>(`/api/forum/categories/${category}/threads`, body);
export const reply = (thread: string, content: string) => api.post<Post>(`/api/forum/threads/${thread}/posts`, { content });
export const editPost = (id: number, content: string) => api.patch<Post>(`/api/forum/posts/${id}`, { content });
export const deletePost = (id: number) => api.delete<void>(`/api/forum/posts/${id}`);
export const moderatePost = (id: number, action: 'approve' | 'hide') => api.post<Post>(`/api/forum/posts/${id}/${action}`);
export const setFlags = (id: number, flags: { pinned?: boolean; locked?: boolean }) =>
  api.patch<Thread>(`/api/forum/threads/${id}`, flags);
export const deleteThread = (id: number) => api.delete<void>(`/api/forum/threads/${id}`);
export const follow = (id: number, on: boolean) =>
  on ? api.put<void>(`/api/forum/threads/${id}/follow`) : api.delete<void>(`/api/forum/threads/${id}/follow`);

export const useCategories = () => useQuery({ queryKey: forumKeys.categories(), queryFn: listCategories });

export const useThreads = (category: string, sort: Sort, page: number) =>
  useQuery({
    queryKey: forumKeys.threads(category, sort, page),
    queryFn: () => listThreads(category, sort, page),
    placeholderData: keepPreviousData,
  });

export const useSearch = (q: string, page: number) =>
  useQuery({ queryKey: forumKeys.search(q, page), queryFn: () => searchThreads(q, page), enabled: q.trim() !== '' });

export const useThread = (id: string, page: number) =>
  useQuery({ queryKey: forumKeys.thread(id, page), queryFn: () => getThread(id, page), placeholderData: keepPreviousData });

/** A mutation that refreshes every forum read (and the moderation queue) when it settles. */
export function useForumMutation<A, R>(fn: (arg: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: forumKeys.all }),
        qc.invalidateQueries({ queryKey: ['admin', 'moderation'] }),
      ]);
    },
  });
}
