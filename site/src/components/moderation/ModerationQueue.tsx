import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuth } from '../../lib/auth';
import { ServerHtml } from '../ui/ServerHtml';
import { approveItem, blockAuthor, deleteItem, useModerationAction, useModerationQueue, type QueueItem } from './api';
import { MODERATION_NS } from './i18n';
import './moderation.css';

/**
 * The one admin queue of comments and forum posts waiting for approval, oldest first: approve,
 * delete, or block the author (which hides what they have waiting). Renders nothing for others.
 */
export function ModerationQueue({ headingLevel = 2 }: { headingLevel?: 2 | 3 }) {
  const { t } = useTranslation(MODERATION_NS);
  const { isAdmin } = useAuth();
  const queue = useModerationQueue(isAdmin);
  if (!isAdmin) return null;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const items = queue.data?.items ?? [];
  return (
    <section className="profile-section moderation" aria-labelledby="moderation-title">
      <Heading id="moderation-title" className="profile-section__title">
        {t('title')} {queue.data ? `(${items.length})` : ''}
      </Heading>
      <p>{t('lead')}</p>
      {queue.isError ? <p role="alert">{t('loadError')}</p> : null}
      {queue.data && items.length === 0 ? <p>{t('empty')}</p> : null}
      <ul className="moderation__list">
        {items.map((it) => (
          <QueueRow key={`${it.kind}-${it.id}`} item={it} />
        ))}
      </ul>
    </section>
  );
}

function QueueRow({ item }: { item: QueueItem }) {
  const { t, i18n } = useTranslation(MODERATION_NS);
  const approve = useModerationAction(approveItem);
  const remove = useModerationAction(deleteItem);
  const block = useModerationAction(blockAuthor);
  const name = item.author.name || t('deletedAccount');
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(item.createdAt));
  return (
    <li className="moderation__item" aria-label={name}>
      <p className="moderation__head">
        <strong>{name}</strong> <time dateTime={item.createdAt}>{when}</time>{' '}
        {item.kind === 'comment' ? (
          <Link to={`/blog/${item.articleId}`}>{t('kindComment', { id: item.articleId })}</Link>
        ) : (
          <Link to={`/forum/t/${item.threadId}`}>{t('kindPost', { title: item.threadTitle })}</Link>
        )}
      </p>
      <ServerHtml className="moderation__body" html={item.html} />
      <div className="moderation__actions">
        <button type="button" className="btn btn--primary" disabled={approve.isPending} onClick={() => approve.mutate(item)}>
          {t('approve')}
        </button>
        <button type="button" className="btn btn--danger" disabled={remove.isPending} onClick={() => remove.mutate(item)}>
          {t('delete')}
        </button>
        {item.author.id ? (
          <button type="button" className="btn" onClick={() => window.confirm(t('confirmBlock', { name })) && block.mutate(item)}>
            {t('block')}
          </button>
        ) : null}
      </div>
    </li>
  );
}
