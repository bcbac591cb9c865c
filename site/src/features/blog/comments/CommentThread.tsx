import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ServerHtml } from '../../../components/ui/ServerHtml';
import { errorMessage } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/dateTimeFormat';
import {
  deleteComment,
  editComment,
  moderateComment,
  postComment,
  setClosed,
  useCommentMutation,
  useComments,
  type Comment,
} from './api';
import { COMMENTS_NS } from './i18n';
import './comments.css';
import { Avatar } from '../../../components/ui/Avatar';

/** How long an author may edit their own comment after writing it. */
export const EDIT_WINDOW_MS = 15 * 60 * 1000;

/**
 * The comments under an article: top-level comments oldest first, each with its replies (one
 * level deep) under it. The newest page of threads comes first; "show older comments" above the
 * list reads the page before, so a long discussion is never rendered whole at once. Signed-in readers comment and reply; guests are invited to sign in.
 * Authors edit their own for 15 minutes and delete their own; admins approve, hide, delete and
 * close the comments. The HTML is the server's rendering (sanitised there).
 */
export function CommentThread({ articleId }: { articleId: number }) {
  const { t } = useTranslation(COMMENTS_NS);
  const { user, isAdmin } = useAuth();
  const query = useComments(articleId);
  const [held, setHeld] = useState(false);
  const add = useCommentMutation((v: { content: string; parentId?: number }) => postComment(articleId, v.content, v.parentId));
  const close = useCommentMutation((closed: boolean) => setClosed(articleId, closed));
  // Pages run newest first; on the screen the older ones stand above.
  const pages = query.data?.pages ?? [];
  const comments = [...pages].reverse().flatMap((p) => p.comments);
  const newest = pages[0];
  const closed = newest?.closed ?? false;
  const published = newest?.published ?? 0;
  const older = pages.at(-1)?.older ?? 0;
  const top = comments.filter((c) => c.parentId == null);
  const repliesOf = (id: number) => comments.filter((c) => c.parentId === id);
  const submit = async (content: string, parentId?: number) => {
    const c = await add.mutateAsync({ content, parentId });
    setHeld(c.status === 'pending');
  };
  const canWrite = !!user && (!closed || isAdmin);
  // Until the first page arrives the section holds its title alone: the count and the line under
  // the list come with the list, so the arriving comments push nothing already on the screen down.
  const loaded = !query.isPending;

  return (
    <section className="comments" aria-labelledby="comments-title">
      <h2 id="comments-title" className="comments__title">
        {t('title')}
        {loaded ? <> <span className="comments__count">({t('count', { count: published })})</span></> : null}
      </h2>
      {isAdmin ? (
        <button type="button" className="btn" onClick={() => close.mutate(!closed)}>
          {closed ? t('reopen') : t('close')}
        </button>
      ) : null}
      {query.isError ? <p role="alert">{t('loadError')}</p> : null}
      {query.data && comments.length === 0 ? <p className="comments__empty">{t('empty')}</p> : null}
      {query.hasNextPage ? (
        <button type="button" className="btn comments__older" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
          {t('older', { n: older })}
        </button>
      ) : null}
      <ol className="comments__list">
        {top.map((c) => (
          <li key={c.id}>
            <CommentItem comment={c} onReply={canWrite ? (content) => submit(content, c.id) : undefined} />
            {repliesOf(c.id).length > 0 ? (
              <ol className="comments__replies">
                {repliesOf(c.id).map((r) => (
                  <li key={r.id}>
                    <CommentItem comment={r} />
                  </li>
                ))}
              </ol>
            ) : null}
          </li>
        ))}
      </ol>
      {held ? (
        <p role="status" className="comments__held">
          {t('held')}
        </p>
      ) : null}
      {closed ? <p className="comments__closed">{t('closed')}</p> : null}
      {!loaded ? null : canWrite ? (
        <CommentForm label={t('label')} submitLabel={t('submit')} onSubmit={(content) => submit(content)} />
      ) : !user ? (
        <p className="comments__signin">
          <Link to="/profile">{t('signIn')}</Link>
        </p>
      ) : null}
    </section>
  );
}

