import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../../lib/numberFormat';
import { aspectRatio, buildReport, megapixels, reportFileName, type ScanResult } from '../report';

type AnyRecord = Record<string, unknown>;

interface Props {
  track: MediaStreamTrack | null;
  /** The measured frame rate (null while measuring); undefined when the browser cannot measure. */
  fps: number | null | undefined;
  scan: readonly ScanResult[];
}

function downloadJson(data: unknown, name: string) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** What the running track really delivers, and the report download. */
export function CameraReport({ track, fps, scan }: Props) {
  const { t, i18n } = useTranslation('camera');
  const num = (v: number, digits: number) => formatNumber(v, i18n.language, digits);
  const [includeLabel, setIncludeLabel] = useState(false);
  const settings = (track?.getSettings() ?? null) as AnyRecord | null;
  const caps = (track && typeof track.getCapabilities === 'function' ? track.getCapabilities() : null) as AnyRecord | null;
  const w = typeof settings?.width === 'number' ? settings.width : 0;
  const h = typeof settings?.height === 'number' ? settings.height : 0;
  const facing = typeof settings?.facingMode === 'string' ? settings.facingMode : '';
  const maxW = (caps?.width as { max?: number } | undefined)?.max;
  const maxH = (caps?.height as { max?: number } | undefined)?.max;

  const fpsText =
    fps === undefined ? t('report.notMeasurable') : fps === null ? t('report.measuring') : t('report.fpsValue', { fps: num(fps, 1) });
  const facingText =
    facing === 'user' ? t('report.facingUser') : facing === 'environment' ? t('report.facingEnvironment') : t('report.facingUnknown');

  const exportReport = () => {
    const now = new Date();
    const report = buildReport({
      now,
      label: track?.label ?? null,
      settings,
      capabilities: caps,
      measuredFps: fps ?? null,
      scan,
      includeLabel,
    });
    downloadJson(report, reportFileName(now.getTime()));
  };

  return (
    <section className="camera-panel" aria-labelledby="camera-report-title">
      <h2 id="camera-report-title" className="camera-panel__title">
        {t('report.title')}
      </h2>
      {!track ? (
        <p className="camera-muted">{t('report.empty')}</p>
      ) : (
        <dl className="camera-report">
          <dt>{t('report.resolution')}</dt>
          <dd data-testid="camera-resolution">{w && h ? `${w}×${h}` : '—'}</dd>
          <dt>{t('report.fps')}</dt>
          <dd data-testid="camera-fps">{fpsText}</dd>
          <dt>{t('report.negotiated')}</dt>
          <dd>{typeof settings?.frameRate === 'number' ? t('report.fpsValue', { fps: num(settings.frameRate, 1) }) : '—'}</dd>
          <dt>{t('report.aspect')}</dt>
          <dd>{w && h ? `${aspectRatio(w, h)} (${num(w / h, 2)})` : '—'}</dd>
          <dt>{t('report.megapixels')}</dt>
          <dd>{w && h ? t('report.mpValue', { mp: num(megapixels(w, h), 2) }) : '—'}</dd>
          <dt>{t('report.maxResolution')}</dt>
          <dd>{maxW && maxH ? `${maxW}×${maxH}` : '—'}</dd>
          <dt>{t('report.label')}</dt>
          <dd>{track.label || '—'}</dd>
          <dt>{t('report.facing')}</dt>
          <dd>{facingText}</dd>
        </dl>
      )}
      <div className="camera-row">
        <label className="camera-check">
          <input type="checkbox" checked={includeLabel} onChange={(e) => setIncludeLabel(e.target.checked)} />
          {t('report.includeLabels')}
        </label>
        <button type="button" className="btn" onClick={exportReport} disabled={!track && scan.length === 0}>
          {t('report.export')}
        </button>
      </div>
    </section>
  );
}
