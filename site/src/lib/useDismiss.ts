import { useEffect, type RefObject } from 'react';

/**
 * Calls onDismiss on a pointer press outside every given element, and on Escape,
 * while `open` is true. Used by the sidebar, the tools dropdown and the language selector.
 */
export function useDismiss(
  open: boolean,
  refs: ReadonlyArray<RefObject<HTMLElement | null>>,
  onDismiss: () => void,
): void {
  useEffect(() => {
    if (!open) return;
    const inside = (target: EventTarget | null) =>
      target instanceof Node && refs.some((r) => r.current?.contains(target));
    const onPointer = (e: Event) => {
      if (!inside(e.target)) onDismiss();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onDismiss();
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('touchstart', onPointer, { passive: true });
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('touchstart', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, refs, onDismiss]);
}
