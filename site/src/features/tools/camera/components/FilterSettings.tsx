import { useTranslation } from 'react-i18next';
import { FILTER_MAX, FILTER_MIN, clampFilter, type Filters } from '../filters';

interface Props {
  filters: Filters;
  onChange: (f: Filters) => void;
  onResetFilters: () => void;
  onResetRotation: () => void;
}

const NAMES = ['brightness', 'contrast', 'sharpness'] as const;

/** Brightness, contrast and sharpness sliders (0–200, whole numbers) and the two resets. */
export function FilterSettings({ filters, onChange, onResetFilters, onResetRotation }: Props) {
  const { t } = useTranslation('camera');
  return (
    <section id="camera-settings" className="camera-panel" aria-labelledby="camera-settings-title">
      <h2 id="camera-settings-title" className="camera-panel__title">
        {t('settings.title')}
      </h2>
      {NAMES.map((name) => (
        <div className="camera-slider" key={name}>
          <label htmlFor={`camera-${name}`}>{t(`settings.${name}`)}</label>
          <input
            id={`camera-${name}`}
            type="range"
            min={FILTER_MIN}
            max={FILTER_MAX}
            step={1}
            value={filters[name]}
            onChange={(e) => onChange({ ...filters, [name]: clampFilter(Number(e.target.value)) })}
          />
          <output htmlFor={`camera-${name}`}>{t('settings.value', { value: filters[name] })}</output>
        </div>
      ))}
      <div className="camera-row">
        <button type="button" className="btn" onClick={onResetFilters}>
          {t('settings.resetFilters')}
        </button>
        <button type="button" className="btn" onClick={onResetRotation}>
          {t('settings.resetRotation')}
        </button>
      </div>
    </section>
  );
}
