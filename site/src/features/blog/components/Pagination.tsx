import { useTranslation } from 'react-i18next';
import { BLOG_NS } from '../i18n';
import { pageItems } from '../../../lib/pagination';

interface Props {
  page: number;
  pages: number;
  onChange: (page: number) => void;
}

/** 1 … current-1 current current+1 … last, with previous/next buttons. */
export function Pagination({ page, pages, onChange }: Props) {
  const { t } = useTranslation(BLOG_NS);
  if (pages <= 1) return null;
  return (
    <nav className="blog-pager" aria-label={t('pagination.label')}>
      <button
        type="button"
        className="btn blog-pager__step"
        onClick={() => onChange(page - 1)}
        disabled={page <= 1}
        aria-label={t('pagination.previous')}
      >
        ‹
      </button>
      <ul className="blog-pager__list">
        {pageItems(page, pages).map((item, i) =>
          item === 'ellipsis' ? (
            <li key={`gap-${i}`} className="blog-pager__gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item}>
              <button
                type="button"
                className={item === page ? 'btn btn--primary blog-pager__page' : 'btn blog-pager__page'}
                aria-current={item === page ? 'page' : undefined}
                aria-label={t('pagination.page', { page: item })}
                onClick={() => onChange(item)}
              >
                {item}
              </button>
            </li>
          ),
        )}
      </ul>
      <button
        type="button"
        className="btn blog-pager__step"
        onClick={() => onChange(page + 1)}
        disabled={page >= pages}
        aria-label={t('pagination.next')}
      >
        ›
      </button>
    </nav>
  );
}
