import { useTranslation } from 'react-i18next';
import { FILES_NS } from '../i18n';

interface Props {
  count: number;
  busy: boolean;
  onDownload: () => void;
  onClear: () => void;
}

/** What is chosen in the list and what can be done with it: one zip download, or a fresh start. */
export function SelectionBar({ count, busy, onDownload, onClear }: Props) {
  const { t } = useTranslation(FILES_NS);
  if (count === 0) return null;
  return (
    <div className="files-selection" role="region" aria-label={t('select.count', { count })}>
      <span className="files-selection__count" role="status">
        {t('select.count', { count })}
      </span>
      <button type="button" className="btn btn--primary" onClick={onDownload} disabled={busy}>
        {t('select.download')}
      </button>
      <button type="button" className="btn" onClick={onClear}>
        {t('select.clear')}
      </button>
    </div>
  );
}
