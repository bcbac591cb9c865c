import type { CSSProperties, ReactNode } from 'react';
import './ui.css';

interface SkeletonProps {
  /** What is loading, for screen readers (the shapes are decoration). */
  label: string;
  className?: string;
  /** The grey shapes: SkeletonBox elements laid out like the content they stand for. */
  children?: ReactNode;
}

/**
 * A placeholder of the final content's size while a page's data is on its way (no
 * layout shift). It takes the place of the content, so nothing already on screen moves when the
 * data arrives: the content replaces the placeholder instead of pushing what was below it. A
 * placeholder at least as tall as the screen also keeps everything after it below the fold.
 */
export function Skeleton({ label, className, children }: SkeletonProps) {
  return (
    <div className={['skeleton', className].filter(Boolean).join(' ')} role="status" aria-live="polite">
      <span className="visually-hidden">{label}</span>
      <div className="skeleton__shapes" aria-hidden="true">
        {children}
      </div>
    </div>
  );
}

/** One grey shape of a skeleton, sized by its class or style. */
export function SkeletonBox({ className, style }: { className?: string; style?: CSSProperties }) {
  return <div className={['skeleton__box', className].filter(Boolean).join(' ')} style={style} />;
}
