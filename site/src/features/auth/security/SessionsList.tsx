import { UAParser } from 'ua-parser-js';
import { useTranslation } from 'react-i18next';
import { useRevokeSession, useSessions, type SessionItem } from './api';
import { ACCOUNT_NS } from './i18n';
import { ListState } from './ListState';

/** A session's device in words, from its User-Agent ("Firefox 133 on Ubuntu"). */
export function deviceName(ua: string, t: (k: string, o?: Record<string, string>) => string): string {
  const r = new UAParser(ua).getResult();
  const browser = [r.browser.name, r.browser.major].filter(Boolean).join(' ');
  const os = [r.os.name, r.os.version].filter(Boolean).join(' ');
  if (!browser && !os) return t('sessions.unknownDevice');
  return t('sessions.device', { browser: browser || '?', os: os || '?' });
}

function when(iso: string, lang: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(lang);
}

/** The profile's list of the account's sessions, each revocable, and "sign out everywhere else". */
export function SessionsList() {
  const { t } = useTranslation(ACCOUNT_NS);
  const sessions = useSessions();
  return (
    <section className="profile-section sessions" aria-labelledby="sessions-title">
      <h3 id="sessions-title" className="profile-section__title">
        {t('sessions.title')}
      </h3>
      <p className="profile-section__hint">{t('sessions.hint')}</p>
      <ListState query={sessions} error={t('sessions.error')}>
        {(list) => <Sessions list={list} />}
      </ListState>
    </section>
  );
}

/** The sessions, each with its sign-out, and the sign-out of all the others. */
function Sessions({ list }: { list: SessionItem[] }) {
  const { t, i18n } = useTranslation(ACCOUNT_NS);
  const revoke = useRevokeSession();
  const others = list.filter((s) => !s.current).length;
  return (
    <>
      <ul className="sessions__list">
        {list.map((s) => (
          <li key={s.id} className="sessions__item">
            <div>
              <strong>{deviceName(s.userAgent, t)}</strong>
              {s.current ? <span className="badge sessions__current">{t('sessions.thisDevice')}</span> : null}
            </div>
            <dl className="sessions__meta">
              <dt>{t('sessions.ip')}</dt>
              <dd>{s.ip || '—'}</dd>
              <dt>{t('sessions.created')}</dt>
              <dd>{when(s.createdAt, i18n.language)}</dd>
              <dt>{t('sessions.lastUsed')}</dt>
              <dd>{when(s.lastUsedAt, i18n.language)}</dd>
            </dl>
            {s.current ? null : (
              <button
                type="button"
                className="btn"
                disabled={revoke.isPending}
                onClick={() => revoke.mutate(s.id)}
                aria-label={`${t('sessions.revoke')}: ${deviceName(s.userAgent, t)}`}
              >
                {t('sessions.revoke')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <button type="button" className="btn btn--danger" disabled={revoke.isPending} onClick={() => revoke.mutate('others')}>
          {t('sessions.revokeOthers')}
        </button>
      ) : null}
    </>
  );
}
