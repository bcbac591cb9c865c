// Comments under articles: the calls, the query keys (commentKeys) and the hooks. Every change
// refreshes the article's comments and the comment counts.
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { ResponseOf, Schema } from '../../../lib/apiTypes';

export type Comment = Schema<'Comment'>;
/** One page of an article's comments: threads (top-level comments with their replies), oldest first. */
export type CommentPage = ResponseOf<'/api/blog/{id}/comments', 'get'>;

/** Threads per page: the newest ones first, older ones on request. */
export const COMMENT_THREADS_PER_PAGE = 20;

export const commentKeys = {
  all: ['comments'] as const,
  list: (article: number) => [...commentKeys.all, 'list', article] as const,
  counts: (ids: readonly number[]) => [...commentKeys.all, 'counts', ids.join(',')] as const,
};

/** The page of threads before the top-level comment `before` (the newest ones without it). */
export const listComments = (article: number, before?: number) =>
  api.get<CommentPage>(`/api/blog/${article}/comments`, { query: { limit: COMMENT_THREADS_PER_PAGE, before } });
export const postComment = (article: number, content: string, parentId?: number) =>
  api.post<Comment>(`/api/blog/${article}/comments`, parentId ? { content, parentId } : { content });
export const editComment = (id: number, content: string) => api.patch<Comment>(`/api/comments/${id}`, { content });
export const deleteComment = (id: number) => api.delete<void>(`/api/comments/${id}`);
export const moderateComment = (id: number, action: 'approve' | 'hide') => api.post<Comment>(`/api/comments/${id}/${action}`);
export const setClosed = (article: number, closed: boolean) =>
  closed ? api.put<void>(`/api/blog/${article}/comments/closed`) : api.delete<void>(`/api/blog/${article}/comments/closed`);
export const commentCounts = (ids: readonly number[]) =>
  api.get<{ counts: Record<string, number> }>('/api/comments/counts', { query: { ids: ids.join(',') } });

/**
 * An article's comments, the newest page of threads first; fetchNextPage reads the older ones.
 * The article's route asks for the first page at start-up with these options (prefetchInfiniteQuery).
 */
export const commentsQuery = (article: number) =>
  infiniteQueryOptions({
    queryKey: commentKeys.list(article),
    queryFn: ({ pageParam }) => listComments(article, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });

export const useComments = (article: number) => useInfiniteQuery(commentsQuery(article));

/** Published comments per article of a list page (none asked for an empty page). */
export const useCommentCounts = (ids: readonly number[]) =>
  useQuery({ queryKey: commentKeys.counts(ids), queryFn: () => commentCounts(ids), enabled: ids.length > 0, staleTime: 60_000 });

/** A mutation that refreshes the comments when it settles. */
export function useCommentMutation<A, R>(fn: (arg: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: commentKeys.all }) });
}
