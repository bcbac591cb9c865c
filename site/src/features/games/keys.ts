// The games area's query keys, in one place. The ROM library (romserv) is the same for everyone;
// the shelf, save states and controls are the account's (their roots are dropped on sign-in and
// sign-out, see ACCOUNT_QUERY_ROOTS in lib/auth).
export const gameKeys = {
  all: ['romserv'] as const,
  consoles: ['romserv', 'consoles'] as const,
  games: (consoleId: string, page: number, search: string) => ['romserv', 'games', consoleId, page, search] as const,
  shelfAll: ['games', 'shelf'] as const,
  shelf: (signedIn: boolean) => ['games', 'shelf', signedIn] as const,
  states: (gameId: number) => ['games', 'states', gameId] as const,
  controls: (signedIn: boolean, consoleId: string) => ['games', 'controls', signedIn, consoleId] as const,
};
