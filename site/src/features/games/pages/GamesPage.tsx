import { useEffect, useReducer, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/ui/Page';
import { ApiError } from '../../../lib/api';
import { pageCount } from '../../../lib/pagination';
import { useDebouncedValue } from '../../../lib/useDebouncedValue';
import { PAGE_SIZE, SEARCH_DEBOUNCE_MS, useConsoles, useGames, useRemoveRom, type Game } from '../api';
import { ConnectionError } from '../components/ConnectionError';
import { ConsoleSelector } from '../components/ConsoleSelector';
import { DonationBanner } from '../components/DonationBanner';
import { GameList } from '../components/GameList';
import { Player } from '../components/Player';
import { RomUploader } from '../components/RomUploader';
import { ShelfRows } from '../components/ShelfRows';
import { useAuth } from '../../../lib/auth';
import { useShelf, useToggleFavourite } from '../shelf';
import { GAMES_NS } from '../i18n';
import { SIDEBAR_MIN, useIsMobile, useSidebarWidth } from '../sidebar';
import { gamesReducer, initialGamesState } from '../state';
import '../games.css';

/** /games: console selector, game list with search and paging, the player, the donation banner. */
export default function GamesPage() {
  const { t } = useTranslation(GAMES_NS);
  const [state, dispatch] = useReducer(gamesReducer, initialGamesState);
  const mobile = useIsMobile();
  const sidebar = useSidebarWidth();
  const [libraryOpen, setLibraryOpen] = useState(true);
  const removeRom = useRemoveRom();
  const { isAdmin } = useAuth();
  const debounced = useDebouncedValue(state.search, SEARCH_DEBOUNCE_MS);
  const search = state.search === '' ? '' : debounced;

  const consoles = useConsoles();
  useEffect(() => {
    if (consoles.data) dispatch({ type: 'consolesLoaded', consoles: consoles.data });
  }, [consoles.data]);
  const consolesFailedAt = consoles.isError ? consoles.errorUpdatedAt : 0;
  useEffect(() => {
    if (consolesFailedAt) dispatch({ type: 'consolesFailed', offline: consoles.error instanceof ApiError && consoles.error.status === 0 });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [consolesFailedAt]);

  const games = useGames(state.consoleId, state.page, search);
  const list = {
    games: games.isError ? [] : (games.data?.games ?? []),
    total: games.isError ? 0 : (games.data?.total ?? 0),
    status: games.isError ? 'error' : games.isFetching || !games.data ? 'loading' : 'ready',
  } as const;

  const shelf = useShelf();
  const toggleFavourite = useToggleFavourite();
  const favouriteIds = new Set((shelf.data?.favourites ?? []).map((g) => g.id));

  // The main column waits until what decides its place and its top has arrived (or failed): on a
  // phone the library above it, everywhere the shelf rows at its top. It then appears where it
  // stays, instead of being pushed down the screen as they arrive (layout shift).
  const libraryPending =
    state.consolesStatus === 'loading' ||
    (state.consolesStatus === 'ready' && state.consoles.length > 0 && games.data === undefined && !games.isError);
  // Once shown it stays: a later read (another console, a search) never takes a running game away.
  const [mainShown, setMainShown] = useState(false);
  if (!mainShown && !libraryPending && !shelf.isPending) setMainShown(true);

  const selected = state.consoles.find((c) => c.id === state.consoleId) ?? null;
  const playing = state.game && selected ? state.game : null;

  const chooseGame = (game: Game) => {
    dispatch({ type: 'selectGame', game });
    if (mobile) setLibraryOpen(false);
  };
  const playFromShelf = (game: Game) => {
    if (game.console !== state.consoleId) dispatch({ type: 'selectConsole', id: game.console });
    chooseGame(game);
  };
  const closeGame = () => {
    dispatch({ type: 'closeGame' });
    setLibraryOpen(true);
  };

  if (state.consolesStatus === 'offline') {
    return (
      <Page title={t('title')} className="games-page">
        <ConnectionError />
      </Page>
    );
  }

  const layoutStyle = { '--games-sidebar': `${sidebar.width}px` } as CSSProperties;
  return (
    <Page title={t('title')} lead={t('lead')} className="games-page">
      <div className={`games-layout${mobile ? ' games-layout--mobile' : ''}`} style={layoutStyle}>
        {mobile ? (
          <button
            type="button"
            className="btn games-library-toggle"
            aria-expanded={libraryOpen}
            aria-controls="games-library"
            onClick={() => setLibraryOpen((o) => !o)}
          >
            {libraryOpen ? t('hideLibrary') : t('showLibrary')}
          </button>
        ) : null}
        <div className="games-sidebar" id="games-library" hidden={mobile && !libraryOpen}>
          {state.consolesStatus === 'loading' ? (
            <p className="games-muted" role="status">
              {t('loadingConsoles')}
            </p>
          ) : state.consolesStatus === 'error' ? (
            <p className="games-error" role="alert">
              {t('consolesError')}
            </p>
          ) : state.consoles.length === 0 ? (
            <p className="games-muted">{t('noConsoles')}</p>
          ) : (
            <>
              <ConsoleSelector
                consoles={state.consoles}
                selectedId={state.consoleId}
                onSelect={(id) => dispatch({ type: 'selectConsole', id })}
              />
              <GameList
                games={list.games}
                total={list.total}
                page={state.page}
                pages={pageCount(list.total, PAGE_SIZE)}
                status={list.status}
                search={state.search}
                selectedId={state.game?.id ?? null}
                onSearch={(s) => dispatch({ type: 'setSearch', search: s })}
                onPage={(p) => dispatch({ type: 'setPage', page: p })}
                onSelect={chooseGame}
                favourites={favouriteIds}
                onFavourite={(game, on) => toggleFavourite.mutate({ game, on })}
                onRemove={
                  isAdmin
                    ? (game) => {
                        if (!window.confirm(t('removeConfirm', { name: game.name }))) return;
                        removeRom.mutate(game.id, {
                          onSettled: () => {
                            if (state.game?.id === game.id) closeGame();
                          },
                        });
                      }
                    : undefined
                }
              />
            </>
          )}
        </div>
        {!mobile ? (
          <div
            className="games-resizer"
            role="separator"
            aria-orientation="vertical"
            aria-label={t('resize')}
            aria-controls="games-library"
            aria-valuenow={sidebar.width}
            aria-valuemin={SIDEBAR_MIN}
            aria-valuemax={sidebar.max}
            tabIndex={0}
            {...sidebar.handleProps}
          />
        ) : null}
        {!mainShown ? null : (
          <div className="games-main">
            {isAdmin ? <RomUploader consoles={state.consoles} /> : null}
            <ShelfRows recent={shelf.data?.recent ?? []} favourites={shelf.data?.favourites ?? []} onPlay={playFromShelf} />
            {playing && selected ? (
              <Player game={playing} core={selected.core} onClose={closeGame} />
            ) : (
              <p className="games-placeholder">{t('chooseGame')}</p>
            )}
            <DonationBanner />
          </div>
        )}
      </div>
    </Page>
  );
}