function CommentItem({ comment, onReply }: { comment: Comment; onReply?: (content: string) => Promise<void> }) {
  const { t, i18n } = useTranslation(COMMENTS_NS);
  const { user, isAdmin } = useAuth();
  const [mode, setMode] = useState<'view' | 'edit' | 'reply'>('view');
  const edit = useCommentMutation((content: string) => editComment(comment.id, content));
  const remove = useCommentMutation(() => deleteComment(comment.id));
  const moderate = useCommentMutation((action: 'approve' | 'hide') => moderateComment(comment.id, action));
  const own = !!user && comment.author.id === user.id;
  const name = comment.author.name || t('deletedAccount');
  const editable = own && Date.now() - new Date(comment.createdAt).getTime() < EDIT_WINDOW_MS;
  const when = formatDateTime(comment.createdAt, i18n.language);
  return (
    <article className={`comment comment--${comment.status}`} aria-label={name}>
      <header className="comment__head">
        <Avatar name={name} url={comment.author.avatarUrl} size={28} />
        <strong>{name}</strong>
        <time dateTime={comment.createdAt}>{when}</time>
        {comment.editedAt ? <span>({t('edited')})</span> : null}
        {comment.status !== 'published' ? <span className="comment__badge">{t(comment.status)}</span> : null}
      </header>
      {mode === 'edit' ? (
        <CommentForm
          label={t('label')}
          submitLabel={t('save')}
          initial={comment.content}
          onSubmit={async (content) => {
            await edit.mutateAsync(content);
            setMode('view');
          }}
          onCancel={() => setMode('view')}
        />
      ) : (
        <ServerHtml className="comment__body" html={comment.html} />
      )}
      {mode === 'view' ? (
        <div className="comment__actions">
          {onReply ? (
            <button type="button" className="btn btn--ghost" onClick={() => setMode('reply')}>
              {t('reply')}
            </button>
          ) : null}
          {editable ? (
            <button type="button" className="btn btn--ghost" onClick={() => setMode('edit')}>
              {t('edit')}
            </button>
          ) : null}
          {isAdmin && comment.status !== 'published' ? (
            <button type="button" className="btn btn--primary" onClick={() => moderate.mutate('approve')}>
              {t('approve')}
            </button>
          ) : null}
          {isAdmin && comment.status === 'published' ? (
            <button type="button" className="btn btn--ghost" onClick={() => moderate.mutate('hide')}>
              {t('hide')}
            </button>
          ) : null}
          {own || isAdmin ? (
            <button type="button" className="btn btn--ghost" onClick={() => window.confirm(t('confirmDelete')) && remove.mutate(undefined)}>
              {t('delete')}
            </button>
          ) : null}
        </div>
      ) : null}
      {mode === 'reply' && onReply ? (
        <CommentForm
          label={t('replyLabel', { name })}
          submitLabel={t('reply')}
          onSubmit={async (content) => {
            await onReply(content);
            setMode('view');
          }}
          onCancel={() => setMode('view')}
        />
      ) : null}
    </article>
  );
}

function CommentForm(props: {
  label: string;
  submitLabel: string;
  initial?: string;
  onSubmit: (content: string) => Promise<void>;
  onCancel?: () => void;
}) {
  const { t } = useTranslation(COMMENTS_NS);
  const [content, setContent] = useState(props.initial ?? '');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!content.trim()) return;
    setBusy(true);
    setError('');
    try {
      await props.onSubmit(content);
      setContent('');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="comment-form" onSubmit={submit}>
      <label htmlFor={id}>{props.label}</label>
      <textarea id={id} className="field-input comment-form__text" rows={3} value={content} onChange={(e) => setContent(e.target.value)} required />
      {error ? <p role="alert">{error}</p> : null}
      <div className="comment__actions">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {props.submitLabel}
        </button>
        {props.onCancel ? (
          <button type="button" className="btn" onClick={props.onCancel}>
            {t('cancel')}
          </button>
        ) : null}
      </div>
    </form>
  );
}
