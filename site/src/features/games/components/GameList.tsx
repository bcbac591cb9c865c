import { useTranslation } from 'react-i18next';
import { imageUrl, type Game } from '../api';
import { GAMES_NS } from '../i18n';
import { TextField } from '../../../components/ui/Field';

interface Props {
  games: Game[];
  total: number;
  page: number;
  pages: number;
  status: 'loading' | 'ready' | 'error';
  search: string;
  selectedId: number | null;
  onSearch: (s: string) => void;
  onPage: (p: number) => void;
  onSelect: (g: Game) => void;
  /** Ids of the visitor's favourites, and how to mark or unmark one. */
  favourites?: ReadonlySet<number>;
  onFavourite?: (g: Game, on: boolean) => void;
  /** Given to admins: removes a game from the library. */
  onRemove?: (g: Game) => void;
}

/** Search box, the games of the console (100 a page) with their covers, and paging. */
export function GameList({
  games,
  total,
  page,
  pages,
  status,
  search,
  selectedId,
  onSearch,
  onPage,
  onSelect,
  favourites,
  onFavourite,
  onRemove,
}: Props) {
  const { t } = useTranslation(GAMES_NS);
  return (
    <div className="games-list">
      <label className="games-search">
        <span className="visually-hidden">{t('searchLabel')}</span>
        <TextField
          type="search"
          value={search}
          placeholder={t('searchPlaceholder')}
          aria-label={t('searchLabel')}
          onChange={(e) => onSearch(e.target.value)}
        />
      </label>
      {status === 'error' ? (
        <p className="games-error" role="alert">
          {t('gamesError')}
        </p>
      ) : status === 'loading' && games.length === 0 ? (
        <p className="games-muted" role="status">
          {t('loadingGames')}
        </p>
      ) : games.length === 0 ? (
        <p className="games-muted">{t('noGames')}</p>
      ) : (
        <>
          <p className="games-muted games-total" aria-live="polite">
            {t('gamesCount', { count: total })}
          </p>
          <ul className="games-items" aria-busy={status === 'loading'}>
            {games.map((g) => {
              const img = imageUrl(g);
              return (
                <li key={g.id} className="games-items__row">
                  <button
                    type="button"
                    className="games-item"
                    aria-pressed={g.id === selectedId}
                    aria-label={t('play', { name: g.name })}
                    onClick={() => onSelect(g)}
                  >
                    {img ? (
                      <img className="games-item__img" src={img} alt="" loading="lazy" decoding="async" />
                    ) : (
                      <span className="games-item__img games-item__img--none" aria-hidden="true">
                        {g.name.slice(0, 2)}
                      </span>
                    )}
                    <span className="games-item__name">{g.name}</span>
                  </button>
                  {onFavourite ? (
                    <button
                      type="button"
                      className="games-fav"
                      aria-pressed={favourites?.has(g.id) ?? false}
                      aria-label={t('favourite', { name: g.name })}
                      title={t('favourite', { name: g.name })}
                      onClick={() => onFavourite(g, !(favourites?.has(g.id) ?? false))}
                    >
                      {favourites?.has(g.id) ? '★' : '☆'}
                    </button>
                  ) : null}
                  {onRemove ? (
                    <button
                      type="button"
                      className="games-remove"
                      aria-label={t('remove', { name: g.name })}
                      title={t('remove', { name: g.name })}
                      onClick={() => onRemove(g)}
                    >
                      ✕
                    </button>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </>
      )}
      {pages > 1 ? (
        <div className="games-pager">
          <button type="button" className="btn" disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label={t('prev')}>
            ‹
          </button>
          <span>{t('pageOf', { page, pages })}</span>
          <button type="button" className="btn" disabled={page >= pages} onClick={() => onPage(page + 1)} aria-label={t('next')}>
            ›
          </button>
        </div>
      ) : null}
    </div>
  );
}
