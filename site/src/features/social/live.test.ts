import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { socialKeys, type DirectMessage, type MessagePage } from './api';
import { applySocialEvent, peerOf } from './live';

const m = (id: number, authorId: number, recipientId: number): DirectMessage => ({
  id,
  authorId,
  recipientId,
  text: `m${id}`,
  createdAt: '2026-11-27T10:00:00Z',
});

function cached(qc: QueryClient, peer: number, messages: DirectMessage[]) {
  const page: MessagePage = { user: { id: peer, name: 'X', avatar: null }, kind: 'direct', messages, hasMore: false, readUpTo: 0, otherReadUpTo: 0, canSend: true };
  qc.setQueryData<InfiniteData<MessagePage>>(socialKeys.conversation(peer), { pages: [page], pageParams: [0] });
}
const ids = (qc: QueryClient, peer: number) =>
  qc.getQueryData<InfiniteData<MessagePage>>(socialKeys.conversation(peer))?.pages[0].messages.map((x) => x.id);

describe('live events', () => {
  it('the peer of a message is the other member, as either side sees it', () => {
    expect(peerOf(m(1, 2, 3), 2)).toBe(3);
    expect(peerOf(m(1, 2, 3), 3)).toBe(2);
    expect(peerOf(m(1, 0, 0), 1)).toBe(0); // the contact form's
  });

  it('a new message joins its conversation once, in both members’ caches', () => {
    const qc = new QueryClient();
    cached(qc, 3, [m(1, 2, 3)]);
    applySocialEvent(qc, 2, 'dm.message', m(2, 3, 2));
    applySocialEvent(qc, 2, 'dm.message', m(2, 3, 2));
    expect(ids(qc, 3)).toEqual([1, 2]);
    const other = new QueryClient();
    cached(other, 2, [m(1, 2, 3)]);
    applySocialEvent(other, 3, 'dm.message', m(2, 3, 2));
    expect(ids(other, 2)).toEqual([1, 2]);
  });

  it('a deleted message leaves; another conversation is untouched', () => {
    const qc = new QueryClient();
    cached(qc, 3, [m(1, 2, 3), m(2, 3, 2)]);
    cached(qc, 4, [m(5, 4, 2)]);
    applySocialEvent(qc, 2, 'dm.deleted', m(1, 2, 3));
    expect(ids(qc, 3)).toEqual([2]);
    expect(ids(qc, 4)).toEqual([5]);
  });

  it('a read marker or a friend request marks the lists stale', () => {
    const qc = new QueryClient();
    cached(qc, 3, [m(1, 2, 3)]);
    qc.setQueryData(socialKeys.friends, { friends: [], incoming: [], outgoing: [], blocked: [] });
    applySocialEvent(qc, 2, 'dm.read', { readerId: 3, peerId: 2, upTo: 1 });
    applySocialEvent(qc, 2, 'friend.request', { id: 1, status: 'pending' });
    expect(qc.getQueryState(socialKeys.conversation(3))?.isInvalidated).toBe(true);
    expect(qc.getQueryState(socialKeys.friends)?.isInvalidated).toBe(true);
  });
});
