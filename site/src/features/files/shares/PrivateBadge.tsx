import { useTranslation } from 'react-i18next';
import type { FileItem } from '../api';
import { SHARES_NS } from './i18n';

/** Marks a private file in the lists (only its uploader and admins see it there). */
export function PrivateBadge({ file }: { file: Pick<FileItem, 'visibility'> }) {
  const { t } = useTranslation(SHARES_NS);
  if (file.visibility !== 'private') return null;
  return (
    <span className="badge files-row__private" title={t('visibility.private')}>
      {t('badge.private')}
    </span>
  );
}
