import type { TFunction } from 'i18next';
import { errorMessage } from '../../../lib/api';
import type { useProfile } from './useProfile';

/** Loading, error and "no profile yet" for the portfolio pages; null when the profile is there. */
export function ProfileState({ query, t }: { query: ReturnType<typeof useProfile>; t: TFunction }) {
  if (query.isPending) return <p role="status">{t('loading')}</p>;
  if (query.isError) {
    if ((query.error as { status?: number }).status === 404) return <p>{t('noProfile')}</p>;
    return <p role="alert">{t('error', { message: errorMessage(query.error) })}</p>;
  }
  return null;
}
