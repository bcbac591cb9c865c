import { useEffect } from 'react';

export const SITE_NAME = 'DevHub';

/** Sets document.title to "<title> · DevHub" while the page is shown. */
export function usePageTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title && title !== SITE_NAME ? `${title} · ${SITE_NAME}` : SITE_NAME;
  }, [title]);
}
