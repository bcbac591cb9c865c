import { useEffect } from 'react';

/** Where the server answers the Atom feed of the newest articles. */
export const FEED_URL = '/feed.xml';

/**
 * Announces the blog's Atom feed in the document head (<link rel="alternate">) while a blog
 * page is shown, so feed readers and browsers find it.
 */
export function useFeedLink(title: string): void {
  useEffect(() => {
    const link = document.createElement('link');
    link.rel = 'alternate';
    link.type = 'application/atom+xml';
    link.href = FEED_URL;
    link.title = title;
    document.head.appendChild(link);
    return () => link.remove();
  }, [title]);
}
