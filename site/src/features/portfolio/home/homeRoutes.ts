// The home page's cards (path, title key,
// description key, icon key). The order is the spec's.

export type HomeIconKey =
  | 'skills'
  | 'filecloud'
  | 'games'
  | 'alavar'
  | 'programs'
  | 'forum'
  | 'blog'
  | 'notFound';

export interface HomeRoute {
  /** The route pattern the card stands for, shown on the card ('*' is the catch-all). */
  path: string;
  /**
   * Where the card's link goes; absent for a card with nowhere to go (a section not built yet,
   * the catch-all), which then only describes — no card leads to the not-found page.
   */
  to?: string;
  /** Keys in the 'home' namespace. */
  titleKey: string;
  descriptionKey: string;
  iconKey: HomeIconKey;
  /** The section has no page yet: the card carries a "coming soon" badge and no link. */
  soon?: boolean;
}

const card = (key: HomeIconKey, path: string, soon?: boolean): HomeRoute => ({
  path,
  to: soon ? undefined : path,
  titleKey: `cards.${key}.title`,
  descriptionKey: `cards.${key}.text`,
  iconKey: key,
  soon,
});

/** One card per section the spec names: /skills, /filecloud, /games, /alavar, /programs, /forum, /blog. */
export const SECTION_ROUTES: readonly HomeRoute[] = [
  card('skills', '/skills'),
  card('filecloud', '/filecloud'),
  card('games', '/games'),
  card('alavar', '/alavar'),
  card('programs', '/programs'),
  card('forum', '/forum'),
  card('blog', '/blog'),
];

/**
 * The catch-all card ('Page not found'): it describes what any unknown address shows, without a
 * link to a dead address.
 */
export const NOT_FOUND_ROUTE: HomeRoute = { ...card('notFound', '*'), to: undefined };

export const HOME_ROUTES: readonly HomeRoute[] = [...SECTION_ROUTES, NOT_FOUND_ROUTE];
