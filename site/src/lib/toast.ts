// Toasts through sonner: top right, dark, close button, default 3000 ms,
// default type info. Use `toast.*` anywhere, or `useToast()` inside <ToastProvider>.
// sonner is loaded on the first toast, so pages that never toast do not download it.
// Screen readers: the toaster's own container is a polite live region (aria-live="polite"); a live
// region only announces changes made after it is in the page, so a toast is handed to sonner only
// once the toaster is mounted (a frame later), and an error's text is role="alert" so it is read at
// once, interrupting.
import {
  createContext,
  createElement,
  lazy,
  Suspense,
  useContext,
  useEffect,
  useState,
  type ReactNode,
} from 'react';
import type { ExternalToast, ToasterProps } from 'sonner';

export type ToastType = 'success' | 'error' | 'info' | 'warning';
export const TOAST_DURATION_MS = 3000;
export const TOAST_DEFAULT_TYPE: ToastType = 'info';

export interface ToastOptions {
  id?: string | number;
  duration?: number;
  description?: ReactNode;
}

export const TOASTER_PROPS: ToasterProps = {
  position: 'top-right',
  duration: TOAST_DURATION_MS,
  closeButton: true,
  theme: 'dark',
  richColors: true,
};

let sonnerModule: Promise<typeof import('sonner')> | null = null;
function loadSonner() {
  sonnerModule ??= import('sonner');
  return sonnerModule;
}

// The provider mounts the Toaster on the first toast.
const wantListeners = new Set<() => void>();
let wanted = false;
function wantToaster() {
  if (wanted) return;
  wanted = true;
  wantListeners.forEach((l) => l());
}

// Resolved once a Toaster (and so its live region) is in the document.
let toasterMounted: () => void = () => {};
const toasterReady = new Promise<void>((resolve) => {
  toasterMounted = resolve;
});
const nextFrame = () =>
  new Promise<void>((resolve) =>
    typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => resolve()) : setTimeout(resolve, 0),
  );

let seq = 0;

/** Shows a toast and returns its id (usable with toast.dismiss). */
export function showToast(
  message: ReactNode,
  type: ToastType = TOAST_DEFAULT_TYPE,
  o: ToastOptions = {},
): string | number {
  const id = o.id ?? `toast-${++seq}`;
  const options: ExternalToast = { duration: TOAST_DURATION_MS, ...o, id };
  wantToaster();
  const text = type === 'error' ? createElement('span', { role: 'alert' }, message) : message;
  Promise.all([loadSonner(), toasterReady.then(nextFrame)]).then(
    ([m]) => m.toast[type](text, options),
    (err: unknown) => console.warn('[toast] could not load the toast library', err),
  );
  return id;
}

export const toast = {
  show: showToast,
  success: (message: ReactNode, o?: ToastOptions) => showToast(message, 'success', o),
  error: (message: ReactNode, o?: ToastOptions) => showToast(message, 'error', o),
  info: (message: ReactNode, o?: ToastOptions) => showToast(message, 'info', o),
  warning: (message: ReactNode, o?: ToastOptions) => showToast(message, 'warning', o),
  dismiss: (id?: string | number) => {
    if (sonnerModule) void sonnerModule.then((m) => m.toast.dismiss(id));
  },
};

export type ToastApi = typeof toast;

const ToastContext = createContext<ToastApi | null>(null);

const LazyToaster = lazy(() =>
  loadSonner().then((m) => ({
    default: function Toaster() {
      useEffect(() => toasterMounted(), []);
      return createElement(m.Toaster, TOASTER_PROPS);
    },
  })),
);

export function ToastProvider({ children }: { children?: ReactNode }) {
  const [show, setShow] = useState(wanted);
  useEffect(() => {
    const on = () => setShow(true);
    wantListeners.add(on);
    if (wanted) on();
    return () => {
      wantListeners.delete(on);
    };
  }, []);
  return createElement(
    ToastContext.Provider,
    { value: toast },
    children,
    show ? createElement(Suspense, { fallback: null }, createElement(LazyToaster)) : null,
  );
}

export function useToast(): ToastApi {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error('useToast must be used within a ToastProvider');
  return ctx;
}
