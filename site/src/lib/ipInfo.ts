import { api } from './api';

/** GET /api/ip — answered by our own server from a local database (no third-party lookup). */
export interface IpInfo {
  ip: string;
  country: string;
  countryCode: string;
  region?: string;
  city?: string;
  postal?: string;
  latitude?: number;
  longitude?: number;
  timezone?: string;
  org?: string;
  asn?: number | string;
}

export const IP_CACHE_MS = 86_400_000; // 24 h (spec §9)
export const IP_LOOKUP_TIMEOUT_MS = 5_000; // spec §9

let cached: { at: number; value: Promise<IpInfo> } | null = null;

/** The caller's IP and country, cached in memory for 24 hours; `force` skips the cache. */
export function getIpInfo(opts: { force?: boolean } = {}): Promise<IpInfo> {
  const now = Date.now();
  if (!opts.force && cached && now - cached.at < IP_CACHE_MS) return cached.value;
  const value = api.get<IpInfo>('/api/ip', {
    auth: false,
    signal: AbortSignal.timeout(IP_LOOKUP_TIMEOUT_MS),
  });
  const entry = { at: now, value };
  cached = entry;
  // A failed lookup is not cached.
  value.catch(() => {
    if (cached === entry) cached = null;
  });
  return value;
}

/** For tests. */
export function clearIpInfoCache(): void {
  cached = null;
}
