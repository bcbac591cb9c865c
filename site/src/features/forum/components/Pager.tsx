import { useTranslation } from 'react-i18next';
import { pageCount } from '../../../lib/pagination';
import { FORUM_NS } from '../i18n';

/** Previous / next through a paged list, with where the reader is. */
export function Pager({ page, total, pageSize, onPage }: { page: number; total: number; pageSize: number; onPage: (p: number) => void }) {
  const { t } = useTranslation(FORUM_NS);
  const pages = pageCount(total, pageSize);
  if (pages <= 1) return null;
  return (
    <nav className="forum-pager" aria-label={t('pageOf', { page, pages })}>
      <button type="button" className="btn" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('prev')}
      </button>
      <span>{t('pageOf', { page, pages })}</span>
      <button type="button" className="btn" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('next')}
      </button>
    </nav>
  );
}
