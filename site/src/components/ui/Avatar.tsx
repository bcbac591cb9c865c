import './avatar.css';

interface AvatarProps {
  /** The account's name: the fallback shows its first letter. */
  name: string;
  /** The account's avatar URL; without one (or when it fails to load) the initial is shown. */
  url?: string | null;
  /** The side in CSS pixels; the image has it as its width and height, so nothing moves when it loads. */
  size?: number;
}

/**
 * An account's avatar beside what it wrote (comments, forum posts, chat and direct messages): its
 * picture, lazily loaded at a fixed size, or its initial in a circle of the same size. Decorative:
 * the name is always written beside it.
 */
export function Avatar({ name, url, size = 32 }: AvatarProps) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.45) };
  if (url) {
    return (
      <img className="avatar" src={url} alt="" width={size} height={size} loading="lazy" decoding="async" style={style} />
    );
  }
  const initial = Array.from(name.trim())[0]?.toUpperCase() ?? '?';
  return (
    <span className="avatar avatar--initial" aria-hidden="true" data-testid="avatar-initial" style={style}>
      {initial}
    </span>
  );
}
