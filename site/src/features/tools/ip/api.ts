// The IP report's data through TanStack Query: the server's record of this visitor (shared
// with language detection, see lib/ipInfo) and the browser's own details, collected locally.
import { useQuery } from '@tanstack/react-query';
import { ipInfoQuery } from '../../../lib/ipInfo';
import { yieldToMain } from '../../../lib/yieldToMain';
import { collectBrowserInfo } from './browserInfo';
import { checkReadiness, checkWebRtc } from './checks';

export const ipKeys = {
  self: ipInfoQuery.queryKey,
  browser: ['ip', 'browser'] as const,
  webrtc: ['ip', 'webrtc'] as const,
  readiness: ['ip', 'readiness'] as const,
};

export function useIpInfo() {
  return useQuery(ipInfoQuery);
}

/** Collected afresh on each Refresh; never stale on its own. */
export function useBrowserInfo() {
  return useQuery({ queryKey: ipKeys.browser, queryFn: () => collectBrowserInfo(), staleTime: Infinity, retry: false });
}

/**
 * Its peer connection is opened in a task of its own: the query starts when the page mounts, and
 * opening one takes tens of milliseconds on a phone on top of the mount's own work.
 */
export function useWebRtcCheck() {
  return useQuery({
    queryKey: ipKeys.webrtc,
    queryFn: async () => {
      await yieldToMain();
      return checkWebRtc();
    },
    staleTime: Infinity,
    retry: false,
  });
}

/** Runs once enabled: the page enables it when its panel nears the viewport (see IpPage). */
export function useReadiness(enabled = true) {
  return useQuery({ queryKey: ipKeys.readiness, queryFn: () => checkReadiness(), staleTime: Infinity, retry: false, enabled });
}
