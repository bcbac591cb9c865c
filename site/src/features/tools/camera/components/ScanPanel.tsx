import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../../lib/numberFormat';
import type { ResolutionScan } from '../useResolutionScan';

interface Props {
  scan: ResolutionScan;
  cancelled: boolean;
  onStart: () => void;
}

/** The resolution scan's button, progress and the modes the camera really delivered. */
export function ScanPanel({ scan, cancelled, onStart }: Props) {
  const { t, i18n } = useTranslation('camera');
  const finished = !scan.running && scan.done === scan.total;
  return (
    <section className="camera-panel" aria-labelledby="camera-scan-title">
      <h2 id="camera-scan-title" className="camera-panel__title">
        {t('scan.title')}
      </h2>
      <p className="camera-muted">{t('scan.hint')}</p>
      <div className="camera-row">
        {scan.running ? (
          <button type="button" className="btn" onClick={scan.cancel}>
            {t('scan.cancel')}
          </button>
        ) : (
          <button type="button" className="btn" onClick={onStart}>
            {t('scan.start')}
          </button>
        )}
      </div>
      {scan.running || scan.done > 0 ? (
        <div className="camera-scan__progress">
          <progress value={scan.done} max={scan.total} aria-label={t('scan.title')} />
          <span role="status">{t('scan.progress', { done: scan.done, total: scan.total })}</span>
        </div>
      ) : null}
      {cancelled && !scan.running ? <p className="camera-muted">{t('scan.cancelled')}</p> : null}
      {finished && scan.results.length === 0 ? <p className="camera-muted">{t('scan.none')}</p> : null}
      {scan.results.length > 0 ? (
        <table className="camera-table">
          <thead>
            <tr>
              <th scope="col">{t('scan.mode')}</th>
              <th scope="col">{t('scan.resolution')}</th>
              <th scope="col">{t('scan.fps')}</th>
            </tr>
          </thead>
          <tbody>
            {scan.results.map((r) => (
              <tr key={`${r.width}x${r.height}`}>
                <td>{r.name}</td>
                <td>{`${r.width}×${r.height}`}</td>
                <td>{r.fps === null ? '—' : formatNumber(r.fps, i18n.language, 1)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
