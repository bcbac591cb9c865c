import { useState } from 'react';
import placeholder from '../assets/placeholder.svg';
import { articleImageSrc } from '../image';

interface Props {
  value: string | null | undefined;
  className?: string;
  /** Alternative text for a real image; the placeholder is decorative. */
  alt?: string;
}

/**
 * An article's image by the spec's display rule, or the placeholder. Always an <img src>:
 * SVG markup arrives as a data: URL, never as HTML. A picture that fails to load falls back
 * to the placeholder too.
 */
export function ArticleImage({ value, className, alt = '' }: Props) {
  const src = articleImageSrc(value);
  const [failed, setFailed] = useState<string | null>(null);
  const usePlaceholder = !src || failed === src;
  return (
    <img
      className={className}
      src={usePlaceholder ? placeholder : src}
      alt={usePlaceholder ? '' : alt}
      data-placeholder={usePlaceholder ? 'true' : undefined}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(src)}
    />
  );
}
