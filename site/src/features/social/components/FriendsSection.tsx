import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { TextField } from '../../../components/ui/Field';
import { errorMessage } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { useDebouncedValue } from '../../../lib/useDebouncedValue';
import {
  useAcceptRequest,
  useBlock,
  useCancelRequest,
  useDeclineRequest,
  useFriends,
  usePeopleSearch,
  useRequestFriend,
  useUnblock,
  useUnfriend,
  type Friends,
  type Person,
} from '../api';
import { SOCIAL_NS } from '../i18n';
import { useSocialLive } from '../live';
import { PersonName, personName } from './PersonName';
import '../social.css';

/** The people search waits this long after the last key. */
export const SEARCH_DEBOUNCE_MS = 300;

/** The link that opens the conversation with an account. */
export function conversationHref(userId: number): string {
  return `/profile?section=messages&with=${userId}`;
}

/** Runs a mutation and shows its failure as a toast. */
function useRun() {
  const { t } = useTranslation(SOCIAL_NS);
  return (p: Promise<unknown>, done?: string) =>
    p.then(
      () => {
        if (done) toast.success(done);
      },
      (err: unknown) => toast.error(errorMessage(err, t('failed'))),
    );
}

/**
 * The profile's Friends section: find people by name and send requests, answer or cancel
 * requests, and the friends (message, remove, block) and blocked accounts (unblock).
 */
export function FriendsSection() {
  const { t } = useTranslation(SOCIAL_NS);
  useSocialLive();
  const friends = useFriends();
  return (
    <section className="profile-section social" aria-labelledby="social-friends-title">
      <h2 id="social-friends-title" className="profile-section__title">
        {t('friends.title')}
      </h2>
      <PeopleSearch friends={friends.data} />
      {friends.isError ? (
        <p role="alert">{t('loadFailed')}</p>
      ) : !friends.data ? (
        <p role="status">{t('loading')}</p>
      ) : (
        <FriendLists data={friends.data} />
      )}
    </section>
  );
}

