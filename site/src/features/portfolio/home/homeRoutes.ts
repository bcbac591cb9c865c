// The home page's cards (portfolio spec §2 "Home page", §3 "Home route entry": path, title key,
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
  /** Where the card's link goes (differs from path only for the catch-all). */
  to: string;
  /** Keys in the 'home' namespace. */
  titleKey: string;
  descriptionKey: string;
  iconKey: HomeIconKey;
  /**
   * The section has no page yet: its link reaches the not-found page, as the spec's card list
   * links to it anyway. The card says so with a "coming soon" badge instead of promising a page.
   */
  soon?: boolean;
}

const card = (key: HomeIconKey, path: string, soon?: boolean): HomeRoute => ({
  path,
  to: path,
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
  card('alavar', '/alavar', true),
  card('programs', '/programs', true),
  card('forum', '/forum', true),
  card('blog', '/blog'),
];

/**
 * The catch-all card ('Page not found'): the pattern matches any unmatched path, so its link
 * points at one that no route serves, and the visitor sees the real not-found page.
 */
export const NOT_FOUND_ROUTE: HomeRoute = { ...card('notFound', '*'), to: '/404' };

export const HOME_ROUTES: readonly HomeRoute[] = [...SECTION_ROUTES, NOT_FOUND_ROUTE];
