import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { capabilityControls, type CapabilityControl } from '../report';
import { Select } from '../../../../components/ui/Field';

type AnyRecord = Record<string, unknown>;

function read(track: MediaStreamTrack): { caps: AnyRecord | null; settings: AnyRecord } {
  const caps = typeof track.getCapabilities === 'function' ? (track.getCapabilities() as AnyRecord) : null;
  return { caps, settings: track.getSettings() as AnyRecord };
}

/**
 * Zoom, torch, focus mode, exposure compensation and white balance — each shown only when the
 * track's getCapabilities() offers it, applied with applyConstraints({advanced: [...]}).
 */
export function CapabilityControls({ track }: { track: MediaStreamTrack }) {
  const { t } = useTranslation('camera');
  const [, setVersion] = useState(0);
  const [failed, setFailed] = useState(false);
  const { caps, settings } = read(track);
  const controls = capabilityControls(caps, settings);

  const apply = async (name: CapabilityControl['name'], value: number | string | boolean) => {
    setFailed(false);
    try {
      await track.applyConstraints({ advanced: [{ [name]: value } as MediaTrackConstraintSet] });
    } catch {
      setFailed(true);
    }
    setVersion((v) => v + 1); // re-read the settings the camera settled on
  };

  const modeLabel = (m: string) => t(`caps.modes.${m}`, { defaultValue: m });

  return (
    <section className="camera-panel" aria-labelledby="camera-caps-title">
      <h2 id="camera-caps-title" className="camera-panel__title">
        {t('caps.title')}
      </h2>
      {controls.length === 0 ? <p className="camera-muted">{t('caps.none')}</p> : null}
      {controls.map((c) => {
        const id = `camera-cap-${c.name}`;
        if (c.kind === 'range')
          return (
            <div className="camera-slider" key={c.name}>
              <label htmlFor={id}>{t(`caps.${c.name}`)}</label>
              <input
                id={id}
                type="range"
                min={c.min}
                max={c.max}
                step={c.step}
                value={c.value}
                onChange={(e) => void apply(c.name, Number(e.target.value))}
              />
              <output htmlFor={id}>{c.value}</output>
            </div>
          );
        if (c.kind === 'toggle')
          return (
            <label className="camera-check" key={c.name}>
              <input type="checkbox" checked={c.value} onChange={(e) => void apply(c.name, e.target.checked)} />
              {t(`caps.${c.name}`)}
            </label>
          );
        return (
          <div className="camera-slider" key={c.name}>
            <label htmlFor={id}>{t(`caps.${c.name}`)}</label>
            <Select id={id} value={c.value} onChange={(e) => void apply(c.name, e.target.value)}>
              {c.options.map((o) => (
                <option key={o} value={o}>
                  {modeLabel(o)}
                </option>
              ))}
            </Select>
          </div>
        );
      })}
      {failed ? (
        <p className="camera-muted" role="status">
          {t('caps.failed')}
        </p>
      ) : null}
    </section>
  );
}
