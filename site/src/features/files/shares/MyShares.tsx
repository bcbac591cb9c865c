import { useTranslation } from 'react-i18next';
import { useMyShares } from './api';
import { SHARES_NS } from './i18n';
import { ShareList } from './ShareList';
import './shares.css';

/** The profile's list of every share link the account made, revocable. */
export function MyShares() {
  const { t } = useTranslation(SHARES_NS);
  const shares = useMyShares();
  return (
    <section className="profile-section my-shares" aria-labelledby="my-shares-title">
      <h3 id="my-shares-title" className="profile-section__title">
        {t('mine.title')}
      </h3>
      <p className="profile-section__hint">{t('mine.hint')}</p>
      {shares.isError ? (
        <p role="alert">{t('panel.loadFailed')}</p>
      ) : shares.data && shares.data.length === 0 ? (
        <p>{t('panel.empty')}</p>
      ) : shares.data ? (
        <ShareList links={shares.data} showFile />
      ) : null}
    </section>
  );
}
