import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { toast } from '../../../lib/toast';
import {
  CONTACT_PEER,
  flattenPages,
  useConversation,
  useConversations,
  useDeleteMessage,
  useMarkRead,
  useSendMessage,
  type Conversation,
  type DirectMessage,
} from '../api';
import { SOCIAL_NS } from '../i18n';
import { useSocialLive } from '../live';
import { PersonName, personName } from './PersonName';
import '../social.css';

const LIST_HREF = '/profile?section=messages';

/** The link that opens the conversation with an account (0: the contact form's). */
function withHref(userId: number): string {
  return `${LIST_HREF}&with=${userId}`;
}

/** How a badge writes a count: 99+ beyond 99. */
export function badgeCount(n: number): string {
  return n > 99 ? '99+' : String(n);
}

/** The profile's Messages section: the conversation list, or one conversation (?with=ID). */
export function MessagesSection() {
  useSocialLive();
  const [params] = useSearchParams();
  const raw = params.get('with');
  const peer = raw !== null && /^\d+$/.test(raw) ? Number(raw) : null;
  return peer === null ? <ConversationList /> : <ConversationView key={peer} peer={peer} />;
}

function ConversationList() {
  const { t } = useTranslation(SOCIAL_NS);
  const list = useConversations();
  return (
    <section className="profile-section social" aria-labelledby="social-messages-title">
      <h2 id="social-messages-title" className="profile-section__title">
        {t('messages.title')}
      </h2>
      {list.isError ? (
        <p role="alert">{t('loadFailed')}</p>
      ) : !list.data ? (
        <p role="status">{t('loading')}</p>
      ) : list.data.length === 0 ? (
        <p className="social-empty">
          {t('messages.none')} <Link to="/profile?section=friends">{t('messages.toFriends')}</Link>
        </p>
      ) : (
        <ul className="social-list social-conversations" aria-label={t('messages.list')}>
          {list.data.map((c) => (
            <ConversationItem key={`${c.kind}-${c.user.id}`} c={c} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ConversationItem({ c }: { c: Conversation }) {
  const { t } = useTranslation(SOCIAL_NS);
  const contact = c.kind === 'contact';
  const name = personName(t, c.user, contact);
  const last = c.lastMessage;
  const preview = last ? (last.sender ? `${last.sender.name}: ${last.text}` : last.text) : '';
  return (
    <li className="social-list__item social-conversation">
      <Link
        to={withHref(c.user.id)}
        className="social-conversation__link"
        aria-label={c.unread ? t('messages.openUnread', { name, count: c.unread }) : t('messages.open', { name })}
      >
        <PersonName person={c.user} contact={contact} />
        <span className="social-conversation__preview">{preview}</span>
      </Link>
      {c.unread > 0 ? (
        <span className="social-badge" data-testid="unread-badge" aria-hidden="true">
          {badgeCount(c.unread)}
        </span>
      ) : null}
    </li>
  );
}

function ConversationView({ peer }: { peer: number }) {
  const { t } = useTranslation(SOCIAL_NS);
  const { user } = useAuth();
  const me = user?.id ?? -1;
  const conv = useConversation(peer);
  const messages = flattenPages(conv.data);
  const head = conv.data?.pages[0];
  const markRead = useMarkRead(peer);
  const del = useDeleteMessage(peer);
  const bottom = useRef<HTMLDivElement>(null);

  // What the other wrote after the reader's marker is read once it is on screen.
  const lastTheirs = [...messages].reverse().find((m) => m.authorId !== me)?.id ?? 0;
  const readUpTo = head?.readUpTo ?? 0;
  const asked = useRef(0);
  useEffect(() => {
    if (lastTheirs > readUpTo && lastTheirs > asked.current) {
      asked.current = lastTheirs;
      markRead.mutate(lastTheirs);
    }
  }, [lastTheirs, readUpTo, markRead]);

  const newest = messages.at(-1)?.id ?? 0;
  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [newest]);

  if (conv.isError) {
    return (
      <section className="profile-section social">
        <BackLink />
        <p role="alert">{errorMessage(conv.error, t('loadFailed'))}</p>
      </section>
    );
  }
  if (!head) {
    return (
      <section className="profile-section social">
        <BackLink />
        <p role="status">{t('loading')}</p>
      </section>
    );
  }
  const contact = head.kind === 'contact' || peer === CONTACT_PEER;
  const name = personName(t, head.user, contact);
  const otherRead = head.otherReadUpTo;

  return (
    <section className="profile-section social social-chat" aria-labelledby="social-chat-title">
      <BackLink />
      <h2 id="social-chat-title" className="profile-section__title">
        {t('messages.with', { name })}
      </h2>
      {conv.hasNextPage ? (
        <button type="button" className="btn social-chat__older" disabled={conv.isFetchingNextPage} onClick={() => void conv.fetchNextPage()}>
          {t('messages.older')}
        </button>
      ) : null}
      {messages.length === 0 ? <p className="social-empty">{t('messages.empty')}</p> : null}
      <ol className="social-chat__log" aria-label={t('messages.log', { name })} aria-live="polite">
        {messages.map((m) => (
          <MessageItem
            key={m.id}
            m={m}
            mine={m.authorId === me}
            read={m.authorId === me && m.id <= otherRead}
            contact={contact}
            onDelete={() =>
              del.mutateAsync(m.id).then(
                () => toast.success(t('messages.deleted')),
                (err: unknown) => toast.error(errorMessage(err, t('failed'))),
              )
            }
          />
        ))}
      </ol>
      <div ref={bottom} />
      {head.canSend ? <Composer peer={peer} /> : <p className="social-note" role="note">{t(`messages.cannot.${head.reason ?? 'blocked'}`)}</p>}
    </section>
  );
}

function BackLink() {
  const { t } = useTranslation(SOCIAL_NS);
  return (
    <Link to={LIST_HREF} className="social-back">
      ← {t('messages.back')}
    </Link>
  );
}

function MessageItem({
  m,
  mine,
  read,
  contact,
  onDelete,
}: {
  m: DirectMessage;
  mine: boolean;
  read: boolean;
  contact: boolean;
  onDelete: () => void;
}) {
  const { t, i18n } = useTranslation(SOCIAL_NS);
  const at = new Date(m.createdAt);
  return (
    <li className={`social-msg${mine ? ' social-msg--mine' : ''}`} data-testid="dm">
      {m.sender ? (
        <p className="social-msg__sender">
          {m.sender.name} · <a href={`mailto:${m.sender.email}`}>{m.sender.email}</a>
        </p>
      ) : null}
      <p className="social-msg__text">{m.text}</p>
      <p className="social-msg__meta">
        <time dateTime={m.createdAt}>{at.toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'short' })}</time>
        {mine ? <span className="social-msg__state">{read ? t('messages.read') : t('messages.sent')}</span> : null}
        {mine || contact ? (
          <button type="button" className="social-msg__delete" onClick={onDelete} aria-label={t('messages.delete')}>
            {t('messages.deleteShort')}
          </button>
        ) : null}
      </p>
    </li>
  );
}

function Composer({ peer }: { peer: number }) {
  const { t } = useTranslation(SOCIAL_NS);
  const [text, setText] = useState('');
  const send = useSendMessage(peer);
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (!text.trim() || send.isPending) return;
    send.mutate(text, {
      onSuccess: () => setText(''),
      onError: (err) => toast.error(errorMessage(err, t('failed'))),
    });
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };
  return (
    <form className="social-composer" onSubmit={submit}>
      <label htmlFor="social-composer-text" className="visually-hidden">
        {t('messages.label')}
      </label>
      <textarea
        id="social-composer-text"
        className="field-input social-composer__text"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKey}
        placeholder={t('messages.placeholder')}
        rows={2}
      />
      <button type="submit" className="btn btn--primary" disabled={!text.trim() || send.isPending}>
        {t('messages.send')}
      </button>
    </form>
  );
}
