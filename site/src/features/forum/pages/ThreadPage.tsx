import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Page } from '../../../components/ui/Page';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { useEvent } from '../../../lib/events';
import { PAGE_SIZE, deleteThread, follow, forumKeys, reply, setFlags, useForumMutation, useThread } from '../api';
import { Pager } from '../components/Pager';
import { PostForm } from '../components/PostForm';
import { PostItem } from '../components/PostItem';
import { FORUM_NS } from '../i18n';
import '../forum.css';

/** /forum/t/:id: a thread's posts (its first post is its body), paged; reply, follow, and for
 *  admins pin, lock and delete. */
export default function ThreadPage() {
  const { t, i18n } = useTranslation(FORUM_NS);
  const { id = '' } = useParams();
  const { user, isAdmin } = useAuth();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [held, setHeld] = useState(false);
  const view = useThread(id, page);
  const send = useForumMutation((content: string) => reply(id, content));
  const toggleFollow = useForumMutation((on: boolean) => follow(Number(id), on));
  const flags = useForumMutation((f: { pinned?: boolean; locked?: boolean }) => setFlags(Number(id), f));
  const remove = useForumMutation(() => deleteThread(Number(id)));
  // A follower told of a new reply in this thread sees it without reloading.
  const qc = useQueryClient();
  useEvent('notification', (data) => {
    const n = (data as { notification?: { kind?: string; data?: { threadId?: number } } } | null)?.notification;
    if (n?.kind === 'forum.reply' && String(n.data?.threadId) === id) void qc.invalidateQueries({ queryKey: forumKeys.thread(id, page) });
  });

  if (view.error instanceof ApiError && view.error.status === 404) {
    return (
      <Page title={t('notFound')} className="forum">
        <Link to="/forum">← {t('back')}</Link>
      </Page>
    );
  }
  if (!view.data) {
    return <Page title={t('title')} className="forum">{view.isError ? <p role="alert">{t('loadError')}</p> : null}</Page>;
  }
  const { thread, category, posts, total, following } = view.data;
  const lang = i18n.language.slice(0, 2);
  return (
    <Page title={thread.title} className="forum">
      <nav className="forum-back">
        <Link to="/forum">{t('back')}</Link>
        {category ? (
          <>
            {' / '}
            <Link to={`/forum/c/${category.id}`}>{category.names[lang] || category.name}</Link>
          </>
        ) : null}
      </nav>
      <div className="forum-toolbar">
        {thread.pinned ? <span className="forum-badge">{t('pinned')}</span> : null}
        {thread.locked ? <span className="forum-badge">{t('locked')}</span> : null}
        {user ? (
          <button type="button" className="btn" aria-pressed={following} onClick={() => toggleFollow.mutate(!following)}>
            {following ? t('unfollow') : t('follow')}
          </button>
        ) : null}
        {isAdmin ? (
          <>
            <button type="button" className="btn" onClick={() => flags.mutate({ pinned: !thread.pinned })}>
              {thread.pinned ? t('unpin') : t('pin')}
            </button>
            <button type="button" className="btn" onClick={() => flags.mutate({ locked: !thread.locked })}>
              {thread.locked ? t('unlock') : t('lock')}
            </button>
            <button
              type="button"
              className="btn btn--danger"
              onClick={() => window.confirm(t('confirmDelete')) && remove.mutate(undefined, { onSuccess: () => navigate(category ? `/forum/c/${category.id}` : '/forum') })}
            >
              {t('deleteThread')}
            </button>
          </>
        ) : null}
      </div>
      <div className="forum-posts">
        {posts.map((p) => (
          <PostItem key={p.id} post={p} />
        ))}
      </div>
      <Pager page={page} total={total} pageSize={PAGE_SIZE} onPage={setPage} />
      {held ? (
        <p role="status" className="forum-held">
          {t('heldNotice')}
        </p>
      ) : null}
      {thread.locked && !isAdmin ? (
        <p className="forum-locked">{t('lockedNotice')}</p>
      ) : user ? (
        <PostForm
          label={t('replyLabel')}
          submitLabel={t('reply')}
          onSubmit={async ({ content }) => {
            const p = await send.mutateAsync(content);
            setHeld(p.status === 'pending');
          }}
        />
      ) : (
        <p className="forum-signin">
          <Link to="/profile">{t('signInToPost')}</Link>
        </p>
      )}
    </Page>
  );
}
