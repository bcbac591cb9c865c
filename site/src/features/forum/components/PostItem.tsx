import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerHtml } from '../../../components/ui/ServerHtml';
import { useAuth } from '../../../lib/auth';
import { deletePost, editPost, moderatePost, useForumMutation, type Post } from '../api';
import { formatWhen, withinEditWindow } from '../format';
import { FORUM_NS } from '../i18n';
import { PostForm } from './PostForm';
import { Avatar } from '../../../components/ui/Avatar';

/** One post: author, time, its status when not published, the server's HTML, and the actions
 *  the reader may take (edit their own within 15 minutes, delete their own; an admin approves,
 *  hides or deletes any). */
export function PostItem({ post }: { post: Post }) {
  const { t, i18n } = useTranslation(FORUM_NS);
  const { user, isAdmin } = useAuth();
  const [editing, setEditing] = useState(false);
  const edit = useForumMutation((content: string) => editPost(post.id, content));
  const remove = useForumMutation(() => deletePost(post.id));
  const moderate = useForumMutation((action: 'approve' | 'hide') => moderatePost(post.id, action));
  const own = !!user && post.author.id === user.id;
  const name = post.author.name || t('deletedAccount');
  return (
    <article className={`forum-post forum-post--${post.status}`} aria-label={name}>
      <header className="forum-post__head">
        <Avatar name={name} url={post.author.avatarUrl} size={32} />
        <strong>{name}</strong>
        <time dateTime={post.createdAt}>{formatWhen(post.createdAt, i18n.language)}</time>
        {post.editedAt ? <span className="forum-post__edited">({t('edited')})</span> : null}
        {post.status !== 'published' ? <span className="forum-badge forum-badge--held">{t(post.status)}</span> : null}
      </header>
      {editing ? (
        <PostForm
          label={t('content')}
          submitLabel={t('save')}
          initial={post.content}
          onSubmit={async ({ content }) => {
            await edit.mutateAsync(content);
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <ServerHtml className="forum-post__body" html={post.html} />
      )}
      <div className="forum-post__actions">
        {own && !editing && withinEditWindow(post.createdAt) ? (
          <button type="button" className="btn" onClick={() => setEditing(true)}>
            {t('edit')}
          </button>
        ) : null}
        {isAdmin && post.status !== 'published' ? (
          <button type="button" className="btn btn--primary" onClick={() => moderate.mutate('approve')}>
            {t('approve')}
          </button>
        ) : null}
        {isAdmin && post.status === 'published' ? (
          <button type="button" className="btn" onClick={() => moderate.mutate('hide')}>
            {t('hide')}
          </button>
        ) : null}
        {own || isAdmin ? (
          <button type="button" className="btn btn--danger" onClick={() => window.confirm(t('confirmDelete')) && remove.mutate(undefined)}>
            {t('delete')}
          </button>
        ) : null}
      </div>
    </article>
  );
}
