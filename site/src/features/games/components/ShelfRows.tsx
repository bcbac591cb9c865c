import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { imageUrl, type Game } from '../api';
import { GAMES_NS } from '../i18n';
import { sortShelf, type ShelfGame } from '../shelf';
import { Select } from '../../../components/ui/Field';

interface Props {
  recent: ShelfGame[];
  favourites: ShelfGame[];
  onPlay: (g: Game) => void;
}

function Row({ title, games, onPlay }: { title: string; games: ShelfGame[]; onPlay: (g: Game) => void }) {
  const { t } = useTranslation(GAMES_NS);
  return (
    <section className="games-row" aria-label={title}>
      <h2 className="games-row__title">{title}</h2>
      <ul className="games-row__items">
        {games.map((g) => {
          const img = imageUrl(g);
          return (
            <li key={g.id}>
              <button type="button" className="games-row__item" title={t('play', { name: g.name })} onClick={() => onPlay(g)}>
                {img ? (
                  <img className="games-row__img" src={img} alt="" loading="lazy" decoding="async" />
                ) : (
                  <span className="games-row__img games-item__img--none" aria-hidden="true">
                    {g.name.slice(0, 2)}
                  </span>
                )}
                <span className="games-row__name">{g.name}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The "continue playing" and favourites rows above the library, sorted by name or most recent. */
export function ShelfRows({ recent, favourites, onPlay }: Props) {
  const { t, i18n } = useTranslation(GAMES_NS);
  const [sort, setSort] = useState<'recent' | 'name'>('recent');
  if (recent.length === 0 && favourites.length === 0) return null;
  return (
    <div className="games-shelf">
      <label className="games-shelf__sort">
        {t('shelf.sort')}{' '}
        <Select value={sort} onChange={(e) => setSort(e.target.value as 'recent' | 'name')}>
          <option value="recent">{t('shelf.byRecent')}</option>
          <option value="name">{t('shelf.byName')}</option>
        </Select>
      </label>
      {recent.length > 0 ? <Row title={t('shelf.continue')} games={sortShelf(recent, sort, i18n.language)} onPlay={onPlay} /> : null}
      {favourites.length > 0 ? (
        <Row title={t('shelf.favourites')} games={sortShelf(favourites, sort, i18n.language)} onPlay={onPlay} />
      ) : null}
    </div>
  );
}