function PeopleSearch({ friends }: { friends: Friends | undefined }) {
  const { t } = useTranslation(SOCIAL_NS);
  const [q, setQ] = useState('');
  const query = useDebouncedValue(q, SEARCH_DEBOUNCE_MS);
  const people = usePeopleSearch(query);
  const request = useRequestFriend();
  const run = useRun();
  const known = new Map<number, string>();
  for (const f of friends?.friends ?? []) known.set(f.user.id, t('friends.already'));
  for (const r of friends?.outgoing ?? []) known.set(r.user.id, t('friends.requested'));
  for (const r of friends?.incoming ?? []) known.set(r.user.id, t('friends.asksYou'));
  return (
    <div className="social-search" role="search">
      <label className="social-search__label" htmlFor="social-people-search">
        {t('friends.search')}
      </label>
      <TextField
        id="social-people-search"
        type="search"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        placeholder={t('friends.searchPlaceholder')}
        autoComplete="off"
      />
      {query.trim() && people.data ? (
        people.data.length === 0 ? (
          <p className="social-empty">{t('friends.noOne')}</p>
        ) : (
          <ul className="social-list" aria-label={t('friends.results')}>
            {people.data.map((p) => (
              <li key={p.id} className="social-list__item">
                <PersonName person={p} />
                <span className="social-list__actions">
                  {known.has(p.id) ? (
                    <span className="social-note">{known.get(p.id)}</span>
                  ) : (
                    <button
                      type="button"
                      className="btn btn--primary"
                      disabled={request.isPending}
                      aria-label={t('friends.addNamed', { name: p.name })}
                      onClick={() => void run(request.mutateAsync(p.id), t('friends.sent'))}
                    >
                      {t('friends.add')}
                    </button>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </div>
  );
}

function Group({ id, title, empty, children }: { id: string; title: string; empty: string | null; children: ReactNode[] }) {
  return (
    <div className="social-group">
      <h3 id={id} className="social-group__title">
        {title}
      </h3>
      {children.length === 0 ? (
        empty ? <p className="social-empty">{empty}</p> : null
      ) : (
        <ul className="social-list" aria-labelledby={id}>
          {children}
        </ul>
      )}
    </div>
  );
}

function FriendLists({ data }: { data: Friends }) {
  const { t } = useTranslation(SOCIAL_NS);
  const accept = useAcceptRequest();
  const decline = useDeclineRequest();
  const cancel = useCancelRequest();
  const unfriend = useUnfriend();
  const block = useBlock();
  const unblock = useUnblock();
  const run = useRun();
  const [confirm, setConfirm] = useState<{ kind: 'remove' | 'block'; person: Person } | null>(null);

  const item = (key: number, person: Person, actions: ReactNode) => (
    <li key={key} className="social-list__item">
      <PersonName person={person} />
      <span className="social-list__actions">{actions}</span>
    </li>
  );
  const name = (p: Person) => personName(t, p);

  return (
    <>
      {data.incoming.length > 0 ? (
        <Group id="social-incoming" title={t('friends.incoming', { count: data.incoming.length })} empty={null}>
          {data.incoming.map((r) =>
            item(
              r.id,
              r.user,
              <>
                <button
                  type="button"
                  className="btn btn--primary"
                  aria-label={t('friends.acceptNamed', { name: name(r.user) })}
                  onClick={() => void run(accept.mutateAsync(r.id), t('friends.accepted'))}
                >
                  {t('friends.accept')}
                </button>
                <button
                  type="button"
                  className="btn"
                  aria-label={t('friends.declineNamed', { name: name(r.user) })}
                  onClick={() => void run(decline.mutateAsync(r.id))}
                >
                  {t('friends.decline')}
                </button>
              </>,
            ),
          )}
        </Group>
      ) : null}
      {data.outgoing.length > 0 ? (
        <Group id="social-outgoing" title={t('friends.outgoing')} empty={null}>
          {data.outgoing.map((r) =>
            item(
              r.id,
              r.user,
              <button
                type="button"
                className="btn"
                aria-label={t('friends.cancelNamed', { name: name(r.user) })}
                onClick={() => void run(cancel.mutateAsync(r.id))}
              >
                {t('friends.cancel')}
              </button>,
            ),
          )}
        </Group>
      ) : null}
      <Group id="social-friends" title={t('friends.list')} empty={t('friends.none')}>
        {data.friends.map((f) =>
          item(
            f.user.id,
            f.user,
            <>
              <Link className="btn btn--primary" to={conversationHref(f.user.id)} aria-label={t('friends.messageNamed', { name: name(f.user) })}>
                {t('friends.message')}
              </Link>
              <button
                type="button"
                className="btn"
                aria-label={t('friends.removeNamed', { name: name(f.user) })}
                onClick={() => setConfirm({ kind: 'remove', person: f.user })}
              >
                {t('friends.remove')}
              </button>
              <button
                type="button"
                className="btn btn--danger"
                aria-label={t('friends.blockNamed', { name: name(f.user) })}
                onClick={() => setConfirm({ kind: 'block', person: f.user })}
              >
                {t('friends.block')}
              </button>
            </>,
          ),
        )}
      </Group>
      {data.blocked.length > 0 ? (
        <Group id="social-blocked" title={t('friends.blocked')} empty={null}>
          {data.blocked.map((b) =>
            item(
              b.user.id,
              b.user,
              <button
                type="button"
                className="btn"
                aria-label={t('friends.unblockNamed', { name: name(b.user) })}
                onClick={() => void run(unblock.mutateAsync(b.user.id))}
              >
                {t('friends.unblock')}
              </button>,
            ),
          )}
        </Group>
      ) : null}
      {confirm ? (
        <ConfirmDialog
          title={t(confirm.kind === 'block' ? 'friends.blockTitle' : 'friends.removeTitle', { name: name(confirm.person) })}
          text={t(confirm.kind === 'block' ? 'friends.blockText' : 'friends.removeText', { name: name(confirm.person) })}
          confirmLabel={t(confirm.kind === 'block' ? 'friends.block' : 'friends.remove')}
          cancelLabel={t('cancel')}
          busy={unfriend.isPending || block.isPending}
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            const id = confirm.person.id;
            const p = confirm.kind === 'block' ? block.mutateAsync(id) : unfriend.mutateAsync(id);
            void run(p).finally(() => setConfirm(null));
          }}
        />
      ) : null}
    </>
  );
}
