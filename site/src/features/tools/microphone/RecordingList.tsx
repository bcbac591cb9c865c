import { useEffect, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { MIC_NS } from './i18n';
import type { Recording } from './useRecorder';
import type { TrackSettings } from './useMicrophones';

/** "Echo cancellation: on · Noise suppression: off · …" for the options the track reported. */
export function processingSummary(s: TrackSettings, t: TFunction): string {
  return (['echoCancellation', 'noiseSuppression', 'autoGainControl'] as const)
    .filter((k) => typeof s[k] === 'boolean')
    .map((k) => `${t(`settings.${k}`)}: ${s[k] ? t('settings.on') : t('settings.off')}`)
    .join(' · ');
}

function RecordingItem({
  rec,
  playing,
  onPlay,
  onPause,
  onEnded,
  onDelete,
}: {
  rec: Recording;
  playing: boolean;
  onPlay: () => void;
  onPause: () => void;
  onEnded: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation(MIC_NS);
  const audio = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    const el = audio.current;
    if (!el) return;
    if (playing) void el.play()?.catch(() => onPause());
    else if (!el.paused) el.pause();
    // onPause is stable enough: it only clears the playing id
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [playing]);
  return (
    <li className="mic-recording" data-testid="recording">
      <span className="mic-recording__name">{rec.name}</span>
      {rec.settings ? <span className="mic-recording__processing">{processingSummary(rec.settings, t)}</span> : null}
      <audio
        ref={audio}
        src={rec.url}
        preload="metadata"
        onEnded={(e) => {
          e.currentTarget.currentTime = 0;
          onEnded();
        }}
      />
      <button type="button" className="btn" aria-pressed={playing} onClick={playing ? onPause : onPlay}>
        {playing ? t('recordings.pause') : t('recordings.play')}
      </button>
      <a className="btn btn--ghost" href={rec.url} download={rec.name}>
        {t('recordings.download')}
      </a>
      <button type="button" className="btn btn--danger" onClick={onDelete} aria-label={t('recordings.deleteNamed', { name: rec.name })}>
        {t('recordings.delete')}
      </button>
    </li>
  );
}

/** The recordings, newest first; only one plays at a time and an ended one rewinds. */
export function RecordingList({ recordings, onDelete }: { recordings: readonly Recording[]; onDelete: (id: string) => void }) {
  const { t } = useTranslation(MIC_NS);
  const [playingId, setPlayingId] = useState<string | null>(null);
  if (!recordings.length) return <p className="mic-empty">{t('recordings.empty')}</p>;
  return (
    <ul className="mic-recordings" aria-label={t('recordings.title')}>
      {recordings.map((rec) => (
        <RecordingItem
          key={rec.id}
          rec={rec}
          playing={playingId === rec.id}
          onPlay={() => setPlayingId(rec.id)}
          onPause={() => setPlayingId((id) => (id === rec.id ? null : id))}
          onEnded={() => setPlayingId((id) => (id === rec.id ? null : id))}
          onDelete={() => {
            if (playingId === rec.id) setPlayingId(null);
            onDelete(rec.id);
          }}
        />
      ))}
    </ul>
  );
}
