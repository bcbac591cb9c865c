import { useEffect, useState } from 'react';
import { loadOnce } from '../../lib/loadOnce';
import type { SidebarProps } from './SidebarPanel';

export type { SidebarProps } from './SidebarPanel';

type PanelModule = typeof import('./SidebarPanel');
type Panel = PanelModule['default'];

/** The drawer once its chunk is in: a later opening renders it at once. */
let loadedPanel: Panel | null = null;

/**
 * Starts loading the drawer's chunk (once; a failed load may be tried again). The menu button
 * calls it when a press on it is coming (pointer over it, focus, touch), so the drawer is there
 * by the click.
 */
export const preloadSidebar: () => Promise<PanelModule> = loadOnce(() =>
  import('./SidebarPanel').then((m) => {
    loadedPanel = m.default;
    return m;
  }),
);

/**
 * The side menu (drawer) shown at ≤ 1024 px (SidebarPanel.tsx). It is in a chunk of its own: no
 * page shows it at first, and a page that never opens it does not download it (its focus trap
 * and outside-press handling included). It opens over the page (position: fixed, portalled to
 * <body>), so the moment its chunk takes to arrive moves nothing.
 *
 * Not React.lazy: a lazy component keeps a failed load's error and throws it at every render, and
 * with no error boundary around the header one lost chunk (a phone off the network, a release
 * that replaced it) would take the whole page down. Here a failed load closes the menu again, and
 * the next press tries once more.
 */
export function Sidebar({ open, onClose, ...props }: SidebarProps) {
  const [Panel, setPanel] = useState<Panel | null>(() => loadedPanel);
  useEffect(() => {
    if (!open || Panel) return;
    let current = true;
    preloadSidebar().then(
      (m) => current && setPanel(() => m.default),
      (err: unknown) => {
        console.warn('[shell] The menu could not be loaded.', err);
        if (current) onClose();
      },
    );
    return () => {
      current = false;
    };
  }, [open, Panel, onClose]);
  if (!open || !Panel) return null;
  return <Panel onClose={onClose} {...props} />;
}
