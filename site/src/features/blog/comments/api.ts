// Comments under articles: the calls, the query keys (commentKeys) and the hooks. Every change
// refreshes the article's comments and the comment counts.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Schema } from '../../../lib/apiTypes';

export type Comment = Schema<'Comment'>;
export interface CommentList {
  comments: Comment[];
  closed: boolean;
}

export const commentKeys = {
  all: ['comments'] as const,
  list: (article: number) => [...commentKeys.all, 'list', article] as const,
  counts: (ids: readonly number[]) => [...commentKeys.all, 'counts', ids.join(',')] as const,
};

export const listComments = (article: number) => api.get<CommentList>(`/api/blog/${article}/comments`);
export const postComment = (article: number, content: string, parentId?: number) =>
  api.post<Comment>(`/api/blog/${article}/comments`, parentId ? { content, parentId } : { content });
export const editComment = (id: number, content: string) => api.patch<Comment>(`/api/comments/${id}`, { content });
export const deleteComment = (id: number) => api.delete<void>(`/api/comments/${id}`);
export const moderateComment = (id: number, action: 'approve' | 'hide') => api.post<Comment>(`/api/comments/${id}/${action}`);
export const setClosed = (article: number, closed: boolean) =>
  closed ? api.put<void>(`/api/blog/${article}/comments/closed`) : api.delete<void>(`/api/blog/${article}/comments/closed`);
export const commentCounts = (ids: readonly number[]) =>
  api.get<{ counts: Record<string, number> }>('/api/comments/counts', { query: { ids: ids.join(',') } });

export const useComments = (article: number) => useQuery({ queryKey: commentKeys.list(article), queryFn: () => listComments(article) });

/** Published comments per article of a list page (none asked for an empty page). */
export const useCommentCounts = (ids: readonly number[]) =>
  useQuery({ queryKey: commentKeys.counts(ids), queryFn: () => commentCounts(ids), enabled: ids.length > 0, staleTime: 60_000 });

/** A mutation that refreshes the comments when it settles. */
export function useCommentMutation<A, R>(fn: (arg: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: commentKeys.all }) });
}
