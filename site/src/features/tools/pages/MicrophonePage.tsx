import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/ui/Page';
import { DELAY_DEFAULT_S, DELAY_MAX_S, DELAY_MIN_S, clampDelay, formatDbfs, formatPercent } from '../microphone/audioMath';
import { MIC_NS } from '../microphone/i18n';
import { MicMonitor } from '../microphone/MicMonitor';
import { RecordingList } from '../microphone/RecordingList';
import { useDelayedPlayback } from '../microphone/useDelayedPlayback';
import { useMicrophones, type Processing } from '../microphone/useMicrophones';
import { useNoiseMeasurement } from '../microphone/useNoiseMeasurement';
import { useRecorder } from '../microphone/useRecorder';
import '../microphone/microphone.css';

/** Errors go away on their own after 5 s. */
const ERROR_CLEAR_MS = 5000;
const PROCESSING_OPTIONS: Array<keyof Processing> = ['echoCancellation', 'noiseSuppression', 'autoGainControl'];

/**
 * /tools/microphone: tick microphones to see their waveform, spectrum and dBFS
 * level; record the one selected microphone to webm, play back with a delay, measure the noise
 * floor. Everything stays in the browser — no recording or sample leaves the page.
 */
export default function MicrophonePage() {
  const { t, i18n } = useTranslation(MIC_NS);
  const { t: tShell } = useTranslation();
  const mic = useMicrophones();
  const { devices, status, selected, inputs, error, setError } = mic;
  const exactlyOne = selected.length === 1;
  const single = exactlyOne ? (inputs.find((i) => i.deviceId === selected[0]) ?? null) : null;

  const onStartError = useCallback(() => setError('errors.recordingStart'), [setError]);
  const recorder = useRecorder(single?.stream ?? null, onStartError);
  const noise = useNoiseMeasurement(inputs);
  const [delayOn, setDelayOn] = useState(false);
  const [delay, setDelay] = useState(DELAY_DEFAULT_S);
  useDelayedPlayback(mic.audioContext.current, single, delayOn && exactlyOne, delay);

  useEffect(() => {
    if (!error) return;
    const id = setTimeout(() => setError(null), ERROR_CLEAR_MS);
    return () => clearTimeout(id);
  }, [error, setError]);

  const labelOf = (deviceId: string) => {
    const i = devices.findIndex((d) => d.deviceId === deviceId);
    return devices[i]?.label || t('fallbackLabel', { n: i + 1 });
  };

  const onRecord = () => {
    if (recorder.recording) {
      recorder.stop();
      return;
    }
    if (!exactlyOne) {
      setError('errors.exactlyOne');
      return;
    }
    if (!single) {
      setError('errors.recordingStart');
      return;
    }
    setError(null);
    recorder.start(single.settings);
  };

  return (
    <Page title={tShell('toolsItems.microphone')} lead={t('lead')} className="mic-page">
      {error ? (
        <p className="mic-error" role="alert">
          {t(error)}
        </p>
      ) : null}

      <section className="mic-section" aria-labelledby="mic-devices">
        <h2 id="mic-devices">{t('devices.title')}</h2>
        {status === 'loading' ? <p>{t('devices.loading')}</p> : null}
        {status === 'none' ? <p className="mic-empty">{t('errors.noDevices')}</p> : null}
        {devices.length ? (
          <ul className="mic-devices">
            {devices.map((d, i) => (
              <li key={d.deviceId}>
                <label>
                  <input type="checkbox" checked={selected.includes(d.deviceId)} onChange={() => mic.toggle(d.deviceId)} />{' '}
                  {d.label || t('fallbackLabel', { n: i + 1 })}
                </label>
              </li>
            ))}
          </ul>
        ) : null}
        <fieldset className="mic-processing">
          <legend>{t('processing.title')}</legend>
          {PROCESSING_OPTIONS.map((opt) => (
            <label key={opt}>
              <input type="checkbox" checked={mic.processing[opt]} onChange={(e) => mic.setOption(opt, e.target.checked)} />{' '}
              {t(`settings.${opt}`)}
            </label>
          ))}
          <p className="mic-hint">{t('processing.hint')}</p>
        </fieldset>
      </section>

      <section className="mic-section" aria-labelledby="mic-live">
        <h2 id="mic-live">{t('monitor.heading')}</h2>
        {inputs.length ? (
          inputs.map((input) => <MicMonitor key={input.deviceId} input={input} label={labelOf(input.deviceId)} />)
        ) : (
          <p className="mic-empty">{t('monitor.none')}</p>
        )}
      </section>

      <section className="mic-section" aria-labelledby="mic-controls">
        <h2 id="mic-controls">{t('controls.title')}</h2>
        <div className="mic-controls">
          <button type="button" className={recorder.recording ? 'btn btn--danger' : 'btn btn--primary'} onClick={onRecord}>
            {recorder.recording ? t('controls.stop') : t('controls.record')}
          </button>
          {recorder.recording ? (
            <span className="mic-recording-dot" role="status">
              {t('controls.recording')}
            </span>
          ) : null}
        </div>

        <div className="mic-delay">
          <label>
            <input
              type="checkbox"
              role="switch"
              checked={delayOn && exactlyOne}
              disabled={!exactlyOne}
              onChange={(e) => {
                mic.audioContext.current?.resume().catch(() => undefined);
                setDelayOn(e.target.checked);
              }}
            />{' '}
            {t('delay.switch')}
          </label>
          {!exactlyOne ? <p className="mic-hint">{t('delay.hint')}</p> : null}
          <label className="mic-delay__slider">
            {t('delay.slider', { seconds: delay })}
            <input
              type="range"
              min={DELAY_MIN_S}
              max={DELAY_MAX_S}
              step={1}
              value={delay}
              disabled={!exactlyOne}
              onChange={(e) => setDelay(clampDelay(e.target.value))}
            />
          </label>
        </div>

        <div className="mic-noise">
          <button type="button" className="btn" disabled={selected.length === 0 || inputs.length === 0 || noise.measuring} onClick={() => void noise.measure()}>
            {noise.measuring ? t('noise.measuring') : t('noise.measure')}
          </button>
          <ul className="mic-noise__results" aria-label={t('noise.results')}>
            {inputs
              .filter((i) => noise.results[i.deviceId])
              .map((i) => {
                const r = noise.results[i.deviceId];
                return (
                  <li key={i.deviceId} data-testid="noise-result">
                    {t('noise.result', { name: labelOf(i.deviceId), percent: formatPercent(r.percent, i18n.language), dbfs: formatDbfs(r.dbfs, i18n.language) })}
                  </li>
                );
              })}
          </ul>
        </div>
      </section>

      <section className="mic-section" aria-labelledby="mic-recordings">
        <h2 id="mic-recordings">{t('recordings.title')}</h2>
        <RecordingList recordings={recorder.recordings} onDelete={recorder.remove} />
      </section>
    </Page>
  );
}
