// The owner's portfolio (GET /api/profile, content/profile.yaml on the server) through the SPA's
// one query client; the home page, /skills and /tools share the one answer.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { PageLanguage } from '../../../lib/i18n';
import type { Schema } from '../../../lib/apiTypes';

export type Profile = Schema<'Profile'>;
export type LocalText = Schema<'LocalText'>;

export const PROFILE_QUERY_KEY = ['profile'] as const;

/** The profile's query: useProfile, and the start-up prefetch of the home page (app/routes.tsx). */
export const profileQuery = queryOptions({
  queryKey: PROFILE_QUERY_KEY,
  queryFn: ({ signal }) => api.get<Profile>('/api/profile', { auth: false, signal }),
  // The file changes only when the owner restarts the server.
  staleTime: 10 * 60_000,
});

export function useProfile() {
  return useQuery(profileQuery);
}

/** A text in the page's language, else English (the one language every text has). */
export function pick(text: LocalText | null | undefined, lang: PageLanguage): string {
  if (!text) return '';
  return text[lang] || text.en || '';
}
