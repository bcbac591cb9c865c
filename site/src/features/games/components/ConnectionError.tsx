import { useTranslation } from 'react-i18next';
import { GAMES_NS } from '../i18n';

/** The screen shown when the ROM service cannot be reached at all. */
export function ConnectionError({ onRetry = () => window.location.reload() }: { onRetry?: () => void }) {
  const { t } = useTranslation(GAMES_NS);
  return (
    <div className="games-offline" role="alert">
      <h2 className="games-offline__title">{t('connectionError')}</h2>
      <p className="games-muted">{t('connectionHint')}</p>
      <button type="button" className="btn btn--primary" onClick={onRetry}>
        {t('retry')}
      </button>
    </div>
  );
}
