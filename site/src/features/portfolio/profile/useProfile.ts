// The owner's portfolio (GET /api/profile, content/profile.yaml on the server) through the SPA's
// one query client; the home page, /skills and /tools share the one answer.
import { useQuery } from '@tanstack/react-query';
import type { PageLanguage } from '../../../lib/i18n';
import type { Schema } from '../../../lib/apiTypes';
import { profileQuery } from '../../../lib/profile';

export { PROFILE_QUERY_KEY, profileQuery, type Profile } from '../../../lib/profile';
export type LocalText = Schema<'LocalText'>;

export function useProfile() {
  return useQuery(profileQuery);
}

/** A text in the page's language, else English (the one language every text has). */
export function pick(text: LocalText | null | undefined, lang: PageLanguage): string {
  if (!text) return '';
  return text[lang] || text.en || '';
}
