// The one moderation queue of comments and forum posts, and the admin's actions on it. Shared by
// the admin panel (profile) and the forum's moderation page.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import type { Schema } from '../../lib/apiTypes';

export type QueueItem = Schema<'QueueItem'>;

/** Under the account-scoped 'admin' root, so signing out drops it; a change also refreshes the
 *  forum's and the comments' reads. */
export const moderationKeys = { queue: ['admin', 'moderation', 'queue'] as const };

export const moderationQueue = () => api.get<{ items: QueueItem[] }>('/api/moderation/queue');

const base = (it: QueueItem) => (it.kind === 'comment' ? `/api/comments/${it.id}` : `/api/forum/posts/${it.id}`);
export const approveItem = (it: QueueItem) => api.post<unknown>(`${base(it)}/approve`);
export const deleteItem = (it: QueueItem) => api.delete<void>(base(it));
export const blockAuthor = (it: QueueItem) => api.put<void>(`/api/moderation/blocks/${it.author.id}`);

export const useModerationQueue = (enabled: boolean) =>
  useQuery({ queryKey: moderationKeys.queue, queryFn: moderationQueue, enabled });

export function useModerationAction(fn: (it: QueueItem) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: moderationKeys.queue }),
        qc.invalidateQueries({ queryKey: ['forum'] }),
        qc.invalidateQueries({ queryKey: ['comments'] }),
      ]),
  });
}
