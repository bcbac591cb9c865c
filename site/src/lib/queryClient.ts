import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

/**
 * The SPA's one TanStack Query client factory. Reads retry at most twice and never on a
 * client error (4xx: retrying cannot help); mutations never retry (a write is not assumed
 * idempotent). Data stays fresh for 30 s so moving between pages does not refetch at once.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failures, error) => {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
          return failures < 2;
        },
      },
      mutations: { retry: false },
    },
  });
}

/**
 * The running app's client. App.tsx provides it, and code that runs before React (language
 * detection asks for /api/ip) reads through it too, so the IP page reuses that answer.
 */
export const appQueryClient = createQueryClient();
