import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DBFS_FLOOR,
  barHeights,
  clipWarning,
  formatDbfs,
  isClipping,
  logSpectrumBars,
  nextPeakHold,
  peak,
  rms,
  toDbfs,
  type PeakHold,
} from './audioMath';
import { formatNumber } from '../../../lib/numberFormat';
import { MIC_NS } from './i18n';
import type { MicInput } from './useMicrophones';

const SPECTRUM_BARS = 48;
/** The meter's text is refreshed ten times a second; the canvases every frame. */
const METER_UPDATE_MS = 100;
/** A clipping warning stays up this long after the last clipped block. */
const CLIP_SHOW_MS = 2000;

interface Meter {
  rmsDb: number;
  peakDb: number;
  hold: PeakHold | null;
  clipAt: number | null;
}

/** Where a dBFS value sits on the meter, 0…1 over DBFS_FLOOR…0 dBFS. */
export function meterFraction(db: number): number {
  return Math.min(1, Math.max(0, (db - DBFS_FLOOR) / -DBFS_FLOOR));
}

function drawWaveform(canvas: HTMLCanvasElement, samples: Float32Array) {
  const g = canvas.getContext('2d');
  if (!g) return;
  const { width: w, height: h } = canvas;
  g.clearRect(0, 0, w, h);
  g.strokeStyle = getComputedStyle(canvas).color || '#3b82f6';
  g.lineWidth = 2;
  g.beginPath();
  for (let i = 0; i < samples.length; i++) {
    const x = (i / (samples.length - 1)) * w;
    const y = (1 - (samples[i] + 1) / 2) * h;
    if (i === 0) g.moveTo(x, y);
    else g.lineTo(x, y);
  }
  g.stroke();
}

function drawSpectrum(canvas: HTMLCanvasElement, heights: number[]) {
  const g = canvas.getContext('2d');
  if (!g) return;
  const { width: w, height: h } = canvas;
  g.clearRect(0, 0, w, h);
  g.fillStyle = getComputedStyle(canvas).color || '#10b981';
  const bw = w / heights.length;
  heights.forEach((v, i) => {
    const bh = v * h;
    g.fillRect(i * bw + 1, h - bh, Math.max(1, bw - 2), bh);
  });
}

/**
 * One selected microphone live: its waveform (time domain of the 2048-sample analyser), its
 * spectrum on a logarithmic frequency axis, a dBFS level meter with peak hold and a clipping
 * warning, and the settings its track really runs with.
 */
export function MicMonitor({ input, label }: { input: MicInput; label: string }) {
  const { t, i18n } = useTranslation(MIC_NS);
  const lang = i18n.language;
  const waveRef = useRef<HTMLCanvasElement>(null);
  const specRef = useRef<HTMLCanvasElement>(null);
  const [meter, setMeter] = useState<Meter>({ rmsDb: DBFS_FLOOR, peakDb: DBFS_FLOOR, hold: null, clipAt: null });

  useEffect(() => {
    if (typeof requestAnimationFrame === 'undefined') return;
    const { analyser } = input;
    const time = new Float32Array(analyser.fftSize);
    const freq = new Uint8Array(analyser.frequencyBinCount);
    const bars = logSpectrumBars(SPECTRUM_BARS, analyser.context.sampleRate, analyser.fftSize);
    let hold: PeakHold | null = null;
    let clipAt: number | null = null;
    let lastMeter = 0;
    let frame = 0;
    const tick = () => {
      frame = requestAnimationFrame(tick);
      analyser.getFloatTimeDomainData(time);
      analyser.getByteFrequencyData(freq);
      const now = performance.now();
      const peakDb = toDbfs(peak(time));
      hold = nextPeakHold(hold, peakDb, now);
      if (isClipping(time)) clipAt = now;
      if (waveRef.current) drawWaveform(waveRef.current, time);
      if (specRef.current) drawSpectrum(specRef.current, barHeights(freq, bars));
      if (now - lastMeter >= METER_UPDATE_MS) {
        lastMeter = now;
        const rmsDb = toDbfs(rms(time));
        setMeter({ rmsDb, peakDb, hold, clipAt: clipWarning(clipAt, now, rmsDb, CLIP_SHOW_MS) ? clipAt : null });
      }
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [input]);

  const s = input.settings;
  const onOff = (v: boolean | undefined) => (v === undefined ? t('settings.unknown') : v ? t('settings.on') : t('settings.off'));
  return (
    <article className="mic-monitor" aria-label={t('monitor.title', { name: label })}>
      <h3 className="mic-monitor__title">{label}</h3>
      <div className="mic-monitor__views">
        <figure className="mic-monitor__view">
          <canvas ref={waveRef} className="mic-monitor__wave" width={600} height={120} aria-label={t('monitor.waveform')} role="img" />
          <figcaption>{t('monitor.waveform')}</figcaption>
        </figure>
        <figure className="mic-monitor__view">
          <canvas ref={specRef} className="mic-monitor__spectrum" width={600} height={120} aria-label={t('monitor.spectrum')} role="img" />
          <figcaption>{t('monitor.spectrumAxis')}</figcaption>
        </figure>
      </div>
      <div className="mic-meter" data-testid="level-meter">
        <div
          className="mic-meter__bar"
          role="meter"
          aria-label={t('monitor.level')}
          aria-valuemin={DBFS_FLOOR}
          aria-valuemax={0}
          aria-valuenow={Math.round(meter.rmsDb)}
          aria-valuetext={formatDbfs(meter.rmsDb, lang)}
        >
          <span className="mic-meter__rest" style={{ left: `${meterFraction(meter.rmsDb) * 100}%` }} />
          {meter.hold ? <span className="mic-meter__hold" style={{ left: `${meterFraction(meter.hold.db) * 100}%` }} /> : null}
        </div>
        <dl className="mic-meter__figures">
          <dt>{t('monitor.rms')}</dt>
          <dd>{formatDbfs(meter.rmsDb, lang)}</dd>
          <dt>{t('monitor.peak')}</dt>
          <dd>{formatDbfs(meter.peakDb, lang)}</dd>
          <dt>{t('monitor.peakHold')}</dt>
          <dd>{formatDbfs(meter.hold?.db ?? DBFS_FLOOR, lang)}</dd>
        </dl>
        {meter.clipAt !== null ? (
          <p className="mic-meter__clip" role="status">
            {t('monitor.clipping')}
          </p>
        ) : null}
      </div>
      <dl className="mic-settings" aria-label={t('settings.title')}>
        <dt>{t('settings.sampleRate')}</dt>
        <dd>{s.sampleRate ? t('settings.hz', { value: s.sampleRate }) : t('settings.unknown')}</dd>
        <dt>{t('settings.channelCount')}</dt>
        <dd>{s.channelCount ?? t('settings.unknown')}</dd>
        <dt>{t('settings.latency')}</dt>
        <dd>{typeof s.latency === 'number' ? t('settings.ms', { value: formatNumber(s.latency * 1000, lang, 1) }) : t('settings.unknown')}</dd>
        <dt>{t('settings.echoCancellation')}</dt>
        <dd>{onOff(s.echoCancellation)}</dd>
        <dt>{t('settings.noiseSuppression')}</dt>
        <dd>{onOff(s.noiseSuppression)}</dd>
        <dt>{t('settings.autoGainControl')}</dt>
        <dd>{onOff(s.autoGainControl)}</dd>
      </dl>
    </article>
  );
}
