import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState, type QueryLike } from '../../../lib/QueryState';
import { ACCOUNT_NS } from './i18n';

const noItems = (d: unknown) => Array.isArray(d) && d.length === 0;

/**
 * QueryState as the account screens show a list (users, sessions, passkeys, invitations, the audit
 * log): "Loading the list…", a failure in the forms' error style (the list's own text, or one for
 * all), and the list's empty text when an array comes back empty (isEmpty for other shapes).
 */
export function ListState<T>({
  query,
  empty,
  isEmpty = noItems,
  error,
  children,
}: {
  query: QueryLike<T>;
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  error?: ReactNode | ((error: unknown) => ReactNode);
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation(ACCOUNT_NS);
  const { t: tc } = useTranslation();
  return (
    <QueryState
      query={query}
      loading={tc('auth.admin.loading')}
      error={error ?? t('loadFailed')}
      errorClassName="auth-form__error"
      empty={empty}
      isEmpty={isEmpty}
    >
      {children}
    </QueryState>
  );
}
