import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { useEvent } from '../../../lib/events';
import {
  chatKeys,
  deleteMessage,
  fetchMessages,
  fetchOnline,
  postMessage,
  type ChatAuthor,
  type ChatPage,
  type PresenceEvent,
  type RoomMessage,
} from '../api';
import { CHAT_NS } from '../i18n';
import { linkify } from '../linkify';
import { Avatar } from '../../../components/ui/Avatar';

type Pages = InfiniteData<ChatPage, number | undefined>;

/** Adds or replaces m in the newest page (the history's pages run newest first). */
function withMessage(data: Pages | undefined, m: RoomMessage): Pages | undefined {
  if (!data || data.pages.length === 0) return data;
  if (data.pages.some((p) => p.messages.some((x) => x.id === m.id))) return data;
  const [first, ...rest] = data.pages;
  const messages = [...first.messages, m].sort((a, b) => a.id - b.id);
  return { ...data, pages: [{ ...first, messages }, ...rest] };
}

function withoutMessage(data: Pages | undefined, id: number): Pages | undefined {
  if (!data) return data;
  return { ...data, pages: data.pages.map((p) => ({ ...p, messages: p.messages.filter((m) => m.id !== id) })) };
}

/**
 * The real room for a signed-in user: its history (older pages on demand), new messages and
 * deletions live from the event stream, who is online, and the composer. Admins delete messages.
 */
