import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/dateTimeFormat';
import type { ArticleSummary } from '../api';
import { BLOG_NS } from '../i18n';
import '../editor/editor.css';

/** Marks an article that readers do not see (a draft, or scheduled for later); nothing for a public one. */
export function StatusBadge({ article }: { article: Pick<ArticleSummary, 'status' | 'publishAt'> }) {
  const { t, i18n } = useTranslation(BLOG_NS);
  if (article.status !== 'draft' && article.status !== 'scheduled') return null;
  const when =
    article.status === 'scheduled' && article.publishAt
      ? formatDateTime(article.publishAt, i18n.language)
      : '';
  return (
    <span className={`blog-status blog-status--${article.status}`} data-status={article.status}>
      {article.status === 'draft' ? t('status.draft') : t('status.scheduledFor', { when })}
    </span>
  );
}
