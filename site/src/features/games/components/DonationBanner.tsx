import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteSettings } from '../../../lib/site';
import { GAMES_NS } from '../i18n';

/**
 * The donation banner: a TRC20 wallet, UAH and USD cards and a QR image of the wallet, all from
 * the server's configuration (GET /api/site → donation) — no payment details live in the code.
 * The QR code is drawn here, in the browser.
 */
export function DonationBanner() {
  const { t } = useTranslation(GAMES_NS);
  const settings = useSiteSettings();
  const d = settings?.donation;
  const wallet = d?.trc20Wallet?.trim() ?? '';
  const [qr, setQr] = useState<string | null>(null);
  const [copied, setCopied] = useState<string | null>(null);

  useEffect(() => {
    let alive = true;
    setQr(null);
    if (!wallet) return;
    void import('qrcode')
      .then((m) => m.toDataURL(wallet, { margin: 1, width: 160, errorCorrectionLevel: 'M' }))
      .then((url) => {
        if (alive) setQr(url);
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [wallet]);

  const rows = [
    ['wallet', wallet],
    ['cardUAH', d?.cardUAH?.trim() ?? ''],
    ['cardUSD', d?.cardUSD?.trim() ?? ''],
  ].filter(([, v]) => v) as Array<['wallet' | 'cardUAH' | 'cardUSD', string]>;
  if (rows.length === 0) return null;

  const copy = (label: string, value: string) => {
    void navigator.clipboard?.writeText(value).then(() => {
      setCopied(label);
      window.setTimeout(() => setCopied(null), 2000);
    });
  };

  return (
    <aside className="games-donation" aria-labelledby="games-donation-title">
      <div className="games-donation__body">
        <h2 id="games-donation-title" className="games-donation__title">
          {t('donation.title')}
        </h2>
        <p className="games-muted">{t('donation.text')}</p>
        <dl className="games-donation__list">
          {rows.map(([label, value]) => (
            <div key={label} className="games-donation__row">
              <dt>{t(`donation.${label}`)}</dt>
              <dd>
                <code>{value}</code>
                <button type="button" className="btn games-copy" onClick={() => copy(label, value)}>
                  {copied === label ? t('donation.copied') : t('donation.copy')}
                </button>
              </dd>
            </div>
          ))}
        </dl>
      </div>
      {qr ? <img className="games-donation__qr" src={qr} alt={t('donation.qrAlt')} width={160} height={160} /> : null}
    </aside>
  );
}
