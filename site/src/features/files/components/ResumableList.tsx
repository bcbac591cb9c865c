import { useTranslation } from 'react-i18next';
import { formatBinary, formatSpeed } from '../format';
import { FILES_NS } from '../i18n';
import { useBinaryUnits } from '../useUnits';

/** Where one large file's resumable upload stands. */
export type ResumableStatus = 'waiting' | 'uploading' | 'retrying' | 'paused' | 'stalled' | 'done' | 'cancelled' | 'failed';

export interface ResumableItem {
  key: number;
  name: string;
  size: number;
  status: ResumableStatus;
  /** Bytes the server has or is receiving. */
  sent: number;
  /** Bytes per second since the last (re)start. */
  speed: number;
  /** Set when an upload from before a reload continued: the bytes the server already had. */
  resumedFrom: number | null;
  /** The earlier upload had expired on the server: this one started again from the beginning. */
  restarted: boolean;
  error: string | null;
}

/** Statuses in which the upload may still send bytes (and be paused). */
export const RUNNING: readonly ResumableStatus[] = ['waiting', 'uploading', 'retrying'];
/** Statuses that end an upload. */
export const SETTLED: readonly ResumableStatus[] = ['done', 'cancelled', 'failed'];

interface Props {
  items: ResumableItem[];
  onPause: (key: number) => void;
  onResume: (key: number) => void;
  onCancel: (key: number) => void;
}

/** Large files, one row each: progress and speed, pause, resume and cancel. */
export function ResumableList({ items, onPause, onResume, onCancel }: Props) {
  const { t, i18n } = useTranslation(FILES_NS);
  const units = useBinaryUnits();
  const size = (n: number) => formatBinary(n, units, i18n.language);
  if (!items.length) return null;
  return (
    <ul className="files-resumable" aria-label={t('resumable.listLabel')}>
      {items.map((it) => {
        const percent = it.status === 'done' ? 100 : it.size > 0 ? Math.min(99, Math.floor((it.sent / it.size) * 100)) : 0;
        let status: string;
        switch (it.status) {
          case 'waiting':
            status = t('resumable.waiting');
            break;
          case 'uploading':
            status = t('uploader.progress', { percent, speed: formatSpeed(it.speed, units, t('uploader.perSecond'), i18n.language) });
            break;
          case 'retrying':
            status = t('resumable.retrying', { percent });
            break;
          case 'paused':
            status = t('resumable.paused', { percent });
            break;
          case 'stalled':
            status = t('resumable.stalled', { percent });
            break;
          case 'done':
            status = t('resumable.done');
            break;
          case 'cancelled':
            status = t('resumable.cancelled');
            break;
          case 'failed':
            status = it.error ?? t('uploader.failed');
            break;
        }
        return (
          <li key={it.key} className="files-resumable__item" data-testid="resumable-upload" data-status={it.status}>
            <div className="files-resumable__head">
              <span className="files-resumable__name">{it.name}</span>
              <span>{t('resumable.of', { sent: size(it.status === 'done' ? it.size : it.sent), total: size(it.size) })}</span>
            </div>
            <progress max={100} value={percent} aria-label={t('resumable.progressLabel', { name: it.name })} />
            <span
              className={it.status === 'failed' ? 'files-resumable__error' : 'files-resumable__status'}
              role={it.status === 'failed' ? 'alert' : undefined}
              data-testid="resumable-status"
            >
              {status}
            </span>
            {it.resumedFrom !== null ? (
              <p className="files-resumable__note" role="status" data-testid="upload-resumed">
                {t('resumable.resumed', { done: size(it.resumedFrom), total: size(it.size) })}
              </p>
            ) : null}
            {it.restarted ? <p className="files-resumable__note">{t('resumable.restarted')}</p> : null}
            {SETTLED.includes(it.status) ? null : (
              <div className="files-resumable__buttons">
                {RUNNING.includes(it.status) ? (
                  <button type="button" className="btn" onClick={() => onPause(it.key)} aria-label={t('resumable.pauseLabel', { name: it.name })}>
                    {t('resumable.pause')}
                  </button>
                ) : (
                  <button type="button" className="btn" onClick={() => onResume(it.key)} aria-label={t('resumable.resumeLabel', { name: it.name })}>
                    {t('resumable.resume')}
                  </button>
                )}
                <button type="button" className="btn btn--ghost" onClick={() => onCancel(it.key)} aria-label={t('resumable.cancelLabel', { name: it.name })}>
                  {t('resumable.cancel')}
                </button>
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
