import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), iframe, audio[controls], video[controls], [tabindex]:not([tabindex="-1"])';

/** The focusable elements inside el, in tab order of the document (hidden ones left out). */
export function focusableIn(el: HTMLElement): HTMLElement[] {
  return [...el.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((x) => !x.closest('[hidden], [inert]'));
}

/**
 * Makes everything outside `el` inert — each sibling of el and of each of its ancestors up to
 * <body> — so neither Tab, nor a pointer, nor a screen reader's virtual cursor reaches the page
 * behind a dialog or the drawer. Elements that are already inert are left alone, and live regions
 * ([aria-live], role=status/alert: the toasts' announcer) stay outside so messages are still read.
 * Returns the undo.
 */
export function makeOthersInert(el: HTMLElement): () => void {
  const changed: HTMLElement[] = [];
  for (let node: HTMLElement | null = el; node && node !== document.body; node = node.parentElement) {
    const parent: HTMLElement | null = node.parentElement;
    if (!parent) break;
    for (const sib of parent.children) {
      if (sib === node || !(sib instanceof HTMLElement) || sib.inert || sib.hasAttribute('inert')) continue;
      if (sib.tagName === 'SCRIPT' || sib.tagName === 'STYLE' || sib.matches('[data-live-region]')) continue;
      sib.setAttribute('inert', '');
      changed.push(sib);
    }
  }
  return () => changed.forEach((x) => x.removeAttribute('inert'));
}

export interface FocusTrapOptions {
  /** Called on Escape (the caller closes). */
  onEscape?: () => void;
  /** Where the focus goes when the trap ends; by default the element focused before it began. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

/**
 * The focus rules every modal surface of the site shares (the Modal dialog and the mobile drawer):
 * while `active`, the focus moves into `ref` — to the element marked data-autofocus, else the first
 * form field (a form is opened to be filled in), else the first focusable element, else the
 * container itself — Tab and Shift+Tab cycle inside it, Escape calls onEscape, the rest of the page
 * is inert, and on the end the focus returns where it came from.
 */
export function useFocusTrap(ref: RefObject<HTMLElement | null>, active: boolean, options: FocusTrapOptions = {}): void {
  // The latest options, so the listener is set up once per activation and never sees stale ones.
  const opts = useRef(options);
  opts.current = options;

  useEffect(() => {
    const el = ref.current;
    if (!active || !el) return;
    const before = document.activeElement as HTMLElement | null;
    const undoInert = makeOthersInert(el);
    const first =
      el.querySelector<HTMLElement>('[data-autofocus]') ??
      el.querySelector<HTMLElement>('input:not([disabled]), textarea:not([disabled]), select:not([disabled])') ??
      focusableIn(el)[0];
    if (first) first.focus();
    else {
      if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
      el.focus();
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        if (!opts.current.onEscape) return;
        e.stopPropagation();
        opts.current.onEscape();
        return;
      }
      if (e.key !== 'Tab') return;
      const items = focusableIn(el);
      if (items.length === 0) {
        e.preventDefault();
        return;
      }
      const head = items[0];
      const tail = items[items.length - 1];
      const inside = el.contains(document.activeElement);
      if (e.shiftKey && (document.activeElement === head || !inside)) {
        e.preventDefault();
        tail.focus();
      } else if (!e.shiftKey && (document.activeElement === tail || !inside)) {
        e.preventDefault();
        head.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      undoInert();
      const back = opts.current.returnFocusTo?.current ?? before;
      back?.focus?.();
    };
  }, [active, ref]);
}
