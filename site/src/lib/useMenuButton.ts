import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
} from 'react';

/**
 * The WAI-ARIA menu-button pattern (https://www.w3.org/WAI/ARIA/apg/patterns/menu-button/) for the
 * header's Tools dropdown and language menu. The menu is rendered only while open and holds
 * elements with role menuitem / menuitemradio (tabindex -1: one Tab stop for the whole menu).
 *
 * - The button: aria-haspopup="menu", aria-expanded, aria-controls (only while the menu exists, so
 *   it never points at a missing id). Click, Enter or Space open the menu on its first item,
 *   Arrow Down on the first, Arrow Up on the last.
 * - In the menu: Arrow Down/Up move (wrapping), Home/End jump to the ends, a letter jumps to the
 *   next item starting with it; Escape closes and puts the focus back on the button (before, it
 *   dropped to <body>); Tab closes and lets the focus go on its way.
 * - A press outside closes it without taking the focus anywhere.
 */
export function useMenuButton() {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const menuId = useId();
  const buttonId = useId();
  // Which item takes the focus once the menu is in the DOM.
  const focusOnOpen = useRef<'first' | 'last' | null>(null);

  const items = () => [...(menuRef.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? [])];

  useLayoutEffect(() => {
    if (!open || !focusOnOpen.current) return;
    const list = items();
    (focusOnOpen.current === 'last' ? list[list.length - 1] : list[0])?.focus();
    focusOnOpen.current = null;
  }, [open]);

  /** Closes the menu; with returnFocus the focus goes back to the button (Escape, choosing an item). */
  const close = useCallback((returnFocus = false) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  const openAt = useCallback((where: 'first' | 'last') => {
    focusOnOpen.current = where;
    setOpen(true);
  }, []);

  // A press outside closes the menu.
  useEffect(() => {
    if (!open) return;
    const onPointer = (e: Event) => {
      if (!(e.target instanceof Node) || !rootRef.current?.contains(e.target)) setOpen(false);
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('touchstart', onPointer, { passive: true });
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('touchstart', onPointer);
    };
  }, [open]);

  const onButtonKeyDown = (e: ReactKeyboardEvent<HTMLButtonElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (open) {
        const list = items();
        (e.key === 'ArrowUp' ? list[list.length - 1] : list[0])?.focus();
      } else openAt(e.key === 'ArrowUp' ? 'last' : 'first');
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      close(true);
    }
  };

  const onMenuKeyDown = (e: ReactKeyboardEvent<HTMLElement>) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const move = (i: number) => {
      e.preventDefault();
      list[(i + list.length) % list.length]?.focus();
    };
    switch (e.key) {
      case 'ArrowDown':
        return move(at + 1);
      case 'ArrowUp':
        return move(at < 0 ? -1 : at - 1);
      case 'Home':
      case 'PageUp':
        return move(0);
      case 'End':
      case 'PageDown':
        return move(-1);
      case 'Escape':
        e.preventDefault();
        e.stopPropagation();
        return close(true);
      case 'Tab':
        // Shift+Tab lands on the button (just before the menu); Tab goes on from the button to
        // whatever follows the closed menu.
        if (e.shiftKey) e.preventDefault();
        return close(true);
      default:
        if (e.key.length === 1 && /\S/.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
          const key = e.key.toLocaleLowerCase();
          for (let step = 1; step <= list.length; step++) {
            const i = (at + step) % list.length;
            if (list[i].textContent?.trim().toLocaleLowerCase().startsWith(key)) return move(i);
          }
        }
    }
  };

  return {
    open,
    close,
    rootRef,
    buttonProps: {
      ref: buttonRef,
      id: buttonId,
      'aria-haspopup': 'menu' as const,
      'aria-expanded': open,
      'aria-controls': open ? menuId : undefined,
      onClick: () => (open ? close() : openAt('first')),
      onKeyDown: onButtonKeyDown,
    },
    menuProps: {
      ref: menuRef,
      id: menuId,
      role: 'menu',
      onKeyDown: onMenuKeyDown,
    },
  };
}
