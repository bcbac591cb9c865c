// The blog's newsletter: whether the site offers it (mail on and a public address), and asking
// for a subscription (double opt-in: the server mails a confirmation link). Types come from the
// contract (api/openapi.yaml).
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { paths } from '../../../lib/apiTypes';

type NewsletterOp = paths['/api/newsletter'];
type SubscribeOp = paths['/api/newsletter/subscribe']['post'];
type CountOp = paths['/api/newsletter/subscribers']['get'];
/** {available}: the subscribe box is shown only when it is true. */
export type NewsletterAvailability = NewsletterOp['get']['responses'][200]['content']['application/json'];
/** {email, lang}: the address and the language of the letters (and of the articles mailed). */
export type SubscribeBody = SubscribeOp['requestBody']['content']['application/json'];
/** {confirmed, pending, byLang}: the admin's count. */
export type SubscriberCounts = CountOp['responses'][200]['content']['application/json'];

// Subscribing carries no token and never triggers a refresh.
const anonymous = { auth: false, retryOnUnauthorized: false } as const;

export const newsletterKeys = {
  all: ['blog', 'newsletter'] as const,
  availability: () => [...newsletterKeys.all, 'availability'] as const,
  counts: () => [...newsletterKeys.all, 'counts'] as const,
};

/** Whether the blog shows its subscribe box. */
export function useNewsletterAvailable() {
  return useQuery({
    queryKey: newsletterKeys.availability(),
    queryFn: ({ signal }) => api.get<NewsletterAvailability>('/api/newsletter', { ...anonymous, signal }),
    staleTime: 5 * 60_000,
  });
}

export function useSubscribe() {
  return useMutation({
    mutationFn: (body: SubscribeBody) => api.post<{ message: string }>('/api/newsletter/subscribe', body, anonymous),
  });
}

/** The subscriber counts, for an admin (enabled only for one). */
export function useSubscriberCounts(enabled: boolean) {
  return useQuery({
    queryKey: newsletterKeys.counts(),
    queryFn: ({ signal }) => api.get<SubscriberCounts>('/api/newsletter/subscribers', { signal }),
    enabled,
  });
}
