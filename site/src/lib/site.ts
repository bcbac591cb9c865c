import { useEffect, useState } from 'react';
import { api } from './api';

/** GET /api/site — the owner's public settings (configuration, never hard-coded here). */
export interface SiteSettings {
  contacts: {
    email?: string;
    phones?: string[];
    city?: string;
    github?: string;
    linkedin?: string;
    telegram?: string;
  };
  donation: {
    trc20Wallet?: string;
    cardUAH?: string;
    cardUSD?: string;
  };
}

let pending: Promise<SiteSettings | null> | null = null;

/** Loaded once per page; a failure yields null (the footer then shows what it can). */
export function fetchSiteSettings(): Promise<SiteSettings | null> {
  pending ??= api.get<SiteSettings>('/api/site', { auth: false }).catch(() => {
    pending = null;
    return null;
  });
  return pending;
}

export function useSiteSettings(): SiteSettings | null {
  const [settings, setSettings] = useState<SiteSettings | null>(null);
  useEffect(() => {
    let alive = true;
    void fetchSiteSettings().then((s) => {
      if (alive) setSettings(s);
    });
    return () => {
      alive = false;
    };
  }, []);
  return settings;
}

/** For tests. */
export function resetSiteSettings(): void {
  pending = null;
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
