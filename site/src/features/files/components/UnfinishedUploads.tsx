import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { useDiscardUnfinished, useUnfinishedUploads } from '../api';
import { formatBinary } from '../format';
import { FILES_NS } from '../i18n';
import { useBinaryUnits } from '../useUnits';

/**
 * Large uploads this browser began and the server still keeps (after a reload or a closed tab):
 * how far each got, a hint to pick the same file again to continue, and a way to discard one
 * (deleted on the server at once instead of after files.tus_expiry).
 */
export function UnfinishedUploads() {
  const { t, i18n } = useTranslation(FILES_NS);
  const units = useBinaryUnits();
  const titleId = useId();
  const { data } = useUnfinishedUploads();
  const discard = useDiscardUnfinished();
  if (!data?.length) return null;
  return (
    <section className="files-unfinished" aria-labelledby={titleId}>
      <p id={titleId} className="files-resumable__note">
        {t('unfinished.title')}
      </p>
      <ul className="files-unfinished__list" data-testid="unfinished-uploads">
        {data.map((u) => (
          <li key={u.key} className="files-unfinished__item">
            <span>{t('unfinished.item', { name: u.name, done: formatBinary(u.offset, units, i18n.language), total: formatBinary(u.size, units, i18n.language) })}</span>
            <button
              type="button"
              className="btn btn--ghost"
              disabled={discard.isPending}
              aria-label={t('unfinished.discardLabel', { name: u.name })}
              onClick={() =>
                discard.mutate(u, { onError: (err) => toast.error(t('unfinished.discardError', { message: errorMessage(err) })) })
              }
            >
              {t('unfinished.discard')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
