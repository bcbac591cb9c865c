import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { isSupportedLanguage, normalizeLanguage, DEFAULT_LANGUAGE, type Language } from './languageDetection';

// The page's meta description in the interface's language (a title and a description
// per route and language). The server already sends each route's English description with the
// HTML (pkg/server/routes_seo.go, the same texts as locales/descriptions/en.json); once the SPA runs it
// keeps the description in step with the route and the language the visitor reads, as the page
// title is. The texts are a chunk per language, loaded after the page: no page waits for them.

export type DescriptionKey =
  | 'home' | 'skills' | 'tools' | 'camera' | 'microphone' | 'ip' | 'tone' | 'chat' | 'games' | 'blog'
  | 'article' | 'filecloud' | 'file' | 'share' | 'profile' | 'privacy' | 'terms' | 'notFound'
  | 'programs' | 'program' | 'alavar' | 'alavarGame' | 'articleNew' | 'articleEdit' | 'forum' | 'forumCategory'
  | 'forumThread' | 'moderation' | 'contact' | 'setup' | 'forgotPassword' | 'resetPassword' | 'portfolioEditor'
  | 'verifyEmail';

/** The routes (app/routes.tsx) and their descriptions; any other path is the not-found page. */
const ROUTES: ReadonlyArray<readonly [RegExp, DescriptionKey]> = [
  [/^\/$/, 'home'],
  [/^\/skills$/, 'skills'],
  [/^\/tools$/, 'tools'],
  [/^\/tools\/camera$/, 'camera'],
  [/^\/tools\/microphone$/, 'microphone'],
  [/^\/tools\/ip$/, 'ip'],
  [/^\/tools\/tone_generator$/, 'tone'],
  [/^\/chat$/, 'chat'],
  [/^\/games$/, 'games'],
  [/^\/blog$/, 'blog'],
  [/^\/blog\/new$/, 'articleNew'],
  [/^\/blog\/\d+\/edit$/, 'articleEdit'],
  [/^\/blog\/[^/]+$/, 'article'],
  [/^\/filecloud$/, 'filecloud'],
  [/^\/filecloud\/[^/]+$/, 'file'],
  [/^\/s\/[^/]+$/, 'share'],
  [/^\/programs$/, 'programs'],
  [/^\/programs\/[^/]+$/, 'program'],
  [/^\/alavar$/, 'alavar'],
  [/^\/alavar\/[^/]+$/, 'alavarGame'],
  [/^\/profile$/, 'profile'],
  [/^\/forum$/, 'forum'],
  [/^\/forum\/c\/[^/]+$/, 'forumCategory'],
  [/^\/forum\/t\/[^/]+$/, 'forumThread'],
  [/^\/forum\/moderation$/, 'moderation'],
  [/^\/contact$/, 'contact'],
  [/^\/setup$/, 'setup'],
  [/^\/forgot-password$/, 'forgotPassword'],
  [/^\/reset-password$/, 'resetPassword'],
  [/^\/verify-email$/, 'verifyEmail'],
  [/^\/profile\/portfolio$/, 'portfolioEditor'],
  [/^\/privacy$/, 'privacy'],
  [/^\/terms$/, 'terms'],
];

/** The description's key for a path (a trailing slash is the same page). */
export function descriptionKey(pathname: string): DescriptionKey {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return ROUTES.find(([re]) => re.test(path))?.[1] ?? 'notFound';
}

type Texts = Record<DescriptionKey, string>;
const loaders: Record<Language, () => Promise<{ default: Texts }>> = {
  en: () => import('../locales/descriptions/en.json'),
  uk: () => import('../locales/descriptions/uk.json'),
  ru: () => import('../locales/descriptions/ru.json'),
};

/** The descriptions in a language. */
export async function loadDescriptions(lang: Language): Promise<Texts> {
  return (await loaders[lang]()).default;
}

/** Writes the document's <meta name="description"> (adds it when the page has none). */
export function setMetaDescription(text: string): void {
  let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'description';
    document.head.append(meta);
  }
  meta.content = text;
}

// A page's own description (an article's excerpt) while that page is shown: it wins over its
// route's, whichever arrives last.
let own: string | null = null;

/** The shell's part: the route's description in the interface's language, on every navigation. */
export function useRouteDescription(): void {
  const { pathname } = useLocation();
  const { i18n } = useTranslation();
  const norm = normalizeLanguage(i18n.resolvedLanguage ?? i18n.language);
  const lang: Language = isSupportedLanguage(norm) ? norm : DEFAULT_LANGUAGE;
  useEffect(() => {
    let live = true;
    loadDescriptions(lang).then(
      (texts) => {
        if (live && own === null) setMetaDescription(texts[descriptionKey(pathname)]);
      },
      () => undefined, // the server's English description stays
    );
    return () => {
      live = false;
    };
  }, [pathname, lang]);
}

/** A page's own description (nothing while it is unknown: the route's stays until then). */
export function usePageDescription(text: string | null | undefined): void {
  useEffect(() => {
    if (!text) return;
    own = text;
    setMetaDescription(text);
    return () => {
      if (own === text) own = null;
    };
  }, [text]);
}
