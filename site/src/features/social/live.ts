// Live updates of friends and messages: the server's events (friend.request, dm.message, dm.read,
// dm.deleted) applied to the cached lists, so every open tab of both users shows a message, its
// read marker and its deletion as they happen.
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useAuth } from '../../lib/auth';
import { useEvent } from '../../lib/events';
import { addMessageToCache, removeMessageFromCache, socialKeys, type DirectMessage, type DMReadEvent } from './api';

/** The event types this feature follows. */
export const SOCIAL_EVENTS = ['friend.request', 'dm.message', 'dm.read', 'dm.deleted'] as const;
export type SocialEvent = (typeof SOCIAL_EVENTS)[number];

/** The conversation partner of a message, as the account me sees it (0: the contact form's). */
export function peerOf(m: DirectMessage, me: number): number {
  return m.authorId === me ? m.recipientId : m.authorId;
}

/** Applies one live event to the query cache of the signed-in account me. */
export function applySocialEvent(qc: QueryClient, me: number, type: SocialEvent, data: unknown): void {
  switch (type) {
    case 'friend.request':
      void qc.invalidateQueries({ queryKey: socialKeys.friends });
      return;
    case 'dm.message': {
      const m = data as DirectMessage;
      addMessageToCache(qc, peerOf(m, me), m);
      void qc.invalidateQueries({ queryKey: socialKeys.conversations });
      return;
    }
    case 'dm.deleted': {
      const m = data as DirectMessage;
      removeMessageFromCache(qc, peerOf(m, me), m.id);
      void qc.invalidateQueries({ queryKey: socialKeys.conversations });
      return;
    }
    case 'dm.read': {
      const r = data as DMReadEvent;
      const peer = r.readerId === me ? r.peerId : r.readerId;
      void qc.invalidateQueries({ queryKey: socialKeys.conversation(peer) });
      void qc.invalidateQueries({ queryKey: socialKeys.conversations });
    }
  }
}

/**
 * Keeps the account's friends and conversations current while a section is open: the tab's event
 * stream delivers each change as it happens, and a resync (events missed while away) reloads them.
 */
export function useSocialLive(): void {
  const qc = useQueryClient();
  const me = useAuth().user?.id ?? -1;
  useEvent('friend.request', (data) => applySocialEvent(qc, me, 'friend.request', data));
  useEvent('dm.message', (data) => applySocialEvent(qc, me, 'dm.message', data));
  useEvent('dm.read', (data) => applySocialEvent(qc, me, 'dm.read', data));
  useEvent('dm.deleted', (data) => applySocialEvent(qc, me, 'dm.deleted', data));
  useEvent('resync', () => void qc.invalidateQueries({ queryKey: socialKeys.all }));
}
