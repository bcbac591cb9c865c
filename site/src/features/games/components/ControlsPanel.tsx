import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BINDABLE, bindKey, type ButtonId } from '../emulator/input';
import { keyLabel } from '../controls';
import { GAMES_NS } from '../i18n';

interface Props {
  map: Record<string, ButtonId>;
  onChange: (map: Record<string, ButtonId>) => void;
  onReset: () => void;
}

/** Press-a-key binding of each button for this console; Escape cancels a binding. */
export function ControlsPanel({ map, onChange, onReset }: Props) {
  const { t } = useTranslation(GAMES_NS);
  const [waiting, setWaiting] = useState<ButtonId | null>(null);

  useEffect(() => {
    if (waiting === null) return;
    const onKey = (e: KeyboardEvent) => {
      e.preventDefault();
      e.stopPropagation();
      if (e.code !== 'Escape') onChange(bindKey(map, waiting, e.code));
      setWaiting(null);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [waiting, map, onChange]);

  return (
    <section className="games-controls" aria-label={t('controls.title')}>
      <table>
        <tbody>
          {BINDABLE.map(([name, id]) => {
            const keys = Object.entries(map)
              .filter(([, b]) => b === id)
              .map(([code]) => keyLabel(code));
            return (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>{keys.length ? keys.join(', ') : t('controls.none')}</td>
                <td>
                  <button type="button" className="btn" aria-label={t('controls.bind', { button: name })} onClick={() => setWaiting(id)}>
                    {waiting === id ? t('controls.pressKey') : t('controls.change')}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <button type="button" className="btn" onClick={onReset}>
        {t('controls.reset')}
      </button>
    </section>
  );
}
