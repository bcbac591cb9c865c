import { lazy, Suspense } from 'react';
import type { SidebarProps } from './SidebarPanel';

export type { SidebarProps } from './SidebarPanel';

let panel: Promise<typeof import('./SidebarPanel')> | null = null;

/**
 * Starts loading the drawer's chunk (once; a failed load may be tried again). The menu button
 * calls it when a press on it is coming (pointer over it, focus, touch), so the drawer is there
 * by the click.
 */
export function preloadSidebar(): Promise<typeof import('./SidebarPanel')> {
  panel ??= import('./SidebarPanel').catch((err: unknown) => {
    panel = null;
    throw err;
  });
  return panel;
}

const SidebarPanel = lazy(preloadSidebar);

/**
 * The side menu (drawer) shown at ≤ 1024 px (SidebarPanel.tsx). It is in a chunk of its own: no
 * page shows it at first, and a page that never opens it does not download it (its focus trap
 * and outside-press handling included). It opens over the page (position: fixed, portalled to
 * <body>), so the moment its chunk takes to arrive moves nothing.
 */
export function Sidebar({ open, ...props }: SidebarProps) {
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <SidebarPanel {...props} />
    </Suspense>
  );
}
