import { useEffect } from 'react';
import { useSiteBrand } from './profile';

/** The site's name before the profile says otherwise (index.html's title, the loading header). */
export const SITE_NAME = 'DevHub';

/** Sets document.title to "<title> · <site name>" while the page is shown (the site's name alone
 *  for no title); the name is the profile's, so an admin's rename shows at once. */
export function usePageTitle(title: string | null | undefined): void {
  const { name } = useSiteBrand();
  useEffect(() => {
    document.title = title && title !== name ? `${title} · ${name}` : name;
  }, [title, name]);
}
