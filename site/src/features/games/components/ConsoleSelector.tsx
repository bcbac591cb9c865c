import { useTranslation } from 'react-i18next';
import type { Console } from '../api';
import { GAMES_NS } from '../i18n';

interface Props {
  consoles: Console[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}

/** The console buttons; the selected one is pressed. */
export function ConsoleSelector({ consoles, selectedId, onSelect }: Props) {
  const { t } = useTranslation(GAMES_NS);
  return (
    <nav className="games-consoles" aria-label={t('consoles')}>
      <ul>
        {consoles.map((c) => (
          <li key={c.id}>
            <button
              type="button"
              className="games-console"
              aria-pressed={c.id === selectedId}
              title={c.name}
              onClick={() => onSelect(c.id)}
            >
              <span className="games-console__short">{c.shortName}</span>
              <span className="games-console__name">{c.name}</span>
              <span className="games-console__count">{t('gamesCount', { count: c.stats.games })}</span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
