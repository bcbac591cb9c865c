import { useCallback, useEffect, useEffectEvent, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CustomFrequencyModal } from './CustomFrequencyModal';
import { formatNumber } from '../../../lib/numberFormat';
import { TONE_NS } from './i18n';
import { keyAction, keyBelongsToTarget } from './keys';
import { PresetList } from './PresetList';
import { addCustomPreset, makePreset, PRESET_CATEGORIES, type Preset } from './presets';
import {
  BANDS,
  bandFor,
  ERROR_CLEAR_MS,
  formatCents,
  formatFrequency,
  gainToPercent,
  loopSchedule,
  MAX_FREQUENCY,
  MIN_FREQUENCY,
  NOISE_COLORS,
  noteFor,
  nudgeFrequency,
  octaveStep,
  ONE_SHOT_SECONDS,
  parseFrequency,
  parseSweepSeconds,
  parseToneParams,
  percentToGain,
  semitoneStep,
  sweepFrequencyAt,
  toneParams,
  WAVEFORMS,
  type SweepMode,
  type Waveform,
} from './tone';
import { useToneEngine, type Sound, type ToneSource } from './useToneEngine';
import './tone.css';
import { Select, TextField } from '../../../components/ui/Field';

type ErrorKind = 'range' | 'audioInit' | 'playback';

/** How long the settings must rest before the address follows them. */
const URL_DELAY_MS = 300;

const BALANCE: Array<['left' | 'both' | 'right', number]> = [
  ['left', -1],
  ['both', 0],
  ['right', 1],
];

/**
 * The tone generator: one big play/stop button, the
 * band sliders, exact entry, volume, waveform, noise, balance, sweep and the presets with their
 * loop. The AudioContext lives in useToneEngine; this component holds the settings and the
 * timers (error clearing, the loop's cycle counter, the sweep read-out) and ends them all on unmount.
 */