export function LiveRoom() {
  const { t, i18n } = useTranslation(CHAT_NS);
  const { user, isAdmin } = useAuth();
  const qc = useQueryClient();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [mutedUntil, setMutedUntil] = useState<string | null>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  const history = useInfiniteQuery({
    queryKey: chatKeys.messages(),
    queryFn: ({ pageParam, signal }) => fetchMessages(pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next || undefined,
  });
  const online = useQuery({ queryKey: chatKeys.online(), queryFn: ({ signal }) => fetchOnline(signal) });

  useEvent('chat.message', (data) => {
    qc.setQueryData<Pages>(chatKeys.messages(), (old) => withMessage(old, data as RoomMessage));
  });
  useEvent('chat.deleted', (data) => {
    qc.setQueryData<Pages>(chatKeys.messages(), (old) => withoutMessage(old, (data as { id: number }).id));
  });
  useEvent('chat.muted', (data) => setMutedUntil((data as { until: string | null }).until));
  useEvent('presence', (data) => {
    const { user: who, online: on } = data as PresenceEvent;
    qc.setQueryData<ChatAuthor[]>(chatKeys.online(), (old = []) => {
      const rest = old.filter((u) => u.id !== who.id);
      return on ? [...rest, who].sort((a, b) => a.name.localeCompare(b.name)) : rest;
    });
  });
  // A stream (re)opened or lost what it missed: reload.
  useEvent('resync', () => void qc.invalidateQueries({ queryKey: chatKeys.all }));
  useEvent('open', () => void qc.invalidateQueries({ queryKey: chatKeys.online() }));

  const send = useMutation({
    mutationFn: postMessage,
    onSuccess: (m) => {
      setDraft('');
      setError(null);
      if (m) qc.setQueryData<Pages>(chatKeys.messages(), (old) => withMessage(old, m));
    },
    onError: (err) => setError(sendError(err)),
  });
  const remove = useMutation({
    mutationFn: deleteMessage,
    onSuccess: (_, id) => qc.setQueryData<Pages>(chatKeys.messages(), (old) => withoutMessage(old, id)),
    onError: (err) => setError(err instanceof Error ? err.message : String(err)),
  });

  function sendError(err: unknown): string {
    if (err instanceof ApiError) {
      if (err.status === 429) return t('room.tooFast');
      if (err.status === 403) return t('room.muted');
      if (err.status === 400) return t('room.tooLong');
      if (err.status === 0) return t('room.offline');
    }
    return t('room.failed');
  }

  const messages = [...(history.data?.pages ?? [])].reverse().flatMap((p) => p.messages);
  const newestId = messages.length ? messages[messages.length - 1].id : 0;

  // Keep the newest message in view unless the reader scrolled up to read older ones.
  useEffect(() => {
    const log = logRef.current;
    if (log && stick.current) log.scrollTop = log.scrollHeight;
  }, [newestId]);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!draft.trim()) return;
    stick.current = true;
    send.mutate(draft);
  }

  const time = new Intl.DateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit' });
  const users = online.data ?? [];

  return (
    <div className="chat-layout">
      <aside className="chat-note chat-online" aria-labelledby="chat-online-title">
        <div>
          <h2 id="chat-online-title" className="chat-note__title">
            {t('room.online', { count: users.length })}
          </h2>
          <ul className="chat-online__list">
            {users.map((u) => (
              <li key={u.id}>
                <span className="chat-online__dot" aria-hidden="true" />
                {u.name}
              </li>
            ))}
          </ul>
        </div>
      </aside>

      <div className="chat-panel">
        <div
          ref={logRef}
          className="chat-log"
          role="log"
          aria-label={t('log')}
          aria-live="polite"
          onScroll={(e) => {
            const el = e.currentTarget;
            stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
          }}
        >
          {history.hasNextPage ? (
            <button
              type="button"
              className="btn chat-log__older"
              onClick={() => {
                stick.current = false;
                void history.fetchNextPage();
              }}
              disabled={history.isFetchingNextPage}
            >
              {t('room.older')}
            </button>
          ) : null}
          <ol className="chat-log__list">
            {history.isPending ? <li className="chat-log__empty">{t('room.loading')}</li> : null}
            {history.isError ? (
              <li className="chat-log__empty" role="alert">
                {t('room.loadFailed')}
              </li>
            ) : null}
            {history.isSuccess && messages.length === 0 ? <li className="chat-log__empty">{t('room.empty')}</li> : null}
            {messages.map((m) => {
              const mine = m.author.id === user?.id;
              return (
                <li key={m.id} className={`chat-msg chat-msg--${mine ? 'user' : 'bot'}`} data-message-id={m.id}>
                  <span className="chat-msg__author">
                    <Avatar name={m.author.name} url={m.author.avatarUrl} size={24} />{' '}
                    {mine ? t('you') : m.author.name}{' '}
                    <time dateTime={m.createdAt} className="chat-msg__time">
                      {time.format(new Date(m.createdAt))}
                    </time>
                    {isAdmin ? (
                      <button
                        type="button"
                        className="chat-msg__delete"
                        aria-label={t('room.delete', { name: m.author.name })}
                        title={t('room.delete', { name: m.author.name })}
                        onClick={() => remove.mutate(m.id)}
                      >
                        ×
                      </button>
                    ) : null}
                  </span>
                  <p className="chat-msg__text">{linkify(m.text)}</p>
                </li>
              );
            })}
          </ol>
        </div>

        {error || mutedUntil ? (
          <p className="chat-form__error" role="alert">
            {mutedUntil ? t('room.mutedUntil', { time: new Date(mutedUntil).toLocaleString(i18n.language) }) : error}
          </p>
        ) : null}
        <form className="chat-form" onSubmit={onSubmit}>
          <label htmlFor="chat-input" className="visually-hidden">
            {t('label')}
          </label>
          <input
            id="chat-input"
            className="chat-form__input"
            type="text"
            autoComplete="off"
            maxLength={2000}
            placeholder={t('room.placeholder')}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
          <button type="submit" className="btn btn--primary chat-form__send" disabled={!draft.trim() || send.isPending}>
            <svg width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.9" aria-hidden="true">
              <path d="M22 2 11 13M22 2l-7 20-4-9-9-4z" />
            </svg>
            <span>{t('send')}</span>
          </button>
        </form>
      </div>
    </div>
  );
}
