import type { HTMLAttributes } from 'react';

/**
 * HTML the server rendered from visitors' Markdown (comments, forum posts): sanitised there — no
 * raw HTML, no images, only safe links marked rel="nofollow ugc noopener" — so it is inserted as
 * it came. Nothing else may be passed here.
 */
export function ServerHtml({ html, ...props }: { html: string } & HTMLAttributes<HTMLDivElement>) {
  return <div {...props} dangerouslySetInnerHTML={{ __html: html }} />;
}