export function ToneGenerator() {
  const { t, i18n } = useTranslation(TONE_NS);
  const [searchParams, setSearchParams] = useSearchParams();
  const [initial] = useState(() => parseToneParams(searchParams));

  const [frequency, setFrequencyState] = useState(initial.settings.frequency);
  const [waveform, setWaveformState] = useState<Waveform>(initial.settings.waveform);
  const [volume, setVolumeState] = useState(initial.settings.volume);
  const [source, setSource] = useState<ToneSource>('tone');
  const [pan, setPan] = useState(0);
  const [continuous, setContinuous] = useState(true);
  const [error, setError] = useState<ErrorKind | null>(null);
  const [linkNotice, setLinkNotice] = useState(initial.invalid.some((k) => k !== 'f'));
  const [activePreset, setActivePreset] = useState<string | null>(null);
  const [loop, setLoop] = useState<{ presetId: string; remaining: number } | null>(null);
  const [showExact, setShowExact] = useState(false);
  const [exactText, setExactText] = useState('');
  const [customOpen, setCustomOpen] = useState(false);
  const [customPresets, setCustomPresets] = useState<Preset[]>([]);
  const [sweepForm, setSweepForm] = useState({ from: '20', to: '20000', seconds: '10', mode: 'log' as SweepMode });
  const [sweepInvalid, setSweepInvalid] = useState(false);
  const [sweepNow, setSweepNow] = useState<number | null>(null);

  const errorTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const loopTimers = useRef<Array<ReturnType<typeof setTimeout>>>([]);
  const sweepRun = useRef<{ from: number; to: number; seconds: number; mode: SweepMode; started: number } | null>(null);
  /** The address follows the settings only after the visitor changes one (a plain visit keeps a clean URL). */
  const touched = useRef(false);

  const showError = useCallback((kind: ErrorKind) => {
    setError(kind);
    clearTimeout(errorTimer.current);
    errorTimer.current = setTimeout(() => setError(null), ERROR_CLEAR_MS);
  }, []);

  const engine = useToneEngine(showError);
  const { status } = engine;

  // An out-of-range frequency in the link falls back to the default and shows the spec's error.
  useEffect(() => {
    if (initial.invalid.includes('f')) showError('range');
    if (initial.invalid.length > 0) {
      const id = setTimeout(() => setLinkNotice(false), ERROR_CLEAR_MS);
      return () => clearTimeout(id);
    }
  }, [initial, showError]);

  const sound: Sound = useMemo(() => ({ source, frequency, waveform, volume, pan }), [source, frequency, waveform, volume, pan]);

  // Live changes while a tone plays: a change of the sound drives this, a change of the status
  // does not (starting a tone already plays the current sound).
  const applyLive = useEffectEvent((next: Sound) => {
    if (status === 'playing') engine.update(next);
  });
  useEffect(() => applyLive(sound), [sound]);

  // Settings in the address, so a tone is shared as a link. Written once the values rest for a
  // moment: a dragged slider would otherwise replace the history entry dozens of times a second,
  // which browsers throttle (Safari throws after 100 calls in 10 s).
  useEffect(() => {
    if (!touched.current) return;
    const id = setTimeout(() => setSearchParams(toneParams({ frequency, waveform, volume }), { replace: true }), URL_DELAY_MS);
    return () => clearTimeout(id);
  }, [frequency, waveform, volume, setSearchParams]);

  const setFrequency = (f: number) => {
    touched.current = true;
    setFrequencyState(f);
  };
  const setWaveform = (w: Waveform) => {
    touched.current = true;
    setWaveformState(w);
  };
  const setVolume = (v: number) => {
    touched.current = true;
    setVolumeState(v);
  };

  const cancelLoop = useCallback(() => {
    for (const id of loopTimers.current) clearTimeout(id);
    loopTimers.current = [];
    engine.cancelBeeps();
    setLoop(null);
  }, [engine]);

  useEffect(
    () => () => {
      clearTimeout(errorTimer.current);
      for (const id of loopTimers.current) clearTimeout(id);
    },
    [],
  );

  const play = (s: Sound) => engine.start(s, continuous ? undefined : ONE_SHOT_SECONDS);

  const togglePlay = () => {
    if (status !== 'stopped') {
      engine.stop();
      return;
    }
    if (error) return;
    cancelLoop();
    play(sound);
  };

  const playPreset = (p: Preset) => {
    cancelLoop();
    setActivePreset(p.id);
    setFrequency(p.frequency);
    setSource('tone');
    play({ ...sound, source: 'tone', frequency: p.frequency });
  };

  const loopPreset = (p: Preset) => {
    cancelLoop();
    engine.stop();
    setActivePreset(p.id);
    setFrequency(p.frequency);
    setSource('tone');
    const { steps, endAt } = loopSchedule();
    const ok = engine.beeps(
      { ...sound, source: 'tone', frequency: p.frequency },
      steps.map((s) => s.at / 1000),
      ONE_SHOT_SECONDS,
    );
    if (!ok) return;
    setLoop({ presetId: p.id, remaining: steps[0].remaining });
    loopTimers.current = [
      ...steps.slice(1).map((s) => setTimeout(() => setLoop({ presetId: p.id, remaining: s.remaining }), s.at)),
      setTimeout(() => {
        loopTimers.current = [];
        setLoop(null);
      }, endAt),
    ];
  };

  const submitExact = () => {
    const f = parseFrequency(exactText);
    if (f === null) {
      showError('range');
      return;
    }
    setActivePreset(null);
    setFrequency(f);
  };

  const startSweep = () => {
    const from = parseFrequency(sweepForm.from);
    const to = parseFrequency(sweepForm.to);
    const seconds = parseSweepSeconds(sweepForm.seconds);
    if (from === null || to === null || seconds === null) {
      setSweepInvalid(true);
      return;
    }
    setSweepInvalid(false);
    cancelLoop();
    if (engine.sweep(sound, from, to, seconds, sweepForm.mode)) {
      sweepRun.current = { from, to, seconds, mode: sweepForm.mode, started: performance.now() };
      setSweepNow(from);
    }
  };

  // The sweep's read-out follows the audio: the same pure curve, sampled ten times a second.
  useEffect(() => {
    if (status !== 'sweeping') {
      sweepRun.current = null;
      setSweepNow(null);
      return;
    }
    const id = setInterval(() => {
      const run = sweepRun.current;
      if (run) setSweepNow(sweepFrequencyAt((performance.now() - run.started) / 1000, run.from, run.to, run.seconds, run.mode));
    }, 100);
    return () => clearInterval(id);
  }, [status]);

  // Keyboard: Space play/stop, ←/→ nudge, ↑/↓ semitone (the latest handler, one listener).
  const onKey = useRef<(e: KeyboardEvent) => void>(() => undefined);
  onKey.current = (e: KeyboardEvent) => {
    if (customOpen || e.defaultPrevented) return;
    const action = keyAction(e);
    if (!action || keyBelongsToTarget(e.target, e.key)) return;
    e.preventDefault();
    if (action.type === 'toggle') {
      togglePlay();
      return;
    }
    setActivePreset(null);
    if (action.type === 'nudge') setFrequency(nudgeFrequency(frequency, action.direction, { shift: action.shift, fine: action.fine }));
    else setFrequency(semitoneStep(frequency, action.semitones));
  };
  // A layout effect runs in the same task as the commit, so the keys work as soon as the
  // page shows its frequency (a passive effect left a window in which a key was lost).
  useLayoutEffect(() => {
    const listener = (e: KeyboardEvent) => onKey.current(e);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const fmt = (f: number) => {
    const { value, unit } = formatFrequency(f, i18n.language);
    return `${value} ${t(unit === 'Hz' ? 'hz' : 'khz')}`;
  };
  const shown = sweepNow ?? frequency;
  const band = bandFor(shown);
  const note = noteFor(shown);
  const categories = useMemo(
    () => PRESET_CATEGORIES.map((c) => (c.id === 'custom' ? { ...c, presets: customPresets } : c)),
    [customPresets],
  );
  const isPlaying = status !== 'stopped';
  const playDisabled = !isPlaying && error !== null;

  return (
    <div className="tone">
      <div className="tone-main">
        <button
          type="button"
          className={`tone-play tone-play--${band}${isPlaying ? ' tone-play--on' : ''}`}
          aria-pressed={isPlaying}
          disabled={playDisabled}
          onClick={togglePlay}
        >
          <span className="tone-play__action">
            <span aria-hidden="true">{isPlaying ? '■' : '▶'}</span> {isPlaying ? t('stop') : t('play')}
          </span>{' '}
          <span className="tone-play__frequency" data-testid="tone-frequency">
            {fmt(shown)}
          </span>{' '}
          <span className="tone-play__meta">
            {source === 'tone' ? t(`waveforms.${waveform}.label`) : t(`sources.${source}`)} · {t(`bands.${band}`)}
          </span>
        </button>
        <div className="tone-main__side">
          <p className="tone-note" data-testid="tone-note">
            {t('note', { note: note.label, cents: formatCents(note.cents) })}
          </p>
          <div className="tone-row">
            <button type="button" className="btn" aria-label={`${t('octaveDown')} — ${t('octaveDownLabel')}`} title={t('octaveDownLabel')} onClick={() => { setActivePreset(null); setFrequency(octaveStep(frequency, -1)); }}>
              {t('octaveDown')}
            </button>
            <button type="button" className="btn" aria-label={`${t('octaveUp')} — ${t('octaveUpLabel')}`} title={t('octaveUpLabel')} onClick={() => { setActivePreset(null); setFrequency(octaveStep(frequency, 1)); }}>
              {t('octaveUp')}
            </button>
          </div>
          <label className="tone-check">
            <input type="checkbox" checked={continuous} onChange={(e) => setContinuous(e.target.checked)} />
            <span>{t('continuous')}</span>
          </label>
          {!continuous ? <p className="tone-muted">{t('oneShotHint')}</p> : null}
          {loop ? (
            <button type="button" className="btn btn--danger" onClick={cancelLoop} data-testid="tone-stop-loop">
              {t('stopLoop', { count: loop.remaining })}
            </button>
          ) : null}
        </div>
      </div>
      <p className="tone-muted tone-keys">{t('keysHint')}</p>

      <section className="tone-section" aria-labelledby="tone-bands">
        <h2 id="tone-bands" className="tone-section__title">{t('bandsTitle')}</h2>
        {BANDS.map((b) => {
          const active = b.id === band;
          const label = t('bandSlider', { band: t(`bands.${b.id}`), min: b.min, max: b.max });
          return (
            <label key={b.id} className={`tone-band${active ? ' tone-band--active' : ''}`} style={{ ['--band-color' as string]: b.color }}>
              <span className="tone-band__label">
                {label}
                {active ? <strong className="tone-band__badge"> · {t('activeBand')}</strong> : null}
              </span>
              <input
                type="range"
                min={b.min}
                max={b.max}
                step={1}
                value={Math.min(b.max, Math.max(b.min, frequency))}
                aria-label={label}
                onChange={(e) => {
                  setActivePreset(null);
                  setFrequency(Number(e.target.value));
                }}
              />
            </label>
          );
        })}
      </section>

      <section className="tone-section">
        <button
          type="button"
          className="btn"
          aria-expanded={showExact}
          aria-controls="tone-exact"
          onClick={() => {
            if (!showExact) setExactText(String(frequency));
            setShowExact(!showExact);
          }}
        >
          ⚙ {t('settings')}
        </button>
        {showExact ? (
          <form
            id="tone-exact"
            noValidate
            className="tone-form tone-form--inline"
            onSubmit={(e) => {
              e.preventDefault();
              submitExact();
            }}
          >
            <label className="tone-field">
              <span>{t('exactLabel')}</span>
              <TextField type="number" inputMode="decimal" step={0.01} min={MIN_FREQUENCY} max={MAX_FREQUENCY} value={exactText} onChange={(e) => setExactText(e.target.value)} />
            </label>
            <button type="submit" className="btn btn--primary">
              {t('set')}
            </button>
          </form>
        ) : null}
      </section>

      <section className="tone-section">
        <label className="tone-field tone-field--wide">
          <span>
            {t('volume')}: <output>{formatNumber(gainToPercent(volume), i18n.language, 2)} %</output>
          </span>
          <input
            type="range"
            min={0}
            max={100}
            step={0.01}
            value={gainToPercent(volume)}
            aria-label={t('volume')}
            aria-valuetext={`${formatNumber(gainToPercent(volume), i18n.language, 2)} %`}
            onChange={(e) => setVolume(percentToGain(Number(e.target.value)))} />
        </label>
      </section>

      <section className="tone-section" aria-labelledby="tone-waveform">
        <h2 id="tone-waveform" className="tone-section__title">{t('waveformTitle')}</h2>
        <div className="tone-row" role="group" aria-labelledby="tone-waveform">
          {WAVEFORMS.map((w) => (
            <button key={w} type="button" className={`btn${w === waveform ? ' btn--primary' : ''}`} aria-pressed={w === waveform} title={t(`waveforms.${w}.description`)} onClick={() => setWaveform(w)}>
              {t(`waveforms.${w}.label`)}
            </button>
          ))}
        </div>
        <p className="tone-muted">{t(`waveforms.${waveform}.description`)}</p>
      </section>

      <section className="tone-section tone-columns">
        <div>
          <h2 id="tone-source" className="tone-section__title">{t('sourceTitle')}</h2>
          <div className="tone-row" role="group" aria-labelledby="tone-source">
            {(['tone', ...NOISE_COLORS] as ToneSource[]).map((s) => (
              <button key={s} type="button" className={`btn${s === source ? ' btn--primary' : ''}`} aria-pressed={s === source} onClick={() => setSource(s)}>
                {t(`sources.${s}`)}
              </button>
            ))}
          </div>
        </div>
        <div>
          <h2 id="tone-balance" className="tone-section__title">{t('balanceTitle')}</h2>
          <div className="tone-row" role="group" aria-labelledby="tone-balance">
            {BALANCE.map(([id, value]) => (
              <button key={id} type="button" className={`btn${value === pan ? ' btn--primary' : ''}`} aria-pressed={value === pan} onClick={() => setPan(value)}>
                {t(`balance.${id}`)}
              </button>
            ))}
          </div>
        </div>
      </section>

      <section className="tone-section" aria-labelledby="tone-sweep">
        <h2 id="tone-sweep" className="tone-section__title">{t('sweepTitle')}</h2>
        <form
          noValidate
          className="tone-form tone-form--inline"
          onSubmit={(e) => {
            e.preventDefault();
            startSweep();
          }}
        >
          <label className="tone-field">
            <span>{t('sweepFrom')}</span>
            <TextField type="number" step={0.01} min={MIN_FREQUENCY} max={MAX_FREQUENCY} value={sweepForm.from} onChange={(e) => setSweepForm({ ...sweepForm, from: e.target.value })} />
          </label>
          <label className="tone-field">
            <span>{t('sweepTo')}</span>
            <TextField type="number" step={0.01} min={MIN_FREQUENCY} max={MAX_FREQUENCY} value={sweepForm.to} onChange={(e) => setSweepForm({ ...sweepForm, to: e.target.value })} />
          </label>
          <label className="tone-field">
            <span>{t('sweepSeconds')}</span>
            <TextField type="number" step={0.1} min={0.1} max={600} value={sweepForm.seconds} onChange={(e) => setSweepForm({ ...sweepForm, seconds: e.target.value })} />
          </label>
          <label className="tone-field">
            <span>{t('sweepMode')}</span>
            <Select value={sweepForm.mode} onChange={(e) => setSweepForm({ ...sweepForm, mode: e.target.value as SweepMode })}>
              <option value="linear">{t('sweepModes.linear')}</option>
              <option value="log">{t('sweepModes.log')}</option>
            </Select>
          </label>
          {status === 'sweeping' ? (
            <button type="button" className="btn btn--danger" onClick={engine.stop}>
              {t('sweepStop')}
            </button>
          ) : (
            <button type="submit" className="btn btn--primary" disabled={error !== null}>
              {t('sweepStart')}
            </button>
          )}
        </form>
        {sweepInvalid ? <p className="tone-error" role="alert">{t('sweepInvalid')}</p> : null}
      </section>

      <section className="tone-section" aria-labelledby="tone-presets">
        <h2 id="tone-presets" className="tone-section__title">{t('presetsTitle')}</h2>
        <PresetList
          categories={categories}
          activeId={activePreset}
          disabled={error !== null}
          format={fmt}
          onPlay={playPreset}
          onLoop={loopPreset}
          onCustom={() => setCustomOpen(true)}
        />
      </section>

      {customOpen ? (
        <CustomFrequencyModal
          onClose={() => setCustomOpen(false)}
          onPlay={(f) => {
            setCustomOpen(false);
            setCustomPresets((list) => addCustomPreset(list, f));
            playPreset(makePreset('custom', f));
          }}
        />
      ) : null}

      <div className="tone-errors" aria-live="polite">
        {error ? (
          <p className="tone-error" role="alert">
            {t(`errors.${error}`)}
          </p>
        ) : null}
        {linkNotice ? <p className="tone-muted">{t('errors.link')}</p> : null}
      </div>
    </div>
  );
}
