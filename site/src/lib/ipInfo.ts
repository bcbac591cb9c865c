import type { QueryClient } from '@tanstack/react-query';
import { api } from './api';
import { appQueryClient } from './queryClient';

/**
 * GET /api/ip — answered by our own server from local databases (no third-party lookup).
 * What the server does not know is "Unknown" (numbers: null).
 */
export interface IpInfo {
  ip: string;
  country: string;
  countryCode: string;
  region?: string;
  city?: string;
  postal?: string;
  latitude?: number | null;
  longitude?: number | null;
  timezone?: string;
  org?: string;
  asn?: number | string | null;
  hostname?: string;
  /** The Accept-Language header the server saw (own record only). */
  acceptLanguage?: string;
}

export const IP_CACHE_MS = 86_400_000; // 24 h
export const IP_LOOKUP_TIMEOUT_MS = 5_000;

/** The query key of the caller's own record: language detection and the IP page share it. */
export const IP_INFO_KEY = ['ip', 'self'] as const;

/** One lookup, abandoned after IP_LOOKUP_TIMEOUT_MS. */
export function fetchIpInfo(): Promise<IpInfo> {
  return api.get<IpInfo>('/api/ip', { auth: false, signal: AbortSignal.timeout(IP_LOOKUP_TIMEOUT_MS) });
}

/** Query options for the caller's record: kept 24 hours; a failure is never cached. */
export const ipInfoQuery = {
  queryKey: IP_INFO_KEY,
  queryFn: fetchIpInfo,
  staleTime: IP_CACHE_MS,
  gcTime: IP_CACHE_MS,
};

/**
 * The caller's IP and country through the app's query cache (24 hours); `force` skips it.
 * Used outside React (language detection at start-up), so it never retries: a failed lookup
 * falls back to the browser language at once.
 */
export function getIpInfo(opts: { force?: boolean; client?: QueryClient } = {}): Promise<IpInfo> {
  const client = opts.client ?? appQueryClient;
  return client.fetchQuery({ ...ipInfoQuery, retry: false, staleTime: opts.force ? 0 : IP_CACHE_MS });
}

/** For tests. */
export function clearIpInfoCache(client: QueryClient = appQueryClient): void {
  client.removeQueries({ queryKey: IP_INFO_KEY });
}
