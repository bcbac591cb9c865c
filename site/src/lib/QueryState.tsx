import type { ReactNode } from 'react';

/** What QueryState reads of a TanStack Query result (useQuery's answer fits). */
export interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
}

interface Props<T> {
  query: QueryLike<T>;
  /** Shown while nothing has arrived yet (role=status). */
  loading: ReactNode;
  /**
   * Shown instead of the loading line when given: a placeholder of the final size (a Skeleton,
   * which carries its own status), so the answer does not push the page about.
   */
  placeholder?: ReactNode;
  /** Shown when the read failed and there is nothing to show (role=alert); a function gets the error. */
  error: ReactNode | ((error: unknown) => ReactNode);
  /** Shown instead of children when isEmpty says the answer has nothing (role=status). */
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  /** The class of the status line, so each page keeps its look. */
  className?: string;
  /** The class of the error line when it looks unlike the others (a form's error text); className otherwise. */
  errorClassName?: string;
  children: (data: T) => ReactNode;
}

/**
 * The one pattern for a server read's states: loading, then either the error, the empty
 * message or the data. Data already shown (a previous page kept as placeholder, or a cached
 * answer being refreshed) stays on screen — a refetch never blanks the page.
 */
export function QueryState<T>({
  query,
  loading,
  placeholder,
  error,
  empty,
  isEmpty,
  className,
  errorClassName = className,
  children,
}: Props<T>) {
  if (query.data === undefined) {
    if (query.isError) {
      return (
        <p role="alert" className={errorClassName}>
          {typeof error === 'function' ? error(query.error) : error}
        </p>
      );
    }
    if (placeholder !== undefined) return <>{placeholder}</>;
    return (
      <p role="status" className={className}>
        {loading}
      </p>
    );
  }
  if (empty !== undefined && isEmpty?.(query.data)) {
    return (
      <p role="status" className={className}>
        {empty}
      </p>
    );
  }
  return <>{children(query.data)}</>;
}
