import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Page } from '../../../components/ui/Page';
import { ServerHtml } from '../../../components/ui/ServerHtml';
import { useAuth } from '../../../lib/auth';
import {
  blockUser,
  deleteComment,
  deletePost,
  moderateComment,
  moderatePost,
  useForumMutation,
  useQueue,
  type QueueItem,
} from '../api';
import { formatWhen } from '../format';
import { FORUM_NS } from '../i18n';
import '../forum.css';

/** /forum/moderation: the one queue of comments and forum posts waiting for approval, for admins:
 *  approve, delete, or block the author (which hides what they have waiting). */
export default function ModerationPage() {
  const { t } = useTranslation(FORUM_NS);
  const { isAdmin, loading } = useAuth();
  const queue = useQueue(isAdmin);
  if (!isAdmin) {
    return <Page title={t('moderation')}>{loading ? null : <p>{t('adminOnly')}</p>}</Page>;
  }
  const items = queue.data?.items ?? [];
  return (
    <Page title={t('moderation')} lead={t('moderationLead')} className="forum">
      <Link to="/forum" className="forum-back">
        ← {t('back')}
      </Link>
      {queue.isError ? <p role="alert">{t('loadError')}</p> : null}
      {queue.data && items.length === 0 ? <p>{t('queueEmpty')}</p> : null}
      <ul className="forum-queue">
        {items.map((it) => (
          <QueueRow key={`${it.kind}-${it.id}`} item={it} />
        ))}
      </ul>
    </Page>
  );
}

function QueueRow({ item }: { item: QueueItem }) {
  const { t, i18n } = useTranslation(FORUM_NS);
  const isComment = item.kind === 'comment';
  const approve = useForumMutation(() => (isComment ? moderateComment(item.id, 'approve') : moderatePost(item.id, 'approve')));
  const remove = useForumMutation(() => (isComment ? deleteComment(item.id) : deletePost(item.id)));
  const block = useForumMutation(() => blockUser(item.author.id));
  const where = isComment ? (
    <Link to={`/blog/${item.articleId}`}>{t('kindComment', { id: item.articleId })}</Link>
  ) : (
    <Link to={`/forum/t/${item.threadId}`}>{t('kindPost', { title: item.threadTitle })}</Link>
  );
  const name = item.author.name || t('deletedAccount');
  return (
    <li className="forum-queue__item" aria-label={name}>
      <header className="forum-post__head">
        <strong>{name}</strong>
        <time dateTime={item.createdAt}>{formatWhen(item.createdAt, i18n.language)}</time>
        {where}
      </header>
      <ServerHtml className="forum-post__body" html={item.html} />
      <div className="forum-post__actions">
        <button type="button" className="btn btn--primary" onClick={() => approve.mutate(undefined)}>
          {t('approve')}
        </button>
        <button type="button" className="btn btn--danger" onClick={() => remove.mutate(undefined)}>
          {t('delete')}
        </button>
        {item.author.id ? (
          <button type="button" className="btn" onClick={() => window.confirm(t('block')) && block.mutate(undefined)}>
            {t('block')}
          </button>
        ) : null}
      </div>
    </li>
  );
}
