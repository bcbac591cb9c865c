import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Page } from '../../../components/ui/Page';
import { useAuth } from '../../../lib/auth';
import { LiveRoom } from '../components/LiveRoom';
import { CHAT_NS } from '../i18n';
import { useFakeChat } from '../useFakeChat';
import '../chat.css';

/**
 * /chat: the real room for a signed-in user (LiveRoom). A guest keeps the local fake chat — their
 * message appended, a canned reply after 1000 ms, blank messages ignored — under a note that says
 * it is a local preview and invites them to sign in to join the real room.
 */
export default function ChatPage() {
  const { t } = useTranslation(CHAT_NS);
  const { t: tShell } = useTranslation();
  const { user, loading } = useAuth();
  if (user) {
    return (
      <Page title={tShell('chat')} lead={t('room.lead')} className="chat-page">
        <LiveRoom />
      </Page>
    );
  }
  if (loading) return <Page title={tShell('chat')} className="chat-page" />;
  return <GuestChat />;
}

/** The guest's local fake chat. */
function GuestChat() {
  const { t } = useTranslation(CHAT_NS);
  const { t: tShell } = useTranslation();
  const { messages, pending, send } = useFakeChat();
  const [draft, setDraft] = useState('');
  const logRef = useRef<HTMLDivElement>(null);

  // keep the newest message in view
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages.length, pending]);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (send(draft)) setDraft('');
  }

  const blank = draft.trim() === '';

  return (
    <Page title={tShell('chat')} lead={t('lead')} className="chat-page">
      <div className="chat-layout">
        <aside className="chat-note" aria-labelledby="chat-note-title">
          <Icon className="chat-note__icon" size={22} d="M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zM12 11v6M12 7.5h.01" />
          <div>
            <h2 id="chat-note-title" className="chat-note__title">
              {t('devTitle')}
            </h2>
            <p className="chat-note__text">{t('devText')}</p>
            <Link to="/profile" className="btn chat-note__link">
              {t('signIn')}
            </Link>
          </div>
        </aside>

        <div className="chat-panel">
          {/* the log is the scrolling region; the messages inside it are a list */}
          <div ref={logRef} className="chat-log" role="log" aria-label={t('log')} aria-live="polite">
            <ol className="chat-log__list">
              {messages.length === 0 && pending === 0 ? <li className="chat-log__empty">{t('empty')}</li> : null}
              {messages.map((m) => (
                <li key={m.id} className={`chat-msg chat-msg--${m.author}`}>
                  <span className="chat-msg__author">{m.author === 'user' ? t('you') : t('bot')}</span>
                  <p className="chat-msg__text">{m.author === 'user' ? m.text : t('reply')}</p>
                </li>
              ))}
              {pending > 0 ? (
                <li className="chat-log__typing">
                  <span className="chat-typing" aria-hidden="true">
                    <span />
                    <span />
                    <span />
                  </span>
                  <span>{t('typing')}</span>
                </li>
              ) : null}
            </ol>
          </div>

          <form className="chat-form" onSubmit={onSubmit}>
            <label htmlFor="chat-input" className="visually-hidden">
              {t('label')}
            </label>
            <input
              id="chat-input"
              className="chat-form__input"
              type="text"
              autoComplete="off"
              placeholder={t('placeholder')}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
            />
            <button type="submit" className="btn btn--primary chat-form__send" disabled={blank}>
              <Icon size={18} d="M22 2 11 13M22 2l-7 20-4-9-9-4z" />
              <span>{t('send')}</span>
            </button>
          </form>
        </div>
      </div>
    </Page>
  );
}

/** A small inline stroke icon (no icon font, nothing from another host). */
function Icon({ d, size, className }: { d: string; size: number; className?: string }) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.9"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={d} />
    </svg>
  );
}
