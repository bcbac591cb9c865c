// People, friends, blocks, direct messages and the contact form (docs/social.md). Reads and writes
// go through TanStack Query; the keys live in socialKeys, under ['account'] so that signing out
// drops them with the rest of the account's data.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { api } from '../../lib/api';
import type { Schema } from '../../lib/apiTypes';

export type Person = Schema<'Person'>;
export type Friends = Schema<'Friends'>;
export type FriendRequest = Schema<'FriendRequest'>;
export type Conversation = Schema<'Conversation'>;
export type DirectMessage = Schema<'DirectMessage'>;
export type MessagePage = Schema<'MessagePage'>;
export type ContactChallenge = Schema<'ContactChallenge'>;
export type FriendRequestEvent = Schema<'FriendRequestEvent'>;
export type DMReadEvent = Schema<'DMReadEvent'>;

/** The contact form's conversation (admins): its "user" id. */
export const CONTACT_PEER = 0;

/** Messages asked for per page of a conversation. */
export const PAGE_SIZE = 30;

export const socialKeys = {
  all: ['account', 'social'] as const,
  people: (q: string) => ['account', 'social', 'people', q] as const,
  friends: ['account', 'social', 'friends'] as const,
  conversations: ['account', 'social', 'conversations'] as const,
  conversation: (userId: number) => ['account', 'social', 'conversation', userId] as const,
};

const conv = (userId: number) => `/api/conversations/${userId}`;

/** GET /api/users?search=: people by name (nothing for a blank query). */
export function usePeopleSearch(q: string) {
  const query = q.trim();
  return useQuery({
    queryKey: socialKeys.people(query),
    queryFn: ({ signal }) => api.get<Person[]>('/api/users', { signal, query: { search: query } }),
    enabled: query.length > 0,
  });
}

export function useFriends() {
  return useQuery({
    queryKey: socialKeys.friends,
    queryFn: ({ signal }) => api.get<Friends>('/api/friends', { signal }),
  });
}

/** A mutation that refreshes the friends lists (and people search) when it succeeds. */
function useFriendsMutation<T>(fn: (arg: T) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => qc.invalidateQueries({ queryKey: socialKeys.all }),
  });
}

export const useRequestFriend = () =>
  useFriendsMutation((userId: number) => api.post<FriendRequest>('/api/friends/requests', { userId }));
export const useAcceptRequest = () => useFriendsMutation((id: number) => api.post(`/api/friends/requests/${id}/accept`));
export const useDeclineRequest = () => useFriendsMutation((id: number) => api.post(`/api/friends/requests/${id}/decline`));
export const useCancelRequest = () => useFriendsMutation((id: number) => api.delete(`/api/friends/requests/${id}`));
export const useUnfriend = () => useFriendsMutation((userId: number) => api.delete(`/api/friends/${userId}`));
export const useBlock = () => useFriendsMutation((userId: number) => api.post(`/api/blocks/${userId}`));
export const useUnblock = () => useFriendsMutation((userId: number) => api.delete(`/api/blocks/${userId}`));

export function useConversations() {
  return useQuery({
    queryKey: socialKeys.conversations,
    queryFn: ({ signal }) => api.get<Conversation[]>('/api/conversations', { signal }),
  });
}

/** The sum of unread messages over the conversations (for a badge). */
export function totalUnread(list: Conversation[] | undefined): number {
  return (list ?? []).reduce((n, c) => n + c.unread, 0);
}

/** A conversation, paged backwards: each next page holds older messages. */
export function useConversation(userId: number) {
  return useInfiniteQuery({
    queryKey: socialKeys.conversation(userId),
    queryFn: ({ signal, pageParam }) =>
      api.get<MessagePage>(`${conv(userId)}/messages`, { signal, query: { limit: PAGE_SIZE, before: pageParam || undefined } }),
    initialPageParam: 0,
    getNextPageParam: (last) => (last.hasMore && last.messages.length ? last.messages[0].id : undefined),
  });
}

/** The messages of every loaded page, oldest first, without duplicates. */
export function flattenPages(data: InfiniteData<MessagePage> | undefined): DirectMessage[] {
  if (!data) return [];
  const seen = new Set<number>();
  const out: DirectMessage[] = [];
  for (const page of [...data.pages].reverse()) {
    for (const m of page.messages) {
      if (!seen.has(m.id)) {
        seen.add(m.id);
        out.push(m);
      }
    }
  }
  return out;
}

/** Puts a message into the newest cached page of the conversation with peer (a live event, a send). */
export function addMessageToCache(qc: ReturnType<typeof useQueryClient>, peer: number, m: DirectMessage) {
  qc.setQueryData<InfiniteData<MessagePage>>(socialKeys.conversation(peer), (data) => {
    if (!data || data.pages.length === 0) return data;
    const [first, ...rest] = data.pages;
    if (first.messages.some((x) => x.id === m.id)) return data;
    return { ...data, pages: [{ ...first, messages: [...first.messages, m] }, ...rest] };
  });
}

/** Takes message id out of every cached page of the conversation with peer. */
export function removeMessageFromCache(qc: ReturnType<typeof useQueryClient>, peer: number, id: number) {
  qc.setQueryData<InfiniteData<MessagePage>>(socialKeys.conversation(peer), (data) =>
    data ? { ...data, pages: data.pages.map((p) => ({ ...p, messages: p.messages.filter((x) => x.id !== id) })) } : data,
  );
}

export function useSendMessage(userId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => api.post<DirectMessage>(`${conv(userId)}/messages`, { text }),
    onSuccess: (m) => {
      addMessageToCache(qc, userId, m);
      void qc.invalidateQueries({ queryKey: socialKeys.conversations });
    },
  });
}

export function useMarkRead(userId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (upTo: number) => api.post<{ readUpTo: number }>(`${conv(userId)}/read`, { upTo }),
    onSuccess: () => qc.invalidateQueries({ queryKey: socialKeys.conversations }),
  });
}

export function useDeleteMessage(userId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`${conv(userId)}/messages/${id}`),
    onSuccess: (_, id) => {
      removeMessageFromCache(qc, userId, id);
      void qc.invalidateQueries({ queryKey: socialKeys.conversations });
    },
  });
}

export interface ContactForm {
  name: string;
  email: string;
  message: string;
  /** The hidden field people leave empty. */
  website: string;
  /** The solved proof of work. */
  altcha: string;
}

export function getContactChallenge(signal?: AbortSignal) {
  return api.get<ContactChallenge>('/api/contact/challenge', { signal, auth: false });
}

export function useSendContact() {
  return useMutation({
    mutationFn: (form: ContactForm) => api.post<{ received: true }>('/api/contact', form, { auth: false }),
  });
}
