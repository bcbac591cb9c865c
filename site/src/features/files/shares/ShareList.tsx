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
      {/* Explicit roles: on a phone the CSS lays the rows out as cards, and a table whose display
          changed may lose its semantics in some browsers. */}
      <table className="share-list" role="table">
        <thead role="rowgroup">
          <tr role="row">
            {showFile ? <th scope="col" role="columnheader">{t('list.file')}</th> : null}
            <th scope="col" role="columnheader">{t('list.link')}</th>
            <th scope="col" role="columnheader">{t('list.state')}</th>
            <th scope="col" role="columnheader">{t('list.expires')}</th>
            <th scope="col" role="columnheader">{t('list.downloads')}</th>
            <th scope="col" role="columnheader">{t('list.password')}</th>
            <th scope="col" role="columnheader">
              <span className="visually-hidden">{t('list.revoke')}</span>
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {links.map((l) => (
            <tr key={l.token} data-state={l.state} role="row">
              {showFile ? (
                <td role="cell" data-label={t('list.file')}>
                  <Link to={`/filecloud/${l.fileId}`}>{l.fileName || `#${l.fileId}`}</Link>
                </td>
              ) : null}
              {/* on a phone the link is one line, cut with "…" (whole in its title; Copy copies it) */}
              <td className="share-list__url" role="cell" data-label={t('list.link')}>
                <code title={l.url}>{l.url}</code>
              </td>
              <td role="cell" data-label={t('list.state')}>
                {t(`list.states.${l.state}`)}
              </td>
              <td role="cell" data-label={t('list.expires')}>
                <time dateTime={l.expiresAt}>{when(l.expiresAt, i18n.language)}</time>
              </td>
              <td role="cell" data-label={t('list.downloads')}>
                {l.maxDownloads === null ? l.downloads : `${l.downloads} / ${l.maxDownloads}`}
              </td>
              <td role="cell" data-label={t('list.password')}>
                {l.hasPassword ? t('list.yes') : t('list.no')}
              </td>
              <td className="share-list__actions" role="cell">
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
