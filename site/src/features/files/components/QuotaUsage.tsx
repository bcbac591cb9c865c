import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../lib/auth';
import { useQuota } from '../api';
import { FILES_NS } from '../i18n';
import type { Quota } from '../../../lib/quotaRefusal';
import { quotaFill, quotaUsageText } from '../quota';
import { useBinaryUnits } from '../useUnits';
import '../resumable.css';

const LIKELY_USER: Quota = { used: { bytes: 0, files: 0 }, limit: { bytes: 10 * 2 ** 30, files: 10_000 } };
const LIKELY_ADMIN: Quota = { used: { bytes: 0, files: 0 }, limit: { bytes: null, files: null } };

/**
 * The signed-in user's storage: "2.10 GB of 10.00 GB used, 123 of 10,000 files" (or unlimited),
 * with a meter of the tighter limit. Shown in the uploader and on the profile page; nothing when
 * the server cannot say. While it loads its place is kept — a line and a meter of the usual
 * size, unseen — so what follows it (the uploader's buttons, the profile's sections) does not
 * jump when it arrives (layout shift).
 */
export function QuotaUsage({ className = '' }: { className?: string }) {
  const { t, i18n } = useTranslation(FILES_NS);
  const units = useBinaryUnits();
  const { data, isLoading } = useQuota();
  const { isAdmin } = useAuth();
  if (!data && !isLoading) return null;
  // Loading: a likely answer in its place — admins are unlimited unless given a quota (no meter),
  // users have the site's default limits.
  const shown = data ?? (isAdmin ? LIKELY_ADMIN : LIKELY_USER);
  const fill = quotaFill(shown);
  const text = quotaUsageText(shown, t, units, i18n.language);
  return (
    <div
      className={['files-quota', data ? '' : 'files-quota--pending', className].filter(Boolean).join(' ')}
      aria-hidden={data ? undefined : true}
    >
      <p className="files-quota__text" data-testid={data ? 'quota-usage' : undefined}>
        <span className="files-quota__label">{t('quota.title')}</span> {text}
      </p>
      {fill !== null ? (
        <meter
          className="files-quota__meter"
          min={0}
          max={1}
          low={0.75}
          high={0.9}
          optimum={0}
          value={fill}
          aria-label={t('quota.meterLabel')}
        />
      ) : null}
    </div>
  );
}
