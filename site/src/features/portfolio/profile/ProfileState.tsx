import type { TFunction } from 'i18next';
import { Skeleton, SkeletonBox } from '../../../components/ui/Skeleton';
import { errorMessage } from '../../../lib/api';
import type { useProfile } from './useProfile';

/**
 * Loading, error and "no profile yet" for the portfolio pages; null when the profile is there.
 * Loading is a placeholder a screen tall: a page shows it alone under its title while pending,
 * because its lead line, language selector and sections all take their size from the profile.
 */
export function ProfileState({ query, t }: { query: ReturnType<typeof useProfile>; t: TFunction }) {
  if (query.isPending) {
    return (
      <Skeleton label={t('loading')} className="profile-skeleton">
        <SkeletonBox className="profile-skeleton__lead" />
        <SkeletonBox className="profile-skeleton__body" />
      </Skeleton>
    );
  }
  if (query.isError) {
    if ((query.error as { status?: number }).status === 404) return <p>{t('noProfile')}</p>;
    return <p role="alert">{t('error', { message: errorMessage(query.error) })}</p>;
  }
  return null;
}
