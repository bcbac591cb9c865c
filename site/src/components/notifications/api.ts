// The signed-in user's notifications: API calls, query keys and the live updates of the unread
// count. Shared by the header's bell and the profile's list.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import type { Schema } from '../../lib/apiTypes';
import { useAuth } from '../../lib/auth';
import { useEvent } from '../../lib/events';

export type Notification = Schema<'Notification'>;
export type NotificationPage = Schema<'NotificationPage'>;
export type NotificationSettings = Schema<'NotificationSettings'>;
export type NotificationKind = Schema<'NotificationKind'>;

export const NOTIFICATION_KINDS: NotificationKind[] = [
  'friend.request',
  'friend.accepted',
  'dm.message',
  'mention',
  'forum.reply',
  'comment.reply',
  'comment.new',
];

export const notificationKeys = {
  all: ['notifications'] as const,
  unread: () => [...notificationKeys.all, 'unread'] as const,
  list: () => [...notificationKeys.all, 'list'] as const,
  settings: () => [...notificationKeys.all, 'settings'] as const,
};

export function fetchNotifications(before: number | undefined, signal?: AbortSignal): Promise<NotificationPage> {
  return api.get<NotificationPage>('/api/notifications', { query: { before, limit: 30 }, signal });
}

export function markRead(body: { ids: number[] } | { all: true }): Promise<{ unread: number }> {
  return api.post<{ unread: number }>('/api/notifications/read', body);
}

export function fetchSettings(signal?: AbortSignal): Promise<NotificationSettings> {
  return api.get<NotificationSettings>('/api/notifications/settings', { signal });
}

export function saveSettings(change: NotificationSettings): Promise<NotificationSettings> {
  return api.patch<NotificationSettings>('/api/notifications/settings', change);
}

/**
 * The signed-in user's unread count, kept live: a new notification or one read in another tab
 * comes over the event stream with the new count, and the list is reloaded with it.
 */
export function useUnreadCount(): number {
  const { user } = useAuth();
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: notificationKeys.unread(),
    queryFn: ({ signal }) => api.get<NotificationPage>('/api/notifications', { query: { limit: 1 }, signal }).then((p) => p.unread),
    enabled: user !== null,
  });
  const follow = (data: unknown) => {
    const unread = (data as { unread?: number } | null)?.unread;
    if (typeof unread === 'number') qc.setQueryData(notificationKeys.unread(), unread);
    void qc.invalidateQueries({ queryKey: notificationKeys.list() });
  };
  useEvent('notification', follow);
  useEvent('notification.read', follow);
  useEvent('resync', () => void qc.invalidateQueries({ queryKey: notificationKeys.all }));
  return user ? (q.data ?? 0) : 0;
}
