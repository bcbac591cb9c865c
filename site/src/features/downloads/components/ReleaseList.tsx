import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DownloadRelease } from '../api';
import { formatDate, formatSize } from '../format';
import { DOWNLOADS_NS } from '../i18n';

type CopyState = 'idle' | 'copied' | 'failed';

/** Copies a checksum; the result is announced in the button itself. */
export function CopyHash({ hash, name }: { hash: string; name: string }) {
  const { t } = useTranslation(DOWNLOADS_NS);
  const [state, setState] = useState<CopyState>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const id = window.setTimeout(() => setState('idle'), 2000);
    return () => window.clearTimeout(id);
  }, [state]);
  async function copy() {
    try {
      await navigator.clipboard.writeText(hash);
      setState('copied');
    } catch {
      setState('failed');
    }
  }
  return (
    <button type="button" className="btn btn--small dl-copy" aria-label={t('file.copy', { name })} onClick={() => void copy()}>
      <span aria-live="polite">{state === 'copied' ? t('file.copied') : state === 'failed' ? t('file.copyFailed') : t('file.copyShort')}</span>
    </button>
  );
}

/** One release: its version, date, notes and files with system, architecture, size, SHA-256 and count. */
export function ReleaseView({ release, headingLevel = 3, onDelete }: { release: DownloadRelease; headingLevel?: 2 | 3; onDelete?: () => void }) {
  const { t, i18n } = useTranslation(DOWNLOADS_NS);
  const units = t('units', { returnObjects: true }) as unknown as string[];
  const H = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="dl-release" aria-label={t('detail.version', { version: release.version })}>
      <header className="dl-release__head">
        <H className="dl-release__title">{t('detail.version', { version: release.version })}</H>
        <span className="dl-release__date">{t('detail.released', { date: formatDate(release.date, i18n.language) })}</span>
        {onDelete ? (
          <button type="button" className="btn btn--small btn--danger" onClick={onDelete}>
            {t('admin.deleteRelease', { version: release.version })}
          </button>
        ) : null}
      </header>
      {release.notesHtml ? (
        <div className="dl-release__notes prose" dangerouslySetInnerHTML={{ __html: release.notesHtml }} />
      ) : release.notes ? (
        <p className="dl-release__notes">{release.notes}</p>
      ) : null}
      <ul className="dl-files" aria-label={t('detail.files')}>
        {release.files.map((f) => (
          <li key={f.id} className="dl-file">
            <a className="dl-file__name" href={f.url} download={f.name} aria-label={t('file.get', { name: f.name })}>
              {f.name}
            </a>
            <span className="dl-file__meta">
              <span>{t(`fileSystems.${f.system}`)}</span>
              <span>{t(`archs.${f.arch}`)}</span>
              <span>{formatSize(f.size, Array.isArray(units) ? units : ['B', 'KB', 'MB', 'GB'], i18n.language)}</span>
              <span>{t('list.downloads', { count: f.downloads })}</span>
            </span>
            <span className="dl-file__hash">
              <span className="dl-file__hash-label">{t('file.sha256')}</span>
              <code className="dl-file__sha" translate="no">
                {f.sha256}
              </code>
              <CopyHash hash={f.sha256} name={f.name} />
            </span>
          </li>
        ))}
      </ul>
    </article>
  );
}

/** The latest release, then the older ones (newest first). */
export function ReleaseList({ releases, onDelete }: { releases: readonly DownloadRelease[]; onDelete?: (version: string) => void }) {
  const { t } = useTranslation(DOWNLOADS_NS);
  if (releases.length === 0) return <p>{t('detail.noFiles')}</p>;
  const [latest, ...older] = releases;
  return (
    <div className="dl-releases">
      <section aria-labelledby="dl-latest">
        <h2 id="dl-latest">{t('detail.latest')}</h2>
        <ReleaseView release={latest} onDelete={onDelete ? () => onDelete(latest.version) : undefined} />
      </section>
      {older.length > 0 ? (
        <section aria-labelledby="dl-older">
          <h2 id="dl-older">{t('detail.older')}</h2>
          {older.map((r) => (
            <ReleaseView key={r.version} release={r} onDelete={onDelete ? () => onDelete(r.version) : undefined} />
          ))}
        </section>
      ) : null}
    </div>
  );
}
