// The portfolio editor's calls: the bundled icon names (for the search) and saving the portfolio
// (PUT /api/profile, admins). A save's answer is the portfolio as now served, which replaces the
// one the pages read, so they show it at once.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { PROFILE_QUERY_KEY, type Profile } from '../profile/useProfile';

export const portfolioEditorKeys = {
  icons: ['portfolio', 'icons'] as const,
};

/** The icon set's names (icons/index.json, written at build time beside the icons). */
export function useIconNames() {
  return useQuery({
    queryKey: portfolioEditorKeys.icons,
    queryFn: ({ signal }) => api.get<string[]>('/icons/index.json', { auth: false, signal }),
    staleTime: Infinity,
  });
}

export function useSavePortfolio() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (p: Profile) => api.put<Profile>('/api/profile', p),
    onSuccess: (p) => qc.setQueryData(PROFILE_QUERY_KEY, p),
  });
}

/** Up to limit icon names containing query, those starting with it first. */
export function searchIcons(names: readonly string[], query: string, limit = 30): string[] {
  const q = query.trim().toLowerCase().replace(/[^a-z0-9]/g, '');
  if (!q) return [];
  const starts = names.filter((n) => n.startsWith(q));
  const contains = names.filter((n) => !n.startsWith(q) && n.includes(q));
  return [...starts, ...contains].slice(0, limit);
}
