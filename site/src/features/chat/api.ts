// The chat room's API calls and query keys. The live part (new messages, deletions, presence)
// comes over the tab's event stream (lib/events); the queries here hold what it updates.
import { api } from '../../lib/api';
import type { Schema } from '../../lib/apiTypes';

export type RoomMessage = Schema<'ChatMessage'>;
export type ChatPage = Schema<'ChatPage'>;
export type ChatAuthor = Schema<'ChatAuthor'>;
export type PresenceEvent = Schema<'EventPresence'>;

export const chatKeys = {
  all: ['chat'] as const,
  messages: () => [...chatKeys.all, 'messages'] as const,
  online: () => [...chatKeys.all, 'online'] as const,
};

/** A page of history older than before (undefined: the newest), oldest first. */
export function fetchMessages(before: number | undefined, signal?: AbortSignal): Promise<ChatPage> {
  return api.get<ChatPage>('/api/chat/messages', { query: { before, limit: 50 }, signal });
}

/** Posts text; undefined when the server ignored it (empty). */
export function postMessage(text: string): Promise<RoomMessage | undefined> {
  return api.post<RoomMessage | undefined>('/api/chat/messages', { text });
}

export function deleteMessage(id: number): Promise<void> {
  return api.delete<void>(`/api/chat/messages/${id}`);
}

export function fetchOnline(signal?: AbortSignal): Promise<ChatAuthor[]> {
  return api.get<{ users: ChatAuthor[] }>('/api/chat/online', { signal }).then((r) => r.users);
}
