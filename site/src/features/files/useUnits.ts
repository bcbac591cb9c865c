import { useTranslation } from 'react-i18next';
import { BINARY_UNITS, type BinaryUnits } from './format';
import { FILES_NS } from './i18n';

/** The uploader's binary units in the page's language ("Б, КБ, МБ…" in Ukrainian). */
export function useBinaryUnits(): BinaryUnits {
  const { t } = useTranslation(FILES_NS);
  const list = t('uploader.units', { returnObjects: true }) as unknown;
  return Array.isArray(list) && list.length === 5 ? (list as unknown as BinaryUnits) : BINARY_UNITS;
}
