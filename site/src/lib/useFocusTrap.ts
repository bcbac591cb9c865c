import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), iframe, audio[controls], video[controls], [tabindex]:not([tabindex="-1"])';

/** The focusable elements inside el, in tab order of the document (hidden ones left out). */
export function focusableIn(el: HTMLElement): HTMLElement[] {
  return [...el.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((x) => !x.closest('[hidden], [inert]'));
}

/** Live regions (the toaster's among them): they stay outside inert so their messages are still read. */
const LIVE = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [data-live-region]';

/**
 * Makes everything outside `el` inert — so neither Tab, nor a pointer, nor a screen reader's
 * virtual cursor reaches the page behind a dialog or the drawer — except the live regions
 * (toasts stay announced while a dialog is open). Walks down from <body>: a child on the way to
 * `el` or to a live region is entered, every other child is made inert. Elements already inert
 * are left alone. Content the page renders while the trap is open (a list that finishes loading
 * behind the drawer, replacing its loading status) is made inert as it arrives. Returns the undo.
 */
export function makeOthersInert(el: HTMLElement): () => void {
  const changed: HTMLElement[] = [];
  const apply = () => {
    const keep = new Set<Element>();
    for (const target of [el, ...document.querySelectorAll(LIVE)]) {
      if (target !== el && el.contains(target)) continue;
      for (let n: Element | null = target; n && n !== document.body; n = n.parentElement) keep.add(n);
    }
    const stops = new Set<Element>([el, ...[...document.querySelectorAll(LIVE)].filter((x) => keep.has(x))]);
    const walk = (parent: Element) => {
      for (const child of parent.children) {
        if (keep.has(child)) {
          if (!stops.has(child)) walk(child);
          continue;
        }
        if (!(child instanceof HTMLElement) || child.inert || child.hasAttribute('inert')) continue;
        if (child.tagName === 'SCRIPT' || child.tagName === 'STYLE') continue;
        child.setAttribute('inert', '');
        changed.push(child);
      }
    };
    walk(document.body);
  };
  apply();
  const observer = new MutationObserver(apply);
  observer.observe(document.body, { childList: true, subtree: true });
  return () => {
    observer.disconnect();
    changed.forEach((x) => x.removeAttribute('inert'));
  };
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
