import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Thread } from '../api';
import { formatWhen } from '../format';
import { FORUM_NS } from '../i18n';

/** One thread in a list: its title as a link, its flags, author, replies and last activity. */
export function ThreadRow({ thread }: { thread: Thread }) {
  const { t, i18n } = useTranslation(FORUM_NS);
  return (
    <li className="forum-thread-row">
      <Link to={`/forum/t/${thread.id}`} className="forum-thread-row__title">
        {thread.title}
      </Link>
      <span className="forum-thread-row__meta">
        {thread.pinned ? <span className="forum-badge">{t('pinned')}</span> : null}
        {thread.locked ? <span className="forum-badge">{t('locked')}</span> : null}
        {thread.status !== 'published' ? <span className="forum-badge forum-badge--held">{t(thread.status)}</span> : null}
        <span>{t('by', { name: thread.author.name || t('deletedAccount') })}</span>
        <span>{t('replies', { count: thread.replies })}</span>
        <time dateTime={thread.lastPostAt}>{formatWhen(thread.lastPostAt, i18n.language)}</time>
      </span>
    </li>
  );
}
