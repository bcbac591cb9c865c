import { useTranslation } from 'react-i18next';
import { useQuota } from '../api';
import { FILES_NS } from '../i18n';
import { quotaFill, quotaUsageText } from '../quota';
import { useBinaryUnits } from '../useUnits';
import '../resumable.css';

/**
 * The signed-in user's storage: "2.10 GB of 10.00 GB used, 123 of 10,000 files" (or unlimited),
 * with a meter of the tighter limit. Shown in the uploader and on the profile page; nothing while
 * it loads or when the server cannot say.
 */
export function QuotaUsage({ className = '' }: { className?: string }) {
  const { t, i18n } = useTranslation(FILES_NS);
  const units = useBinaryUnits();
  const { data } = useQuota();
  if (!data) return null;
  const fill = quotaFill(data);
  const text = quotaUsageText(data, t, units, i18n.language);
  return (
    <div className={`files-quota ${className}`.trim()}>
      <p className="files-quota__text" data-testid="quota-usage">
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
