import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TONE_NS } from './i18n';
import type { Preset, PresetCategory } from './presets';

interface Props {
  categories: readonly PresetCategory[];
  activeId: string | null;
  disabled: boolean;
  format: (frequency: number) => string;
  onPlay: (preset: Preset) => void;
  onLoop: (preset: Preset) => void;
  onCustom: () => void;
}

/** Spec §2/§4: collapsible categories, all closed at start, each opening on its own. */
export function PresetList({ categories, activeId, disabled, format, onPlay, onLoop, onCustom }: Props) {
  const { t } = useTranslation(TONE_NS);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="tone-presets">
      {categories.map((c) => {
        const isOpen = open.has(c.id);
        const panelId = `tone-cat-${c.id}`;
        return (
          <section key={c.id} className="tone-presets__category">
            <h3 className="tone-presets__heading">
              <button type="button" className="tone-presets__toggle" aria-expanded={isOpen} aria-controls={panelId} onClick={() => toggle(c.id)}>
                <span aria-hidden="true">{isOpen ? '▾' : '▸'}</span> {t(`categories.${c.id}`)}
              </button>
            </h3>
            {isOpen ? (
              <div id={panelId}>
                {c.id === 'custom' ? (
                  <>
                    <button type="button" className="btn" onClick={onCustom}>
                      {t('customOpen')}
                    </button>
                    {c.presets.length === 0 ? <p className="tone-muted">{t('customEmpty')}</p> : null}
                  </>
                ) : null}
                <ul className="tone-presets__list">
                  {c.presets.map((p) => {
                    const name = format(p.frequency);
                    return (
                      <li key={p.id} className={p.id === activeId ? 'tone-preset tone-preset--active' : 'tone-preset'} aria-current={p.id === activeId ? 'true' : undefined}>
                        <span className="tone-preset__name">{name}</span>
                        <span className="tone-preset__description">
                          {/* the kHz name has one decimal: the exact value is given beside it */}
                          {p.frequency >= 1000 ? `${p.frequency} ${t('hz')} · ` : ''}
                          {t(`descriptions.${c.id}`)}
                        </span>
                        <button type="button" className="btn btn--ghost" aria-label={t('playPreset', { name })} title={t('playPreset', { name })} disabled={disabled} onClick={() => onPlay(p)}>
                          ▶
                        </button>
                        <button type="button" className="btn btn--ghost" aria-label={t('loopPreset', { name })} title={t('loopPreset', { name })} disabled={disabled} onClick={() => onLoop(p)}>
                          ⟳
                        </button>
                      </li>
                    );
                  })}
                </ul>
              </div>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}
