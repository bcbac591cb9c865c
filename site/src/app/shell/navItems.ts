// The shell's links: one list, used by the header (desktop) and the sidebar (≤ 1024 px).

export interface NavItem {
  to: string;
  /** Translation key of the label. */
  labelKey: string;
}

/**
 * The Tools menu of the header and the drawer: the overview of development tools, the browser
 * self-tests, and the skills page (the portfolio's pages beside the home page's cards).
 */
export const TOOL_ITEMS: readonly NavItem[] = [
  { to: '/tools', labelKey: 'devTools' },
  { to: '/tools/camera', labelKey: 'toolsItems.camera' },
  { to: '/tools/microphone', labelKey: 'toolsItems.microphone' },
  { to: '/tools/ip', labelKey: 'toolsItems.ip' },
  { to: '/tools/tone_generator', labelKey: 'toolsItems.toneGenerator' },
  { to: '/skills', labelKey: 'skills' },
];

/** Whether pathname is a page of the Tools menu (its button shows as the current section). */
export const isToolsPath = (pathname: string) => TOOL_ITEMS.some((i) => pathname === i.to || pathname.startsWith(`${i.to}/`));

/** Header links after the Tools dropdown. */
export const MAIN_ITEMS: readonly NavItem[] = [
  { to: '/chat', labelKey: 'chat' },
  { to: '/games', labelKey: 'games' },
  { to: '/blog', labelKey: 'blog' },
  { to: '/filecloud', labelKey: 'files' },
  { to: '/profile', labelKey: 'profile' },
];

/** The profile page reads ?section= to open one of its views. */
export const ADMIN_PATH = '/profile?section=admin';

/** Side-menu account items: personal cabinet, messages, friends, chat, admin (admins only). */
export const SIDE_MENU_ITEMS: ReadonlyArray<NavItem & { adminOnly?: boolean }> = [
  { to: '/profile', labelKey: 'sideMenu.cabinet' },
  { to: '/profile?section=messages', labelKey: 'sideMenu.messages' },
  { to: '/profile?section=friends', labelKey: 'sideMenu.friends' },
  { to: '/chat', labelKey: 'sideMenu.chat' },
  { to: ADMIN_PATH, labelKey: 'sideMenu.admin', adminOnly: true },
];

/** The shell breakpoint: at this width or less the links move into the sidebar. */
export const SHELL_BREAKPOINT_PX = 1024;
