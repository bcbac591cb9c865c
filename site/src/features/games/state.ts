// The games page's state: consoles load, then the first console is selected
// automatically; choosing a console clears the selected game, resets the page to 1 and clears the
// search. A pure reducer, so the rules are tested without rendering.
import type { Console, Game } from './api';

export type LoadStatus = 'loading' | 'ready' | 'error' | 'offline';

export interface GamesState {
  consoles: Console[];
  consolesStatus: LoadStatus;
  consoleId: string | null;
  game: Game | null;
  page: number;
  search: string;
}

export type GamesAction =
  | { type: 'consolesLoaded'; consoles: Console[] }
  | { type: 'consolesFailed'; offline: boolean }
  | { type: 'selectConsole'; id: string }
  | { type: 'setSearch'; search: string }
  | { type: 'setPage'; page: number }
  | { type: 'selectGame'; game: Game }
  | { type: 'closeGame' };

export const initialGamesState: GamesState = {
  consoles: [],
  consolesStatus: 'loading',
  consoleId: null,
  game: null,
  page: 1,
  search: '',
};

export function gamesReducer(state: GamesState, action: GamesAction): GamesState {
  switch (action.type) {
    case 'consolesLoaded': {
      const keep = state.consoleId && action.consoles.some((c) => c.id === state.consoleId);
      return {
        ...state,
        consoles: action.consoles,
        consolesStatus: 'ready',
        consoleId: keep ? state.consoleId : (action.consoles[0]?.id ?? null),
      };
    }
    case 'consolesFailed':
      return { ...state, consolesStatus: action.offline ? 'offline' : 'error' };
    case 'selectConsole':
      return { ...state, consoleId: action.id, game: null, page: 1, search: '' };
    case 'setSearch':
      return action.search === state.search ? state : { ...state, search: action.search, page: 1 };
    case 'setPage':
      return { ...state, page: Math.max(1, Math.floor(action.page)) };
    case 'selectGame':
      return { ...state, game: action.game };
    case 'closeGame':
      return { ...state, game: null };
  }
}
