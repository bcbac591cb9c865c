// The owner's portfolio (GET /api/profile, content/profile.yaml on the server) through the SPA's
// one query client, and the site's name and subtitle it gives (its `site` block). The portfolio
// pages read the whole answer; the header and every page title read the brand from it.
import { QueryClientContext, queryOptions, useQuery } from '@tanstack/react-query';
import { useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from './api';
import type { Schema } from './apiTypes';
import { appQueryClient } from './queryClient';

export type Profile = Schema<'Profile'>;

export const PROFILE_QUERY_KEY = ['profile'] as const;

/** The profile's query: the portfolio pages, the header and the start-up prefetch share it. */
export const profileQuery = queryOptions({
  queryKey: PROFILE_QUERY_KEY,
  queryFn: ({ signal }) => api.get<Profile>('/api/profile', { auth: false, signal }),
  // Only an admin's edit changes it, and the editor puts the saved answer in the cache itself.
  staleTime: 10 * 60_000,
});

export interface SiteBrand {
  name: string;
  subtitle: string;
}

type SiteText = Schema<'SiteText'> | undefined;

/** A site text in lang, else English, else '' (the caller's default). */
function pickSite(text: SiteText, lang: string): string {
  return (text?.[lang] ?? '').trim() || (text?.en ?? '').trim();
}

/**
 * The site's name and subtitle in the interface's language: the profile's site block, else the
 * locale's `brand` and `subtitle` (DevHub, Developer hub and their translations). With `load`
 * the profile is fetched (the header does it once for the whole app); without, the brand only
 * reads what is in the cache, so a page's title never starts a request of its own.
 */
export function useSiteBrand({ load = false }: { load?: boolean } = {}): SiteBrand {
  const { t, i18n } = useTranslation();
  // Outside the app's provider (a component rendered on its own) the app's client is read.
  const client = useContext(QueryClientContext) ?? appQueryClient;
  const { data } = useQuery({ ...profileQuery, enabled: load }, client);
  const lang = (i18n.resolvedLanguage ?? i18n.language ?? 'en').slice(0, 2);
  return {
    name: pickSite(data?.site?.name, lang) || t('brand'),
    subtitle: pickSite(data?.site?.subtitle, lang) || t('subtitle'),
  };
}
