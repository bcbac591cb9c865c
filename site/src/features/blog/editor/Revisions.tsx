import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { blogKeys, listRevisions, restoreRevision, type SavedArticle } from '../api';
import { BLOG_NS } from '../i18n';
import { formatDateTime } from '../../../lib/dateTimeFormat';

interface Props {
  id: number;
  version: number;
  dirty: boolean;
  onRestored: (a: SavedArticle) => void;
  onConflict: () => void;
}

/** The article's kept earlier versions, newest first, each with its time and author and a restore. */
export function Revisions({ id, version, dirty, onRestored, onConflict }: Props) {
  const { t, i18n } = useTranslation(BLOG_NS);
  const revs = useQuery({ queryKey: blogKeys.revisions(id), queryFn: ({ signal }) => listRevisions(id, signal) });
  const restore = useMutation({
    mutationFn: (rev: number) => restoreRevision(id, rev, version),
    onSuccess: (a) => {
      onRestored(a);
      toast.success(t('editor.restored'));
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 409) onConflict();
      toast.error(errorMessage(err, t('editor.state.error')));
    },
  });
  const when = (iso: string) => formatDateTime(iso, i18n.language);

  return (
    <section className="editor__revisions" aria-labelledby={`revisions-${id}`}>
      <h2 id={`revisions-${id}`}>{t('editor.revisions')}</h2>
      {revs.data && revs.data.length === 0 ? <p>{t('editor.noRevisions')}</p> : null}
      <ol className="editor__revision-list">
        {(revs.data ?? []).map((r) => (
          <li key={r.id} className="editor__revision">
            <span>
              <time dateTime={r.savedAt}>{when(r.savedAt)}</time> · {r.author || t('editor.unknownAuthor')} · {r.name}
            </span>
            <button
              type="button"
              className="btn btn--ghost"
              disabled={restore.isPending}
              aria-label={t('editor.restoreLabel', { when: when(r.savedAt) })}
              onClick={() => {
                if (dirty && !window.confirm(t('editor.leave'))) return;
                restore.mutate(r.id);
              }}
            >
              {t('editor.restore')}
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
