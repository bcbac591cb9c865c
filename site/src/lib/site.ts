import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import type { Schema } from './apiTypes';

/** GET /api/site — the owner's public settings (configuration, never hard-coded here). */
export type SiteSettings = Schema<'Site'>;

export const SITE_SETTINGS_KEY = ['site'] as const;

/** Query options of the settings: they change only when the owner restarts the server. */
export const siteSettingsQuery = {
  queryKey: SITE_SETTINGS_KEY,
  queryFn: ({ signal }: { signal?: AbortSignal }) => api.get<SiteSettings>('/api/site', { auth: false, signal }),
  staleTime: Infinity,
};

/**
 * The settings through the app's query cache (one request for the footer and the donation
 * banner); null until they arrive or when they cannot be had — the footer then shows what it can.
 */
export function useSiteSettings(): SiteSettings | null {
  return useQuery(siteSettingsQuery).data ?? null;
}

const SOCIAL_BASES = {
  github: 'https://github.com/',
  linkedin: 'https://www.linkedin.com/in/',
  telegram: 'https://t.me/',
} as const;

/** A configured social value may be a full URL or just a handle ('@name' or 'name'). */
export function socialUrl(kind: keyof typeof SOCIAL_BASES, value: string | undefined): string | null {
  const v = value?.trim();
  if (!v) return null;
  if (/^https?:\/\//i.test(v)) return v;
  if (/^[\w.@-]+$/.test(v)) return SOCIAL_BASES[kind] + v.replace(/^@/, '');
  return null;
}
