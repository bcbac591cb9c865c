import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from '../../../lib/toast';
import { useRevokeShare, type ShareLink } from './api';
import { SHARES_NS } from './i18n';

function when(iso: string, lang: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(lang);
}

/** A table of share links, each with its state and, while active, copy and revoke. */
export function ShareList({ links, showFile = false }: { links: ShareLink[]; showFile?: boolean }) {
  const { t, i18n } = useTranslation(SHARES_NS);
  const revoke = useRevokeShare();
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      toast.success(t('list.copied'));
    } catch {
      /* the link is on screen to copy by hand */
    }
  };
  return (
    // a scroll region of its own when wider than the window, reachable and scrolled by keyboard
    <div className="share-list__scroll" role="region" aria-label={t('panel.title')} tabIndex={0}>
      <table className="share-list">
        <thead>
          <tr>
            {showFile ? <th scope="col">{t('list.file')}</th> : null}
            <th scope="col">{t('list.link')}</th>
            <th scope="col">{t('list.state')}</th>
            <th scope="col">{t('list.expires')}</th>
            <th scope="col">{t('list.downloads')}</th>
            <th scope="col">{t('list.password')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('list.revoke')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {links.map((l) => (
            <tr key={l.token} data-state={l.state}>
              {showFile ? (
                <td>
                  <Link to={`/filecloud/${l.fileId}`}>{l.fileName || `#${l.fileId}`}</Link>
                </td>
              ) : null}
              <td className="share-list__url">
                <code>{l.url}</code>
              </td>
              <td>{t(`list.states.${l.state}`)}</td>
              <td>
                <time dateTime={l.expiresAt}>{when(l.expiresAt, i18n.language)}</time>
              </td>
              <td>{l.maxDownloads === null ? l.downloads : `${l.downloads} / ${l.maxDownloads}`}</td>
              <td>{l.hasPassword ? t('list.yes') : t('list.no')}</td>
              <td className="share-list__actions">
                {l.state === 'active' ? (
                  <>
                    <button type="button" className="btn" onClick={() => copy(l.url)}>
                      {t('list.copy')}
                    </button>
                    <button
                      type="button"
                      className="btn btn--danger"
                      disabled={revoke.isPending}
                      aria-label={t('list.revokeLabel', { token: l.token.slice(0, 6) })}
                      onClick={() => revoke.mutate(l.token, { onError: () => toast.error(t('list.revokeFailed')) })}
                    >
                      {t('list.revoke')}
                    </button>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
